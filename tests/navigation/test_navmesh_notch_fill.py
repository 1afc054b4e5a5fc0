"""Large spiky obstacles are inflated with their narrow notches filled first
(navigation/_notch_fill.py): the inflated obstacle must hold every point
within the radius of the polygon (safe), and reach at most the documented
extra margin farther than GEOS's exact inflation. Checked here on small
stars and ordinary polygons against GEOS. (The speed is measured by
benchmarks/bench_navmesh_star.py.)"""

import numpy as np
import pytest

import vosim

shapely = pytest.importorskip("shapely")
from shapely.geometry.polygon import orient  # noqa: E402

from vosim.navigation import NavMesh  # noqa: E402
from vosim.navigation._notch_fill import (EXTRA_MARGIN_SHARE, FILL_FROM_VERTICES, fill_notches,  # noqa: E402
                                          inflatable_polygon)

from _star_polygon import star  # noqa: E402

INFLATE = dict(join_style="mitre", mitre_limit=4.0)  # as the navigation mesh inflates


def ordinary_polygon(seed):
    """A simple counter-clockwise polygon with notches of many widths, not star-shaped."""
    rng = np.random.default_rng(seed)
    cloud = shapely.MultiPoint(rng.uniform(0, 10, (120, 2)))
    hull = shapely.concave_hull(cloud, ratio=0.05)
    return np.asarray(orient(hull).exterior.coords)[:-1]


def zigzag_comb(teeth, gap):
    """A comb of ``teeth`` thin teeth ``gap`` apart, counter-clockwise: notches as narrow as ``gap``."""
    width = teeth * gap
    top = []
    for k in range(teeth - 1, -1, -1):
        top += [((k + 1) * gap, 5.0), (k * gap + gap / 2, 1.0)]
    return np.array([(0.0, 0.0), (width, 0.0), *top, (0.0, 5.0)])


def shapes():
    for seed in range(6):
        yield f"star {seed}", star(400, seed, radius=2.0)
    for seed in range(6):
        yield f"ordinary {seed}", ordinary_polygon(seed)
    yield "comb", zigzag_comb(60, 0.05)


def assert_inflation_is_safe(inflated, polygon, radius):
    """Every point within ``radius`` of ``polygon`` is inside ``inflated``.

    Rigorous for polygonal ``inflated``: it holds the polygon and its
    outline keeps at least ``radius`` from it, so a point outside, whose
    straight way to the polygon crosses the outline, is farther. GEOS's
    own exact inflation falls short by up to 2e-7 of the radius (star 2 at
    0.05), hence the relative tolerance.
    """
    assert inflated.covers(polygon)
    rings = [inflated.exterior, *inflated.interiors] if isinstance(inflated, shapely.Polygon) else \
        [r for p in inflated.geoms for r in (p.exterior, *p.interiors)]
    for ring in rings:
        xy = np.asarray(ring.coords)
        edges = shapely.linestrings(np.stack([xy[:-1], xy[1:]], axis=1))
        assert shapely.distance(edges, polygon).min() >= radius * (1 - 1e-6)


@pytest.mark.parametrize("name, vertices", list(shapes()), ids=[name for name, _ in shapes()])
@pytest.mark.parametrize("radius", [0.05, 0.3])
def test_filled_inflation_is_safe_and_within_the_margin(name, vertices, radius):
    vertices = np.asarray(vertices, dtype=float)
    polygon = shapely.Polygon(vertices)
    assert polygon.is_valid and polygon.exterior.is_ccw
    tolerance = EXTRA_MARGIN_SHARE * radius
    filled, bound = fill_notches(vertices, tolerance)
    assert bound <= tolerance
    if radius == 0.3 and not name.startswith("ordinary"):
        assert len(filled) < 0.9 * len(vertices)  # not vacuous: notches were filled
    region = shapely.Polygon(filled)
    if not region.is_valid:  # the caller then inflates exactly; the guarantees below need a simple outline
        return
    # Only vertices removed, in order.
    kept = {tuple(p) for p in vertices}
    assert all(tuple(p) in kept for p in filled)
    # The filled polygon holds the polygon and stays within the tolerance of it.
    assert region.covers(polygon)
    assert region.difference(polygon.buffer(tolerance * 1.001, quad_segs=64)).area <= 1e-12
    # Its inflation is safe, and reaches at most the tolerance beyond GEOS's exact one.
    inflated = region.buffer(radius, **INFLATE)
    exact = polygon.buffer(radius, **INFLATE)
    assert_inflation_is_safe(inflated, polygon, radius)
    assert inflated.difference(exact.buffer(tolerance * 1.001, quad_segs=64)).area <= 1e-9
    # (Its area may be below the exact one's: filled notches leave fewer sharp corners to mitre.)
    assert inflated.covers(polygon.buffer(radius * (1 - 1e-6), quad_segs=32))


def test_narrow_notches_are_filled():
    comb = zigzag_comb(60, 0.05)
    filled, bound = fill_notches(comb, 0.1)
    # Every notch filled: the rectangle's corners and the teeth's tips (collinear) are left.
    assert len(filled) == 2 + 61 and 0 < bound <= 0.1
    assert shapely.Polygon(filled).area == pytest.approx(3.0 * 5.0)
    # Notches far wider than the tolerance stay.
    wide = zigzag_comb(10, 4.0)
    filled, bound = fill_notches(wide, 0.1)
    np.testing.assert_array_equal(filled, wide)
    assert bound == 0.0


def test_small_polygons_are_inflated_exactly():
    vertices = star(FILL_FROM_VERTICES - 1, 3, radius=6.0)
    polygon, tolerance = inflatable_polygon(vertices, 0.3)
    assert tolerance == 0.0
    np.testing.assert_array_equal(np.asarray(polygon.exterior.coords)[:-1], vertices)


def test_a_large_star_meshes_with_the_margin_noted_and_keeps_the_radius():
    points = star(FILL_FROM_VERTICES, 7, radius=20.0)
    sim = vosim.Simulator(0.1)
    sim.add_obstacle(points)
    starts, goals = np.array([[-30.0, -30.0]]), np.array([[30.0, 30.0]])
    mesh = NavMesh.from_simulator(sim, radius=0.3, points=np.vstack([starts, goals]))
    assert mesh.extra_margin == pytest.approx(EXTRA_MARGIN_SHARE * 0.3)
    solid = shapely.Polygon(points)
    assert mesh.area.distance(solid) >= 0.3 * (1 - 1e-9)
    [path] = mesh.plan(starts, goals)
    assert shapely.LineString(np.vstack([starts, path])).distance(solid) >= 0.3 * (1 - 1e-9)


def test_ordinary_maps_are_inflated_exactly():
    sim = vosim.Simulator(0.1)
    sim.add_obstacle([[4, 0.5], [6, 0.5], [6, 9], [4, 9]])
    sim.add_agents([[1.0, 1.0]], radius=0.25)
    mesh = NavMesh.from_simulator(sim, points=[[9.0, 1.0]])
    assert mesh.extra_margin == 0.0
