"""Regression tests of an adversarial pass: speed zones inside the checks,
preferred velocities that never compound, and method parameters whose maths
stays finite over their whole accepted range."""

import numpy as np
import pytest

import vosim

EVERYWHERE = [[-100.0, -100.0], [100.0, -100.0], [100.0, 100.0], [-100.0, 100.0]]
PLANE_METHODS = [vosim.ORCA, vosim.VO, vosim.RVO, vosim.HRVO, vosim.AdaptiveSampling, vosim.GridSampling,
                 vosim.ForceBased, vosim.AVO, vosim.CollisionFreeSpeed, vosim.SocialForce]


@pytest.mark.parametrize("method", PLANE_METHODS, ids=lambda m: m.__name__)
def test_512_stacked_zones_of_factor_4_scale_by_4_in_all(method):
    """4**512 overflowed to inf: HRVO crashed, ORCA and the force models
    reported an internal error, the samplers froze the agent."""
    sim = vosim.Simulator(time_step=0.1, method=method())
    sim.add_agents([[0.0, 0.0]], goals=[[50.0, 0.0]], pref_speed=1.0, max_speed=10.0)
    for _ in range(512):
        sim.add_speed_zone(EVERYWHERE, 4)
    sim.run(3)
    assert np.allclose(sim.pref_velocities, [[4.0, 0.0]], atol=0.1)  # capped at one zone's largest factor
    assert np.isfinite(sim.positions).all() and sim.positions[0, 0] > 0.0  # (some methods accelerate)


def test_a_zone_whose_product_leaves_the_working_range_is_refused_by_name():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0]], goals=[[1e15, 0.0]], pref_speed=1e15, max_speed=1e15)
    sim.add_speed_zone(EVERYWHERE, 4)
    with pytest.raises(ValueError, match=r"agent id 0 .*preferred velocity from its goal is \(4e\+15, 0\).*speed zones"):
        sim.run(1)
    assert sim.step_count == 0
    assert sim.positions.tolist() == [[0.0, 0.0]]


@pytest.mark.parametrize("factor", [0.5, 4.0])
def test_a_zone_leaves_a_preferred_velocity_set_by_hand_as_set(factor):
    """It was multiplied in place every step: 0.5 gave 9e-13 m/s after 40
    steps, 4 was refused at step 25."""
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0]], max_speed=10.0)
    sim.pref_velocities = [[1.0, 0.0]]
    sim.add_speed_zone(EVERYWHERE, factor)
    sim.run(40)
    assert sim.pref_velocities.tolist() == [[1.0, 0.0]]
    assert sim.velocities[0, 0] == pytest.approx(1.0)


def test_a_zone_still_scales_goal_seekers_every_step_the_same():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0]], goals=[[50.0, 0.0]], pref_speed=1.0, max_speed=10.0)
    sim.add_speed_zone(EVERYWHERE, 0.5)
    for _ in range(30):
        sim.step()
        assert sim.pref_velocities[0, 0] == pytest.approx(0.5)


CROWD = [[0.0, 0.0], [0.1, 0.0], [0.0, 0.1], [5.0, 5.0]]


def run_overlapping(method, radius=0.3, steps=5):
    sim = vosim.Simulator(time_step=0.1, method=method)
    sim.add_agents(CROWD, goals=np.asarray(CROWD)[::-1], radius=radius)
    sim.add_obstacle([[1.0, -1.0], [2.0, -1.0], [2.0, 1.0], [1.0, 1.0]])
    sim.run(steps)
    return sim


@pytest.mark.parametrize("method", [vosim.SocialForce(force_distance=0.001), vosim.SocialForce(force_distance=1e-300),
                                    vosim.CollisionFreeSpeed(neighbor_range=1e-4),
                                    vosim.CollisionFreeSpeed(wall_range=1e-300)], ids=repr)
def test_tiny_repulsion_ranges_stay_finite(method):
    """Each gave 'internal error ... Please report this'."""
    sim = run_overlapping(method)
    assert np.isfinite(sim.positions).all() and np.isfinite(sim.velocities).all()


@pytest.mark.parametrize("method", [vosim.SocialForce, vosim.CollisionFreeSpeed], ids=lambda m: m.__name__)
def test_huge_radii_stay_finite(method):
    sim = run_overlapping(method(), radius=30.0)
    assert np.isfinite(sim.positions).all() and np.isfinite(sim.velocities).all()


@pytest.mark.parametrize("name", ["mass", "reaction_time"])
def test_social_force_refuses_a_mass_or_reaction_time_below_its_range(name):
    """1e-300 was accepted and nobody moved."""
    with pytest.raises(ValueError, match=name):
        vosim.SocialForce(**{name: 1e-300})
    sim = run_overlapping(vosim.SocialForce(**{name: 1e-3}), steps=3)  # the smallest accepted
    assert np.isfinite(sim.positions).all()
