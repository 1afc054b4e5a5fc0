"""What Simulator and Batch share: one engine of B scenes behind NumPy views.

A Batch shows every per-agent field with a leading scene axis, ``(B, N, ...)``;
a Simulator is the same engine with B = 1, showing ``(N, ...)``.
"""

from __future__ import annotations

import time as _time
from typing import Callable

import numpy as np

from . import _core
from ._checks import ids_array, integer, real_array, scalar, shaped
from ._obstacles import _ObstacleMethods
from ._progress import make_progress
from .methods import ORCA, Method
from .trajectory import Trajectory

# Per-agent parameters that add_agents takes as scalars or arrays: name ->
# (default, minimum, strict minimum).
_SCALAR_PARAMETERS = {
    "radius": (1.5, 0.0, False),
    "max_speed": (2.0, 0.0, False),
    "neighbor_dist": (15.0, 0.0, False),
    "max_neighbors": (10, 0.0, False),
    "time_horizon": (10.0, 0.0, True),
    "time_horizon_obst": (10.0, 0.0, True),
    "priority": (1.0, 0.0, False),
    "uncertainty_offset": (0.0, 0.0, False),
}

# How often the engine hands control back during run() (for Ctrl-C and progress).
_TICK_SECONDS = 0.05

# Refuse recordings bigger than this with advice instead of a MemoryError.
_MAX_RECORDING_BYTES = 8 * 1024**3


