"""Navigation meshes far from the origin: a room at 1e12 is meshed as at 0;
at 1e14 the shrink by the agents' radius is below what float64 geometry
resolves there, and the error says so (it blamed the obstacles' edges)."""

import numpy as np
import pytest

import vosim

shapely = pytest.importorskip("shapely")
from vosim.navigation import NavMesh  # noqa: E402


def room_sim(offset):
    sim = vosim.Simulator(0.1)
    sim.add_boundary(np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]]) + offset)
    sim.add_obstacle(np.array([[4.0, 0.0], [6.0, 0.0], [6.0, 8.0], [4.0, 8.0]]) + offset)
    sim.add_agents(np.array([[1.0, 1.0]]) + offset, radius=0.3)
    return sim


def test_a_room_at_1e12_is_planned_around_its_wall():
    sim = room_sim(1e12)
    goal = np.array([[9.0, 1.0]]) + 1e12
    sim.set_goals([0], goal, plan="navmesh")
    assert sim.waypoints_remaining[0] >= 2  # the wall's two upper corners before the goal
    traj = sim.run(1000, until_arrived=True)
    assert traj.all_arrived
    np.testing.assert_allclose(sim.positions - 1e12, goal - 1e12, atol=0.5)
    assert traj.min_obstacle_clearance_per_frame().min() > -1e-3


def test_a_room_at_1e14_is_refused_naming_the_coordinates_and_the_radius():
    sim = room_sim(1e14)
    with pytest.raises(ValueError, match=r"sim: coordinates up to 1e\+14 are too large to mesh at "
                                         r"radius \+ clearance 0\.3 .*100 here"):
        sim.set_goals([0], np.array([[9.0, 1.0]]) + 1e14, plan="navmesh")


def test_an_area_1e14_wide_is_refused_the_same_way():
    half = 5e13
    area = shapely.box(-half, -half, half, half)
    with pytest.raises(ValueError, match=r"walkable: coordinates up to 5e\+13 .* radius \+ clearance 0\.3"):
        NavMesh.from_polygon(area, radius=0.3)


def test_a_small_area_too_narrow_for_the_radius_still_blames_the_edges():
    with pytest.raises(ValueError, match="walkable: no walkable area is left 0.6 from the obstacles' edges"):
        NavMesh.from_polygon(shapely.box(0.0, 0.0, 1.0, 1.0), radius=0.6)
