"""3D obstacle shapes: closest points, checks, JSON round trips and the set's queries."""

import json
import sys

import numpy as np
import pytest

import vosim
from vosim.shapes3d import ObstacleSet3D, shape_from_dict

CUBE_CORNERS = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=float)


def random_points(count, seed=0, scale=4.0):
    return np.random.default_rng(seed).uniform(-scale, scale, size=(count, 3))


def test_sphere_distances_are_analytic():
    ball = vosim.Sphere(center=(1, 2, 3), radius=1.5)
    points = random_points(200)
    want = np.linalg.norm(points - ball.center, axis=1) - 1.5
    np.testing.assert_allclose(ball.signed_distance(points), want, atol=1e-12)


def test_half_space_is_solid_behind_its_normal():
    wall = vosim.Plane(point=(2, 0, 0), normal=(-3, 0, 0))  # solid for x > 2
    assert np.allclose(wall.normal, (-1, 0, 0))
    np.testing.assert_allclose(wall.signed_distance([[0, 5, 5], [3, 0, 0]]), [2.0, -1.0])


def test_box_matches_the_hull_of_its_corners_also_turned():
    pytest.importorskip("scipy")
    for euler in [(0, 0, 0), (0.3, -0.7, 1.1)]:
        box = vosim.Box(center=(0.5, -1, 2), half_extents=(1, 0.5, 2), euler=euler)
        hull = vosim.ConvexPolyhedron.from_vertices(box.corners())
        assert len(hull.faces) == 6 and len(hull.vertices) == 8  # coplanar triangles merged
        points = random_points(500, seed=1, scale=5.0)
        a = ObstacleSet3D([box]).nearest(points)
        b = ObstacleSet3D([hull]).nearest(points)
        np.testing.assert_allclose(a.distances, b.distances, atol=1e-9)
        np.testing.assert_allclose(a.points, b.points, atol=1e-9)
        np.testing.assert_allclose(a.normals, b.normals, atol=1e-9)


def test_polyhedron_distances_outside_agree_with_brute_force_on_its_surface():
    pytest.importorskip("scipy")
    rng = np.random.default_rng(2)
    poly = vosim.ConvexPolyhedron.from_vertices(rng.normal(size=(25, 3)))
    # Dense samples of the surface: every face triangulated and filled.
    samples = []
    for face in poly.faces:
        for k in range(1, len(face) - 1):
            a, b, c = face[0], face[k], face[k + 1]
            u, v = np.meshgrid(np.linspace(0, 1, 40), np.linspace(0, 1, 40))
            keep = u + v <= 1
            samples.append(a + u[keep, None] * (b - a) + v[keep, None] * (c - a))
    surface = np.concatenate(samples)
    points = rng.normal(size=(50, 3)) * 4
    got = ObstacleSet3D([poly]).nearest(points)
    outside = got.distances > 0
    assert outside.sum() > 30
    brute = np.min(np.linalg.norm(points[outside, None, :] - surface[None], axis=2), axis=1)
    assert np.all(got.distances[outside] <= brute + 1e-9)           # never farther than a surface sample
    assert np.all(got.distances[outside] >= brute - 0.05)           # and as near as the sampling can tell
    # The closest points lie on the surface, the normals point from them to the query.
    np.testing.assert_allclose(poly.signed_distance(got.points), 0.0, atol=1e-9)
    direction = points[outside] - got.points[outside]
    np.testing.assert_allclose(direction / np.linalg.norm(direction, axis=1)[:, None], got.normals[outside],
                               atol=1e-9)


def test_inside_points_have_negative_distance_to_the_nearest_face():
    cube = vosim.ConvexPolyhedron.from_halfspaces(
        normals=[[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]], offsets=[1] * 6)
    near = ObstacleSet3D([cube]).nearest([[0.5, 0.2, 0.0]])
    assert near.distances[0] == pytest.approx(-0.5)
    np.testing.assert_allclose(near.points[0], (1.0, 0.2, 0.0))
    np.testing.assert_allclose(near.normals[0], (1, 0, 0))


