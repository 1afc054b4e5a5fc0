"""Static obstacles: adding them, bad input, containment checks, the spatial
tree (including split vertices) and shapely input."""

import numpy as np
import pytest

import vosim

SQUARE = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]])


def edges_of(table):
    points = table["points"]
    return [(v, points[v], points[n]) for v, n in enumerate(table["next"])]


def brute_force(table, p, range_sq):
    """Every edge of the (split) vertex table facing p within range: {vertex: dist_sq}."""
    found = {}
    for v, a, b in edges_of(table):
        side = (a[0] - p[0]) * (b[1] - a[1]) - (a[1] - p[1]) * (b[0] - a[0])  # > 0: p left of a -> b
        ab = b - a
        t = np.clip(np.dot(p - a, ab) / np.dot(ab, ab), 0.0, 1.0)
        d = float(np.sum((p - (a + t * ab)) ** 2))
        if side < 0 and d < range_sq:
            found[v] = d
    return found


class TestAdding:
    def test_kinds_and_description(self):
        sim = vosim.Simulator()
        assert sim.add_obstacle(SQUARE) == 0
        assert sim.add_obstacle([[5.0, 5.0], [6.0, 5.0]]) == 1  # a segment
        assert sim.add_wall([[10.0, 0.0], [12.0, 0.0], [12.0, 3.0]]) == 2
        assert sim.add_boundary([[-20.0, -20.0], [20.0, -20.0], [20.0, 20.0], [-20.0, 20.0]]) == 3
        kinds = [o.kind for o in sim.obstacles]
        assert kinds == ["polygon", "segment", "wall", "boundary"]
        np.testing.assert_array_equal(sim.obstacles[0].vertices, SQUARE)
        assert not sim.obstacles[0].vertices.flags.writeable
        assert all(o.scene is None for o in sim.obstacles)

    def test_closing_vertex_is_dropped(self):
        sim = vosim.Simulator()
        sim.add_obstacle(np.vstack([SQUARE, SQUARE[:1]]))
        assert len(sim.obstacles[0].vertices) == 4

    def test_wall_chain_is_walked_there_and_back(self):
        sim = vosim.Simulator()
        sim.add_wall([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]])
        table = sim._engine.obstacle_table(-1)
        np.testing.assert_array_equal(table["points"], [[0, 0], [1, 0], [1, 1], [1, 0]])
        # Both sides of the bend: one convex, one not.
        assert table["convex"] == [True, True, True, False]

    def test_boundary_is_stored_clockwise(self):
        sim = vosim.Simulator()
        sim.add_boundary(SQUARE)
        table = sim._engine.obstacle_table(-1)
        np.testing.assert_array_equal(table["points"], SQUARE[::-1])
        assert not any(table["convex"])  # a room's corners are concave seen from the solid

    def test_batch_shared_and_per_scene(self):
        batch = vosim.Batch(scenes=3)
        batch.add_obstacle(SQUARE)
        batch.add_obstacle(SQUARE + 10, scene=1)
        assert [o.scene for o in batch.obstacles] == [None, 1]
        with pytest.raises(ValueError, match="scene is 3; must be < 3"):
            batch.add_obstacle(SQUARE, scene=3)
        with pytest.raises(TypeError, match="scene= is for Batch"):
            vosim.Simulator().add_obstacle(SQUARE, scene=0)


