"""What Simulator and Batch share: one engine of B scenes behind NumPy views.

A Batch shows every per-agent field with a leading scene axis, ``(B, N, ...)``;
a Simulator is the same engine with B = 1, showing ``(N, ...)``.
"""

from __future__ import annotations

import os
import time as _time
import warnings
from textwrap import indent
from pathlib import Path
from typing import Callable, NamedTuple

import numpy as np

from . import _core
from ._checks import (
    INT32_MAX,
    MAX_AGENTS,
    MAX_MAGNITUDE,
    MIN_TIME,
    as_array,
    boolean,
    flags,
    ids_array,
    integer,
    real_array,
    scalar,
    shaped,
)
from ._checkpoint import payload as checkpoint_payload
from ._checkpoint import restore_into
from ._checkpoint import save_state as save_checkpoint
from ._obstacles import Obstacles
from ._parts import Part, install
from ._scene_parts import SCENE_PARTS
from ._progress import make_progress
from ._threads import take_worker_share
from ._inspection import empty_method_entries
from ._kinematics import default_headings, kinematics_codes, kinematics_names
from ._fields import (ADD_AGENTS_SIGNATURE, ADD_DEFAULTS, CONDITIONAL_DEFAULTS, FIELDS, VIEWS, bytes_per_agent,
                      derive_defaults, parameter_docs)
from .metrics import from_engine as metrics_from_engine
from ._overlap_warning import warn_of_deep_overlaps
from .methods import ORCA, Method, method_from_name
from .trajectory import Trajectory


_VIEW_NOTE = """

        A view of the engine's memory: writing into it changes the simulation
        (checked before the next step). Assigning to the attribute checks the
        values at once and writes them into every agent: a scalar (or one
        vector) for all, or one value per agent (a Batch also takes a
        leading scene axis)."""


def _field_property(name: str) -> property:
    field = FIELDS[name]
    doc = f"{field.doc} {field.dtype} {field.shape_text()}."

    def get(self) -> np.ndarray:
        return self._view(name)

    def set(self, value) -> None:
        self._set_field(name, value)

    if field.role == "read-only":
        return property(get, doc=doc + " Read-only.")
    return property(get, set, doc=doc + _VIEW_NOTE)


def _close_matches(word: str, possibilities, n: int = 3) -> list:
    """Names like ``word``, for "did you mean" (difflib is imported only when a name is wrong)."""
    import difflib

    return difflib.get_close_matches(word, possibilities, n=n)


# How often the engine hands control back during run() and long steps (for
# Ctrl-C and progress).
_TICK_SECONDS = 0.05

# Refuse recordings bigger than this with advice instead of a MemoryError.
_MAX_RECORDING_BYTES = 8 * 1024**3

def _physical_memory() -> int | None:
    """Bytes of memory of this machine, or None where the platform does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):
        return None

# Most steps one run() takes (far beyond any practical run; keeps step
# counters exact).
_MAX_STEPS = 2**62


class _RunPlan(NamedTuple):
    """What one run() does: its checked arguments and the navigation's pauser."""

    steps: int
    record_every: int
    until_arrived: bool
    metrics: bool
    pause_every: int
    replan: Callable | None
    replanned: Callable | None