def test_euler_angles_and_matrix_give_the_same_box():
    angle = 0.4
    matrix = [[np.cos(angle), -np.sin(angle), 0], [np.sin(angle), np.cos(angle), 0], [0, 0, 1]]
    assert vosim.Box((0, 0, 0), (1, 2, 3), euler=(0, 0, angle)) == vosim.Box((0, 0, 0), (1, 2, 3), rotation=matrix)
    box = vosim.Box.from_bounds((0, 0, 0), (2, 4, 6))
    np.testing.assert_array_equal(box.center, (1, 2, 3))
    np.testing.assert_array_equal(box.half_extents, (1, 2, 3))


@pytest.mark.parametrize("make, message", [
    (lambda: vosim.Sphere((0, 0, 0), 0), "radius is 0"),
    (lambda: vosim.Sphere((0, np.nan, 0), 1), r"center\[1\] is nan"),
    (lambda: vosim.Sphere((0, 0), 1), "center: expected 3 numbers"),
    (lambda: vosim.Box((0, 0, 0), (1, -1, 1)), r"half_extents\[1\] is -1"),
    (lambda: vosim.Box((0, 0, 0), (1, 1, 1), rotation=np.diag([1, 1, 2])), "not orthonormal"),
    (lambda: vosim.Box((0, 0, 0), (1, 1, 1), rotation=np.diag([1, 1, -1])), "determinant"),
    (lambda: vosim.Box((0, 0, 0), (1, 1, 1), rotation=np.full((3, 3), np.inf)), "rotation"),
    (lambda: vosim.HalfSpace((0, 0, 0), (0, 0, 0)), "normal"),
    (lambda: vosim.ConvexPolyhedron.from_halfspaces([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0]], [1] * 4),
     "bounded"),
    (lambda: vosim.ConvexPolyhedron.from_halfspaces(
        [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]], [0, 0, 1, 1, 1, 1]), "no solid"),
    (lambda: vosim.ConvexPolyhedron.from_halfspaces([[1, 0, 0]] * 3, [1] * 3), r"n >= 4"),
    (lambda: vosim.ConvexPolyhedron.from_halfspaces([[1, 0, 0]] * 513, [1] * 513), "at most 512"),
    (lambda: vosim.ConvexPolyhedron.from_halfspaces(np.eye(3).tolist() + [[0, 0, 0]], [1] * 4), r"normals\[3\]"),
])
def test_bad_shapes_raise_naming_the_argument(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_coplanar_vertices_are_refused():
    pytest.importorskip("scipy")
    flat = [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0], [0.5, 0.5, 0]]
    with pytest.raises(ValueError, match="coplanar"):
        vosim.ConvexPolyhedron.from_vertices(flat)


def test_from_vertices_without_scipy_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy.spatial", None)
    with pytest.raises(ImportError, match=r"vosim\[geometry3d\]"):
        vosim.ConvexPolyhedron.from_vertices(CUBE_CORNERS)


def test_shapes_round_trip_through_json():
    shapes = [
        vosim.HalfSpace((0, 0, 0), (0, 0, 1)),
        vosim.Box((1, 2, 3), (0.5, 0.25, 2), euler=(0.1, 0.2, 0.3)),
        vosim.Sphere((0.1, 0.2, 0.3), 0.7),
        vosim.ConvexPolyhedron.from_halfspaces(
            [[-1, 0, 0], [0, -1, 0], [0, 0, -1], [1, 1, 1]], [0, 0, 0, 1]),
    ]
    for shape in shapes:
        again = shape_from_dict(json.loads(json.dumps(shape.to_dict())))
        assert again == shape and type(again) is type(shape)
    with pytest.raises(ValueError, match="shape type is 'cone'"):
        shape_from_dict({"type": "cone"})
    with pytest.raises(ValueError, match="sphere"):
        shape_from_dict({"type": "sphere", "center": [0, 0, 0]})


def test_query_returns_surfaces_within_range_nearest_first():
    obstacles = ObstacleSet3D([
        vosim.HalfSpace((0, 0, 0), (0, 0, 1)),
        vosim.Sphere((5, 0, 1), 1),
        vosim.Box((-5, 0, 1), (1, 1, 1)),
    ])
    near = obstacles.query((3.5, 0, 1), range=2.0)
    assert near.ids.tolist() == [1, 0]
    np.testing.assert_allclose(near.distances, [0.5, 1.0])
    np.testing.assert_allclose(near.points[0], (4, 0, 1))
    assert obstacles.query((0, 0, 40), range=5).ids.size == 0
    obstacles.remove(1)
    assert obstacles.query((3.5, 0, 1), range=2.0).ids.tolist() == [0]
    with pytest.raises(ValueError, match="obstacle id 1"):
        obstacles.remove(1)
    with pytest.raises(TypeError, match="shape"):
        obstacles.add([[0, 0, 0]])