class TestBadInput:
    @pytest.mark.parametrize(
        "vertices, message",
        [
            ([[0.0, 0.0]], r"needs at least 2 vertices \(2 make a segment, 3 or more a polygon\), got 1"),
            ([[0.0, 0.0], [1.0, np.nan], [1.0, 1.0]], r"vertices\[1, 1\] is nan"),
            ([[0.0, 0.0], [0.0, 0.0], [1.0, 1.0]], r"vertices\[1\] repeats vertices\[0\].*zero-length edge"),
            ([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0]], "all vertices are collinear"),
            ([[0.0, 0.0], [2.0, 0.0], [1.0, 0.0], [1.0, 2.0]], "fold back"),
            ([[0.0, 0.0], [2.0, 2.0], [2.0, 0.0], [0.0, 2.0]], "intersects itself"),
            (SQUARE[::-1], "clockwise.*Reverse them, or use add_boundary"),
            ([[0.0, 0.0], [1.0, 1.0], [np.inf, 0.0]], r"vertices\[2, 0\] is inf"),
            ("abc", "vertices: expected real numbers"),
            ([[0.0, 0.0, 1.0], [1.0, 1.0, 1.0]], r"expected shape \(n, 2\)"),
        ],
    )
    def test_bad_polygons(self, vertices, message):
        sim = vosim.Simulator()
        with pytest.raises((ValueError, TypeError), match=message):
            sim.add_obstacle(vertices)
        assert sim.obstacles == ()

    def test_bad_boundary_and_wall(self):
        sim = vosim.Simulator()
        with pytest.raises(ValueError, match="boundary's vertices must be counter-clockwise"):
            sim.add_boundary(SQUARE[::-1])
        with pytest.raises(ValueError, match="at least 2 vertices"):
            sim.add_wall([[0.0, 0.0]])
        with pytest.raises(ValueError, match=r"points\[1\] repeats points\[0\]"):
            sim.add_wall([[0.0, 0.0], [0.0, 0.0]])
        with pytest.raises(ValueError, match="fold back"):
            sim.add_wall([[0.0, 0.0], [2.0, 0.0], [1.0, 0.0]])

    def test_agents_inside_a_new_obstacle_are_refused(self):
        sim = vosim.Simulator()
        sim.add_agents([[1.0, 1.0], [5.0, 5.0], [1.5, 0.5]])
        with pytest.raises(ValueError, match="agents with ids 0, 2 would be inside the obstacle.*strict=False"):
            sim.add_obstacle(SQUARE)
        sim.add_obstacle(SQUARE, strict=False)
        assert len(sim.obstacles) == 1

    def test_new_agents_inside_obstacles_are_refused(self):
        sim = vosim.Simulator()
        sim.add_obstacle(SQUARE)
        with pytest.raises(ValueError, match=r"positions\[1\] lies inside an obstacle"):
            sim.add_agents([[5.0, 5.0], [1.0, 1.0]])
        assert sim.num_agents == 0
        sim.add_agents([[2.0, 1.0], [2.5, 1.0]])  # on the edge, or merely overlapping: fine
        sim.add_agents([[1.0, 1.0]], strict=False)
        assert sim.num_agents == 3

    def test_agents_outside_a_boundary_are_refused(self):
        sim = vosim.Simulator()
        sim.add_agents([[1.0, 1.0], [9.0, 9.0]])
        with pytest.raises(ValueError, match="ids 1 would be outside the boundary"):
            sim.add_boundary(SQUARE)
        sim.add_boundary(SQUARE * 5)
        with pytest.raises(ValueError, match=r"positions\[0\] lies inside an obstacle or outside the boundary"):
            sim.add_agents([[-1.0, 1.0]])

    def test_two_boundaries_are_two_walkable_areas(self):
        sim = vosim.Simulator()
        sim.add_boundary(SQUARE)
        sim.add_boundary(SQUARE + 10)
        sim.add_agents([[1.0, 1.0], [11.0, 11.0]])
        with pytest.raises(ValueError, match="outside the boundary"):
            sim.add_agents([[5.0, 5.0]])

    def test_batch_checks_each_scene(self):
        batch = vosim.Batch(scenes=2)
        batch.add_obstacle(SQUARE, scene=1)
        batch.add_agents(np.array([[[1.0, 1.0]], [[5.0, 5.0]]]))  # inside only in scene 0's space: fine
        with pytest.raises(ValueError, match=r"positions\[1, 0\] lies inside"):
            batch.add_agents(np.array([[[5.0, 1.0]], [[1.0, 1.0]]]))


