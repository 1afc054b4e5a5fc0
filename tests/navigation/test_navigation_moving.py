"""Planners plan around live static obstacles only: moving obstacles are avoided locally, removed ones are gone."""

import numpy as np
import pytest

shapely = pytest.importorskip("shapely")
if not hasattr(shapely, "constrained_delaunay_triangles"):
    pytest.skip("vosim.navigation needs shapely >= 2.1", allow_module_level=True)

import vosim  # noqa: E402
from vosim.navigation import NavMesh, Roadmap  # noqa: E402

from test_navigation import RADIUS, maze  # noqa: E402


def maze_with_extras() -> vosim.Simulator:
    """The maze, plus moving obstacles over its corners and a removed one closing its passages."""
    sim = maze()
    sim.add_obstacle([[6.5, 6.5], [8.0, 6.5], [8.0, 8.0], [6.5, 8.0]], velocity=(0.0, 0.5))  # over a corner
    sim.add_wall([[12.0, 2.0], [15.0, 2.0], [15.0, 3.5]], velocity=(0.1, 0.0))
    sim.add_obstacle([[2.0, 4.0], [3.0, 4.0], [3.0, 5.0]], velocity=(0.0, 0.0))  # standing still
    sim.remove_obstacle(sim.add_obstacle([[7.0, 7.0], [13.0, 7.0], [13.0, 9.8], [7.0, 9.8]]))
    sim.remove_obstacle(sim.add_obstacle([[9.0, 1.0], [10.0, 1.0], [10.0, 2.0]], velocity=(1.0, 0.0)))
    sim.run(3)  # the moving ones have moved
    return sim


def test_the_roadmap_ignores_moving_and_removed_obstacles():
    plain = Roadmap.from_simulator(maze(), radius=RADIUS, clearance=0.1)
    roadmap = Roadmap.from_simulator(maze_with_extras(), radius=RADIUS, clearance=0.1)
    assert np.array_equal(roadmap.points, plain.points)
    assert np.array_equal(roadmap.edges, plain.edges)
    assert len(roadmap.obstacles) == 3


def test_the_navmesh_ignores_moving_and_removed_obstacles():
    plain = NavMesh.from_simulator(maze(), radius=RADIUS)
    mesh = NavMesh.from_simulator(maze_with_extras(), radius=RADIUS)
    assert mesh.area.equals(plain.area)
    assert np.array_equal(mesh.triangles, plain.triangles)
    start, goal = [[2.0, 8.0]], [[18.0, 2.0]]
    assert np.array_equal(mesh.plan(start, goal)[0], plain.plan(start, goal)[0])


@pytest.mark.parametrize("plan", ["roadmap", "navmesh"])
def test_a_moving_obstacle_on_the_way_is_not_planned_around_but_avoided(plan):
    sim = vosim.Simulator(time_step=0.1)
    sim.add_boundary([[-10.0, -5.0], [10.0, -5.0], [10.0, 5.0], [-10.0, 5.0]])
    # A cart on the straight line, leaving it upwards.
    sim.add_obstacle([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]], velocity=(0.0, 0.4))
    [agent] = sim.add_agents([[-8.0, 0.0]], radius=RADIUS, max_speed=1.2, pref_speed=1.0)
    sim.set_goals([agent], [[8.0, 0.0]], plan=plan)
    assert sim.waypoints_remaining.tolist() == [0]  # straight for the goal
    assert sim.goals.tolist() == [[8.0, 0.0]]
    traj = sim.run(250)
    assert np.linalg.norm(sim.positions[0] - [8.0, 0.0]) <= sim.arrival_radius[0]
    assert traj.metrics["obstacle_agent_steps"] == 0
