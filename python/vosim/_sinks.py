"""Sinks (exits): what Simulator and Batch share.

A sink is an area (a polygon of 3 or more points) or a line (a segment of 2
points). At the end of every step (inside ``run()`` too), an active agent
whose centre is inside an area, or crossed a line during the step, leaves
the simulation: it becomes inactive (``active`` False), keeps its slot and
id, and ``exit_time`` and ``exit_sink`` say when and through which sink it
left. Agents added with ``remove_at_goal=True`` leave the same way at their
final goal (``exit_sink`` -1). The engine's exits phase does this
(``cpp/core/engine/exit_phase.hpp``); the run metrics count it (``exits``,
``last_exit_time``, ``exit_step``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._checks import INT32_MAX, MAX_MAGNITUDE, check_values, integer, real_array


class Sink(NamedTuple):
    """A read-only description of one sink.

    Attributes
    ----------
    id
        What ``add_sink`` returned (ids are never reused).
    kind
        ``"area"`` or ``"line"``.
    points
        ``(n, 2)`` read-only array, as given.
    scene
        The scene it belongs to, or None when every scene has it.
    """

    id: int
    kind: str
    points: np.ndarray
    scene: int | None


def _sink_points(points) -> np.ndarray:
    array = real_array(points, "points")
    if array.ndim != 2 or array.shape[1] != 2:
        raise ValueError(f"points: expected shape (n, 2), 2 points for a line or 3 or more for an area; "
                         f"got shape {array.shape}")
    if len(array) < 2:
        raise ValueError(f"points: a sink needs 2 points (a line) or 3 or more (an area), got {len(array)}")
    check_values(array, "points", magnitude=MAX_MAGNITUDE)
    # A ring that repeats its first point at the end (shapely, GeoJSON) is the same area.
    if len(array) > 3 and np.array_equal(array[0], array[-1]):
        array = array[:-1]
    if len(array) == 2 and np.array_equal(array[0], array[1]):
        raise ValueError(f"points: the line's 2 points coincide at {array[0].tolist()}")
    if len(array) > 2:
        x, y = array[:, 0] - array[0, 0], array[:, 1] - array[0, 1]
        twice_area = abs(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))
        if not twice_area > 1e-12 * np.max(x * x + y * y):
            raise ValueError(f"points: the area's {len(array)} points enclose no area (they lie on one line)")
    return np.ascontiguousarray(array)


class _SinkMethods:
    """Mixed into _Simulation: add_sink, remove_sink, sinks."""

    def add_sink(self, points, *, scene: int | None = None) -> int:
        """Add a sink (an exit) through which agents leave the simulation.

        At the end of every step, an active agent whose centre is inside the
        area, or crossed the line during that step (either way), becomes
        inactive: it keeps its slot and id (the views and trajectories keep
        showing it where it left), ``exit_time`` records the simulated time
        at the end of that step and ``exit_sink`` this sink's id. Where an
        agent reaches several sinks in one step, the lowest id counts.
        Agents already inside an area leave at the next step. 2D only.

        Parameters
        ----------
        points
            ``(2, 2)``: a line (segment); ``(n, 2)`` with n >= 3: an area
            (polygon, either orientation; a closing point equal to the first
            is dropped). Finite, within the working range, not degenerate.
        scene
            Batch only: the scene that has the sink (None: every scene).

        Returns
        -------
        int
            The sink's id (0, 1, ... in the order added, never reused).
        """
        array = _sink_points(points)
        return int(self._engine.add_sink(array, self._obstacle_scene(scene)))

    def remove_sink(self, sink_id: int) -> None:
        """Remove (close) a sink: from the next step on, nobody leaves through it."""
        self._engine.remove_sink(integer(sink_id, "sink_id", minimum=0, maximum=INT32_MAX))

    @property
    def sinks(self) -> list[Sink]:
        """The sinks in place (not removed), by id."""
        return [Sink(int(i), kind, points, None if scene < 0 else int(scene))
                for i, kind, points, scene in self._engine.sinks()]
