"""The check of an area's outline (a sink's, a speed zone's): a simple polygon that encloses an area.

The crossing test is the core's, the one obstacles pass
(``cpp/core/obstacles/polygon_crossing.hpp``: a sweep line, O(n log n)),
so a bow-tie is refused as crossing itself, naming the two edges, in either
orientation.
"""

from __future__ import annotations

import numpy as np

from . import _core


def check_area(array: np.ndarray, name: str) -> None:
    """Raise ValueError naming ``name`` unless the ``(n, 2)`` points (n >= 3, finite, a closing point equal
    to the first already dropped) enclose an area without touching themselves; either orientation."""
    d = array - array[0]
    far = d[np.argmax(np.einsum("ij,ij->i", d, d))]
    scale = float(far @ far)
    if not np.max(np.abs(d[:, 0] * far[1] - d[:, 1] * far[0])) > 1e-12 * scale:
        raise ValueError(f"{name}: its {len(array)} points enclose no area (they lie on one line)")
    points = np.ascontiguousarray(array, dtype=np.float64)
    try:
        _core.check_obstacle(points, "polygon", name)  # the core's obstacles are counter-clockwise
    except ValueError as error:
        try:
            _core.check_obstacle(np.ascontiguousarray(points[::-1]), "polygon", name)
        except ValueError:  # not only the orientation: the error names the points as given
            raise error from None
    twice_area = abs(np.sum(d[:, 0] * np.roll(d[:, 1], -1) - np.roll(d[:, 0], -1) * d[:, 1]))
    if not twice_area > 1e-12 * scale:
        raise ValueError(f"{name}: its {len(array)} points enclose no area")
