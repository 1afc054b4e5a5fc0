"""The collision-free speed model (Tordeux, Chraibi, Seyfried 2016): the
headway law in single file, avoidance, walls, no overlaps at a bottleneck,
determinism, parameter checks."""

import numpy as np
import pytest

import vosim
from vosim import scenarios

from _pedestrian_models import (assert_agents_stay_inside_a_corridor, bottleneck_bytes_per_thread_count,
                                deepest_overlap)


def single_file(gaps, time_gap=1.0):
    """Agents of radius 0.25 on the x axis in a 2 m corridor, the leader first, gaps (centre to centre) behind it."""
    sim = vosim.Simulator(time_step=0.1, method=vosim.CollisionFreeSpeed(time_gap=time_gap))
    xs = 100.0 - np.concatenate([[0.0], np.cumsum(gaps)])
    starts = np.stack([xs, np.zeros_like(xs)], axis=1)
    goals = starts + [1000.0, 0.0]
    sim.add_agents(starts, goals=goals, radius=0.25, max_speed=2.0, pref_speed=1.34, neighbor_dist=5.0)
    return sim


def test_speeds_follow_the_headway_law_in_single_file():
    gaps = [0.8, 1.0, 1.2, 3.0]  # spacings 0.3, 0.5, 0.7 and more than v0 * T
    sim = single_file(gaps, time_gap=1.0)
    sim.step()
    speeds = np.linalg.norm(sim.velocities, axis=1)
    expected = [1.34] + [min(gap - 0.5, 1.34) for gap in gaps]
    np.testing.assert_allclose(speeds, expected, atol=1e-12)
    # Straight on: the one ahead pushes the direction only along the axis.
    np.testing.assert_allclose(sim.velocities[:, 1], 0.0, atol=1e-12)


def test_time_gap_scales_the_speed():
    sim = single_file([1.0], time_gap=2.0)
    sim.step()
    assert np.linalg.norm(sim.velocities[1]) == pytest.approx((1.0 - 0.5) / 2.0)


def test_followers_never_reach_the_leader_in_single_file():
    sim = single_file([0.6] * 6)
    xs = []
    for _ in range(200):
        sim.step()
        xs.append(sim.positions[:, 0].copy())
    gaps = -np.diff(np.array(xs), axis=1)
    assert gaps.min() >= 0.5 - 1e-9


def test_head_on_pair_passes_without_contact():
    sim = vosim.Simulator(time_step=0.1, method="csm")
    sim.add_agents([[-5.0, 0.05], [5.0, -0.05]], goals=[[5.0, 0.05], [-5.0, -0.05]], radius=0.25, max_speed=2.0,
                   pref_speed=1.34, neighbor_dist=5.0)
    closest = np.inf
    for _ in range(150):
        sim.step()
        closest = min(closest, np.linalg.norm(sim.positions[0] - sim.positions[1]))
    assert closest >= 0.5 - 1e-9
    assert sim.positions[0, 0] > 4.0 and sim.positions[1, 0] < -4.0  # both got past


def test_overlaps_stay_small_at_a_bottleneck():
    # The speed law keeps the spacing ahead; only the discrete step and
    # sideways pushes let bodies overlap, as in JuPedSim's model (measured:
    # 0.0106 m; none with wall_hold, whose agents slide along the door's
    # walls instead of being turned by both).
    sim = scenarios.bottleneck(40).build(vosim.CollisionFreeSpeed())
    assert deepest_overlap(sim, 300) < 0.02


def test_agents_stay_inside_a_corridor():
    assert_agents_stay_inside_a_corridor(vosim.CollisionFreeSpeed())


def test_bit_identical_for_any_thread_count():
    if not vosim.have_threads():
        pytest.skip("built without threads")
    results = bottleneck_bytes_per_thread_count(vosim.CollisionFreeSpeed)
    assert results[0] == results[1] == results[2]


def test_the_registry_knows_it():
    assert vosim.methods.METHOD_ALIASES["csm"] == "CollisionFreeSpeed"
    assert isinstance(vosim.Simulator(method="csm").method, vosim.CollisionFreeSpeed)
    assert vosim.CollisionFreeSpeed().to_dict()["time_gap"] == 1.0


@pytest.mark.parametrize("name, value", [("time_gap", 0.0), ("time_gap", np.nan), ("neighbor_strength", -1.0),
                                         ("neighbor_range", 0.0), ("wall_strength", np.inf), ("wall_range", -0.1)])
def test_bad_parameters_are_refused_by_name(name, value):
    with pytest.raises(ValueError, match=name):
        vosim.CollisionFreeSpeed(**{name: value})


@pytest.mark.parametrize("time_step", [0.1, 0.01])
def test_an_agent_pressed_against_a_wall_stops_instead_of_stepping_back_and_forth(time_step):
    # The goal straight behind a wall: the wall's push balances the preferred
    # direction at a distance from it. Stepping at full speed across that
    # point and back (0.134 m each way at dt 0.1) read as 1.34 m/s of speed
    # with no progress; the model's motion stops there.
    sim = vosim.Simulator(time_step=time_step, method=vosim.CollisionFreeSpeed())
    sim.add_obstacle([(0, 0), (4, 0), (4, 4), (0, 4)])
    sim.add_agents([[-1.0, 2.0]], goals=[[5.0, 2.0]], radius=0.25, pref_speed=1.34, max_speed=2.0)
    traj = sim.run(int(round(20.0 / time_step)), record_every=1)
    last_second = traj.positions[-int(round(1.0 / time_step)):, 0]
    travelled = np.linalg.norm(np.diff(last_second, axis=0), axis=1).sum()
    assert travelled < 1e-6
    assert np.linalg.norm(sim.velocities[0]) < 1e-6
    assert -0.5 < sim.positions[0, 0] < -0.25  # held off the wall, where its push balances the goal's pull
    assert traj.metrics["mean_speed"] < 0.2
