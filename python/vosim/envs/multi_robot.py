"""Several robots crossing a crowd: a PettingZoo ``ParallelEnv`` on the same engine as CrowdNavigation."""

from __future__ import annotations

import numpy as np

from .._checks import integer
from ._crowd import AGENT_FEATURES, COLLISION, OUTCOMES, ROBOT_FEATURES, SUCCESS, TIMEOUT, CrowdConfig, CrowdCore
from ._gymnasium import gymnasium

try:
    from pettingzoo import ParallelEnv
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError('MultiRobotCrowdNavigation needs pettingzoo: pip install "vosim[rl]"') from error


class MultiRobotCrowdNavigation(ParallelEnv):
    """``robots`` robots among humans, each with CrowdNav's task, reward and outcomes.

    The robots start evenly spread on the circle of ``circle_radius`` (the
    first at ``(0, -circle_radius)``, as CrowdNav's robot) and each must
    reach the opposite point. Agents are named ``robot_0``, ``robot_1``, ...;
    a robot leaves the episode (and the scene) when it reaches its goal or
    collides, with a human, an obstacle or another robot; all are truncated
    at the time limit.

    Each robot observes, as float32 ``(9 + 5 (n + robots - 1),)``: its own
    ``px, py, vx, vy, radius, gx, gy, v_pref, theta``, then
    ``px, py, vx, vy, radius`` of every human and of every other robot
    (those that left stay where they left). Actions, rewards and ``info`` are
    those of :class:`vosim.envs.CrowdNavigation`.

    Parameters
    ----------
    robots
        Number of robots.
    render_mode
        None (no rendering).
    **settings
        The fields of :class:`vosim.envs.CrowdConfig`.
    """

    metadata = {"name": "vosim_multi_robot_crowd_navigation_v0", "render_modes": []}

    def __init__(self, robots: int = 2, render_mode=None, **settings):
        if render_mode is not None:
            raise ValueError(f"render_mode is {render_mode!r}; this environment does not render (use None)")
        self.render_mode = None
        robots = integer(robots, "robots", minimum=1, maximum=10_000)
        self.config = CrowdConfig(**settings)
        self._core = CrowdCore(self.config, scenes=1, robots=robots)
        self.possible_agents = [f"robot_{i}" for i in range(robots)]
        self.agents: list[str] = []
        low, high = self.config.action_bounds()
        self._action_space = gymnasium.spaces.Box(low.astype(np.float32), high.astype(np.float32), dtype=np.float32)
        size = len(ROBOT_FEATURES) + len(AGENT_FEATURES) * (self.config.humans + robots - 1)
        self._observation_space = gymnasium.spaces.Box(-np.inf, np.inf, (size,), dtype=np.float32)
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str):
        return self._observation_space

    def action_space(self, agent: str):
        return self._action_space

    @property
    def batch(self):
        """The engine's :class:`vosim.Batch` (one scene; slots 0..robots-1 the robots, then the humans)."""
        return self._core.batch

    def _observations(self) -> dict:
        observed = self._core.observe()[0]
        return {agent: observed[i] for i, agent in enumerate(self.possible_agents) if agent in self.agents}

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._rng = np.random.default_rng(integer(seed, "seed", minimum=0))
        self._core.reset(np.arange(1), self._rng)
        self.agents = list(self.possible_agents)
        return self._observations(), {agent: {"time": 0.0} for agent in self.agents}

    def step(self, actions: dict):
        if not isinstance(actions, dict):
            raise TypeError(f"actions: expected a dict of robot name -> action, got {type(actions).__name__}")
        for name in actions:
            if name not in self.agents:
                live = ", ".join(self.agents) or "none"
                raise ValueError(f"actions: {name!r} is not a robot in the episode ({live})")
        joint = np.zeros((1, len(self.possible_agents), 2))
        for i, agent in enumerate(self.possible_agents):
            if agent in self.agents:
                if agent not in actions:
                    raise ValueError(f"actions: no action for {agent!r}")
                action = np.asarray(actions[agent], dtype=np.float64)
                if action.shape != (2,):
                    raise ValueError(f"actions[{agent!r}]: expected shape (2,), got {action.shape}")
                joint[0, i] = action
        live = list(self.agents)
        reward, outcome, gap = self._core.step(joint)
        observations = self._observations()
        rewards, terminations, truncations, infos = {}, {}, {}, {}
        time = float(self._core.time[0])
        for i, agent in enumerate(self.possible_agents):
            if agent not in live:
                continue
            code = int(outcome[0, i])
            rewards[agent] = float(reward[0, i])
            terminations[agent] = code in (SUCCESS, COLLISION)
            truncations[agent] = code == TIMEOUT
            infos[agent] = {"outcome": OUTCOMES[code], "min_distance": float(gap[0, i]), "time": time}
            if terminations[agent] or truncations[agent]:
                scene, robot = np.zeros(1, dtype=np.int64), np.array([i])
                summary = self._core.episode_summary(scene, robot, outcome[0, [i]])
                infos[agent].update(is_success=code == SUCCESS, **{k: float(v[0]) for k, v in summary.items()})
        self.agents = [a for a in live if not (terminations[a] or truncations[a])]
        return observations, rewards, terminations, truncations, infos

    def close(self):
        pass
