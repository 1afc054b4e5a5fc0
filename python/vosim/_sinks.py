"""Sinks (exits): what Simulator and Batch share.

A sink is an area (a polygon of 3 or more points) or a line (a segment of 2
points). At the end of every step (inside ``run()`` too), an active agent
whose centre is inside an area, or crossed a line during the step, leaves
the simulation: it becomes inactive (``active`` False), keeps its slot and
id, and ``exit_time`` and ``exit_sink`` say when and through which sink it
left. Agents added with ``remove_at_goal=True`` leave the same way at their
final goal (``exit_sink`` -1). The engine's exits phase does this with the
sinks' scene feature (``cpp/core/engine/exit_phase.hpp``,
``cpp/core/features/sinks/``); the run metrics count it (``exits``,
``last_exit_time``, ``exit_step``). The simulator's sink methods delegate to
its :class:`Sinks` part.

A sink may be open only for a time (``opens_at``, ``closes_at``: ISO 20414's
dynamic availability of exits): it takes agents in the steps whose middle
falls in ``[opens_at, closes_at)``, and ``set_exits`` sends the agents bound
for it elsewhere when it closes (and lets them choose it when it opens).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._area_polygon import check_area
from ._checks import INT32_MAX, MAX_MAGNITUDE, check_values, integer, real_array, scalar
from ._parts import Part


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
    opens_at, closes_at
        Simulated seconds between which it takes agents; None: no bound.
    """

    id: int
    kind: str
    points: np.ndarray
    scene: int | None
    opens_at: float | None = None
    closes_at: float | None = None


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
        check_area(array, "points")
    return np.ascontiguousarray(array)


def _sink_times(opens_at, closes_at) -> tuple[float, float]:
    """``(opens, closes)`` in seconds, checked: None is no bound (-inf, inf); opens before closes."""
    opens = -np.inf if opens_at is None else scalar(opens_at, "opens_at", minimum=-MAX_MAGNITUDE,
                                                    maximum=MAX_MAGNITUDE)
    closes = np.inf if closes_at is None else scalar(closes_at, "closes_at", minimum=-MAX_MAGNITUDE,
                                                     maximum=MAX_MAGNITUDE)
    if not opens < closes:
        raise ValueError(f"closes_at is {closes}; it must be after opens_at ({opens})")
    return opens, closes


class Sinks(Part):
    """The sinks of one simulator: the part its public methods delegate to."""

    methods = ("add_sink", "set_sink_times", "remove_sink")
    properties = {"sinks": "sinks"}

    def add_sink(self, points, *, scene: int | None = None, opens_at: float | None = None,
                 closes_at: float | None = None) -> int:
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
            is dropped). Finite, within the working range, not degenerate: an
            area's outline must not cross or touch itself.
        scene
            Batch only: the scene that has the sink (None: every scene).
        opens_at, closes_at
            Simulated seconds (``time``) between which the sink is open:
            it takes agents in the steps whose middle falls in
            ``[opens_at, closes_at)``. None (the default): no bound, open
            always. See :meth:`set_sink_times`.

        Returns
        -------
        int
            The sink's id (0, 1, ... in the order added, never reused).

        Raises
        ------
        ValueError
            Bad points, or ``closes_at`` not after ``opens_at``.
        """
        array = _sink_points(points)
        times = _sink_times(opens_at, closes_at)
        sink_id = int(self._core.add_sink(array, self._scene(scene, every=True)))
        self._core.set_sink_open(sink_id, *times)
        return sink_id

    def set_sink_times(self, sink_id: int, *, opens_at: float | None = None,
                       closes_at: float | None = None) -> None:
        """Set when a sink is open (ISO 20414's dynamic availability of exits).

        The sink takes agents only in the steps whose middle falls in
        ``[opens_at, closes_at)`` (simulated seconds); outside that time
        agents walk through it. After :meth:`~vosim.Simulator.set_exits`, ``run()`` lets
        the agents choose again at each step where one of their exits opens
        or closes: nobody heads for a closed exit while another is open.

        Parameters
        ----------
        sink_id
            A sink in place (from :meth:`add_sink`).
        opens_at, closes_at
            Seconds of simulated time; None: no bound (open from the start,
            or until the end). Both None: open always.

        Raises
        ------
        ValueError
            An unknown or removed ``sink_id``, a time not finite, or
            ``closes_at`` not after ``opens_at``.
        """
        sink_id = integer(sink_id, "sink_id", minimum=0, maximum=INT32_MAX)
        times = _sink_times(opens_at, closes_at)
        self._core.set_sink_open(sink_id, *times)

    def remove_sink(self, sink_id: int) -> None:
        """Remove (close) a sink: from the next step on, nobody leaves through it."""
        self._core.remove_sink(integer(sink_id, "sink_id", minimum=0, maximum=INT32_MAX))

    def sinks(self) -> list[Sink]:
        """The sinks in place (not removed), by id."""
        out = []
        for i, kind, points, scene in self._core.sinks():
            opens, closes = self._core.sink_open(int(i))
            out.append(Sink(int(i), kind, points, None if scene < 0 else int(scene),
                            None if np.isinf(opens) else float(opens), None if np.isinf(closes) else float(closes)))
        return out
