"""Named places of a scene (a door, a room, a measurement area or line): checked once for every user.

A place is two or more points: two make a line, more a polygon. They are
what ``Scenario.geometry`` holds and what the viewer draws (``places=``).
"""

from __future__ import annotations

import numpy as np

from ._checks import MAX_MAGNITUDE, check_values, real_array


def checked_places(places, name: str, width: int = 2) -> dict:
    """``places`` as ``{name: (k, width) float array}``, refused with the argument, the key and the value."""
    if not isinstance(places, dict):
        raise TypeError(f"{name}: expected a dict of name to points, got {type(places).__name__}")
    checked = {}
    for key, points in places.items():
        if not isinstance(key, str) or not key:
            raise TypeError(f"{name}: names must be non-empty strings, got {key!r}")
        where = f"{name}[{key!r}]"
        array = real_array(points, where)
        if array.ndim != 2 or array.shape[1] != width:
            raise ValueError(f"{where}: expected shape (k, {width}), got {array.shape}")
        if len(array) < 2:
            raise ValueError(f"{where}: expected 2 points (a line) or more (a polygon), got {len(array)}")
        check_values(array, where, magnitude=MAX_MAGNITUDE)
        checked[key] = np.ascontiguousarray(array)
    return checked
