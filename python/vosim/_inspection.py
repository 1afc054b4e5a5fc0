"""The entries of ``inspect()`` that only some methods record.

Each method records its own entries in C++ (ORCA and AVO their half-planes,
VO/RVO/HRVO their cones, adaptive sampling the candidates' levels, the
force-based method its forces, ORCA-3D its half-spaces); for the other
methods these keys hold empty values of the same layout, so that every dict
of one dimension has the same keys. ``tests/engine/test_inspect_records.py`` checks
that the layouts here match what the methods record.
"""

from __future__ import annotations

import numpy as np


def _rows(width: int) -> np.ndarray:
    return np.zeros((0, width))


def empty_method_entries(dimensions: int) -> dict:
    """Fresh empty values of the method entries of ``dimensions``, by key."""
    if dimensions == 3:
        return {"planes": {"point": _rows(3), "normal": _rows(3), "obstacle": np.zeros(0, dtype=bool)}}
    return {
        "lines": {"point": _rows(2), "direction": _rows(2), "obstacle": np.zeros(0, dtype=bool)},
        "cones": {"apex": _rows(2), "left_leg": _rows(2), "right_leg": _rows(2), "kind": [],
                  "source": np.zeros(0, dtype=np.int32), "horizon": np.zeros(0), "scale": np.zeros(0),
                  "obstacle_a": _rows(2), "obstacle_b": _rows(2), "radius": np.zeros(0)},
        "levels": np.zeros(0, dtype=np.int32),
        "forces": {},
    }
