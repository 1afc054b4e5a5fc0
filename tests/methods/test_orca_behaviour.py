"""ORCA behaves as the paper says: collision-free pairs and small crowds,
reciprocity, symmetry, speed limits, arrival."""

import numpy as np
import pytest

import vosim
from vosim import scenarios


def pair(start_a, start_b, goal_a, goal_b, time_step=0.1, **kwargs):
    sim = vosim.Simulator(time_step=time_step)
    params = dict(radius=0.5, max_speed=1.0, neighbor_dist=10.0, time_horizon=2.0)
    params.update(kwargs)
    sim.add_agents([start_a, start_b], goals=[goal_a, goal_b], **params)
    return sim


@pytest.mark.parametrize(
    "name, a, b, goal_a, goal_b",
    [
        ("crossing", (-5, 0), (0, -6), (5, 0), (0, 5)),
        ("head-on, offset", (-5, 0.1), (5, 0), (5, 0.1), (-5, 0)),
        ("overtaking", (-3, 0), (0, 0.05), (20, 0), (4, 0.05)),
        ("oblique", (-5, -5), (5, -4), (5, 5), (-5, 4)),
    ],
)
def test_two_agents_never_collide(name, a, b, goal_a, goal_b):
    sim = pair(a, b, goal_a, goal_b)
    if name == "overtaking":
        sim.pref_speed[1] = 0.3
    traj = sim.run(600, until_arrived=True)
    assert traj.all_arrived, name
    assert traj.min_clearance_per_frame().min() > -1e-9, name


def test_small_crowd_has_no_collisions():
    rng = np.random.default_rng(3)
    grid = np.stack(np.meshgrid(np.arange(4), np.arange(4)), -1).reshape(-1, 2) * 3.0
    start = grid + rng.uniform(-0.5, 0.5, grid.shape)
    goal = rng.permutation(grid) + rng.uniform(-0.5, 0.5, grid.shape)
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents(start, goals=goal, radius=0.5, max_speed=1.0, time_horizon=2.0, neighbor_dist=10.0)
    traj = sim.run(2000, until_arrived=True)
    assert traj.all_arrived
    assert traj.min_clearance_per_frame().min() > -1e-9


def test_symmetric_crossing_deadlocks():
    """Two agents crossing in exact mirror symmetry (about y = x) pass the
    crossing point side by side and then block each other for good."""
    sim = pair((-5, 0), (0, -5), (5, 0), (0, 5))
    traj = sim.run(1000, until_arrived=True)
    assert not traj.all_arrived
    np.testing.assert_array_equal(sim.positions[0], sim.positions[1][::-1])
    assert traj.min_clearance_per_frame().min() > -1e-9


def test_reciprocity_each_agent_takes_half():
    """Mirror-image agents on a collision course deviate by opposite amounts."""
    sim = pair((-4, 0.2), (4, -0.2), (4, 0.2), (-4, -0.2))
    for _ in range(30):
        sim.step()
        np.testing.assert_allclose(sim.velocities[0], -sim.velocities[1], atol=1e-12)
        np.testing.assert_allclose(sim.positions[0], -sim.positions[1], atol=1e-12)


def test_rotation_by_a_right_angle_rotates_the_trajectory():
    rng = np.random.default_rng(11)
    start, goal = rng.uniform(-10, 10, (40, 2)), rng.uniform(-10, 10, (40, 2))

    def rotate(p):
        return np.stack([-p[..., 1], p[..., 0]], axis=-1)

    runs = []
    for s, g in ((start, goal), (rotate(start), rotate(goal))):
        sim = vosim.Simulator(time_step=0.1)
        sim.add_agents(s, goals=g, radius=0.3, time_horizon=3.0)
        runs.append(sim.run(200).positions)
    np.testing.assert_allclose(rotate(runs[0]), runs[1], atol=1e-9)


def test_speed_never_exceeds_max_speed():
    sim = scenarios.circle(60, radius=30.0).build()
    sim.max_speed[:] = np.linspace(0.5, 2.0, 60)
    traj = sim.run(300)
    speeds = np.linalg.norm(traj.velocities, axis=-1)
    assert np.all(speeds <= sim.max_speed + 1e-12)


def test_lone_agent_moves_at_its_preferred_velocity():
    sim = vosim.Simulator(time_step=0.5)
    sim.add_agents([[0.0, 0.0]], pref_velocities=[[0.3, 0.4]], max_speed=1.0)
    sim.step()
    np.testing.assert_allclose(sim.velocities[0], [0.3, 0.4])
    sim.pref_velocities[0] = (3.0, 4.0)  # longer than max_speed: clipped, same direction
    sim.step()
    np.testing.assert_allclose(sim.velocities[0], [0.6, 0.8])


def test_max_neighbors_zero_ignores_everyone():
    sim = pair((-2, 0), (2, 0), (2, 0), (-2, 0), max_neighbors=0)
    sim.run(20)
    np.testing.assert_allclose(sim.positions[:, 1], 0.0)
    assert sim.positions[0, 0] > sim.positions[1, 0]  # they walked through each other


def test_overlapping_agents_separate():
    sim = pair((0, 0), (0.6, 0), (0, 0), (0.6, 0))  # radius 0.5 each: 0.4 overlap
    sim.run(20)
    gap = np.linalg.norm(sim.positions[0] - sim.positions[1])
    assert gap >= 1.0 - 1e-9


def test_coincident_agents_separate_deterministically():
    sim = pair((1, 1), (1, 1), (1, 1), (1, 1))
    sim.run(30)
    assert np.all(np.isfinite(sim.positions))
    assert np.linalg.norm(sim.positions[0] - sim.positions[1]) >= 1.0 - 1e-9


def test_symmetric_circle_deadlocks_without_perturbation():
    """ORCA alone does not break exact symmetry (RVO2 behaves the same):
    20 agents placed exactly symmetrically stall in a ring around the centre."""
    sim = scenarios.circle(20, radius=20.0).build()
    traj = sim.run(3000, until_arrived=True)
    assert not traj.all_arrived
    assert np.allclose(np.linalg.norm(sim.velocities, axis=1), 0.0, atol=1e-9)
    assert traj.min_clearance_per_frame().min() > -1e-9