class _Simulation:
    """Common implementation; use Simulator or Batch."""

    _scene_axis: bool

    def __init__(self, scenes: int, time_step: float, method: Method | str | None, dimensions: int = 2):
        scenes = integer(scenes, "scenes", minimum=1, maximum=INT32_MAX)
        time_step = scalar(time_step, "time_step", minimum=MIN_TIME, maximum=MAX_MAGNITUDE)
        dimensions = integer(dimensions, "dimensions", minimum=2, maximum=3)
        self._engine = _core.Engine(scenes, time_step, dimensions)
        self._method: Method = ORCA()
        self.method = ORCA() if method is None else method

    def _part(self, kind: type[Part]) -> Part:
        """This simulator's part of that kind (``_parts.py``), made on first use and kept."""
        parts = self.__dict__.get("_parts")
        if parts is None:  # (a state being restored makes a new engine and clears them)
            parts = {}
            object.__setattr__(self, "_parts", parts)
        if kind not in parts:  # a part over the engine, or over the simulator's public API (navigation)
            parts[kind] = kind(self._engine, self._scene_axis) if issubclass(kind, Part) else kind(self)
        return parts[kind]

    # ------------------------------------------ pickling and checkpoints (_checkpoint.py)
    def __getstate__(self) -> dict:
        if self._engine.busy:
            raise RuntimeError("the simulator is busy running in another thread; "
                               "pickle it after that call returns")
        return checkpoint_payload(self)

    def __setstate__(self, state: dict) -> None:
        restore_into(self, state)

    def save_state(self, path) -> Path:
        """Write everything the next step depends on to ``path``, atomically.

        Agents and all their fields, obstacles, waypoints, the method, the
        time and step count: :func:`vosim.load_state` gives back a simulator
        whose steps are bit-identical to this one's from here on (whatever
        the thread count). Pickling (``pickle.dumps(sim)``) carries the same.

        Parameters
        ----------
        path
            Where to write; ``.npz`` is appended when missing. The file is
            written under a temporary name in the same folder and renamed
            into place, so a crash never leaves a half-written file.

        Returns
        -------
        pathlib.Path
            The path written.
        """
        if self._engine.busy:
            raise RuntimeError("the simulator is busy running in another thread; save after that call returns")
        return save_checkpoint(self, path)

    # ----------------------------------------------------------------- views
    def _view(self, name: str) -> np.ndarray:
        array = self._engine.view(name)
        return array if self._scene_axis else array[0]

    # ------------------------------------- the engine, for the package's own modules
    def _snapshot(self) -> dict:
        """The engine's whole state as plain data (what a checkpoint carries)."""
        return self._engine.snapshot()

    def _edges_near(self, scene: int, x: float, y: float, reach: float) -> list:
        """The obstacle edges within ``reach`` of ``(x, y)`` in ``scene``, nearest first."""
        return self._engine.obstacle_neighbors(scene, x, y, reach)

    def _obstacle_table(self, scene: int) -> dict:
        """The engine's obstacle vertices (points, next, prev) of ``scene`` (-1: the shared ones)."""
        return self._engine.obstacle_table(scene)

    def _add_agent_fields(self, n: int, fields: dict) -> np.ndarray:
        """Add ``n`` agents per scene from one complete array per input field (no defaults filled)."""
        return self._engine.add_agents(n, fields, name_scenes=self._scene_axis)

    def _set_field(self, name: str, value) -> None:
        if self._engine.busy:
            raise RuntimeError(f"{name}: the simulator is busy running in another thread; "
                               "assign after that call returns")
        field = FIELDS[name]
        shapes, target = self._agent_shapes(self._engine.count, self.dimensions if field.is_vector else None)
        if name == "goals":
            goals, has_goal = self._goals(value, shapes, target)
            self._engine.view(name)[...] = goals
            self._engine.view("has_goal")[...] = has_goal
            return
        if field.dtype == "bool":
            array = flags(value, name, shapes, target)
        else:
            array = shaped(value, name, shapes, target, **field.checks)
        # A field every agent holds one value of, assigned one value, stays
        # one value (no memory per agent); otherwise through its view.
        if not self._engine.assign_one_value(name, array):
            view = self._engine.view(name)
            view[...] = array.astype(view.dtype)

    # One property per field of the engine's table (positions, radius, ...): see below the class.

    # ------------------------------------------------------------ properties
    @property
    def dimensions(self) -> int:
        """2 (agents in the plane) or 3 (in space): the width of every vector field."""
        return self._engine.dimensions

    @property
    def num_agents(self) -> int:
        """Agent slots per scene (N)."""
        return self._engine.count

    def __len__(self) -> int:
        return self._engine.count

    @property
    def time_step(self) -> float:
        """Seconds per step."""
        return self._engine.time_step

    @time_step.setter
    def time_step(self, value: float) -> None:
        self._engine.time_step = scalar(value, "time_step", minimum=MIN_TIME, maximum=MAX_MAGNITUDE)

    @property
    def time(self) -> float:
        """Simulated time so far."""
        return self._engine.time

    @property
    def step_count(self) -> int:
        """Steps taken so far."""
        return self._engine.step_count

    @property
    def method(self) -> Method:
        """The avoidance method; may be replaced between steps."""
        return self._method

    @method.setter
    def method(self, method: Method | str) -> None:
        if isinstance(method, str):
            try:
                method = method_from_name(method)  # "orca", "hrvo", ...: the method with its defaults
            except ValueError as error:
                raise ValueError(f"method: {error}") from None
        if not isinstance(method, Method):
            raise TypeError(
                f"method: expected a vosim method such as vosim.ORCA() or a name such as 'orca', "
                f"got {type(method).__name__}"
            )
        try:
            method._install(self._engine)
        except ValueError as error:
            raise ValueError(f"method: {error}") from None
        self._method = method

    def __setattr__(self, name: str, value) -> None:
        # Only the class's own attributes (fields, method, time_step, ...) and
        # private ones may be assigned: a typo such as ``sim.max_sped = 3``
        # would otherwise be accepted and change nothing.
        if name.startswith("_") or hasattr(type(self), name):
            object.__setattr__(self, name, value)
            return
        public = [attr for attr in dir(type(self)) if not attr.startswith("_")]
        close = _close_matches(name, public, n=3)
        hint = f"; did you mean {' or '.join(map(repr, close))}?" if close else ""
        raise AttributeError(f"{type(self).__name__} has no attribute {name!r} to assign{hint}")

    @property
    def arrived(self) -> np.ndarray:
        """Whether each active goal-seeking agent is at its final goal (no waypoints left)
        within its arrival radius, bool ``(..., N)``."""
        distance = np.linalg.norm(self.positions - self.goals, axis=-1)
        final = self._engine.waypoints_remaining() == 0  # (B, N) in both
        with np.errstate(invalid="ignore", over="ignore"):
            return self.active & self.has_goal & (distance <= self.arrival_radius) & (final if self._scene_axis
                                                                                       else final[0])

    # ---------------------------------------------------------------- agents
    def _agent_shapes(self, n: int, width: int | None) -> tuple[list[tuple[int, ...]], tuple[int, ...]]:
        """Accepted input shapes of a per-agent field and its full (B, n[, width]) shape.

        A scalar (or one vector) stands for every agent; a Batch also
        accepts a leading scene axis, with one value per agent or per scene.
        """
        scenes = self._engine.scenes
        tail = () if width is None else (width,)
        shapes = [tail, (n, *tail)]
        if self._scene_axis:
            # A column of one value per scene broadcasts over its agents, as in NumPy.
            shapes += [(scenes, n, *tail), (scenes, 1, *tail)]
        return shapes, (scenes, n, *tail)

    def _goals(self, value, shapes, target, broadcast_view=False) -> tuple[np.ndarray, np.ndarray]:
        """Goals broadcast to ``target`` and whether each agent has one (NaN rows: no goal)."""
        if value is None:
            if broadcast_view:
                return np.broadcast_to(np.full(target[-1], np.nan), target), np.zeros(target[:-1], dtype=bool)
            return np.full(target, np.nan), np.zeros(target[:-1], dtype=bool)
        goals = shaped(value, "goals", shapes, target, finite=False, magnitude=MAX_MAGNITUDE,
                       broadcast_view=broadcast_view)
        raw = real_array(value, "goals")
        missing = np.isnan(raw)
        half = missing.any(axis=-1) & ~missing.all(axis=-1) if raw.ndim else np.zeros((), bool)
        if half.any():
            at = tuple(int(i) for i in np.argwhere(half)[0])
            raise ValueError(
                f"goals[{', '.join(map(str, at))}] is {raw[at].tolist()!r}; give both coordinates, "
                "or NaN for both to mean 'no goal'"
            )
        return goals, ~np.isnan(goals).all(axis=-1)

    def _add_agents(self, positions, **fields) -> np.ndarray:
        scenes, dims = self._engine.scenes, self.dimensions
        array = real_array(positions, "positions")
        if array.ndim == 2 and self._scene_axis:
            array = np.broadcast_to(array, (scenes, *array.shape))  # the same agents in every scene
        if array.ndim != (3 if self._scene_axis else 2) or array.shape[-1] != dims or (
            self._scene_axis and array.shape[0] != scenes
        ):
            want = f"({scenes}, n, {dims}) or (n, {dims})" if self._scene_axis else f"(n, {dims})"
            hint = (f" (this simulator has dimensions={dims})" if array.ndim and array.shape[-1] in (2, 3)
                    and array.shape[-1] != dims else "")
            raise ValueError(f"positions: expected shape {want}, got {np.shape(positions)}{hint}")
        n = array.shape[-2]
        if n > MAX_AGENTS - self._engine.count:
            raise ValueError(f"positions: {n} more agents would exceed {MAX_AGENTS} per scene")
        engine_bytes, input_bytes = bytes_per_agent(dims)
        needed = scenes * ((self._engine.count + n) * engine_bytes + n * input_bytes)
        memory = _physical_memory()
        if memory is not None and needed > memory:
            raise ValueError(
                f"positions: {n} more agents in each of {scenes} scenes would need about "
                f"{needed / 1024**3:.1f} GiB, more than this machine's {memory / 1024**3:.1f} GiB"
            )
        vector_shapes, vector_target = self._agent_shapes(n, dims)
        scalar_shapes, scalar_target = self._agent_shapes(n, None)

        def vector(name, value):
            return shaped(value, name, vector_shapes, vector_target, broadcast_view=True,
                          **FIELDS[name].checks)

        # Inputs are broadcast views, not copies: the engine reads them where
        # they lie, so that one value for a million agents costs nothing.
        def per_agent(name, value):
            if FIELDS[name].dtype == "bool":
                return flags(value, name, scalar_shapes, scalar_target).astype(np.uint8)
            return shaped(value, name, scalar_shapes, scalar_target, broadcast_view=True,
                          **FIELDS[name].checks)

        positions = shaped(positions, "positions", [np.shape(positions)], vector_target, broadcast_view=True,
                           **FIELDS["positions"].checks)
        if fields["strict"]:
            self._part(Obstacles).refuse_new_agents(positions, lambda: shaped(
                ADD_DEFAULTS["radius"] if fields["radius"] is None else fields["radius"], "radius",
                scalar_shapes, scalar_target, **FIELDS["radius"].checks))
        velocities, pref_velocities = (
            vector(name, np.zeros(dims) if fields[name] is None else fields[name])
            for name in ("velocities", "pref_velocities")
        )
        plans = [(part, self._part(part).check_new_agents(fields, n, scalar_shapes, scalar_target))
                 for part in self._scene_parts]
        goals, has_goal = self._goals(fields["goals"], vector_shapes, vector_target, broadcast_view=True)
        fields["kinematics"] = kinematics_codes("holonomic" if fields["kinematics"] is None else fields["kinematics"])
        values = {name: per_agent(name, default if fields[name] is None else fields[name])
                  for name, default in ADD_DEFAULTS.items() if not FIELDS[name].is_vector}
        derive_defaults(values, lambda name: None if fields[name] is None else per_agent(name, fields[name]))
        headings = (np.broadcast_to(default_headings(positions, velocities, goals), scalar_target)
                    if fields["headings"] is None else per_agent("headings", fields["headings"]))

        values.update(positions=positions, velocities=velocities, pref_velocities=pref_velocities,
                      goals=goals, has_goal=has_goal.astype(np.uint8), headings=headings)
        values = {name: value.astype(np.dtype(FIELDS[name].dtype)) if FIELDS[name].dtype.startswith("int")
                  else value for name, value in values.items()}
        ids = self._engine.add_agents(n, values, name_scenes=self._scene_axis)  # drives checked there
        for part, plan in plans:
            if plan is not None:
                self._part(part).agents_added(ids.reshape(-1), plan, values)
        return ids if self._scene_axis else ids[0]

    def remove_agents(self, ids) -> None:
        """Remove agents by id. Unknown or repeated ids raise ValueError and remove nothing.

        Re-read the views afterwards: slots after a removed agent move down.
        A Batch takes ids of any shape, such as the ``(B, n)`` that its
        ``add_agents`` returns or a slice of ``batch.ids`` (read in row order).
        """
        if self._scene_axis:
            ids = np.ravel(as_array(ids, "ids"))
        self._engine.remove_agents(ids_array(ids))

    # ------------------------------------------------------------- stepping
    def step(self) -> None:
        """Advance one time step (the GIL is released while it runs).

        After ``set_exits``, a step chooses exits again when :meth:`run`
        would at that step (every ``reevaluate`` seconds, and where an exit
        opens or closes), so that ``n`` steps give the same bits as
        ``run(n)``.

        Raises
        ------
        ValueError
            When a value written into a view is out of range (naming the
            agent id and the field); nothing is advanced.
        RuntimeError
            When another thread is stepping, running or changing this
            simulator.
        KeyboardInterrupt
            On Ctrl-C during a step long enough to be checked (a huge
            crowd); nothing is advanced (only the preferred velocities of
            goal-seeking agents, which every step derives from the goals
            first, may already be refreshed).
        """
        take_worker_share()
        # One step is a run of one step to the routes' schedule: it re-routes before the step where one is due.
        pauser = self._route_pauser(None)
        self._engine.step(_TICK_SECONDS)
        if pauser is not None:
            pauser[2](1)  # the period runs on by the step taken (a refused step takes none)

    def _route_pauser(self, replan_stalled):
        """How a run pauses to re-route agents, ``(every, due, finish)``, or None: nobody here. A simulator that
        routes (the Simulator's ``Navigation`` part: exits, planned paths) says when and how."""
        if replan_stalled is not None:
            raise TypeError("replan_stalled: only a Simulator re-plans (a Batch has no planner)")
        return None

    def _navigation_state(self) -> dict | None:
        """What navigation keeps for checkpoints, or None (a Batch keeps none)."""
        return None

    def _restore_navigation(self, state) -> None:
        raise ValueError("a Batch has no navigation to restore")

    def run(
        self,
        steps: int,
        *,
        record_every: int = 1,
        until_arrived: bool = False,
        progress: bool | Callable[[int, int], None] = False,
        metrics: bool = True,
        replan_stalled: float | None = None,
    ) -> Trajectory:
        """Advance up to ``steps`` steps inside the engine, recording as it goes.

        Parameters
        ----------
        steps
            Number of steps to take (the most, with ``until_arrived``).
        record_every
            Record positions and velocities every this many steps. The start
            and the final state are always recorded.
        until_arrived
            Stop after the first step at which every goal-seeking agent is
            within its arrival radius (agents that left the simulation,
            through a sink or at their goal, no longer count).
        progress
            ``True`` shows a progress bar (tqdm when installed), a string one
            labelled with it; a callable is called as
            ``progress(steps_done, steps)`` a few times a second. A run that
            stops early keeps its total, so the bar shows how far it got.
        metrics
            Measure collisions, arrivals, paths, smoothness, stalls and time
            per phase while running (``Trajectory.metrics``, see
            :mod:`vosim.metrics`); False skips it (about 10 % faster).
        replan_stalled
            Simulator only: every this many seconds (of simulated time),
            plan again, from where they are, the agents that have moved
            less than the stall speed of :mod:`vosim.metrics` over that time
            without reaching their final goal, with the planner last given
            to ``set_goals(plan=...)``. None (the default) never re-plans.
            The run stays one run: one trajectory, one set of metrics. The
            period carries across consecutive runs with the same period,
            planner and agents, so that many short runs re-plan as one long
            one would. After ``set_exits(..., reevaluate=k)`` the run also
            chooses exits again and re-plans every k seconds (both, where
            both are asked for).

        Returns
        -------
        Trajectory
            The recorded frames.

        Raises
        ------
        KeyboardInterrupt
            On Ctrl-C, within about a tenth of a second (a step of a huge
            crowd is abandoned part-way, advancing nothing). The exception
            carries the partial trajectory as ``error.trajectory``, and the
            simulator holds the state after the last completed step.
        RuntimeWarning
            When ``until_arrived`` was given and some goal-seeking agents
            had still not arrived after ``steps`` steps.
        ValueError
            Bad arguments, or a value in the views out of range (naming the
            agent id and field). Before the first step nothing is run; a bad
            value written during the run (by ``progress`` or another thread)
            stops it before the next step, with ``error.trajectory``.
        RuntimeError
            When another thread is stepping, running or changing this
            simulator; any exception raised by ``progress`` also stops the
            run and carries ``error.trajectory``.
        """
        take_worker_share()
        plan = self._run_plan(steps, record_every, until_arrived, metrics, replan_stalled)
        reporter = make_progress(progress, plan.steps)
        if plan.until_arrived and not np.any(self.has_goal & self.active):
            raise ValueError("until_arrived=True needs at least one active agent with a goal")
        recording = self._recording(plan.steps, plan.record_every)
        outcome, wall_time = self._run_in_engine(plan, recording, reporter)
        trajectory = self._trajectory_of(outcome, recording, wall_time)
        if outcome["error"] is not None:
            outcome["error"].trajectory = trajectory
            raise outcome["error"]
        self._warn_after_run(trajectory, plan.until_arrived)
        return trajectory

    # run()'s steps, in order.
    def _run_plan(self, steps, record_every, until_arrived, metrics, replan_stalled) -> "_RunPlan":
        """run()'s arguments checked, with the route pauser of the navigation in place."""
        steps = integer(steps, "steps", minimum=0, maximum=_MAX_STEPS)
        record_every = integer(record_every, "record_every", minimum=1, maximum=_MAX_STEPS)
        until_arrived = boolean(until_arrived, "until_arrived")
        metrics = boolean(metrics, "metrics")
        pause_every, replan, replanned = self._route_pauser(replan_stalled) or (0, None, None)
        return _RunPlan(steps, record_every, until_arrived, metrics, pause_every, replan, replanned)

    def _recording(self, steps: int, record_every: int) -> dict:
        """The arrays run() records into, refused when they would not fit in memory."""
        frames = _core.frames_for(steps, record_every)
        scenes, count, dims = self._engine.scenes, self._engine.count, self.dimensions
        # positions, velocities and headings, then times and step numbers
        nbytes = frames * (scenes * count * (dims * 2 + 1) * 8 + 16)
        if nbytes > _MAX_RECORDING_BYTES:
            raise ValueError(
                f"recording {frames} frames of {scenes * count} agents would take {nbytes / 1024**3:.1f} GiB; "
                f"record less often (record_every=...) or run in shorter pieces"
            )
        return {"positions": np.empty((frames, scenes, count, dims)),
                "velocities": np.empty((frames, scenes, count, dims)),
                "headings": np.empty((frames, scenes, count)),
                "times": np.empty(frames),
                "steps": np.empty(frames, dtype=np.int64)}

    def _run_in_engine(self, plan: "_RunPlan", recording: dict, reporter) -> tuple[dict, float]:
        """The steps, in C++ with the GIL released; the engine's outcome and the wall time."""
        callback = None if reporter is None else reporter.update
        started = _time.perf_counter()
        try:
            outcome = self._engine.run(
                plan.steps, plan.record_every, plan.until_arrived, plan.metrics, recording["positions"],
                recording["velocities"], recording["times"], recording["steps"], _TICK_SECONDS, callback,
                plan.pause_every, plan.replan, recording["headings"],
            )
        finally:
            wall_time = _time.perf_counter() - started
        if plan.replanned is not None:
            plan.replanned(outcome["steps_done"])
        if reporter is not None:
            reporter.close(outcome["steps_done"], failed=outcome["error"] is not None,
                           note="all arrived" if plan.until_arrived and outcome["all_arrived"] else "")
        return outcome, wall_time

    def _trajectory_of(self, outcome: dict, recording: dict, wall_time: float) -> Trajectory:
        """The frames recorded (as many as the run made), the agents as they are now, and the metrics."""
        used = outcome["frames"]

        def frames(name):
            return recording[name][:used] if self._scene_axis else recording[name][:used, 0]

        return Trajectory(
            positions=frames("positions"),
            velocities=frames("velocities"),
            headings=frames("headings"),
            times=recording["times"][:used],
            steps=recording["steps"][:used],
            ids=np.array(self.ids),
            radius=np.array(self.radius),
            goals=np.array(self.goals),
            has_goal=np.array(self.has_goal),
            active=np.array(self.active),
            arrival_radius=np.array(self.arrival_radius),
            kinematics=np.array(self.kinematics, dtype=str),
            time_step=self.time_step,
            steps_run=int(outcome["steps_done"]),
            all_arrived=bool(outcome["all_arrived"]),
            wall_time=wall_time,
            step_time=float(outcome["step_seconds"]),
            method=self._method.to_dict(),
            obstacles=self.obstacles,
            periodic=self.periodic,
            metrics=metrics_from_engine(outcome["metrics"], recording["steps"][:used], self._engine.scenes,
                                        self._scene_axis),
        )

    def _warn_after_run(self, trajectory: Trajectory, until_arrived: bool) -> None:
        """Deep overlaps under a method without a guarantee (once per simulator); an until_arrived run that fell short."""
        if not getattr(self, "_overlap_warned", False):
            self._overlap_warned = warn_of_deep_overlaps(trajectory.method, trajectory.metrics, trajectory.radius,
                                                         trajectory.active)
        if until_arrived and not trajectory.all_arrived:
            seeking = self.has_goal & self.active
            steps = trajectory.metrics.get("arrival_step")
            arrived = self.arrived if steps is None else np.asarray(steps) >= 0  # (without metrics: at the end)
            away = int(np.sum(seeking & ~arrived))
            stalled = int(np.sum(trajectory.metrics.get("stalled_agents", 0)))
            hint = ("A deadlock? Try the method's deadlock='sidestep' option." if stalled else
                    "None stalled: more steps may do.")
            warnings.warn(
                f"run(until_arrived=True) ended after {trajectory.steps_run} steps with {away} of "
                f"{int(np.sum(seeking))} goal-seeking agents that did not arrive ({stalled} stalled); see "
                f"traj.summary(). {hint}", RuntimeWarning, stacklevel=3)

    def inspect(self, agent_id: int) -> dict:
        """What the active method sees and decides for one agent at the next step.

        Computed on demand from the current state (normal steps never pay for
        it). Returns a dict of NumPy arrays and numbers:

        - ``method``, ``id``, ``scene``; ``position``, ``velocity``,
          ``pref_velocity`` (as the next step will use it), ``new_velocity``
          (what the agent will do), ``target_velocity`` (what it steers
          towards: AVO reaches it gradually, other methods at once, so it
          equals ``new_velocity``), ``radius``, ``max_speed``;
        - ``kinematics``, ``heading``; for a non-holonomic agent also
          ``effective_center`` (``position``, ``velocity``, ``radius``: what
          the method sees of it), ``method_velocity`` (the method's choice
          for that point) and ``new_angular_velocity``, ``new_velocity``
          being the robot's velocity after the step;
        - ``neighbors``: ids of the agent neighbours, nearest first;
          ``obstacle_edges``: ``(k, 2, 2)`` edges facing the agent in range;
        - ``lines`` (ORCA, AVO): ``point``, ``direction`` ``(L, 2)`` and
          ``obstacle`` ``(L,)`` of the half-planes in velocity space
          (admissible on the left; ``obstacle`` marks the hard ones: for
          AVO the acceleration polygon and the obstacles, for
          ``AVO(variant="avo2")`` its two speed lines);
          ``used_fallback``: ORCA needed linear program 3, or geometric
          selection found nothing admissible;
        - ``cones`` (VO, RVO, HRVO): ``apex``, ``left_leg``, ``right_leg``,
          ``kind``, ``horizon``, ... of each velocity obstacle;
        - ``candidates`` ``(C, 2)``, ``penalties`` ``(C,)``, ``levels`` and
          ``chosen`` (sampling methods; geometric candidates have their
          distance to the preferred velocity as penalty);
        - ``forces`` (ForceBased): accelerations by kind.

        In 3D the vectors have 3 components, there are no obstacle edges,
        cones nor forces, and ORCA shows ``planes``: ``point``, ``normal``
        ``(P, 3)`` and ``obstacle`` ``(P,)`` of its half-spaces (admissible
        on the side the normal points to; ``obstacle`` marks the hard ones:
        the reachable polyhedron, when ``max_acceleration`` is finite, then
        the obstacles).
        """
        agent_id = integer(agent_id, "agent_id", minimum=0)
        try:
            scene, slot = self._engine.locate(agent_id)
        except ValueError:
            raise ValueError(f"agent_id: no agent with id {agent_id}") from None
        result = self._engine.inspect(scene, slot)
        for key, empty in empty_method_entries(self.dimensions).items():
            result.setdefault(key, empty)
        ids = self._engine.view("ids")[scene]
        result["neighbors"] = ids[result.pop("neighbor_slots")]
        result["id"] = agent_id
        result["scene"] = scene
        for key in ("position", "velocity", "pref_velocity", "new_velocity", "target_velocity", "method_velocity"):
            if key in result:
                result[key] = np.array(result[key])
        if "effective_center" in result:
            centre = result["effective_center"]
            centre.update(position=np.array(centre["position"]), velocity=np.array(centre["velocity"]))
        if "forces" in result:
            result["forces"] = {k: np.array(v) for k, v in result["forces"].items()}
        return result

    def neighbors(self) -> np.ndarray:
        """Agent neighbours the next step will use, as ids, ``(..., N, K)`` padded with -1.

        Nearest first: the ``max_neighbors`` nearest agents strictly closer
        than ``neighbor_dist``, ties broken by the lower slot.
        """
        slots = self._engine.neighbor_table()  # (B, N, K)
        ids = self._engine.view("ids")
        scenes, count, width = slots.shape
        if count == 0:
            return slots.astype(np.int64) if self._scene_axis else slots[0].astype(np.int64)
        found = np.take_along_axis(ids, np.maximum(slots, 0).reshape(scenes, count * width), axis=1)
        table = np.where(slots >= 0, found.reshape(slots.shape), -1)
        return table if self._scene_axis else table[0]


