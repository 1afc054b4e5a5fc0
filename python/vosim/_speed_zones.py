"""Speed zones: what Simulator and Batch share.

A speed zone is a polygon that scales the preferred speed of the agents whose
centre is inside it: stairs (RiMEA tests 2 and 3), slow floors, crowded
shop fronts. In the goals phase of every step (inside ``run()`` too), the
preferred velocity of an active agent is multiplied by the product of the
factors of every zone containing its centre, so overlapping zones compose
(stairs, factor 0.5, on a slow floor, 0.8, give 0.4). ``max_speed`` is left
as it is: it is what the agent can physically do, so a factor above 1 (a
moving walkway) raises the preferred speed only up to it. The engine does
this (``cpp/core/features/speed_zones/``); without zones nothing changes.
The simulator's ``add_speed_zone``, ``remove_speed_zone`` and ``speed_zones``
delegate to its :class:`SpeedZones` part.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._area_polygon import check_area
from ._checks import INT32_MAX, MAX_MAGNITUDE, check_values, integer, real_array, scalar
from ._parts import Part

#: The largest factor a zone may have (the engine's kMaxSpeedZoneFactor).
MAX_SPEED_ZONE_FACTOR = 4.0


class SpeedZone(NamedTuple):
    """A read-only description of one speed zone.

    Attributes
    ----------
    id
        What ``add_speed_zone`` returned (ids are never reused).
    polygon
        ``(n, 2)`` read-only array, as given.
    factor
        What the preferred speed is multiplied by inside it.
    scene
        The scene it belongs to, or None when every scene has it.
    """

    id: int
    polygon: np.ndarray
    factor: float
    scene: int | None


def _zone_polygon(polygon) -> np.ndarray:
    array = real_array(polygon, "polygon")
    if array.ndim != 2 or array.shape[1] != 2:
        raise ValueError(f"polygon: expected shape (n, 2) with n >= 3, got shape {array.shape}")
    check_values(array, "polygon", magnitude=MAX_MAGNITUDE)
    # A ring that repeats its first point at the end (shapely, GeoJSON) is the same area.
    if len(array) > 3 and np.array_equal(array[0], array[-1]):
        array = array[:-1]
    if len(array) < 3:
        raise ValueError(f"polygon: a speed zone needs 3 or more points, got {len(array)}")
    check_area(array, "polygon")
    return np.ascontiguousarray(array)


def _zone_factor(factor) -> float:
    value = scalar(factor, "factor")  # text and flags are refused, not converted
    if not (np.isfinite(value) and 0.0 < value <= MAX_SPEED_ZONE_FACTOR):
        raise ValueError(f"factor is {value!r}; it must be above 0 and at most {MAX_SPEED_ZONE_FACTOR}")
    return value


class SpeedZones(Part):
    """The speed zones of one simulator: the part its public methods delegate to."""

    methods = ("add_speed_zone", "remove_speed_zone")
    properties = {"speed_zones": "speed_zones"}

    def add_speed_zone(self, polygon, factor: float, *, scene: int | None = None) -> int:
        """Add a speed zone: inside it, agents prefer ``factor`` times their speed.

        From the next step on, the preferred velocity of an active agent
        whose centre is inside the polygon is multiplied by ``factor``
        (where zones overlap, by the product of their factors). ``pref_speed``
        itself is not changed, and ``max_speed`` still caps the speed, so a
        factor above 1 helps only agents that prefer less than they can do.
        2D only.

        Parameters
        ----------
        polygon
            ``(n, 2)`` with n >= 3: the area (either orientation; a closing
            point equal to the first is dropped). Finite, within the working
            range, not degenerate.
        factor
            Above 0 and at most 4 (0.5: about a stair's ascent; 1.5: a
            moving walkway).
        scene
            Batch only: the scene that has the zone (None: every scene).

        Returns
        -------
        int
            The zone's id (0, 1, ... in the order added, never reused).
        """
        array = _zone_polygon(polygon)
        value = _zone_factor(factor)
        return int(self._core.add_speed_zone(array, value, self._scene(scene, every=True)))

    def remove_speed_zone(self, zone_id: int) -> None:
        """Remove a speed zone: from the next step on, it scales nobody's speed."""
        self._core.remove_speed_zone(integer(zone_id, "zone_id", minimum=0, maximum=INT32_MAX))

    def speed_zones(self) -> list[SpeedZone]:
        """The speed zones in place (not removed), by id."""
        return [SpeedZone(int(i), polygon, float(factor), None if scene < 0 else int(scene))
                for i, polygon, factor, scene in self._core.speed_zones()]
