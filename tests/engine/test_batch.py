"""Batch: independent scenes in one engine."""

import numpy as np

import vosim


def scene_positions(seed, n=30):
    rng = np.random.default_rng(seed)
    return rng.uniform(-15, 15, (n, 2)), rng.uniform(-15, 15, (n, 2))


def test_batch_equals_separate_simulators():
    scenes = 4
    starts, goals = zip(*(scene_positions(s) for s in range(scenes)))
    batch = vosim.Batch(scenes=scenes, time_step=0.1)
    batch.add_agents(np.array(starts), goals=np.array(goals), radius=0.4, time_horizon=3.0)
    batch_traj = batch.run(150)
    for b in range(scenes):
        sim = vosim.Simulator(time_step=0.1)
        sim.add_agents(starts[b], goals=goals[b], radius=0.4, time_horizon=3.0)
        traj = sim.run(150)
        np.testing.assert_array_equal(batch_traj.positions[:, b], traj.positions)
        np.testing.assert_array_equal(batch_traj.velocities[:, b], traj.velocities)


def test_scenes_do_not_see_each_other():
    batch = vosim.Batch(scenes=2, time_step=0.1)
    # The same spot in both scenes, heading the same way: they would collide
    # if the scenes shared a space.
    batch.add_agents(np.array([[[0.0, 0.0]], [[0.2, 0.0]]]), pref_velocities=(1.0, 0.0), radius=0.5)
    batch.run(10)
    np.testing.assert_allclose(batch.positions[:, 0], [[1.0, 0.0], [1.2, 0.0]])


def test_per_scene_parameters():
    batch = vosim.Batch(scenes=3, time_step=1.0)
    batch.add_agents(np.zeros((1, 2)), pref_velocities=(10.0, 0.0), max_speed=[[1.0], [2.0], [3.0]])
    batch.step()
    np.testing.assert_allclose(batch.positions[:, 0, 0], [1.0, 2.0, 3.0])


def test_until_arrived_waits_for_every_scene():
    batch = vosim.Batch(scenes=2, time_step=1.0)
    batch.add_agents(np.zeros((2, 1, 2)), goals=np.array([[[5.0, 0.0]], [[10.0, 0.0]]]), radius=0.1, max_speed=1.0)
    traj = batch.run(100, until_arrived=True)
    assert traj.steps_run == 10 and traj.positions.shape == (11, 2, 1, 2)
    assert traj.arrived_per_frame()[-1].all()
