"""Large obstacle maps: the edge grid that replaces RVO2's tree above
``EXACT_TREE_MAX_EDGES`` edges, and the self-intersection check of large
polygons. Both must give exactly what the small-map code gives."""

from __future__ import annotations

import numpy as np
import pytest

import vosim
from vosim import _core

from _star_polygon import star

LIMIT = _core.EXACT_TREE_MAX_EDGES


def expected_neighbors(table, p, range_sq):
    """Every edge facing p within range, nearest first, equal distances by vertex: [(vertex, dist_sq)]."""
    a = table["points"]
    b = a[table["next"]]
    side = (a[:, 0] - p[0]) * (b[:, 1] - a[:, 1]) - (a[:, 1] - p[1]) * (b[:, 0] - a[:, 0])
    ab = b - a
    t = np.clip(np.einsum("ij,ij->i", p - a, ab) / np.einsum("ij,ij->i", ab, ab), 0.0, 1.0)
    d = np.sum((p - (a + t[:, None] * ab)) ** 2, axis=1)
    hits = np.flatnonzero((side < 0) & (d < range_sq))
    return sorted(((int(v), float(d[v])) for v in hits), key=lambda item: (item[1], item[0]))


def assert_same_neighbors(found, expected):
    """The engine's [(set, vertex, dist_sq)] holds the expected edges, nearest first, ties by vertex."""
    assert [v for _, v, _ in found] == [v for v, _ in expected] or \
        sorted(v for _, v, _ in found) == sorted(v for v, _ in expected)  # near-ties may swap by round-off
    assert [(d, v) for _, v, d in found] == sorted((d, v) for _, v, d in found)
    exact = dict(expected)
    for _, v, d in found:
        assert d == pytest.approx(exact[v], rel=1e-12, abs=1e-12)


