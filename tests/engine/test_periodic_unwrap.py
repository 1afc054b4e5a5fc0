"""Unwrapping a periodic corridor's trajectory goes the way the agents walked, however sparse the frames."""

import numpy as np
import pytest

import vosim
from vosim import measurement


def _walker(record_every: int, steps: int = 300, period: float = 4.0):
    """One agent walking +x at 1.2 m/s for 30 s (36 m) in a corridor of ``period`` metres."""
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.5, 0.0]], goals=[[1e4, 0.0]], pref_speed=1.2, max_speed=1.5)
    sim.set_periodic(x=(0.0, period))
    return sim, sim.run(steps, record_every=record_every)


@pytest.mark.parametrize("record_every", [1, 7, 20, 60])
def test_a_walker_recorded_every_few_steps_unwraps_to_the_distance_it_walked(record_every):
    # Recorded every 20 steps, it walks 2.4 m between frames, more than half the 4 m period: the nearest
    # image (the short way round) went back 1.6 m a frame and put it 24 m behind its start.
    _, traj = _walker(record_every)
    unwrapped = traj.unwrapped_positions()
    assert unwrapped[-1, 0, 0] - unwrapped[0, 0, 0] == pytest.approx(36.0, abs=1e-6)
    assert np.all(np.diff(unwrapped[:, 0, 0]) > 0)
    np.testing.assert_allclose((unwrapped[..., 0] - traj.positions[..., 0]) % 4.0 % (4.0 - 1e-9), 0.0, atol=1e-6)
    assert traj.metrics["path_length"][0] == pytest.approx(36.0, abs=1e-6)


def test_an_agent_that_left_stays_where_it_left():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.5, 0.0], [0.5, 1.0]], goals=[[1e4, 0.0], [1e4, 1.0]], pref_speed=1.2, max_speed=1.5)
    sim.set_periodic(x=(0.0, 4.0))
    sim.add_sink([[2.0, -0.4], [3.0, -0.4], [3.0, 0.4], [2.0, 0.4]])  # only the first agent's lane
    traj = sim.run(200, record_every=20)
    assert not traj.active[0] and traj.active[1]
    unwrapped = traj.unwrapped_positions()
    # It keeps its last velocity once it left, but moves no more: its unwrapped position stays.
    np.testing.assert_allclose(unwrapped[1:, 0, 0], unwrapped[1, 0, 0])
    assert unwrapped[-1, 1, 0] - unwrapped[0, 1, 0] == pytest.approx(24.0, abs=1e-6)


def test_a_batch_unwraps_each_scene_and_measurement_agrees():
    batch = vosim.Batch(scenes=2, time_step=0.1)
    batch.add_agents([[[0.5, 0.0]], [[0.5, 0.0]]], goals=[[[1e4, 0.0]], [[-1e4, 0.0]]], pref_speed=1.2,
                     max_speed=1.5)
    batch.set_periodic(x=(0.0, 4.0))
    traj = batch.run(300, record_every=20)
    moved = traj.unwrapped_positions()[-1, :, 0, 0] - traj.positions[0, :, 0, 0]
    np.testing.assert_allclose(moved, [36.0, -36.0], atol=1e-6)
    for scene in range(2):
        speeds = measurement.individual_speeds(traj, frame_step=1, scene=scene)
        np.testing.assert_allclose(speeds[np.isfinite(speeds)], 1.2, rtol=1e-9)


def test_frames_too_far_apart_to_tell_are_refused_naming_the_frames():
    # Accelerating from rest in a 2 m corridor, recorded every 30 steps: the velocity at the later frame says
    # 3.6 m, the agent walked less; which way round it went is no longer clear from the frames.
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.5, 0.0]], goals=[[1e4, 0.0]], pref_speed=1.2, max_speed=1.5, max_acceleration=0.5)
    sim.set_periodic(x=(0.0, 2.0))
    traj = sim.run(90, record_every=30)
    with pytest.raises(ValueError, match=r"cannot unwrap the periodic axis x: between frames 0 and 1, agent slot 0 "
                                         r"moved 3\.6 m .* record more often"):
        traj.unwrapped_positions()
