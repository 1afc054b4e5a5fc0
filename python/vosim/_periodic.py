"""Periodic corridors: what Simulator and Batch share.

With a periodic axis, the simulation wraps around along x (or y): after
every step (inside ``run()`` too), an agent whose centre left ``[low, high)``
along that axis is moved back by whole periods, and its goal and waypoints
move with it by the same amount, so it keeps walking the same way for ever.
Agents near one end see the agents near the other end across the seam, at
their nearest image (the minimum image convention): every method works on
the relative positions it would see without a seam. The engine does this
(``cpp/core/spatial/periodic_nearest.hpp``, and the scene feature
``cpp/core/features/periodic/periodic_axis.hpp``).

Obstacles, sinks and speed zones are not wrapped: every obstacle vertex must
lie within ``[low, high]`` along the axis (walls along the corridor span it
exactly; an obstacle across the seam is refused, as it would be seen on one
side only), and moving obstacles are refused. Trajectories record the
wrapped positions and the periodic axis (``Trajectory.periodic``);
:meth:`vosim.Trajectory.unwrapped_positions` and :mod:`vosim.measurement`
remove the jumps.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._checks import MAX_MAGNITUDE
from ._parts import Part

_AXES = ("x", "y")


class Periodic(NamedTuple):
    """A periodic axis: positions along ``axis`` wrap into ``[low, high)``.

    Attributes
    ----------
    axis
        ``"x"`` or ``"y"``.
    low, high
        The bounds; ``high - low`` is the period.
    """

    axis: str
    low: float
    high: float

    @property
    def period(self) -> float:
        """``high - low``."""
        return self.high - self.low

    @property
    def index(self) -> int:
        """The axis as a coordinate index: 0 for x, 1 for y."""
        return _AXES.index(self.axis)


def periodic_from(value, name: str = "periodic") -> Periodic | None:
    """A Periodic from its saved form (``None``, a Periodic or ``(axis, low, high)``); ValueError naming
    ``name`` otherwise (the axis not ``"x"``/``"y"``/0/1, bounds not finite or ``low >= high``)."""
    if value is None:
        return None
    try:
        axis, low, high = value
    except (TypeError, ValueError):
        raise ValueError(f"{name}: expected (axis, low, high) or None, got {value!r}") from None
    if isinstance(axis, (int, np.integer)) and not isinstance(axis, bool) and axis in (0, 1):
        axis = _AXES[int(axis)]
    if not isinstance(axis, str) or axis not in _AXES:
        raise ValueError(f"{name}: axis is {axis!r}; it must be 'x' or 'y'")
    return Periodic(axis, *_bounds((low, high), f"{name} ({axis})"))


def _bounds(value, name: str) -> tuple[float, float]:
    try:
        low, high = (float(v) for v in value)
    except (TypeError, ValueError):
        raise ValueError(f"{name}: expected a pair (low, high) of numbers, got {value!r}") from None
    for label, v in (("low", low), ("high", high)):
        if not (np.isfinite(v) and abs(v) <= MAX_MAGNITUDE):
            raise ValueError(f"{name}: {label} is {v!r}; it must be finite and within +-{MAX_MAGNITUDE:g}")
    if not high > low:
        raise ValueError(f"{name} is ({low!r}, {high!r}); the period high - low must be > 0")
    return low, high


def unwrap(positions: np.ndarray, periodic: Periodic | None, motion: np.ndarray | None = None) -> np.ndarray:
    """Positions (frames first) without the jumps of one period, summed from the first frame.

    Each frame's displacement along the axis is taken at the image nearest to
    ``motion`` (the displacement the velocities tell, one row per interval
    between frames: :func:`recorded_motion`), or without it at the nearest
    image (exact only while nobody moves half a period between frames).

    Raises
    ------
    ValueError
        With ``motion``: where the nearest image is more than a quarter
        period from it (another image is then less than three times as far,
        so the frames are too far apart to tell how often an agent went
        round), naming the frames and the agent.
    """
    positions = np.asarray(positions, dtype=float)
    if periodic is None or len(positions) < 2:
        return positions
    out = positions.copy()
    along = positions[..., periodic.index]
    steps = np.diff(along, axis=0)
    expected = 0.0 if motion is None else motion
    steps -= periodic.period * np.round((steps - expected) / periodic.period)
    if motion is not None:
        with np.errstate(invalid="ignore"):
            unsure = np.abs(steps - expected) > 0.25 * periodic.period
        if unsure.any():
            at = tuple(int(i) for i in np.argwhere(unsure)[0])
            who = f"agent slot {at[-1]}" + (f" of scene {at[1]}" if len(at) == 3 else "")
            raise ValueError(
                f"cannot unwrap the periodic axis {periodic.axis}: between frames {at[0]} and {at[0] + 1}, "
                f"{who} moved {float(expected[at]):.4g} m along {periodic.axis} by its recorded velocity, but its "
                f"positions say {float(steps[at]):.4g} m (or that plus whole periods of {periodic.period:g} m): the "
                "frames are too far apart to tell how often it went round; record more often (record_every)")
    out[1:, ..., periodic.index] = along[0] + np.cumsum(steps, axis=0)
    return out


def recorded_motion(traj) -> np.ndarray | None:
    """Each agent's displacement along ``traj``'s periodic axis between consecutive frames, as its recorded
    velocities tell it: ``(T - 1, N)`` or ``(T - 1, B, N)``; None without a periodic axis.

    Every step moves an agent by its velocity times the time step (the
    engine records the velocity as the displacement made), so the velocity
    recorded at the later frame times the interval is exact when every step
    is recorded, and close when the velocity changes little in between. An
    agent moves in no step after the one it left in (``exit_step``), nor at
    all when it took no part in the run.
    """
    if traj.periodic is None or len(traj.times) < 2:
        return None
    velocity = np.asarray(traj.velocities, dtype=float)[1:, ..., traj.periodic.index]
    extra = (1,) * (velocity.ndim - 1)
    interval = np.diff(np.asarray(traj.times, dtype=float)).reshape(-1, *extra)
    motion = velocity * interval
    took_part = np.asarray(traj.took_part(), dtype=bool)
    left = traj.metrics.get("exit_step") if isinstance(traj.metrics, dict) else None
    steps = np.asarray(traj.steps, dtype=np.int64)
    if left is not None and np.shape(left) == took_part.shape and len(steps) == len(traj.times):
        left = np.asarray(left, dtype=np.int64)
        count = np.diff(steps).reshape(-1, *extra)
        moving = np.where(left < 0, count, np.clip(left - steps[:-1].reshape(-1, *extra), 0, count))
        motion = motion * (moving / np.maximum(count, 1))
    return np.where(took_part, motion, 0.0)


class PeriodicAxis(Part):
    """A simulator's periodic axis: the part behind ``set_periodic``, ``clear_periodic`` and ``periodic``."""

    methods = ("set_periodic", "clear_periodic")
    properties = {"periodic": "periodic"}

    def set_periodic(self, *, x=None, y=None) -> None:
        """Make the simulation periodic along x or y (a corridor without ends).

        From the next step on (inside ``run()`` too), an active agent whose
        centre leaves ``[low, high)`` along the axis is moved back by whole
        periods after the step, and its goal and waypoints move with it by
        the same amount: it keeps heading the same way, and walks on for
        ever. Agents see their neighbours across the seam at the nearest
        image, so every method avoids an agent just across the seam exactly
        as one just beside it. A Batch gets the axis in every scene. 2D only.

        Obstacles are not wrapped: every obstacle vertex must lie within
        ``[low, high]`` along the axis (walls along a corridor ``x=(0, 20)``
        run from x=0 to x=20), and moving obstacles are refused; an
        obstacle added later is checked the same way. Sinks and speed zones
        are not wrapped either. Trajectories record wrapped positions and
        this setting; see :meth:`vosim.Trajectory.unwrapped_positions`.

        Parameters
        ----------
        x, y
            Exactly one: the ``(low, high)`` bounds along that axis, with
            ``high - low`` (the period) > 0.

        Raises
        ------
        ValueError
            Neither or both axes given, bad bounds, an obstacle outside the
            bounds or moving, a 3D simulator, or a method with its own
            neighbour search (``AVO(variant="avo2")``).
        """
        given = [(name, value) for name, value in (("x", x), ("y", y)) if value is not None]
        if len(given) != 1:
            raise ValueError("set_periodic: give exactly one of x=(low, high) or y=(low, high), "
                             f"got {len(given)}")
        axis, value = given[0]
        low, high = _bounds(value, axis)
        periodic = Periodic(axis, low, high)
        dimensions = self._core.dimensions
        if dimensions != 2:
            raise ValueError(f"set_periodic needs a 2D simulator; this one has dimensions={dimensions}")
        scenes = [-1, *self._core.scenes_with_obstacles()]
        for scene in scenes:
            for kind, vertices in self._core.obstacles(scene):
                check_obstacle(vertices, periodic, f"obstacle {kind}")
        if any(len(self._core.obstacles(scene, True)) for scene in scenes):
            raise ValueError("set_periodic: moving obstacles are not wrapped; remove them first")
        self._core.set_periodic(periodic.index, low, high)

    def clear_periodic(self) -> None:
        """Make the simulation non-periodic again (agents stay where they are)."""
        self._core.set_periodic(-1, 0.0, 0.0)

    def periodic(self) -> Periodic | None:
        """The periodic axis (:class:`Periodic`: axis, low, high), or None."""
        return periodic_from(self._core.periodic())

    def check_obstacle(self, vertices: np.ndarray, moving: bool, name: str) -> None:
        """Refuse an obstacle about to be added that the periodic axis cannot hold (moving, or across the seam)."""
        periodic = self.periodic()
        if periodic is None:
            return
        if moving:
            raise ValueError(f"{name}: a periodic simulator takes no moving obstacles (they are not wrapped)")
        check_obstacle(vertices, periodic, name)


def check_obstacle(vertices: np.ndarray, periodic: Periodic, name: str) -> None:
    along = np.asarray(vertices, dtype=float)[:, periodic.index]
    outside = np.flatnonzero((along < periodic.low) | (along > periodic.high))
    if len(outside):
        k = int(outside[0])
        raise ValueError(
            f"{name}: vertex {k} has {periodic.axis} = {float(along[k])!r}, outside the periodic bounds "
            f"[{periodic.low!r}, {periodic.high!r}]; obstacles are not wrapped, so each must lie within "
            f"the period (clip walls along the corridor to it)")