def first_crossing(points):
    """The first pair of non-adjacent edges that touch, as the small-polygon check finds it."""
    n = len(points)

    def orient(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    def touch(a, b, c, d):
        o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
        return o1 * o2 < 0 and o3 * o4 < 0  # proper crossings only: enough for these polygons

    for i in range(n):
        for j in range(i + 2, n):
            if not (i == 0 and j == n - 1) and touch(points[i], points[(i + 1) % n], points[j], points[(j + 1) % n]):
                return i, j
    return None


class TestIndexChoice:
    def test_small_maps_keep_the_tree_and_large_ones_use_the_grid(self):
        small, large = vosim.Simulator(), vosim.Simulator()
        small.add_obstacle(star(LIMIT, seed=1))
        large.add_obstacle(star(LIMIT + 1, seed=1))
        small_table, large_table = small._engine.obstacle_table(-1), large._engine.obstacle_table(-1)
        assert small_table["index"] == "tree" and small_table["tree_nodes"] >= LIMIT
        assert large_table["index"] == "grid" and large_table["tree_nodes"] == 0
        # No split vertices on the grid: the table is the polygon as given.
        np.testing.assert_array_equal(large_table["points"], star(LIMIT + 1, seed=1))

    def test_walls_count_twice(self):
        sim = vosim.Simulator()
        wall = np.column_stack([np.arange(LIMIT // 2 + 2), np.zeros(LIMIT // 2 + 2)]).astype(float)
        wall[1::2, 1] = 0.5  # a zigzag: no collinear vertices
        sim.add_wall(wall)
        table = sim._engine.obstacle_table(-1)
        assert len(table["points"]) == 2 * len(wall) - 2 > LIMIT
        assert table["index"] == "grid"


class TestGridQuery:
    @pytest.mark.parametrize("seed", range(4))
    def test_query_equals_brute_force_in_order(self, seed):
        sim = vosim.Simulator()
        sim.add_obstacle(star(3000, seed))
        sim.add_obstacle(star(40, seed + 10, centre=(120.0, 0.0), radius=10.0))
        sim.add_wall([[-80.0, -70.0], [140.0, 60.0], [160.0, -40.0]])  # crosses cells diagonally
        sim.add_boundary([[-200.0, -200.0], [200.0, -200.0], [200.0, 200.0], [-200.0, 200.0]])
        table = sim._engine.obstacle_table(-1)
        assert table["index"] == "grid"
        rng = np.random.default_rng(seed)
        corners = table["points"][rng.choice(len(table["points"]), 100)]
        points = np.concatenate([rng.uniform(-210, 210, (150, 2)), corners[:50], corners[50:] + rng.normal(0, 0.01, (50, 2))])
        for p in points:
            reach = float(rng.choice([0.05, 1.0, 5.0, 30.0, 500.0]))
            found = sim._engine.obstacle_neighbors(0, p[0], p[1], reach)
            assert_same_neighbors(found, expected_neighbors(table, p, reach * reach))

    def test_far_away_and_huge_ranges(self):
        sim = vosim.Simulator()
        sim.add_obstacle(star(2000, 5))
        table = sim._engine.obstacle_table(-1)
        assert sim._engine.obstacle_neighbors(0, 1e6, 1e6, 10.0) == []
        everything = sim._engine.obstacle_neighbors(0, 1e6, 1e6, 1e9)
        assert_same_neighbors(everything, expected_neighbors(table, np.array([1e6, 1e6]), 1e18))
        assert len(everything) > 0

    @pytest.mark.parametrize("large_shared", [True, False])
    def test_shared_and_scene_sets_merge_with_shared_first_at_ties(self, large_shared):
        batch = vosim.Batch(scenes=2)
        big, small = star(1500, 3), star(30, 4, radius=20.0)
        batch.add_obstacle(big if large_shared else small)
        batch.add_obstacle(small if large_shared else big, scene=1)
        shared, own = batch._engine.obstacle_table(-1), batch._engine.obstacle_table(1)
        assert (shared["index"], own["index"]) == (("grid", "tree") if large_shared else ("tree", "grid"))
        rng = np.random.default_rng(2)
        for p in rng.uniform(-60, 60, (200, 2)):
            found = batch._engine.obstacle_neighbors(1, p[0], p[1], 15.0)
            expected = {(-1, v): d for v, d in expected_neighbors(shared, p, 225.0)}
            expected |= {(1, v): d for v, d in expected_neighbors(own, p, 225.0)}
            distances = [d for _, _, d in found]
            assert distances == sorted(distances)
            # As sets they match; among equal distances shared edges come first.
            assert {(s, v) for s, v, _ in found} == set(expected) and len(found) == len(expected)
            for s, v, d in found:
                assert d == pytest.approx(expected[s, v], rel=1e-12, abs=1e-12)
            for (s1, _, d1), (s2, _, d2) in zip(found, found[1:]):
                assert not (d1 == d2 and s1 == 1 and s2 == -1)


class TestLargePolygonCheck:
    def test_large_simple_polygons_are_accepted(self):
        sim = vosim.Simulator()
        sim.add_obstacle(star(20_000, 7))
        sim.add_boundary(star(20_000, 8, radius=200.0) * np.array([1.0, 1.0]) * 4)
        assert sim._engine.obstacle_table(-1)["index"] == "grid"

    @pytest.mark.parametrize("seed", range(3))
    def test_crossings_are_found_and_named_as_for_small_polygons(self, seed):
        points = star(200, seed)
        rng = np.random.default_rng(seed)
        i, j = sorted(rng.choice(200, 2, replace=False))
        points[[i, j]] = points[[j, i]]  # swapping two vertices far apart makes edges cross
        expected = first_crossing(points)
        assert expected is not None
        with pytest.raises(ValueError, match=rf"vertices: the polygon intersects itself: edge {expected[0]} .* "
                                             rf"meets edge {expected[1]} "):
            vosim.Simulator().add_obstacle(points)

    def test_touching_vertex_is_a_crossing(self):
        points = star(500, 9)
        points[300] = points[100]  # two non-adjacent vertices on the same spot
        with pytest.raises(ValueError, match="intersects itself: edge 99 .* meets edge 299 "):
            vosim.Simulator().add_obstacle(points)


class TestRunsOnLargeMaps:
    def make(self, method=None):
        # A comb of walls: 30 teeth of 40 zigzag vertices, agents walking across them.
        sim = vosim.Simulator(time_step=0.25, method=method or vosim.ORCA())
        for k in range(30):
            x = np.linspace(0, 60, 40)
            sim.add_wall(np.column_stack([x, 4.0 * k + 0.3 * (np.arange(40) % 2)]))
        rng = np.random.default_rng(0)
        starts = np.column_stack([rng.uniform(2, 58, 200), 4.0 * rng.integers(0, 29, 200) + 2.0])
        sim.add_agents(starts, goals=starts[::-1] + (0.0, 0.0), radius=0.4, max_speed=1.5, pref_speed=1.0,
                       neighbor_dist=5.0, max_neighbors=8, time_horizon=2.0, time_horizon_obst=2.0)
        return sim

    def test_orca_agents_do_not_penetrate_walls(self):
        sim = self.make()
        assert sim._engine.obstacle_table(-1)["index"] == "grid"
        traj = sim.run(120)
        assert traj.metrics["max_obstacle_penetration"].max() <= 1e-6

    def test_same_result_for_any_thread_count(self):
        results = []
        for threads in (1, 2, 3):
            vosim.set_num_threads(threads)
            sim = self.make()
            sim.run(40, metrics=False)
            results.append(np.array(sim.positions))
        for other in results[1:]:
            np.testing.assert_array_equal(results[0], other)