class _Simulation(_ObstacleMethods):
    """Common implementation; use Simulator or Batch."""

    _scene_axis: bool

    def __init__(self, scenes: int, time_step: float, method: Method | None):
        scenes = integer(scenes, "scenes", minimum=1)
        time_step = scalar(time_step, "time_step", minimum=0.0, strict=True)
        self._engine = _core.Engine(scenes, time_step)
        self._method: Method = ORCA()
        self.method = ORCA() if method is None else method

    # ----------------------------------------------------------------- views
    def _view(self, name: str) -> np.ndarray:
        array = self._engine.view(name)
        return array if self._scene_axis else array[0]

    @property
    def positions(self) -> np.ndarray:
        """Agent positions, float64 ``(..., N, 2)``; a writable view of the engine's memory."""
        return self._view("positions")

    @property
    def velocities(self) -> np.ndarray:
        """Current velocities, float64 ``(..., N, 2)``; writable view."""
        return self._view("velocities")

    @property
    def pref_velocities(self) -> np.ndarray:
        """Preferred velocities, ``(..., N, 2)``; writable view.

        For agents with a goal they are recomputed from the goal before each
        step; for the others, what you write here is what they want.
        """
        return self._view("pref_velocities")

    @property
    def goals(self) -> np.ndarray:
        """Goals, ``(..., N, 2)`` (NaN for agents without one); writable view."""
        return self._view("goals")

    @property
    def has_goal(self) -> np.ndarray:
        """Whether each agent seeks its goal, bool ``(..., N)``; writable view."""
        return self._view("has_goal")

    @property
    def active(self) -> np.ndarray:
        """Whether each agent takes part, bool ``(..., N)``; writable view.

        Inactive agents neither move nor are seen by others.
        """
        return self._view("active")

    @property
    def ids(self) -> np.ndarray:
        """Agent id of each slot, int64 ``(..., N)``; read-only view."""
        return self._view("ids")

    @property
    def radius(self) -> np.ndarray:
        """Agent radii ``(..., N)``; writable view."""
        return self._view("radius")

    @property
    def max_speed(self) -> np.ndarray:
        """Maximum speeds ``(..., N)``; writable view."""
        return self._view("max_speed")

    @property
    def pref_speed(self) -> np.ndarray:
        """Speed at which goal-seeking agents head for their goals ``(..., N)``; writable view."""
        return self._view("pref_speed")

    @property
    def neighbor_dist(self) -> np.ndarray:
        """Neighbour search distances ``(..., N)``; writable view."""
        return self._view("neighbor_dist")

    @property
    def max_neighbors(self) -> np.ndarray:
        """Maximum numbers of agent neighbours, int32 ``(..., N)``; writable view."""
        return self._view("max_neighbors")

    @property
    def time_horizon(self) -> np.ndarray:
        """Time horizons towards other agents ``(..., N)``; writable view."""
        return self._view("time_horizon")

    @property
    def time_horizon_obst(self) -> np.ndarray:
        """Time horizons towards obstacles ``(..., N)``; writable view."""
        return self._view("time_horizon_obst")

    @property
    def priority(self) -> np.ndarray:
        """ORCA priorities ``(..., N)``; writable view. A pair shares the avoidance in
        proportion: agent A takes ``priority_B / (priority_A + priority_B)`` of it."""
        return self._view("priority")

    @property
    def max_acceleration(self) -> np.ndarray:
        """Largest change of velocity per second ``(..., N)`` (inf: unlimited); writable view."""
        return self._view("max_acceleration")

    @property
    def uncertainty_offset(self) -> np.ndarray:
        """Velocity-obstacle methods widen every cone by this ``(..., N)``; writable view."""
        return self._view("uncertainty_offset")

    @property
    def arrival_radius(self) -> np.ndarray:
        """Distance to the goal within which an agent counts as arrived ``(..., N)``; writable view."""
        return self._view("arrival_radius")

    # ------------------------------------------------------------ properties
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
        self._engine.time_step = scalar(value, "time_step", minimum=0.0, strict=True)

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
    def method(self, method: Method) -> None:
        if not isinstance(method, Method):
            raise TypeError(
                f"method: expected a vosim method such as vosim.ORCA(), got {type(method).__name__}"
            )
        self._engine.method = method._make_core()
        self._method = method

    @property
    def arrived(self) -> np.ndarray:
        """Whether each goal-seeking agent is within its arrival radius, bool ``(..., N)``."""
        distance = np.linalg.norm(self.positions - self.goals, axis=-1)
        with np.errstate(invalid="ignore"):
            return self.has_goal & (distance <= self.arrival_radius)

    # ---------------------------------------------------------------- agents
    def _agent_shapes(self, n: int, width: int | None) -> tuple[list[tuple[int, ...]], tuple[int, ...]]:
        """Accepted input shapes of a per-agent field and its full (B, n[, width]) shape.

        A scalar (or one 2-vector) stands for every agent; a Batch also
        accepts a leading scene axis.
        """
        scenes = self._engine.scenes
        tail = () if width is None else (width,)
        shapes = [tail, (n, *tail)]
        if self._scene_axis:
            shapes.append((scenes, n, *tail))
        return shapes, (scenes, n, *tail)

    def _goals(self, value, shapes, target) -> tuple[np.ndarray, np.ndarray]:
        """Goals broadcast to ``target`` and whether each agent has one (NaN rows: no goal)."""
        if value is None:
            return np.full(target, np.nan), np.zeros(target[:-1], dtype=bool)
        goals = shaped(value, "goals", shapes, target, finite=False)
        raw = real_array(value, "goals")
        if np.isinf(raw).any():
            at = tuple(int(i) for i in np.argwhere(np.isinf(raw))[0])
            raise ValueError(f"goals[{', '.join(map(str, at))}] is {raw[at].tolist()!r}; must be finite (or NaN for no goal)")
        missing = np.isnan(raw)
        if raw.ndim and (missing.any(axis=-1) & ~missing.all(axis=-1)).any():
            at = tuple(int(i) for i in np.argwhere(missing.any(axis=-1) & ~missing.all(axis=-1))[0])
            raise ValueError(
                f"goals[{', '.join(map(str, at))}] is {raw[at].tolist()!r}; give both coordinates, "
                "or NaN for both to mean 'no goal'"
            )
        return goals, ~np.isnan(goals).all(axis=-1)

    def _add_agents(self, positions, **fields) -> np.ndarray:
        scenes = self._engine.scenes
        array = real_array(positions, "positions")
        if array.ndim == 2 and self._scene_axis:
            array = np.broadcast_to(array, (scenes, *array.shape))  # the same agents in every scene
        if array.ndim != (3 if self._scene_axis else 2) or array.shape[-1] != 2 or (
            self._scene_axis and array.shape[0] != scenes
        ):
            want = f"({scenes}, n, 2) or (n, 2)" if self._scene_axis else "(n, 2)"
            raise ValueError(f"positions: expected shape {want}, got {np.shape(positions)}")
        n = array.shape[-2]
        strict = fields.pop("strict", True)
        vector_shapes, vector_target = self._agent_shapes(n, 2)
        scalar_shapes, scalar_target = self._agent_shapes(n, None)

        positions = shaped(positions, "positions", [np.shape(positions)], vector_target)
        if strict:
            self._refuse_blocked_positions(positions)
        velocities, pref_velocities = (
            shaped(np.zeros(2) if fields[name] is None else fields[name], name, vector_shapes, vector_target)
            for name in ("velocities", "pref_velocities")
        )
        goals, has_goal = self._goals(fields["goals"], vector_shapes, vector_target)

        values = {}
        for name, (default, minimum, strict) in _SCALAR_PARAMETERS.items():
            value = default if fields[name] is None else fields[name]
            values[name] = shaped(value, name, scalar_shapes, scalar_target, minimum=minimum,
                                  strict=strict, whole=name == "max_neighbors")
        if np.any(values["max_neighbors"] > np.iinfo(np.int32).max):
            raise ValueError("max_neighbors: values must fit in 32 bits (at most 2147483647)")
        pref_speed = values["max_speed"] if fields["pref_speed"] is None else shaped(
            fields["pref_speed"], "pref_speed", scalar_shapes, scalar_target, minimum=0.0)
        arrival_radius = values["radius"] if fields["arrival_radius"] is None else shaped(
            fields["arrival_radius"], "arrival_radius", scalar_shapes, scalar_target, minimum=0.0)
        # +inf (the default) means no limit, so this one may be infinite.
        max_acceleration = shaped(np.inf if fields["max_acceleration"] is None else fields["max_acceleration"],
                                  "max_acceleration", scalar_shapes, scalar_target, minimum=0.0, finite=False)

        ids = self._engine.add_agents(
            n,
            positions=positions,
            velocities=velocities,
            pref_velocities=pref_velocities,
            goals=goals,
            has_goal=has_goal.astype(np.uint8),
            radius=values["radius"],
            max_speed=values["max_speed"],
            pref_speed=pref_speed,
            neighbor_dist=values["neighbor_dist"],
            max_neighbors=values["max_neighbors"].astype(np.int32),
            time_horizon=values["time_horizon"],
            time_horizon_obst=values["time_horizon_obst"],
            arrival_radius=arrival_radius,
            priority=values["priority"],
            max_acceleration=max_acceleration,
            uncertainty_offset=values["uncertainty_offset"],
        )
        return ids if self._scene_axis else ids[0]

    def remove_agents(self, ids) -> None:
        """Remove agents by id. Unknown or repeated ids raise ValueError and remove nothing.

        Re-read the views afterwards: slots after a removed agent move down.
        """
        self._engine.remove_agents(ids_array(ids))

    # ------------------------------------------------------------- stepping
    def step(self) -> None:
        """Advance one time step (the GIL is released while it runs)."""
        self._engine.step()

    def run(
        self,
        steps: int,
        *,
        record_every: int = 1,
        until_arrived: bool = False,
        progress: bool | Callable[[int, int], None] = False,
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
            within its arrival radius.
        progress
            ``True`` shows a progress bar (tqdm when installed); a callable
            is called as ``progress(steps_done, steps)`` a few times a second.

        Returns
        -------
        Trajectory
            The recorded frames. On Ctrl-C the run stops within a fraction of
            a second; the KeyboardInterrupt carries the partial trajectory as
            ``error.trajectory``.
        """
        steps = integer(steps, "steps", minimum=0)
        record_every = integer(record_every, "record_every", minimum=1)
        if until_arrived and not np.any(self.has_goal & self.active):
            raise ValueError("until_arrived=True needs at least one active agent with a goal")
        frames = _core.frames_for(steps, record_every)
        scenes, count = self._engine.scenes, self._engine.count
        nbytes = 2 * frames * scenes * count * 2 * 8
        if nbytes > _MAX_RECORDING_BYTES:
            raise ValueError(
                f"recording {frames} frames of {scenes * count} agents would take {nbytes / 1024**3:.1f} GiB; "
                f"record less often (record_every=...) or run in shorter pieces"
            )
        positions = np.empty((frames, scenes, count, 2))
        velocities = np.empty((frames, scenes, count, 2))
        times = np.empty(frames)
        step_numbers = np.empty(frames, dtype=np.int64)

        reporter = make_progress(progress, steps)
        callback = None if reporter is None else reporter.update
        started = _time.perf_counter()
        try:
            outcome = self._engine.run(
                steps, record_every, bool(until_arrived), positions, velocities, times,
                step_numbers, _TICK_SECONDS, callback,
            )
        finally:
            wall_time = _time.perf_counter() - started
        error = outcome["error"]
        if reporter is not None:
            reporter.close(outcome["steps_done"], failed=error is not None)

        used = outcome["frames"]
        trajectory = Trajectory(
            positions=positions[:used] if self._scene_axis else positions[:used, 0],
            velocities=velocities[:used] if self._scene_axis else velocities[:used, 0],
            times=times[:used],
            steps=step_numbers[:used],
            ids=np.array(self.ids),
            radius=np.array(self.radius),
            goals=np.array(self.goals),
            has_goal=np.array(self.has_goal),
            time_step=self.time_step,
            steps_run=int(outcome["steps_done"]),
            all_arrived=bool(outcome["all_arrived"]),
            wall_time=wall_time,
            method=self._method.to_dict(),
            obstacles=self.obstacles,
        )
        if error is not None:
            error.trajectory = trajectory
            raise error
        return trajectory

    def inspect(self, agent_id: int) -> dict:
        """What the active method sees and decides for one agent at the next step.

        Computed on demand from the current state (normal steps never pay for
        it). Returns a dict of NumPy arrays and numbers:

        - ``method``, ``id``, ``scene``; ``position``, ``velocity``,
          ``pref_velocity`` (as the next step will use it), ``new_velocity``
          (what the method chooses), ``radius``, ``max_speed``;
        - ``neighbors``: ids of the agent neighbours, nearest first;
          ``obstacle_edges``: ``(k, 2, 2)`` edges facing the agent in range;
        - ``lines`` (ORCA): ``point``, ``direction`` ``(L, 2)`` and
          ``obstacle`` ``(L,)`` of the half-planes (admissible on the left);
          ``used_fallback``: ORCA needed linear program 3, or geometric
          selection found nothing admissible;
        - ``cones`` (VO, RVO, HRVO): ``apex``, ``left_leg``, ``right_leg``,
          ``kind``, ``horizon``, ... of each velocity obstacle;
        - ``candidates`` ``(C, 2)``, ``penalties`` ``(C,)``, ``levels`` and
          ``chosen`` (sampling methods; geometric candidates have their
          distance to the preferred velocity as penalty);
        - ``forces`` (ForceBased): accelerations by kind.
        """
        agent_id = integer(agent_id, "agent_id")
        try:
            scene, slot = self._engine.locate(agent_id)
        except ValueError:
            raise ValueError(f"agent_id: no agent with id {agent_id}") from None
        result = self._engine.inspect(scene, slot)
        ids = self._engine.view("ids")[scene]
        result["neighbors"] = ids[result.pop("neighbor_slots")]
        result["id"] = agent_id
        result["scene"] = scene
        for key in ("position", "velocity", "pref_velocity", "new_velocity"):
            result[key] = np.array(result[key])
        result["forces"] = {k: np.array(v) for k, v in result["forces"].items()}
        return result

    def neighbors(self) -> np.ndarray:
        """Agent neighbours the next step will use, as ids, ``(..., N, K)`` padded with -1.

        Nearest first: the ``max_neighbors`` nearest agents strictly closer
        than ``neighbor_dist``, ties broken by the lower slot.
        """
        tables = []
        for scene in range(self._engine.scenes):
            slots = self._engine.neighbor_table(scene)
            ids = self._engine.view("ids")[scene]
            tables.append(np.where(slots >= 0, ids[np.maximum(slots, 0)], -1))
        width = max(t.shape[1] for t in tables)
        table = np.stack([np.pad(t, ((0, 0), (0, width - t.shape[1])), constant_values=-1) for t in tables])
        return table if self._scene_axis else table[0]
