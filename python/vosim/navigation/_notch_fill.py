"""Filling a polygon's narrow notches, so that inflating a spiky polygon stays fast and safe.

Inflating (buffering) a polygon by ``r`` is quadratic in GEOS when many of
its spikes lie closer than ``2 r`` to each other: the offset curve crosses
itself again and again. Notches much narrower than ``r`` barely change the
inflated shape, so they are filled first, within a tolerance ``t``:

* A notch is a reflex vertex ``v`` between neighbours ``a`` and ``b``;
  filling it replaces the edges ``a-v``, ``v-b`` by the chord ``a-b``, adding
  the triangle ``(a, b, v)``. Vertices are only ever removed, never moved.
* A point ``p`` of that triangle is ``v + s (q - v)`` for some ``q`` on the
  chord and ``s`` in [0, 1]; scaling towards ``v`` maps ``a-v`` and ``v-b``
  into themselves, so ``p`` lies within ``s * h <= h`` of them, where ``h``
  is the largest over the chord of the smaller distance to the two sides. A
  side is an original edge (on the polygon) or an earlier chord whose points
  all lie within its own bound ``e`` of the polygon, so every point of the
  triangle (the new chord included) lies within ``h + max(e_av, e_vb)`` of the
  original polygon. A notch is filled only when that bound is at most ``t``.
* Each fill adds a counter-clockwise triangle, so the winding number of the
  result is the original's plus that of the triangles: when the result is a
  simple polygon (checked), it holds the original polygon and lies within
  the union of the triangles and the polygon, hence within ``t`` of it.

Hence, with ``F`` the filled polygon and ``P`` the original, ``P ⊆ F ⊆ P ⊕
D(t)``, and inflating ``F`` by ``r`` gives a superset of ``P ⊕ D(r)`` inside
``P ⊕ D(r + t)``: never closer to the polygon than the exact inflation, and
at most ``t`` farther. (With mitred corners, as the navigation mesh grows
obstacles, corners reach farther in both; the tests check the filled
polygon's mitred growth against GEOS's exact one, within ``t``.)
"""

from __future__ import annotations

import numpy as np

from ._geometry import require_shapely

# Bisection steps bounding h on each chord (the bracket shrinks to 2**-48 of the chord).
_BISECTIONS = 48
# Passes of simultaneous fills (each pass fills at least every other fillable notch).
_MAX_PASSES = 400
# Relative round-off allowance of the orientation and distance arithmetic
# (far above double precision's 1.1e-16 per operation).
_ROUND_OFF = 1e-12


