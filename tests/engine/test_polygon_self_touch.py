"""add_obstacle refuses a polygon whose outline touches itself, naming the first
pair of edges that meet, whatever its size: polygons of more than 64 vertices
are decided by a sweep line (cpp/core/obstacles/polygon_crossing.cpp), here
compared with checking every pair of edges. Coordinates are integers scaled
by powers of two, so every test below is exact and the expected pair is
unambiguous."""

import numpy as np
import pytest

import vosim

from _star_polygon import star


def comb(teeth=40):
    """A counter-clockwise comb of ``teeth`` unit-wide teeth (y 2..10) over a base (y 0..2): 4 * teeth vertices."""
    width = 2 * teeth - 1
    top = []
    for k in range(teeth - 1, -1, -1):
        top += [(2 * k + 1, 10), (2 * k, 10)]
        if k > 0:
            top += [(2 * k, 2), (2 * k - 1, 2)]
    return np.array([(0, 0), (width, 0), *top], dtype=float)


def index_of(points, vertex):
    [[k]] = np.argwhere((points == vertex).all(axis=1)).T[:, :1].T
    return int(k)


def first_touch(points):
    """The first pair (i, j) of non-adjacent edges sharing a point, checking every pair (as the core does up to 64)."""
    n = len(points)
    a, b = points, np.roll(points, -1, axis=0)
    i, j = np.triu_indices(n, 2)
    keep = ~((i == 0) & (j == n - 1))
    i, j = i[keep], j[keep]

    def det(u, v):
        return u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0]

    def within(p, q, r):
        return ((np.minimum(p, q) <= r) & (r <= np.maximum(p, q))).all(axis=1)

    p, q, r, s = a[i], b[i], a[j], b[j]
    o1, o2, o3, o4 = det(q - p, r - p), det(q - p, s - p), det(s - r, p - r), det(s - r, q - r)
    proper = (o1 * o2 < 0) & (o3 * o4 < 0)
    touching = ((o1 == 0) & within(p, q, r)) | ((o2 == 0) & within(p, q, s)) | \
               ((o3 == 0) & within(r, s, p)) | ((o4 == 0) & within(r, s, q))
    hits = np.flatnonzero(proper | touching)
    return (int(i[hits[0]]), int(j[hits[0]])) if len(hits) else None


def vertex_on_edge(points):
    """Tooth 10's top right corner moved onto tooth 11's left side."""
    points = points.copy()
    points[index_of(points, (21, 10))] = (22, 8)
    return points


def collinear_overlap(points):
    """A gap's bottom lowered onto the base's bottom edge (the two overlap along y = 0)."""
    points = points.copy()
    points[index_of(points, (22, 2))] = (22, 0)
    points[index_of(points, (21, 2))] = (21, 0)
    return points


def touching_vertices(points):
    """Tooth 10's top right corner on tooth 11's top left corner."""
    points = points.copy()
    points[index_of(points, (21, 10))] = (22, 10)
    return points


def crossing(points):
    """Tooth 10's right side crossing tooth 11's left side."""
    points = points.copy()
    points[index_of(points, (21, 10))] = (23, 9)
    return points


SCALES = [(1.0, 0.0), (2.0**-40, 0.0), (2.0**-40, 2.0**-30), (2.0**36, 0.0), (2.0**30, 2.0**45)]


@pytest.mark.parametrize("scale, offset", SCALES)
@pytest.mark.parametrize("defect", [vertex_on_edge, collinear_overlap, touching_vertices, crossing])
def test_a_large_polygon_touching_itself_is_refused_with_the_first_pair(defect, scale, offset):
    points = defect(comb()) * scale + offset
    assert len(points) > 64  # past the all-pairs check
    expected = first_touch(points)
    assert expected is not None
    with pytest.raises(ValueError, match=rf"vertices: the polygon intersects itself: edge {expected[0]} .* "
                                         rf"meets edge {expected[1]} "):
        vosim.Simulator().add_obstacle(points)


@pytest.mark.parametrize("scale, offset", SCALES)
def test_a_large_simple_polygon_is_accepted(scale, offset):
    points = comb() * scale + offset
    assert first_touch(points) is None
    vosim.Simulator().add_obstacle(points)


@pytest.mark.parametrize("seed", range(8))
def test_random_stars_agree_with_every_pair(seed):
    """Stars on an integer grid, some with a vertex moved onto another or onto an edge's midpoint."""
    rng = np.random.default_rng(seed)
    points = np.round(star(120, seed, radius=400.0))
    for _ in range(seed % 3):
        k, other = rng.integers(0, len(points), 2)
        points[k] = points[other] if rng.random() < 0.5 else (points[other] + points[(other + 1) % len(points)]) / 2
    steps = np.roll(points, -1, axis=0) - points
    turns = steps[:, 0] * np.roll(steps, 1, axis=0)[:, 1] - steps[:, 1] * np.roll(steps, 1, axis=0)[:, 0]
    folds = (turns == 0) & (np.einsum("ij,ij->i", steps, np.roll(steps, 1, axis=0)) < 0)
    if (steps == 0).all(axis=1).any() or folds.any():
        pytest.skip("a repeated vertex or a zero-width spike: refused before the self-touch check")
    expected = first_touch(points)
    if expected is None:
        vosim.Simulator().add_obstacle(points)
    else:
        with pytest.raises(ValueError, match=rf"edge {expected[0]} .* meets edge {expected[1]} "):
            vosim.Simulator().add_obstacle(points)
