"""The result of a run: recorded frames as NumPy arrays."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np


@dataclass(repr=False)
class Trajectory:
    """Frames recorded by ``run()``.

    Arrays have a leading frame axis ``T``; results of a Batch also have a
    scene axis ``B`` after it.

    Attributes
    ----------
    positions, velocities
        ``(T, N, 2)`` or ``(T, B, N, 2)`` (``(..., 3)`` in 3D): state after ``steps[t]`` steps.
    headings
        ``(T, N)`` or ``(T, B, N)``: each agent's heading (radians, in
        ``(-pi, pi]``) in that state; None for trajectories saved before
        headings were recorded.
    kinematics
        ``(N,)`` or ``(B, N)``: each agent's kinematic model by name
        (``"holonomic"``, ``"differential_drive"``, ``"unicycle"``) at the
        end of the run; None for trajectories saved before it was recorded.
    times
        ``(T,)`` simulated time of each frame.
    steps
        ``(T,)`` the simulator's step count at each frame.
    ids, radius, goals, has_goal, active, arrival_radius
        Per-agent values at the end of the run (``(N,)``/``(B, N)``, goals
        ``(..., N, 2)``). ``active`` and ``arrival_radius`` may be None (all
        agents active; arrival within ``radius``).
    time_step
        Seconds per step.
    steps_run
        Steps taken by this run.
    all_arrived
        Whether every goal-seeking agent arrived during the run: was within
        its arrival radius of its final goal after some step (see Arrival in
        :mod:`vosim.metrics`), even if pushed off it later.
    wall_time
        Seconds the run took.
    step_time
        Seconds of ``wall_time`` spent inside the engine's steps; the rest
        went to checking the arguments, recording frames, progress reports
        and Python (NaN for trajectories loaded from files).
    method
        The method's configuration (``Method.to_dict()``).
    obstacles
        The obstacles at the end of the run (``Obstacle`` tuples).
    metrics
        What the engine measured while running (collisions, clearance,
        arrivals, path lengths, smoothness, stalls, fallbacks, time per
        phase): see :mod:`vosim.metrics` for every definition.
    periodic
        The periodic axis of the run (a named tuple: axis, low, high),
        or None. Positions are recorded wrapped into ``[low, high)``; see
        :meth:`unwrapped_positions`.
    """

    positions: np.ndarray
    velocities: np.ndarray
    times: np.ndarray
    steps: np.ndarray
    ids: np.ndarray
    radius: np.ndarray
    goals: np.ndarray
    has_goal: np.ndarray
    time_step: float
    steps_run: int
    all_arrived: bool
    wall_time: float
    method: dict = field(default_factory=dict)
    obstacles: tuple = ()
    active: np.ndarray | None = None
    arrival_radius: np.ndarray | None = None
    metrics: dict = field(default_factory=dict)
    step_time: float = float("nan")
    headings: np.ndarray | None = None
    kinematics: np.ndarray | None = None
    periodic: tuple | None = None

    def __post_init__(self):
        from ._periodic import periodic_from

        self.periodic = periodic_from(self.periodic)

    def __len__(self) -> int:
        return len(self.times)

    def __repr__(self) -> str:
        from ._summary import one_line

        return one_line(self)

    def summary(self) -> str:
        """The run in a few lines: steps, time, arrivals, collisions, minimum clearance,
        stalls and fallbacks, with a warning when goal-seeking agents did not arrive.

        Print it: ``print(traj.summary())``.
        """
        from ._summary import summary

        return summary(self)

    def metrics_table(self):
        """The per-scene metrics as a pandas DataFrame, one row per scene."""
        from .metrics import table

        return table(self.metrics, self.is_batch)

    @property
    def is_batch(self) -> bool:
        """Whether the frames have a scene axis."""
        return self.positions.ndim == 4

    def min_clearance_per_frame(self) -> np.ndarray:
        """Smallest ``distance - r_i - r_j`` over all pairs of active agents, per frame (and scene).

        The run's single smallest value, over every step and not only the
        recorded frames, is ``metrics["min_clearance"]``.

        Negative values are overlaps. Shape ``(T,)`` or ``(T, B)``; ``inf``
        where a scene has fewer than two active agents. With a periodic axis
        (``periodic``), each pair is measured at its nearest image, so agents
        touching across the seam count.

        Raises
        ------
        ValueError
            When a position or radius of an active agent is not finite.
        """
        from . import _core
        from ._checks import check_values

        taking_part = np.ones(np.shape(self.radius), bool) if self.active is None else np.asarray(self.active, bool)
        check_values(np.where(taking_part, self.radius, 0.0), "radius")
        check_values(np.where(taking_part[..., None], self.positions, 0.0), "positions")
        positions = self.positions if self.is_batch else self.positions[:, None]
        radius = self.radius if self.is_batch else self.radius[None]
        active = None
        if self.active is not None:
            active = np.ascontiguousarray(self.active if self.is_batch else self.active[None], dtype=np.uint8)
        periodic = None if self.periodic is None else (self.periodic.index, self.periodic.low, self.periodic.high)
        result = _core.min_clearance(np.ascontiguousarray(positions, dtype=np.float64),
                                     np.ascontiguousarray(radius, dtype=np.float64), active, periodic)
        return result if self.is_batch else result[:, 0]

    def unwrapped_positions(self) -> np.ndarray:
        """The positions without the jumps of a periodic axis, shaped like ``positions``.

        Along the periodic axis, each frame's displacement is taken at the
        image nearest to the displacement the recorded velocities tell (the
        velocity at the later frame times the interval; none after an agent
        left) and summed from the first frame, so agents walk on past
        ``high`` instead of jumping back to ``low``, however many periods
        they cover between recorded frames (``record_every``). Exact when
        every step is recorded. Without a periodic axis: ``positions`` itself.

        Raises
        ------
        ValueError
            Where the velocities cannot tell how often an agent went round
            (the nearest image is more than a quarter period from their
            displacement; the velocity changed much between frames far
            apart), naming the frames and the agent: record more often.
        """
        from ._periodic import recorded_motion, unwrap

        return unwrap(self.positions, self.periodic, recorded_motion(self))

    def took_part(self) -> np.ndarray:
        """Whether each agent took part in the run, bool ``(N,)`` or ``(B, N)``.

        An agent takes part when it is active at the run's end or left during
        the run, through a sink or at its goal (``exit_step`` in the metrics,
        see :mod:`vosim.metrics`); agents switched off before the run do not.
        """
        if self.active is None:
            return np.ones(np.shape(self.radius), bool)
        took = np.array(self.active, dtype=bool)
        left = self.metrics.get("exit_step") if isinstance(self.metrics, dict) else None
        if left is not None and np.shape(left) == took.shape:
            took |= np.asarray(left) >= 0
        return took

    def arrived_per_frame(self) -> np.ndarray:
        """Whether each goal-seeking agent that took part in the run (:meth:`took_part`) is within
        its arrival radius of its goal, per frame: bool ``(T, N)`` or ``(T, B, N)``.

        Whether every one arrived at some step of the run is ``all_arrived``;
        the step each arrived at is ``metrics["arrival_step"]``.
        """
        reach = self.radius if self.arrival_radius is None else self.arrival_radius
        seeking = self.has_goal & self.took_part()
        distance = np.linalg.norm(self.positions - self.goals, axis=-1)
        with np.errstate(invalid="ignore", over="ignore"):
            return seeking & (distance <= reach)

    def min_obstacle_clearance_per_frame(self) -> np.ndarray:
        """Smallest agent-obstacle clearance per frame (and scene): distance to the nearest edge minus radius.

        Negative values are penetrations. Shape ``(T,)`` or ``(T, B)``;
        ``inf`` without obstacles.
        """
        from . import _core

        positions = self.positions if self.is_batch else self.positions[:, None]
        radius = self.radius if self.is_batch else self.radius[None]
        frames, scenes, n = positions.shape[:3]
        engine = _core.Engine(scenes, 1.0)
        for kind, vertices, scene in self.obstacles:
            engine.add_obstacle(np.ascontiguousarray(vertices), "segment" if kind == "segment" else kind,
                                -1 if scene is None else scene)
        result = np.full((frames, scenes), np.inf)
        if n and self.obstacles:  # (3D trajectories have none)
            for b in range(scenes):
                flat = np.ascontiguousarray(positions[:, b].reshape(-1, 2))
                clearance = engine.obstacle_distances(flat, b).reshape(frames, n) - radius[b]
                result[:, b] = clearance.min(axis=1)
        return result if self.is_batch else result[:, 0]

    # Old names of the per-frame series: a method named like a metric read as
    # the run's single value (``metrics["min_clearance"]``, ``all_arrived``).
    def min_clearance(self) -> np.ndarray:
        """Deprecated name of :meth:`min_clearance_per_frame` (a DeprecationWarning)."""
        _renamed("min_clearance", "min_clearance_per_frame",
                 'the run\'s single smallest value is metrics["min_clearance"]')
        return self.min_clearance_per_frame()

    def arrived(self) -> np.ndarray:
        """Deprecated name of :meth:`arrived_per_frame` (a DeprecationWarning)."""
        _renamed("arrived", "arrived_per_frame", "whether all arrived during the run is all_arrived")
        return self.arrived_per_frame()

    def min_obstacle_clearance(self) -> np.ndarray:
        """Deprecated name of :meth:`min_obstacle_clearance_per_frame` (a DeprecationWarning)."""
        _renamed("min_obstacle_clearance", "min_obstacle_clearance_per_frame",
                 'the run\'s deepest reach past an edge is metrics["max_obstacle_penetration"]')
        return self.min_obstacle_clearance_per_frame()

    # ------------------------------------------------------------- exports
    def subsample(self, every: int) -> "Trajectory":
        """A trajectory of every ``every``-th frame (the first and the last always kept).

        The per-frame metric series are thinned alike; everything else
        (per-run and per-agent metrics included) is unchanged.
        """
        from ._checks import integer
        from .metrics import SERIES

        every = integer(every, "every", minimum=1)
        count = len(self.times)
        every = min(every, max(count, 1))  # beyond the frames: the first and the last (and no huge range)
        keep = np.unique(np.r_[np.arange(0, count, every), count - 1]) if count else np.arange(0)
        metrics = {name: (np.asarray(value)[keep] if name in SERIES else value)
                   for name, value in (self.metrics or {}).items()}
        thinned = replace(self, positions=self.positions[keep], velocities=self.velocities[keep],
                          times=self.times[keep], steps=self.steps[keep], metrics=metrics,
                          headings=None if self.headings is None else self.headings[keep])
        if hasattr(self, "metadata"):
            thinned.metadata = self.metadata
        return thinned

    def save(self, path, *, scenario=None, compress: bool = True, every: int = 1):
        """Write this trajectory to a ``.npz`` file (``.npz`` is appended when it has no suffix).

        The file holds every array of the trajectory, its metrics, and JSON
        metadata (vosim version, method settings, time step, obstacles, and
        ``scenario`` when given). It is written to a temporary file in the
        same folder and renamed into place, so an error never leaves a
        half-written file behind. :func:`vosim.load` reads it back exactly.

        Parameters
        ----------
        path
            Where to write.
        scenario
            The :class:`vosim.scenarios.Scenario` that was run, stored so the
            experiment can be repeated.
        compress
            Deflate the arrays (smaller, several times slower to write for
            large crowds); False writes them as they are.
        every
            Keep every ``every``-th frame only (see :meth:`subsample`).

        Raises
        ------
        ValueError
            A path with a suffix other than ``.npz``.

        Returns
        -------
        pathlib.Path
            The path written.
        """
        from ._checks import boolean, integer
        from ._io import save

        compress = boolean(compress, "compress")
        every = integer(every, "every", minimum=1)
        traj = self if every == 1 else self.subsample(every)
        return save(traj, path, scenario=scenario, compress=compress)

    def to_html(self, path, *, scene: int = 0, every: int = 1, max_agents: int | None = None,
                color_by: str = "speed", title: str | None = None, geometry_of=None, places=None):
        """Write one self-contained HTML page that plays this run in any browser.

        The page holds everything (the viewer's script, the frames as
        float32 binary in base64, the obstacles) and fetches nothing. It
        plays, pauses, scrubs, changes playback speed, zooms and pans (3D
        runs orbit), colours agents by speed, arrival, local density or
        agent, shows a clicked agent's id, speed, goal and nearest
        neighbours, and follows it; it states its own size and the thinning
        chosen. Agents are drawn with WebGL (a 2D canvas where WebGL is
        missing). The file is written to a temporary file in the same folder
        and renamed into place. The same viewer in a notebook:
        :func:`vosim.view`.

        Size: about ``frames * agents * 4 * (dimensions + 0.25) * 4 / 3``
        bytes (float32 positions and a byte of speed per agent and frame,
        in base64), plus 40 kB; thin large runs with ``every`` and
        ``max_agents``.

        Parameters
        ----------
        path
            Where to write; must end in ``.html`` or ``.htm``.
        scene
            Which scene of a Batch trajectory.
        every
            Keep every ``every``-th frame (the first and last always kept).
        max_agents
            Keep at most this many agents (every k-th one); None: all.
        color_by
            The colouring the page opens with: ``"speed"``, ``"arrival"``,
            ``"density"`` or ``"agent"``.
        title
            The line above the picture; by default the method and agent count.
        geometry_of
            The Simulator or Batch that ran, for its sinks, speed zones and
            3D obstacle shapes (a trajectory records only 2D obstacles).
        places
            Named lines and polygons to draw and label, ``{name: (k, 2)
            points}``: two points make a line, more a polygon; for example a
            scenario's ``geometry`` (its door, room and measurement areas).
            Plane only.

        Returns
        -------
        pathlib.Path
            The path written.

        Raises
        ------
        ValueError
            A path without ``.html``/``.htm`` or in a missing folder, a
            trajectory without frames, or a bad ``every``, ``max_agents``,
            ``scene`` or ``color_by``.
        """
        from .view import check_page_path, write_page
        from .view import from_trajectory

        check_page_path(path)
        scene_data = from_trajectory(self, scene=scene, every=every, max_agents=max_agents, title=title,
                                     color_by=color_by, geometry_of=geometry_of, places=places)
        return write_page(scene_data, path)

    def to_dataframe(self, *, frames=None, ids=None):
        """A tidy pandas DataFrame, one row per (scene, frame, agent) (needs pandas).

        Columns ``scene, frame, time, id, x, y, vx, vy`` (and ``heading``,
        radians, when the trajectory has headings); ``frame`` is the
        step count, so ``id, frame, x, y`` are what PedPy reads. Slots of
        removed agents are left out.

        Parameters
        ----------
        frames
            Which recorded frames: a slice (``slice(None, None, 10)``) or
            frame indices; all by default.
        ids
            Only the agents with these ids; all by default.
        """
        from ._io import to_dataframe

        return to_dataframe(self, frames=frames, ids=ids)

    def to_pedpy(self, *, scene: int = 0):
        """One scene as a ``pedpy.TrajectoryData`` (needs ``pip install pedpy``); frame rate ``1 / time_step``."""
        from ._checks import integer
        from ._io import to_pedpy

        scenes = self.positions.shape[1] if self.is_batch else 1
        scene = integer(scene, "scene", minimum=0, maximum=scenes - 1)
        return to_pedpy(self, scene=scene)


def _renamed(old: str, new: str, hint: str) -> None:
    import warnings

    warnings.warn(f"Trajectory.{old}() is now Trajectory.{new}() (it returns one value per recorded frame; "
                  f"{hint}); the old name will be removed", DeprecationWarning, stacklevel=3)
