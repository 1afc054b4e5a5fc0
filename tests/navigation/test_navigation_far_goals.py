"""set_goals(plan="navmesh") without a boundary: the free-space box holds the
goals being set, not only the goals the agents had (a goal more than the
margin away was refused, blaming an obstacle)."""

import numpy as np
import pytest

import vosim

pytest.importorskip("shapely")


@pytest.mark.parametrize("plan", ["navmesh", "roadmap"])
def test_a_goal_far_outside_the_known_box_is_planned_to(plan):
    sim = vosim.Simulator(0.1)
    sim.add_obstacle([[20.0, 15.0], [30.0, 15.0], [30.0, 35.0], [20.0, 35.0]])  # across the straight line
    sim.add_agents([[0.0, 0.0], [1.0, 0.0]], radius=0.3)
    sim.set_goals(sim.ids, [[50.0, 50.0], [-40.0, 60.0]], plan=plan)
    traj = sim.run(1500, until_arrived=True)
    assert traj.all_arrived
    np.testing.assert_allclose(sim.positions, [[50.0, 50.0], [-40.0, 60.0]], atol=0.5)
    assert traj.min_obstacle_clearance_per_frame().min() > -1e-5
