"""Robots among humans in B scenes at once, by CrowdNav's rules: the engine behind every environment.

Engine slots ``0..k-1`` of each scene are the robots, the next ``n`` the
humans. Humans are stepped by the avoidance method inside one Batch step;
robots move as their actions say (their slots have ``max_speed`` 0, so the
engine leaves them in place and we move them), and are seen by the humans
only when ``robot_visible`` (otherwise their slots are inactive).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._checks import boolean, integer, real_array, scalar
from ..batch import Batch
from ..methods import ORCA, Method, method_from_name
from ._layout import HumanGenerator, obstacle_edges, point_segment_distance, robot_layout, segment_segment_distance

SCENARIOS = ("circle_crossing", "square_crossing")
KINEMATICS = ("holonomic", "unicycle")

#: Outcomes of a step, as ``info["outcome"]`` names them.
OUTCOMES = ("nothing", "discomfort", "success", "collision", "timeout")
NOTHING, DISCOMFORT, SUCCESS, COLLISION, TIMEOUT = range(len(OUTCOMES))

# CrowdNav's ORCA for the humans: neighbour distance 10 m, 10 neighbours,
# time horizons 5 s, and 0.01 m added to every radius.
_HUMAN_ORCA = dict(neighbor_dist=10.0, max_neighbors=10, time_horizon=5.0, time_horizon_obst=5.0)
_ORCA_MARGIN = 0.01

#: Robot state in an observation, then ``(px, py, vx, vy, radius)`` per other agent.
ROBOT_FEATURES = ("px", "py", "vx", "vy", "radius", "gx", "gy", "v_pref", "theta")
AGENT_FEATURES = ("px", "py", "vx", "vy", "radius")


@dataclass
class CrowdConfig:
    """Settings of a crowd-navigation environment; the defaults are CrowdNav's ``env.config``.

    Parameters
    ----------
    humans
        Humans per scene.
    scenario
        ``"circle_crossing"`` or ``"square_crossing"`` (how humans start and where they go).
    kinematics
        ``"holonomic"``: an action is a velocity ``(vx, vy)``, shortened to
        ``robot_speed``. ``"unicycle"``: an action is ``(v, rotation)``, speed
        in ``[0, robot_speed]`` after turning by ``rotation`` radians (within
        ``±max_rotation``).
    method
        How the humans avoid each other (and visible robots): a method or its name
        (``"hrvo"``, ...); CrowdNav's ORCA by default.
    obstacles
        Polygons (counter-clockwise ``(m, 2)`` vertices; two vertices: a
        segment) the humans avoid and the robot must not touch.
    time_step, time_limit
        Seconds per step; seconds before an episode times out.
    circle_radius, square_width
        Sizes of the two scenarios, metres.
    human_radius, human_speed, robot_radius, robot_speed
        Radii (m) and preferred speeds (m/s).
    randomize_attributes
        Draw each human's speed from U(0.5, 1.5) and radius from U(0.3, 0.5).
    robot_visible
        Whether humans see (and avoid) the robots. CrowdNav's default: no.
    success_reward, collision_penalty, discomfort_dist, discomfort_penalty_factor
        The reward: ``success_reward`` on reaching the goal,
        ``collision_penalty`` on touching a human or an obstacle, and
        ``(d - discomfort_dist) * discomfort_penalty_factor * time_step``
        when the closest human came within ``d < discomfort_dist`` during the step.
    max_rotation
        Largest turn per step of a unicycle robot, radians.
    """

    humans: int = 5
    scenario: str = "circle_crossing"
    kinematics: str = "holonomic"
    method: Method = field(default_factory=ORCA)
    obstacles: list = field(default_factory=list)
    time_step: float = 0.25
    time_limit: float = 25.0
    circle_radius: float = 4.0
    square_width: float = 10.0
    human_radius: float = 0.3
    human_speed: float = 1.0
    robot_radius: float = 0.3
    robot_speed: float = 1.0
    randomize_attributes: bool = False
    robot_visible: bool = False
    success_reward: float = 1.0
    collision_penalty: float = -0.25
    discomfort_dist: float = 0.2
    discomfort_penalty_factor: float = 0.5
    max_rotation: float = np.pi / 4

    def __post_init__(self):
        self.humans = integer(self.humans, "humans", minimum=0, maximum=100_000)
        for name, choices in (("scenario", SCENARIOS), ("kinematics", KINEMATICS)):
            if getattr(self, name) not in choices:
                raise ValueError(f"{name} is {getattr(self, name)!r}; must be one of {', '.join(choices)}")
        if isinstance(self.method, str):
            try:
                self.method = method_from_name(self.method)  # "orca", "hrvo", ...: as Simulator takes them
            except ValueError as error:
                raise ValueError(f"method: {error}") from None
        if not isinstance(self.method, Method):
            raise TypeError(f"method: expected a vosim method such as vosim.ORCA() or a name such as 'orca', "
                            f"got {type(self.method).__name__}")
        polygons = []
        for k, vertices in enumerate(self.obstacles):
            array = real_array(vertices, f"obstacles[{k}]")
            if array.ndim != 2 or array.shape[1] != 2 or len(array) < 2:
                raise ValueError(f"obstacles[{k}]: expected shape (m, 2) with m >= 2, got {array.shape}")
            polygons.append(np.ascontiguousarray(array))
        self.obstacles = polygons
        for name in ("time_step", "time_limit", "circle_radius", "square_width", "robot_radius", "robot_speed",
                     "human_radius", "human_speed"):
            setattr(self, name, scalar(getattr(self, name), name, minimum=0.0, strict=True, maximum=1e6))
        for name in ("success_reward", "collision_penalty", "discomfort_penalty_factor"):
            setattr(self, name, scalar(getattr(self, name), name, minimum=-1e6, maximum=1e6))
        self.discomfort_dist = scalar(self.discomfort_dist, "discomfort_dist", minimum=0.0, maximum=1e6)
        self.max_rotation = scalar(self.max_rotation, "max_rotation", minimum=0.0, maximum=np.pi)
        self.randomize_attributes = boolean(self.randomize_attributes, "randomize_attributes")
        self.robot_visible = boolean(self.robot_visible, "robot_visible")

    def action_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Lowest and highest action of one robot."""
        if self.kinematics == "holonomic":
            return np.full(2, -self.robot_speed), np.full(2, self.robot_speed)
        return np.array([0.0, -self.max_rotation]), np.array([self.robot_speed, self.max_rotation])