class TestTree:
    def random_obstacles(self, seed, count=12):
        rng = np.random.default_rng(seed)
        cells = rng.permutation(36)[:count]
        polygons = []
        for c in cells:
            centre = np.array([c % 6, c // 6]) * 10.0 + rng.uniform(-2, 2, 2)
            sides = rng.integers(3, 7)
            angles = np.sort(rng.uniform(0, 2 * np.pi, sides))
            polygons.append(centre + rng.uniform(1.5, 4.0) * np.column_stack([np.cos(angles), np.sin(angles)]))
        return polygons

    @pytest.mark.parametrize("seed", range(6))
    def test_query_equals_brute_force_with_split_vertices(self, seed):
        sim = vosim.Simulator()
        polygons = self.random_obstacles(seed)
        for polygon in polygons:
            sim.add_obstacle(polygon)
        sim.add_wall([[-5.0, 13.0], [57.0, 17.0]])  # a long wall across everything: splits
        table = sim._engine.obstacle_table(-1)
        given = sum(len(p) for p in polygons) + 2
        assert len(table["points"]) > given, "expected the tree to split some edges"
        # Split vertices lie on the edge they split and are convex.
        for v in range(given, len(table["points"])):
            a, b = table["points"][table["prev"][v]], table["points"][table["next"][v]]
            c = table["points"][v] - a
            cross = (b - a)[0] * c[1] - (b - a)[1] * c[0]
            assert abs(cross) <= 1e-9 * np.dot(b - a, b - a) and table["convex"][v]
        rng = np.random.default_rng(100 + seed)
        for p in rng.uniform(-10, 60, (300, 2)):
            reach = rng.uniform(0.5, 15.0)
            found = sim._engine.obstacle_neighbors(0, p[0], p[1], reach)
            expected = brute_force(table, p, reach * reach)
            assert {v for _, v, _ in found} == set(expected)
            distances = [d for _, _, d in found]
            assert distances == sorted(distances)
            for _, v, d in found:
                assert d == pytest.approx(expected[v], rel=1e-12, abs=1e-12)

    def test_tree_is_balanced(self):
        sim = vosim.Simulator()
        for polygon in self.random_obstacles(7, count=30):
            sim.add_obstacle(polygon)
        table = sim._engine.obstacle_table(-1)
        assert table["tree_nodes"] == len(table["points"])
        assert table["tree_depth"] < 4 * np.log2(len(table["points"]))


class TestShapely:
    shapely = pytest.importorskip("shapely")

    def test_walkable_area_with_holes(self):
        from shapely.geometry import Polygon

        room = Polygon([(0, 0), (10, 0), (10, 10), (0, 10)][::-1], holes=[[(2, 2), (4, 2), (4, 4), (2, 4)]])
        sim = vosim.Simulator()
        added = sim.add_obstacles_from(room)
        assert len(added) == 2
        assert [o.kind for o in sim.obstacles] == ["boundary", "polygon"]
        boundary, hole = sim.obstacles
        area = lambda v: 0.5 * np.sum(v[:, 0] * np.roll(v[:, 1], -1) - np.roll(v[:, 0], -1) * v[:, 1])  # noqa: E731
        assert area(boundary.vertices) == 100 and area(hole.vertices) == 4  # both counter-clockwise

    def test_lines_and_solid_polygons(self):
        from shapely.geometry import GeometryCollection, LineString, MultiPolygon, Polygon

        geometry = GeometryCollection([
            LineString([(0, 0), (5, 0), (5, 5)]),
            MultiPolygon([Polygon([(10, 10), (12, 10), (12, 12)]), Polygon([(20, 20), (22, 20), (22, 22)])]),
        ])
        sim = vosim.Simulator()
        sim.add_obstacles_from(geometry, walkable=False)
        assert [o.kind for o in sim.obstacles] == ["wall", "polygon", "polygon"]

    def test_unsupported_geometry(self):
        from shapely.geometry import Point

        with pytest.raises(TypeError, match="cannot make obstacles from Point"):
            vosim.Simulator().add_obstacles_from(Point(0, 0))


def test_points_in_obstacles_says_which_points_are_in_a_solid_or_outside_every_boundary():
    sim = vosim.Simulator()
    sim.add_boundary([[-10.0, -10.0], [10.0, -10.0], [10.0, 10.0], [-10.0, 10.0]])
    sim.add_obstacle([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]])
    sim.add_obstacle([[5.0, 5.0], [6.0, 5.0], [6.0, 6.0], [5.0, 6.0]], velocity=(0.0, 0.0))
    points = [[1.0, 1.0], [3.0, 3.0], [20.0, 0.0], [5.5, 5.5]]
    assert sim.points_in_obstacles(points).tolist() == [True, False, True, True]
    assert sim.points_in_obstacles(points, moving=False).tolist() == [True, False, True, False]
    batch = vosim.Batch(scenes=2)
    batch.add_obstacle([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]], scene=1)
    assert batch.points_in_obstacles([[1.0, 1.0]], scene=0).tolist() == [False]
    assert batch.points_in_obstacles([[1.0, 1.0]], scene=1).tolist() == [True]
    with pytest.raises(TypeError, match="give scene="):
        batch.points_in_obstacles([[1.0, 1.0]])
    with pytest.raises(ValueError, match=r"points: expected shape \(n, 2\)"):
        sim.points_in_obstacles([1.0, 1.0])
    with pytest.raises(ValueError, match="points"):
        sim.points_in_obstacles([[np.nan, 0.0]])
    with pytest.raises(ValueError, match="for 2D simulators"):
        vosim.Simulator(dimensions=3).points_in_obstacles([[0.0, 0.0, 0.0]])
