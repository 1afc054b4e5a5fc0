"""Which persons' centres crossed a wall between two recorded frames: the tests' check that walls hold."""

from __future__ import annotations

import numpy as np


def wall_segments(walls) -> np.ndarray:
    """``(M, 2, 2)``: every segment of the polylines in ``walls`` (each a sequence of points)."""
    segments = []
    for wall in walls:
        points = np.asarray(wall, dtype=np.float64)
        segments += [points[k:k + 2] for k in range(len(points) - 1)]
    return np.array(segments).reshape(-1, 2, 2)


def _side(a, b, p):
    """Sign of the cross product (b - a) x (p - a): which side of the line a-b the point p lies on."""
    return np.sign((b[..., 0] - a[..., 0]) * (p[..., 1] - a[..., 1]) - (b[..., 1] - a[..., 1]) * (p[..., 0] - a[..., 0]))


def persons_through_walls(positions, walls) -> np.ndarray:
    """``(N,)`` flags: whose centre's path, frame to frame, properly crosses one of the walls.

    ``positions``: ``(T, N, 2)`` recorded every step or so (a person keeps
    at least its radius from a wall, so between frames 0.1 s apart its
    path cannot cut a wall's end). Touching a wall's line is no crossing;
    NaN positions cross nothing.
    """
    positions = np.asarray(positions, dtype=np.float64)
    start, end = positions[:-1], positions[1:]
    crossed = np.zeros(positions.shape[1], dtype=bool)
    for a, b in wall_segments(walls):
        # The move's ends on opposite sides of the wall, and the wall's ends on opposite sides of the move.
        across = _side(a, b, start) * _side(a, b, end) < 0
        if not across.any():
            continue
        spans = _side(start, end, a) * _side(start, end, b) < 0
        crossed |= (across & spans).any(axis=0)
    return crossed
