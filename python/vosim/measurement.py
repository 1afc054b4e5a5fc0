"""Measurement areas and lines over recorded trajectories: density, speed, flow and specific flow over time.

The definitions are PedPy's (Jülich's pedestrian-dynamics analysis
library), so that a vosim run is measured as experiments are:

- individual speed at frame t: the distance between the positions
  ``frame_step`` frames before and after, over that time (frames too near
  either end of the trajectory have none: PedPy's ``BORDER_EXCLUDE``);
- classic density in an area: the agents strictly inside it, over its area;
- mean speed in an area: the mean individual speed of the agents strictly
  inside it (NaN when nobody is; PedPy writes 0 then);
- crossings of a line: the first frame t reached by a move (from frame
  t - 1) that meets the line and does not end on it (within 1e-5 m); a
  move that starts on it meets it; ``N(t)`` counts the agents crossed by
  frame t;
- flow through a line: over successive windows of ``delta_frame`` frames,
  the agents that crossed, over the time from the first to the last of
  those crossings (PedPy's ``compute_flow``), with the mean speed of the
  agents crossing; specific flow is that flow over the line's length;
- specific flow in an area: density times mean speed (the hydrodynamic
  relation J_s = rho v).

Frames must be evenly spaced in time (record every k-th step, k fixed).
Agents switched off before the run take no part; an agent that left during
the run (through a sink or at its goal, ``exit_step`` in the run metrics)
takes part up to the frame of the step it left in, not after.
In a periodic corridor (``Simulator.set_periodic``)
the positions are recorded wrapped; speeds and crossings take each move
the way round the recorded velocities tell
(:meth:`vosim.Trajectory.unwrapped_positions`), so a
wrap is neither a jump in speed nor a crossing of every line on the way.

Example
-------
>>> import vosim
>>> from vosim.measurement import MeasurementArea, MeasurementLine, measure_area, flow
>>> sim = vosim.Simulator(time_step=0.1)
>>> ids = sim.add_agents([[0.0, 0.0]], goals=[[10.0, 0.0]], radius=0.25, max_speed=1.0)
>>> traj = sim.run(100)
>>> series = measure_area(traj, MeasurementArea([[4, -1], [6, -1], [6, 1], [4, 1]]))
>>> float(series["density"].max())  # one person in 4 m^2
0.25
>>> int(vosim.measurement.cumulative_crossings(traj, MeasurementLine([5, -1], [5, 1]))[-1])
1
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._checks import integer
from ._periodic import recorded_motion, unwrap

__all__ = ["MeasurementArea", "MeasurementLine", "individual_speeds", "density", "mean_speed", "measure_area",
           "crossing_frames", "cumulative_crossings", "flow"]

# A move ending nearer than this to the line has not crossed it yet (PedPy's threshold).
CROSSING_THRESHOLD = 1e-5


def _finite_points(value, name: str, shape_text: str) -> np.ndarray:
    array = np.asarray(value, dtype=np.float64)
    if array.ndim != 2 or array.shape[1] != 2:
        raise ValueError(f"{name}: expected shape {shape_text}, got {array.shape}")
    bad = ~np.isfinite(array)
    if bad.any():
        k = int(np.argwhere(bad)[0, 0])
        raise ValueError(f"{name}[{k}]: {array[k].tolist()} is not finite")
    return array


@dataclass(frozen=True, eq=False)
class MeasurementArea:
    """A simple polygon (``(k, 2)`` vertices, k >= 3) in which density and speed are measured."""

    vertices: np.ndarray

    def __post_init__(self):
        vertices = _finite_points(self.vertices, "vertices", "(k, 2)")
        if len(vertices) < 3:
            raise ValueError(f"vertices: a measurement area needs at least 3 vertices, got {len(vertices)}")
        object.__setattr__(self, "vertices", vertices)
        if self.area <= 0:
            raise ValueError(f"vertices: the polygon {vertices.tolist()} has no area")

    @property
    def area(self) -> float:
        x, y = self.vertices[:, 0], self.vertices[:, 1]
        return float(abs((x * np.roll(y, -1) - np.roll(x, -1) * y).sum()) / 2)

    def contains(self, points: np.ndarray) -> np.ndarray:
        """Whether each point lies strictly inside (points on the edges count as outside)."""
        points = np.asarray(points, dtype=np.float64)
        flat = points.reshape(-1, 2)
        inside = np.zeros(len(flat), dtype=bool)
        on_edge = np.zeros(len(flat), dtype=bool)
        a = self.vertices
        b = np.roll(a, -1, axis=0)
        for (ax, ay), (bx, by) in zip(a, b):
            px, py = flat[:, 0], flat[:, 1]
            straddles = (ay > py) != (by > py)
            with np.errstate(divide="ignore", invalid="ignore"):
                x = ax + (py - ay) * (bx - ax) / (by - ay)
            inside ^= straddles & (px < x)
            cross = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
            on_edge |= ((cross == 0) & (px >= min(ax, bx)) & (px <= max(ax, bx))
                        & (py >= min(ay, by)) & (py <= max(ay, by)))
        return (inside & ~on_edge).reshape(points.shape[:-1])


@dataclass(frozen=True, eq=False)
class MeasurementLine:
    """A segment from ``start`` to ``end`` through which agents flow."""

    start: np.ndarray
    end: np.ndarray

    def __post_init__(self):
        ends = _finite_points([np.ravel(self.start), np.ravel(self.end)], "start, end", "(2,) each")
        if np.array_equal(ends[0], ends[1]):
            raise ValueError(f"start, end: the line from {ends[0].tolist()} to {ends[1].tolist()} has no length")
        object.__setattr__(self, "start", ends[0])
        object.__setattr__(self, "end", ends[1])

    @property
    def length(self) -> float:
        return float(np.linalg.norm(self.end - self.start))

    def distance(self, points: np.ndarray) -> np.ndarray:
        d = self.end - self.start
        t = np.clip(((points - self.start) @ d) / (d @ d), 0.0, 1.0)
        return np.linalg.norm(points - (self.start + t[..., None] * d), axis=-1)


def _scene(traj, scene):
    """Positions ``(T, N, 2)``, which agents take part at each frame ``(T, N)``, and the frame interval in seconds."""
    from .trajectory import Trajectory

    if not isinstance(traj, Trajectory):
        raise TypeError(f"traj: expected a vosim.Trajectory, got {type(traj).__name__}")
    if traj.positions.shape[-1] != 2:
        raise ValueError("traj: measurement areas and lines are for 2D trajectories")
    positions = traj.positions
    took_part = traj.took_part()
    left = traj.metrics.get("exit_step") if isinstance(traj.metrics, dict) else None
    left = None if left is None or np.shape(left) != took_part.shape else np.asarray(left)
    if traj.is_batch:
        scene = integer(scene, "scene", minimum=0, maximum=positions.shape[1] - 1)
        positions, took_part = positions[:, scene], took_part[scene]
        left = None if left is None else left[scene]
    present = np.broadcast_to(took_part, positions.shape[:2])
    if left is not None and traj.steps is not None and len(traj.steps) == len(positions):
        # Frames after the step an agent left in show it frozen where it left: not there any more.
        steps = np.asarray(traj.steps, dtype=np.int64)[:, None]
        present = present & ((left < 0) | (steps <= left))
    times = np.asarray(traj.times, dtype=np.float64)
    gaps = np.diff(times)
    if len(gaps) and not np.allclose(gaps, gaps[0], rtol=1e-9, atol=1e-12):
        raise ValueError("traj: frames must be evenly spaced in time (record_every fixed, one run)")
    interval = float(gaps[0]) if len(gaps) else float(traj.time_step)
    return positions, present, interval


def _unwrapped(traj, positions: np.ndarray, scene: int) -> np.ndarray:
    """One scene's positions (from ``_scene``) without the periodic axis' jumps, by the recorded velocities."""
    motion = recorded_motion(traj)
    if motion is not None and traj.is_batch:
        motion = motion[:, scene]
    return unwrap(positions, traj.periodic, motion)


def individual_speeds(traj, *, frame_step: int = 5, scene: int = 0) -> np.ndarray:
    """Each agent's speed at each frame, ``(T, N)``: its displacement over ``2 frame_step`` frames, per second.

    NaN for the first and last ``frame_step`` frames (PedPy's border
    exclusion), for agents not taking part, and where the later frame is
    after the agent left.
    """
    frame_step = integer(frame_step, "frame_step", minimum=1)
    positions, present, interval = _scene(traj, scene)
    speeds = np.full(positions.shape[:2], np.nan)
    if len(positions) > 2 * frame_step:
        positions = _unwrapped(traj, positions, scene)
        moved = positions[2 * frame_step:] - positions[:-2 * frame_step]
        window = np.linalg.norm(moved, axis=-1) / (2 * frame_step * interval)
        speeds[frame_step:-frame_step] = np.where(present[2 * frame_step:] & present[:-2 * frame_step], window, np.nan)
    return speeds


def density(traj, area: MeasurementArea, *, scene: int = 0) -> np.ndarray:
    """Classic density in ``area`` at each frame, ``(T,)``, persons/m^2."""
    positions, present, _ = _scene(traj, scene)
    inside = area.contains(positions) & present
    return inside.sum(axis=1) / area.area


def mean_speed(traj, area: MeasurementArea, *, frame_step: int = 5, scene: int = 0) -> np.ndarray:
    """Mean individual speed of the agents strictly inside ``area`` at each frame, ``(T,)`` (NaN: nobody)."""
    positions, present, _ = _scene(traj, scene)
    speeds = individual_speeds(traj, frame_step=frame_step, scene=scene)
    counted = area.contains(positions) & present & np.isfinite(speeds)
    total = np.where(counted, speeds, 0.0).sum(axis=1)
    count = counted.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(count > 0, total / np.maximum(count, 1), np.nan)


def measure_area(traj, area: MeasurementArea, *, frame_step: int = 5, scene: int = 0) -> dict:
    """``time``, ``density``, ``mean_speed`` and ``specific_flow`` (density x mean speed) in ``area``, each ``(T,)``."""
    rho = density(traj, area, scene=scene)
    speed = mean_speed(traj, area, frame_step=frame_step, scene=scene)
    return dict(time=np.asarray(traj.times, dtype=np.float64), density=rho, mean_speed=speed,
                specific_flow=rho * np.nan_to_num(speed, nan=0.0))


def _segments_meet(p, q, a, b) -> np.ndarray:
    """Whether segments p-q (rows) meet the segment a-b, touching included."""
    def orient(u, v, w):
        return np.sign((v[..., 0] - u[..., 0]) * (w[..., 1] - u[..., 1])
                       - (v[..., 1] - u[..., 1]) * (w[..., 0] - u[..., 0]))

    o1, o2 = orient(a, b, p), orient(a, b, q)
    o3, o4 = orient(p, q, a), orient(p, q, b)
    meet = (o1 * o2 <= 0) & (o3 * o4 <= 0)
    collinear = (o1 == 0) & (o2 == 0)
    if collinear.any():  # on the line's line: meet only if the extents overlap
        lo_pq, hi_pq = np.minimum(p, q), np.maximum(p, q)
        overlap = ((lo_pq <= np.maximum(a, b)) & (hi_pq >= np.minimum(a, b))).all(axis=-1)
        meet = np.where(collinear, overlap, meet)
    return meet


def crossing_frames(traj, line: MeasurementLine, *, scene: int = 0) -> np.ndarray:
    """The frame at which each agent first crosses ``line``, ``(N,)``; -1 if it never does."""
    positions, present, _ = _scene(traj, scene)
    frames, n = positions.shape[:2]
    first = np.full(n, -1, dtype=np.int64)
    if frames < 2:
        return first
    p, q = positions[:-1], positions[1:]
    meets = _segments_meet(p, q, line.start, line.end)
    if traj.periodic is not None:
        # Across the seam a move is seen at both ends: leaving p, and arriving at q.
        moves = np.diff(_unwrapped(traj, positions, scene), axis=0)
        meets = _segments_meet(p, p + moves, line.start, line.end) | _segments_meet(q - moves, q, line.start, line.end)
    # A move that ends within the threshold of the line is not a crossing yet; the next one, which starts
    # there (on either side by round-off), is: the tolerance applies to both ends alike.
    meets |= line.distance(p) < CROSSING_THRESHOLD
    crossed = meets & (line.distance(q) >= CROSSING_THRESHOLD)
    crossed &= present[1:]
    ever = crossed.any(axis=0)
    first[ever] = np.argmax(crossed[:, ever], axis=0) + 1  # the frame the move ends in
    return first


def cumulative_crossings(traj, line: MeasurementLine, *, scene: int = 0) -> np.ndarray:
    """``N(t)``: how many agents have crossed ``line`` by each frame, ``(T,)``."""
    first = crossing_frames(traj, line, scene=scene)
    frames = len(traj.times)
    counts = np.bincount(first[first >= 0], minlength=frames)[:frames]
    return np.cumsum(counts)


def flow(traj, line: MeasurementLine, *, delta_frame: int = 10, frame_step: int = 5, scene: int = 0) -> dict:
    """Flow through ``line`` over successive windows of ``delta_frame`` frames (PedPy's definition).

    Returns
    -------
    dict
        ``time`` (s, the end of each window's last crossing), ``flow``
        (persons/s), ``specific_flow`` (persons/(m s), flow over the line's
        length) and ``mean_speed`` (m/s, of the agents crossing in the
        window), one entry per window in which someone crossed.
    """
    delta_frame = integer(delta_frame, "delta_frame", minimum=1)
    _, _, interval = _scene(traj, scene)
    first = crossing_frames(traj, line, scene=scene)
    nt = cumulative_crossings(traj, line, scene=scene)
    speeds = individual_speeds(traj, frame_step=frame_step, scene=scene)
    crossers = np.flatnonzero(first >= 0)
    crossing_speed = speeds[first[crossers], crossers]
    rows = []
    started = np.flatnonzero(nt > 0)
    if len(started):
        before_count, before_frame = 0, int(started[0])
        for frame in range(before_frame + delta_frame, len(nt) - 1, delta_frame):
            passed = int(nt[frame])
            if passed == before_count:
                continue
            passed_frame = int(np.argmax(nt == passed)) + 1
            rate = (passed - before_count) / ((passed_frame - before_frame) * interval)
            window = (first[crossers] >= before_frame) & (first[crossers] <= passed_frame)
            chosen = crossing_speed[window]
            chosen = chosen[np.isfinite(chosen)]
            rows.append((passed_frame * interval, rate, float(chosen.mean()) if len(chosen) else np.nan))
            before_count, before_frame = passed, passed_frame
    table = np.array(rows, dtype=np.float64).reshape(-1, 3)
    return dict(time=table[:, 0] + float(traj.times[0]), flow=table[:, 1], specific_flow=table[:, 1] / line.length,
                mean_speed=table[:, 2])