for _name in VIEWS:
    setattr(_Simulation, _name, _field_property(_name))

# Each scene feature's methods and properties (_scene_parts.py), delegating to its part.
install(_Simulation, SCENE_PARTS)


def _kinematics_get(self) -> np.ndarray:
    names = kinematics_names(self._view("kinematics"))
    names.flags.writeable = False  # a copy: writing into it would change nothing, so it refuses
    return names


def _kinematics_set(self, value) -> None:
    self._set_field("kinematics", kinematics_codes(value))


# The kinematic models by name (the engine stores small integers).
_Simulation.kinematics = property(_kinematics_get, _kinematics_set, doc=(
    FIELDS["kinematics"].doc + " str ``(..., N)`` of names: a read-only copy; assign to the attribute (a name for all, "
    "or one per agent) to change it."))


def add_agents_method(doc: str, vector_shape: str, scalar_shape: str):
    """``add_agents`` for Simulator or Batch: one implementation, its signature and
    parameter docs built from the field table; ``doc`` holds ``{parameters}``."""

    def add_agents(self, positions, **arguments):
        unknown = [name for name in arguments if name not in ADD_AGENTS_SIGNATURE.parameters]
        if unknown:  # a typo such as goal= for goals= is named with the close matches
            known = [name for name in ADD_AGENTS_SIGNATURE.parameters if name not in ("self", "positions")]
            close = _close_matches(unknown[0], known, n=3)
            hint = f"; did you mean {' or '.join(map(repr, close))}?" if close else ""
            raise TypeError(f"add_agents() got an unexpected keyword argument {unknown[0]!r}{hint}")
        bound = ADD_AGENTS_SIGNATURE.bind(self, positions, **arguments)  # TypeError for a missing or repeated one
        given = set(bound.arguments)
        bound.apply_defaults()
        values = dict(bound.arguments)
        for name, source in CONDITIONAL_DEFAULTS.items():
            if values[name] is None and source in given:
                values[name] = values[source]
        del values["self"], values["positions"]
        return self._add_agents(positions, **values)

    add_agents.__signature__ = ADD_AGENTS_SIGNATURE
    add_agents.__doc__ = doc.format(parameters=indent(parameter_docs(vector_shape, scalar_shape), " " * 8))
    return add_agents