def test_many_shapes_query_like_a_scan():
    """Past a few dozen shapes the set culls with a grid; it must find what a scan of every shape finds."""
    rng = np.random.default_rng(3)
    shapes = []
    for k in range(300):
        center = rng.uniform(0, 30, 3)
        if k % 3 == 0:
            shapes.append(vosim.Sphere(center, rng.uniform(0.2, 3)))
        else:
            shapes.append(vosim.Box(center, rng.uniform(0.1, 2, 3), euler=rng.uniform(-3, 3, 3)))
    obstacles = ObstacleSet3D(shapes)
    distances = np.array([shape.signed_distance(random_points(1, seed=99, scale=15) + 15)[0] for shape in shapes])
    point = random_points(1, seed=99, scale=15)[0] + 15
    for reach in (0.0, 1.0, 4.0, 12.0):
        got = obstacles.query(point, range=reach)
        assert sorted(got.ids.tolist()) == np.flatnonzero(distances <= reach).tolist()
        assert np.all(np.diff(got.distances) >= 0)
    # Every probe of a cloud, range 3: the same sets as the brute force.
    probes = rng.uniform(-5, 35, size=(100, 3))
    table = np.stack([shape.signed_distance(probes) for shape in shapes], axis=1)
    for probe, row in zip(probes, table):
        assert sorted(obstacles.query(probe, range=3.0).ids.tolist()) == np.flatnonzero(row <= 3.0).tolist()


def test_penetrating_finds_spheres_that_start_inside_or_touch_deeper_than_radius():
    obstacles = ObstacleSet3D([vosim.HalfSpace((0, 0, 0), (0, 0, 1)), vosim.Sphere((0, 0, 5), 1)])
    ids = obstacles.penetrating([[0, 0, 0.4], [0, 0, 0.6], [0, 0, 6.2], [0, 0, 5]], radius=0.5)
    assert ids.tolist() == [0, -1, 1, 1]
    with pytest.raises(ValueError, match=r"radius\[0\] is -1"):
        obstacles.penetrating([[0, 0, 3]], radius=-1)
    empty = ObstacleSet3D()
    assert empty.nearest([[0, 0, 0]]).ids.tolist() == [-1]
    assert empty.penetrating(np.zeros((0, 3))).size == 0


# ------------------------------------------------------------------ fuzzing
from hypothesis import given, strategies as st  # noqa: E402

NUMBERS = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0.0, -0.0, 1e-300, 1e15, 1e16]))
VECTORS = st.lists(NUMBERS, min_size=3, max_size=3)


def made_or_refused(make):
    """The shape, or None when it was refused with a ValueError (never another error, never a crash)."""
    try:
        return make()
    except ValueError:
        return None


@given(center=VECTORS, size=VECTORS, radius=NUMBERS, angles=VECTORS)
def test_any_numbers_make_a_shape_or_a_clear_error(center, size, radius, angles):
    probes = np.array([[0.0, 0.0, 0.0], [1e3, -2e3, 5.0]])
    for make in (lambda: vosim.Sphere(center, radius), lambda: vosim.Box(center, size),
                 lambda: vosim.Box(center, size, euler=angles), lambda: vosim.HalfSpace(center, size)):
        shape = made_or_refused(make)
        if shape is not None:
            assert np.all(np.isfinite(shape.signed_distance(probes)))


@given(st.lists(st.tuples(VECTORS, NUMBERS), min_size=4, max_size=9))
def test_any_half_spaces_make_a_polyhedron_or_a_clear_error(planes):
    shape = made_or_refused(lambda: vosim.ConvexPolyhedron.from_halfspaces([n for n, _ in planes],
                                                                            [d for _, d in planes]))
    if shape is not None:
        assert len(shape.faces) >= 4
        assert np.all(np.isfinite(shape.signed_distance(shape.vertices)))
        np.testing.assert_allclose(shape.signed_distance(shape.vertices), 0.0, atol=1e-6 * (1 + np.abs(shape.offsets).max()))
