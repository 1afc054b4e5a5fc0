"""CrowdNav's robot-navigation task as a Gymnasium environment, one scene or B scenes at once."""

from __future__ import annotations

import numpy as np

from .._checks import integer
from ._crowd import (
    AGENT_FEATURES,
    COLLISION,
    NOTHING,
    OUTCOMES,
    ROBOT_FEATURES,
    SUCCESS,
    TIMEOUT,
    CrowdConfig,
    CrowdCore,
    EpisodeTally,
)
from ._gymnasium import gymnasium

_OUTCOME_NAMES = np.array(OUTCOMES, dtype=object)


def _spaces(config: CrowdConfig):
    low, high = config.action_bounds()
    action = gymnasium.spaces.Box(low.astype(np.float32), high.astype(np.float32), dtype=np.float32)
    size = len(ROBOT_FEATURES) + len(AGENT_FEATURES) * config.humans
    observation = gymnasium.spaces.Box(-np.inf, np.inf, (size,), dtype=np.float32)
    return observation, action


def _actions(value, shape: tuple[int, ...], name: str) -> np.ndarray:
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected numbers of shape {shape}, got {type(value).__name__}") from None
    if array.shape != shape:
        raise ValueError(f"{name}: expected shape {shape}, got {array.shape}")
    return array


class CrowdNavigation(gymnasium.Env):
    """A robot crossing a crowd to its goal, as in CrowdNav (Chen et al. 2019), on vosim's engine.

    The robot starts at ``(0, -circle_radius)`` and must reach
    ``(0, circle_radius)``; humans are driven by any vosim method (ORCA, as
    CrowdNav, by default) and may share the space with obstacles.

    - **Action**: ``(vx, vy)`` (holonomic) or ``(v, rotation)`` (unicycle),
      see :class:`vosim.envs.CrowdConfig`.
    - **Observation**: float32 ``(9 + 5 n,)``: the robot's ``px, py, vx, vy,
      radius, gx, gy, v_pref, theta``, then ``px, py, vx, vy, radius`` of
      each human.
    - **Reward**: +1 on reaching the goal (within the robot's radius), -0.25
      on a collision (with a human, at the closest approach during the step,
      or with an obstacle), ``(d - 0.2) * 0.5 * time_step`` when the closest
      human came within ``d < 0.2`` m, else 0.
    - **Episode end**: terminated on success or collision, truncated at the
      time limit (25 s).
    - **info**: ``outcome`` (``"success"``, ``"collision"``, ``"timeout"``,
      ``"discomfort"`` or ``"nothing"``), ``min_distance`` (closest gap to a
      human during the step, m), ``time``; when an episode ends also
      ``is_success``, ``navigation_time`` (s, NaN unless success) and
      ``discomfort_frequency`` (share of its steps in discomfort).
      :meth:`statistics` gives the success rate, collision rate, navigation
      time and discomfort frequency over the episodes so far.

    Parameters
    ----------
    render_mode
        None (no rendering).
    **settings
        The fields of :class:`vosim.envs.CrowdConfig` (``humans=5``,
        ``scenario="circle_crossing"``, ``kinematics="holonomic"``,
        ``method=vosim.ORCA()``, ``obstacles=[]``, ...).
    """

    metadata = {"render_modes": []}

    def __init__(self, render_mode=None, **settings):
        if render_mode is not None:
            raise ValueError(f"render_mode is {render_mode!r}; this environment does not render (use None)")
        self.config = CrowdConfig(**settings)
        self._core = CrowdCore(self.config, scenes=1, robots=1)
        self.observation_space, self.action_space = _spaces(self.config)
        self._tally = EpisodeTally(self.config.time_step)

    @property
    def batch(self):
        """The engine's :class:`vosim.Batch` (one scene; slot 0 the robot, then the humans)."""
        return self._core.batch

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self._core.reset(np.arange(1), self.np_random)
        return self._core.observe()[0, 0], {"time": 0.0}

    def step(self, action):
        action = _actions(action, (2,), "action")
        reward, outcome, gap = self._core.step(action[None, None])
        code = int(outcome[0, 0])
        info = {"outcome": OUTCOMES[code], "min_distance": float(gap[0, 0]), "time": float(self._core.time[0])}
        terminated = code in (SUCCESS, COLLISION)
        truncated = code == TIMEOUT
        if terminated or truncated:
            zero = np.zeros(1, dtype=np.int64)
            summary = self._core.episode_summary(zero, zero, outcome[0])
            self._tally.add(outcome[0], self._core.steps[0], self._core.discomfort_steps[0])
            info.update(is_success=code == SUCCESS, **{k: float(v[0]) for k, v in summary.items()})
        return self._core.observe()[0, 0], float(reward[0, 0]), terminated, truncated, info

    def statistics(self) -> dict:
        """CrowdNav's measures over the episodes finished so far (see :class:`vosim.envs.EpisodeTally`)."""
        return self._tally.as_dict()


