"""A navigation mesh round one large, spiky polygon (a star of thousands of
vertices): the paths go round it and keep the radius from every edge.
(How long it takes is measured by benchmarks/bench_navmesh_star.py.)"""

import numpy as np
import pytest

import vosim

shapely = pytest.importorskip("shapely")
from vosim.navigation import NavMesh  # noqa: E402

from _star_polygon import star  # noqa: E402


def test_paths_round_a_3000_vertex_star_keep_the_radius():
    points = star(3000, 7)
    sim = vosim.Simulator(0.1)
    sim.add_obstacle(points)
    starts = np.array([[-70.0, -70.0], [70.0, -70.0], [0.0, -75.0]])
    goals = np.array([[70.0, 70.0], [-70.0, 70.0], [0.0, 75.0]])
    mesh = NavMesh.from_simulator(sim, radius=0.3, points=np.vstack([starts, goals]))
    solid = shapely.Polygon(points)
    for start, goal, path in zip(starts, goals, mesh.plan(starts, goals)):
        route = shapely.LineString(np.vstack([start, path]))
        assert route.distance(solid) >= 0.3 * (1 - 1e-9)
        # Round the star (radius at most 50), not far out of the way: at most half a circle of 51 m
        # between the two tangents.
        assert route.length < 2 * np.sqrt(np.sum(start**2) - 51**2) + np.pi * 51
    np.testing.assert_array_equal([p[-1] for p in mesh.plan(starts, goals)], goals)
