"""Walls hold whatever the time step and the obstacle horizon.

ORCA's obstacle lines keep an agent out of an edge for ``time_horizon_obst``
seconds; with a horizon shorter than the step (RVO2 takes it as given) one
long step carried agents through walls (dt 5 with the default 3 s horizon:
x 7.9 past a wall at x 5; dt 0.25 with a 0.1 s horizon: x 5.5) while
``max_obstacle_penetration`` said 0. The horizon now counts as at least one
step, for the lines and for the edges the query finds.
"""

import numpy as np
import pytest

import vosim

# Every method of the plane whose walls are hard (ORCA's lines, the others' obstacle guard). SocialForce's
# walls are soft, as in JuPedSim: only its forces hold agents off them, so it is held to a step that
# resolves them (below).
HARD_WALLS = [vosim.ORCA, vosim.VO, vosim.RVO, vosim.HRVO, vosim.AdaptiveSampling, vosim.GridSampling,
              vosim.ForceBased, vosim.AVO, vosim.CollisionFreeSpeed]
RADIUS = 0.25


@pytest.mark.parametrize("time_step, horizon", [(5.0, 3.0), (0.25, 0.1), (1.0, 0.01)])
@pytest.mark.parametrize("method", HARD_WALLS, ids=lambda m: m.__name__)
def test_no_method_walks_through_a_wall(method, time_step, horizon):
    sim = vosim.Simulator(time_step=time_step, method=method())
    sim.add_wall([[5.0, -10.0], [5.0, 10.0]])
    sim.add_agents([[0.0, 0.0], [0.0, 1.0]], goals=[[20.0, 0.0], [20.0, 1.0]], radius=RADIUS, max_speed=2.0,
                   pref_speed=2.0, time_horizon_obst=horizon)
    traj = sim.run(int(40 / time_step))
    x = traj.positions[..., 0]
    assert x.max() <= 5.0 - RADIUS + 1e-9, f"crossed the wall at x 5: reached x {x.max():.3f}"
    assert traj.metrics["max_obstacle_penetration"] <= 1e-9


def test_social_force_holds_a_wall_at_a_step_that_resolves_it():
    """0.05 s, the step vosim validates SocialForce at: the wall's repulsion stops the agent short of it."""
    sim = vosim.Simulator(time_step=0.05, method=vosim.SocialForce())
    sim.add_wall([[5.0, -10.0], [5.0, 10.0]])
    sim.add_agents([[0.0, 0.0]], goals=[[20.0, 0.0]], radius=RADIUS, max_speed=2.0, pref_speed=1.34)
    traj = sim.run(400)
    assert traj.positions[..., 0].max() < 5.0 - RADIUS
    assert traj.metrics["max_obstacle_penetration"] == 0.0


def test_a_horizon_below_the_step_acts_as_one_step():
    """ORCA with any horizon shorter than the step moves as with a horizon of one step (longer ones are RVO2's,
    checked by the parity tests on RVO2's Blocks example)."""
    def run(horizon):
        sim = vosim.Simulator(time_step=0.25)
        sim.add_wall([[5.0, -10.0], [5.0, 10.0]])
        sim.add_agents([[0.0, 0.0]], goals=[[20.0, 0.3]], time_horizon_obst=horizon)
        return sim.run(60).positions
    at_step = run(0.25)
    assert np.array_equal(run(0.1), at_step)
    assert np.array_equal(run(1e-6), at_step)
    assert not np.array_equal(run(2.0), at_step)  # above the step the horizon still matters