class CrowdNavigationVector(gymnasium.vector.VectorEnv):
    """``num_envs`` copies of :class:`CrowdNavigation` stepped by one Batch step in C++.

    The scenes are independent episodes; one ``step()`` advances them all
    with one call into the engine and NumPy arithmetic, without a Python
    loop over environments. Episodes that end are reset at the next step
    (Gymnasium's ``NEXT_STEP`` autoreset: that step returns the first
    observation of the new episode with reward 0, and ignores its action).
    ``info`` holds the single environment's keys as arrays (with ``_key``
    masks for those present only where an episode ended).

    Parameters
    ----------
    num_envs
        Number of environments B.
    **settings
        As for :class:`CrowdNavigation`.
    """

    metadata = {"render_modes": [], "autoreset_mode": gymnasium.vector.AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 16, render_mode=None, **settings):
        if render_mode is not None:
            raise ValueError(f"render_mode is {render_mode!r}; this environment does not render (use None)")
        self.num_envs = integer(num_envs, "num_envs", minimum=1, maximum=2**31 - 1)
        self.config = CrowdConfig(**settings)
        self._core = CrowdCore(self.config, scenes=self.num_envs, robots=1)
        self.single_observation_space, self.single_action_space = _spaces(self.config)
        self.observation_space = gymnasium.vector.utils.batch_space(self.single_observation_space, self.num_envs)
        self.action_space = gymnasium.vector.utils.batch_space(self.single_action_space, self.num_envs)
        self._tally = EpisodeTally(self.config.time_step)
        self._restart = np.zeros(self.num_envs, dtype=bool)

    @property
    def batch(self):
        """The engine's :class:`vosim.Batch` (scene b is environment b)."""
        return self._core.batch

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self._core.reset(np.arange(self.num_envs), self.np_random)
        self._restart[:] = False
        return self._core.observe()[:, 0], {"time": np.zeros(self.num_envs)}

    def step(self, actions):
        actions = _actions(actions, (self.num_envs, 2), "actions")
        reward, outcome, gap = self._core.step(actions[:, None])
        reward, outcome, gap = reward[:, 0], outcome[:, 0], gap[:, 0]
        restart = np.flatnonzero(self._restart)
        if len(restart):
            self._core.reset(restart, self.np_random)
            reward[restart], outcome[restart], gap[restart] = 0.0, NOTHING, np.inf
        terminated = (outcome == SUCCESS) | (outcome == COLLISION)
        truncated = outcome == TIMEOUT
        ended = terminated | truncated
        info = {"outcome": _OUTCOME_NAMES[outcome], "min_distance": gap, "time": self._core.time.copy()}
        if ended.any():
            scenes = np.flatnonzero(ended)
            robots = np.zeros_like(scenes)
            self._tally.add(outcome[scenes], self._core.steps[scenes, 0], self._core.discomfort_steps[scenes, 0])
            measures = {"is_success": outcome[scenes] == SUCCESS,
                        **self._core.episode_summary(scenes, robots, outcome[scenes])}
            for key, values in measures.items():
                full = np.zeros(self.num_envs, dtype=values.dtype)
                full[scenes] = values
                info[key], info[f"_{key}"] = full, ended.copy()
        self._restart = ended
        return self._core.observe()[:, 0], reward, terminated, truncated, info

    def statistics(self) -> dict:
        """CrowdNav's measures over the episodes finished so far, in all environments."""
        return self._tally.as_dict()