class CrowdCore:
    """``scenes`` scenes of ``robots`` robots and ``config.humans`` humans, stepped together."""

    def __init__(self, config: CrowdConfig, scenes: int, robots: int):
        self.config = config
        self.scenes, self.robots, self.humans = scenes, robots, config.humans
        c = config
        self.robot_starts, self.robot_goals, self.robot_headings = robot_layout(robots, c.circle_radius)
        self.edges = obstacle_edges(c.obstacles)
        self._check_robots_clear()
        self.generate = HumanGenerator(c.scenario, circle_radius=c.circle_radius, square_width=c.square_width,
                                       discomfort_dist=c.discomfort_dist, polygons=c.obstacles)
        self.batch = Batch(scenes, time_step=c.time_step, method=c.method)
        for vertices in c.obstacles:
            self.batch.add_obstacle(vertices)
        slots = robots + self.humans
        self.batch.add_agents(np.zeros((slots, 2)), radius=c.human_radius + _ORCA_MARGIN, max_speed=c.human_speed,
                              strict=False, **_HUMAN_ORCA)
        self.batch.max_speed[:, :robots] = 0.0  # moved by their actions, not by the engine
        self.batch.radius[:, :robots] = c.robot_radius + _ORCA_MARGIN
        self.batch.has_goal[:, :robots] = False
        self.batch.has_goal[:, robots:] = True  # written into the goals view at every reset
        self.batch.active[:, :robots] = c.robot_visible
        self.human_radius = np.full((scenes, self.humans), c.human_radius)
        self.human_speed = np.full((scenes, self.humans), c.human_speed)
        self.heading = np.zeros((scenes, robots))
        self.time = np.zeros(scenes)
        self.done = np.zeros((scenes, robots), dtype=bool)  # robots whose episode ended
        self.steps = np.zeros((scenes, robots), dtype=np.int64)
        self.discomfort_steps = np.zeros((scenes, robots), dtype=np.int64)

    def _check_robots_clear(self) -> None:
        if not len(self.edges[0]):
            return
        for name, points in (("start", self.robot_starts), ("goal", self.robot_goals)):
            distance = point_segment_distance(points[:, None], *self.edges).min(axis=1)
            bad = distance < self.config.robot_radius
            if bad.any():
                i = int(np.argmax(bad))
                raise ValueError(f"obstacles: robot {i}'s {name} {points[i].tolist()} is {distance[i]:.3g} m from an "
                                 f"obstacle, closer than its radius {self.config.robot_radius}")

    # ------------------------------------------------------------------ reset
    def reset(self, scenes: np.ndarray, rng: np.random.Generator) -> None:
        """Start new episodes in the given scenes (an index array)."""
        c, k = self.config, self.robots
        count = len(scenes)
        if count == 0:
            return
        if c.randomize_attributes:
            speed = rng.uniform(0.5, 1.5, (count, self.humans))
            radius = rng.uniform(0.3, 0.5, (count, self.humans))
        else:
            speed = np.full((count, self.humans), c.human_speed)
            radius = np.full((count, self.humans), c.human_radius)
        starts, goals = self.generate(rng, self.robot_starts, self.robot_goals, c.robot_radius, radius, speed)
        b = self.batch
        b.positions[scenes, :k] = self.robot_starts
        b.positions[scenes, k:] = starts
        b.goals[scenes, k:] = goals
        b.velocities[scenes] = 0.0
        b.radius[scenes, k:] = radius + _ORCA_MARGIN
        b.max_speed[scenes, k:] = speed
        b.pref_speed[scenes, k:] = speed
        b.active[scenes, :k] = c.robot_visible
        self.human_radius[scenes] = radius
        self.human_speed[scenes] = speed
        self.heading[scenes] = self.robot_headings
        self.time[scenes] = 0.0
        self.done[scenes] = False
        self.steps[scenes] = 0
        self.discomfort_steps[scenes] = 0

    # ------------------------------------------------------------------- step
    def velocities_of(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Robot velocities ``(B, k, 2)`` and headings ``(B, k)`` the actions ask for."""
        c = self.config
        actions = np.asarray(actions, dtype=np.float64)
        if c.kinematics == "holonomic":
            with np.errstate(over="ignore"):  # an overflowing length is handled below
                speed = np.linalg.norm(actions, axis=-1)
            scale = np.where(speed > c.robot_speed, c.robot_speed / np.where(speed > 0, speed, 1.0), 1.0)
            velocity = actions * scale[..., None]
            huge = ~np.isfinite(speed)  # |action| overflows (finite components near 1e308): its direction at full speed
            if huge.any():
                unit = actions[huge] / np.max(np.abs(actions[huge]), axis=-1, keepdims=True)
                velocity[huge] = unit / np.linalg.norm(unit, axis=-1, keepdims=True) * c.robot_speed
            return velocity, self.heading
        heading = np.mod(self.heading + np.clip(actions[..., 1], -c.max_rotation, c.max_rotation), 2 * np.pi)
        speed = np.clip(actions[..., 0], 0.0, c.robot_speed)
        return speed[..., None] * np.stack([np.cos(heading), np.sin(heading)], axis=-1), heading

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Advance every scene one step; reward, outcome code and closest distance per robot ``(B, k)``.

        Robots already done stay where they are and get reward 0, outcome
        ``nothing``.
        """
        c, k, b = self.config, self.robots, self.batch
        if not np.isfinite(actions).all():
            at = tuple(int(i) for i in np.argwhere(~np.isfinite(actions))[0])
            raise ValueError(f"actions{list(at)} is {actions[at]}; must be finite")
        velocity, heading = self.velocities_of(actions)
        moving = ~self.done
        velocity = np.where(moving[..., None], velocity, 0.0)
        before = b.positions.copy()
        if c.robot_visible:
            b.velocities[:, :k] = velocity  # what the humans see of the robots during this step
        b.step()
        after = b.positions
        after[:, :k] = before[:, :k] + velocity * c.time_step
        b.velocities[:, :k] = velocity
        self.heading = np.where(moving, heading, self.heading)
        self.time += c.time_step

        # Closest approach during the step, from the relative motion of each pair (CrowdNav's rule).
        start = before[:, None, :, :] - before[:, :k, None, :]          # (B, k, slots, 2)
        end = after[:, None, :, :] - after[:, :k, None, :]
        gap = point_segment_distance(np.zeros(2), start, end)
        radii = np.concatenate([np.full((self.scenes, k), c.robot_radius), self.human_radius], axis=1)
        gap -= radii[:, None, :] + c.robot_radius
        human_gap = gap[:, :, k:].min(axis=2) if self.humans else np.full((self.scenes, k), np.inf)
        robot_gap = gap[:, :, :k].copy()
        robot_gap[:, np.arange(k), np.arange(k)] = np.inf
        robot_gap = np.where(self.done[:, None, :], np.inf, robot_gap).min(axis=2)
        collision = (human_gap < 0) | (robot_gap < 0)
        if len(self.edges[0]):
            swept = segment_segment_distance(before[:, :k, None, :], after[:, :k, None, :], *self.edges)
            collision |= swept.min(axis=2) < c.robot_radius
        success = np.linalg.norm(after[:, :k] - self.robot_goals, axis=-1) < c.robot_radius
        timeout = (self.time >= c.time_limit - 1e-9)[:, None]
        discomfort = human_gap < c.discomfort_dist

        outcome = np.select([collision, success, timeout, discomfort], [COLLISION, SUCCESS, TIMEOUT, DISCOMFORT],
                            NOTHING)
        reward = np.select(
            [collision, success, timeout, discomfort],
            [c.collision_penalty, c.success_reward, 0.0,
             (human_gap - c.discomfort_dist) * c.discomfort_penalty_factor * c.time_step], 0.0)
        outcome = np.where(moving, outcome, NOTHING)
        reward = np.where(moving, reward, 0.0)
        self.steps += moving
        self.discomfort_steps += moving & discomfort & ~collision
        ended = moving & (outcome >= SUCCESS)
        self.done |= ended
        if c.robot_visible:
            b.active[:, :k] &= ~self.done  # a robot that is done leaves the scene
        return reward, outcome, human_gap

    # ------------------------------------------------------------ observation
    def observe(self) -> np.ndarray:
        """Each robot's observation ``(B, k, 9 + 5 * (n + k - 1))``, float32.

        The robot's own ``px, py, vx, vy, radius, gx, gy, v_pref, theta``,
        then ``px, py, vx, vy, radius`` of every human and of every other robot.
        """
        c, k, b = self.config, self.robots, self.batch
        positions, velocities = b.positions, b.velocities
        own = np.concatenate([
            positions[:, :k], velocities[:, :k], np.full((self.scenes, k, 1), c.robot_radius),
            np.broadcast_to(self.robot_goals, (self.scenes, k, 2)), np.full((self.scenes, k, 1), c.robot_speed),
            self.heading[..., None]], axis=-1)
        radii = np.concatenate([np.full((self.scenes, k), c.robot_radius), self.human_radius], axis=1)
        agents = np.concatenate([positions, velocities, radii[..., None]], axis=-1)   # (B, slots, 5)
        others = [agents[:, k:]]
        observations = np.empty((self.scenes, k, len(ROBOT_FEATURES) + len(AGENT_FEATURES) * (self.humans + k - 1)),
                                dtype=np.float32)
        for i in range(k):  # the robots, a handful
            rest = others + [agents[:, [j for j in range(k) if j != i]]]
            observations[:, i] = np.concatenate([own[:, i]] + [r.reshape(self.scenes, -1) for r in rest], axis=-1)
        return observations

    def episode_summary(self, scenes, robots, outcome) -> dict:
        """CrowdNav's per-episode measures for robots whose episode just ended."""
        steps = self.steps[scenes, robots]
        return {
            "navigation_time": np.where(outcome == SUCCESS, steps * self.config.time_step, np.nan),
            "discomfort_frequency": self.discomfort_steps[scenes, robots] / np.maximum(steps, 1),
        }


class EpisodeTally:
    """CrowdNav's test measures over the episodes finished so far.

    Success, collision and timeout rates; navigation time (mean seconds of
    the successful episodes); discomfort frequency (share of all steps in
    which a human came closer than ``discomfort_dist``).
    """

    def __init__(self, time_step: float):
        self.time_step = time_step
        self.episodes = self.successes = self.collisions = self.timeouts = 0
        self.success_steps = self.steps = self.discomfort_steps = 0

    def add(self, outcome: np.ndarray, steps: np.ndarray, discomfort_steps: np.ndarray) -> None:
        success = outcome == SUCCESS
        self.episodes += int(outcome.size)
        self.successes += int(success.sum())
        self.collisions += int((outcome == COLLISION).sum())
        self.timeouts += int((outcome == TIMEOUT).sum())
        self.success_steps += int(steps[success].sum())
        self.steps += int(steps.sum())
        self.discomfort_steps += int(discomfort_steps.sum())

    def as_dict(self) -> dict:
        episodes = max(self.episodes, 1)
        return {
            "episodes": self.episodes,
            "success_rate": self.successes / episodes,
            "collision_rate": self.collisions / episodes,
            "timeout_rate": self.timeouts / episodes,
            "navigation_time": (self.success_steps * self.time_step / self.successes) if self.successes else np.nan,
            "discomfort_frequency": self.discomfort_steps / self.steps if self.steps else np.nan,
        }