def _segment_distance(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance from each point p to the segment a-b (row by row)."""
    d = b - a
    length_sq = np.einsum("ij,ij->i", d, d)
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(length_sq > 0, np.einsum("ij,ij->i", p - a, d) / length_sq, 0.0)
    gap = p - (a + np.clip(s, 0.0, 1.0)[:, None] * d)
    return np.sqrt(np.einsum("ij,ij->i", gap, gap))


def _chord_bound(a: np.ndarray, v: np.ndarray, b: np.ndarray) -> np.ndarray:
    """An upper bound on max over q in [a, b] of min(dist(q, a-v), dist(q, v-b)), row by row.

    Along the chord the distance to ``a-v`` starts at 0 and never decreases
    (a convex function at its minimum), the distance to ``v-b`` never
    increases and ends at 0; the largest minimum is where they meet. After
    bisecting a bracket ``[lo, hi]`` round that point, the value there is at
    most ``min(d_av(hi), d_vb(lo))``.
    """
    lo, hi = np.zeros(len(a)), np.ones(len(a))
    chord = b - a
    for _ in range(_BISECTIONS):
        mid = 0.5 * (lo + hi)
        q = a + mid[:, None] * chord
        rising = _segment_distance(q, a, v) >= _segment_distance(q, v, b)
        hi = np.where(rising, mid, hi)
        lo = np.where(rising, lo, mid)
    return np.minimum(_segment_distance(a + hi[:, None] * chord, a, v),
                      _segment_distance(a + lo[:, None] * chord, v, b))


def fill_notches(vertices: np.ndarray, tolerance: float) -> tuple[np.ndarray, float]:
    """The polygon with its notches filled within ``tolerance``, and the bound reached.

    Parameters
    ----------
    vertices
        ``(n, 2)`` counter-clockwise vertices of a simple polygon, not closed.
    tolerance
        Every point of the filled polygon lies within this distance of the
        original one (see the module's docstring).

    Returns
    -------
    filled, bound
        The kept vertices (a subsequence of ``vertices``, in order) and the
        largest distance bound over the fills made (0 when none). The
        caller must check that ``filled`` is a simple polygon: only then do
        the guarantees hold.
    """
    points = np.asarray(vertices, dtype=np.float64)
    scale = float(np.abs(points).max()) if len(points) else 0.0
    slack = _ROUND_OFF * max(scale, tolerance)
    # err[k]: every point of edge k (vertex k to k + 1) lies within err[k] of the original polygon.
    err = np.zeros(len(points))
    bound = 0.0
    for _ in range(_MAX_PASSES):
        m = len(points)
        if m <= 3:
            break
        a, b = np.roll(points, 1, axis=0), np.roll(points, -1, axis=0)
        err_before = np.roll(err, 1)
        # Twice the area of (a, b, v): positive when v is a reflex vertex. Kept
        # only when clear of the round-off of the products.
        u, w = b - a, points - a
        area2 = u[:, 0] * w[:, 1] - u[:, 1] * w[:, 0]
        size = np.abs(u[:, 0] * w[:, 1]) + np.abs(u[:, 1] * w[:, 0])
        reflex = area2 > _ROUND_OFF * size
        candidates = np.flatnonzero(reflex)
        if not len(candidates):
            break
        new_err = np.full(m, np.inf)
        new_err[candidates] = (_chord_bound(a[candidates], points[candidates], b[candidates])
                               + np.maximum(err_before[candidates], err[candidates]) + slack)
        fill = new_err <= tolerance
        if not fill.any():
            break
        if fill.all():
            break  # not a counter-clockwise polygon (one has three convex vertices at least)
        # Never two neighbours in one pass (each fill needs its neighbours
        # kept): in each run of consecutive fillable vertices, every other one.
        shift = int(np.flatnonzero(~fill)[0])  # rotated so that no run wraps round the end
        rolled = np.roll(fill, -shift)
        starts = rolled & ~np.roll(rolled, 1)
        run_start = np.maximum.accumulate(np.where(starts, np.arange(m), 0))
        chosen = np.roll(rolled & ((np.arange(m) - run_start) % 2 == 0), shift)
        if m - np.count_nonzero(chosen) < 3:
            break
        bound = max(bound, float(new_err[chosen].max()))
        # The chord a-b replaces the edges before and after each removed vertex.
        before = (np.flatnonzero(chosen) - 1) % m
        err[before] = new_err[chosen]
        keep = ~chosen
        points, err = points[keep], err[keep]
    return points, bound


# Polygons of fewer vertices are inflated exactly (GEOS is fast on them, and
# ordinary maps keep their meshes bit for bit).
FILL_FROM_VERTICES = 2000
# The tolerance of the filling, as a share of the inflation: the inflated
# polygon reaches at most this much of the radius farther than the exact one.
EXTRA_MARGIN_SHARE = 0.1


def inflatable_polygon(vertices, inflation: float):
    """The shapely polygon to inflate by ``inflation`` for a solid obstacle, and the tolerance used.

    ``vertices`` are a simple counter-clockwise polygon (as the simulator's
    obstacles are). Below :data:`FILL_FROM_VERTICES` vertices, or when the
    filled polygon is not simple (possible round other parts of a non-star
    polygon), the polygon itself and 0; otherwise the polygon with its
    notches filled within ``EXTRA_MARGIN_SHARE * inflation`` and that
    tolerance.
    """
    shapely = require_shapely()
    vertices = np.asarray(vertices, dtype=np.float64)
    polygon = shapely.Polygon(vertices)
    if len(vertices) < FILL_FROM_VERTICES or not inflation > 0:
        return polygon, 0.0
    tolerance = EXTRA_MARGIN_SHARE * inflation
    filled, _ = fill_notches(vertices, tolerance)
    if len(filled) == len(vertices):
        return polygon, 0.0
    candidate = shapely.Polygon(filled)
    return (candidate, tolerance) if candidate.is_valid else (polygon, 0.0)
