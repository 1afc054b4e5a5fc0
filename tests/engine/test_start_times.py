"""Pre-movement times (add_agents(start_time=...)): an agent stands still until its time, then goes."""

import numpy as np
import pytest

import vosim

DT = 0.1


def _pair(start_time, method=None, dimensions=2):
    sim = vosim.Simulator(time_step=DT, method=method or vosim.ORCA(), dimensions=dimensions)
    zeros = [0.0] * (dimensions - 2)
    sim.add_agents(positions=[[0.0, 0.0, *zeros], [0.0, 5.0, *zeros]],
                   goals=[[20.0, 0.0, *zeros], [20.0, 5.0, *zeros]], start_time=[0.0, start_time])
    return sim


def _first_move(traj, agent):
    """The time of the first recorded frame after which the agent's position changed."""
    moved = np.flatnonzero(np.any(np.diff(traj.positions[:, agent], axis=0) != 0.0, axis=-1))
    return traj.times[moved[0]] if len(moved) else None


@pytest.mark.parametrize("dimensions", [2, 3])
def test_an_agent_stands_still_until_its_start_time_then_heads_for_its_goal(dimensions):
    sim = _pair(4.0, dimensions=dimensions)
    traj = sim.run(100, record_every=1)
    assert _first_move(traj, 0) == 0.0
    # The step beginning at t = 4.0 (as a sum of 40 steps of 0.1 s, 3.9999999999999996) is its first.
    assert _first_move(traj, 1) == pytest.approx(4.0, abs=1e-9)
    assert np.array_equal(traj.positions[:41, 1], np.broadcast_to(traj.positions[0, 1], (41, dimensions)))
    assert traj.positions[-1, 1, 0] > 5.0  # then it walks
    np.testing.assert_array_equal(sim.start_time, [0.0, 4.0])


def test_a_start_time_within_half_a_step_counts_as_that_step():
    sim = vosim.Simulator(time_step=DT)
    sim.add_agents(positions=[[0.0, 0.0], [0.0, 3.0], [0.0, 6.0]], goals=[[9.0, 0.0], [9.0, 3.0], [9.0, 6.0]],
                   start_time=[1.0 - 0.049, 1.0 + 0.049, 1.051])
    traj = sim.run(30, record_every=1)
    assert [_first_move(traj, a) for a in range(3)] == pytest.approx([1.0, 1.0, 1.1], abs=1e-9)


def test_agents_waiting_for_their_start_are_neither_stalled_nor_deadlocked():
    sim = _pair(8.0, method=vosim.ORCA(deadlock="sidestep"))
    traj = sim.run(60)  # 6 s of waiting: longer than the 40 stalled steps and the deadlock patience
    assert traj.metrics["stalled_agents"] == 0
    assert traj.metrics["longest_stall"].tolist() == [0, 0]
    columns = sim._snapshot()["columns"]
    assert columns["detour_side"].tolist() == [[0, 0]] and columns["deadlock_timer"].tolist() == [[0.0, 0.0]]


def test_until_arrived_waits_for_the_late_starter():
    sim = _pair(6.0)
    traj = sim.run(1000, until_arrived=True)
    assert traj.all_arrived
    assert traj.metrics["arrival_step"][1] > traj.metrics["arrival_step"][0] + 50


def test_a_batch_takes_each_scenes_start_times():
    batch = vosim.Batch(2, time_step=DT)
    batch.add_agents(positions=[[0.0, 0.0]], goals=[[10.0, 0.0]], start_time=[[0.0], [2.0]])
    traj = batch.run(40, record_every=1)
    assert traj.positions[19, 0, 0, 0] > 0.0 and traj.positions[20, 1, 0, 0] == 0.0
    assert traj.positions[-1, 1, 0, 0] > 0.0


@pytest.mark.parametrize("value", [-1.0, np.nan, np.inf])
def test_a_bad_start_time_is_refused_naming_it(value):
    sim = vosim.Simulator(time_step=DT)
    with pytest.raises(ValueError, match="start_time"):
        sim.add_agents(positions=[[0.0, 0.0]], goals=[[1.0, 0.0]], start_time=value)


def test_a_start_time_set_through_the_view_is_checked_when_stepping():
    sim = _pair(1.0)
    sim.start_time[1] = np.nan
    with pytest.raises(ValueError, match=r"agent id 1 .*start_time is nan"):
        sim.step()


def test_start_times_survive_a_checkpoint_and_the_resumed_run_is_bit_identical(tmp_path):
    reference = _pair(3.0)
    reference.run(60)
    sim = _pair(3.0)
    sim.run(15)
    resumed = vosim.load_state(sim.save_state(tmp_path / "state.npz"))
    np.testing.assert_array_equal(resumed.start_time, [0.0, 3.0])
    resumed.run(45)
    np.testing.assert_array_equal(resumed.positions, reference.positions)


def test_a_state_saved_before_start_times_loads_with_none():
    """States written before the column existed (same format, checksum over what they held) restore with 0."""
    from vosim import _checkpoint

    sim = _pair(0.0)
    sim.run(5)
    state = sim.__getstate__()
    del state["engine"]["columns"]["start_time"]
    state["checksum"] = _checkpoint.checksum(state)
    old = vosim.Simulator.__new__(vosim.Simulator)
    old.__setstate__(state)
    np.testing.assert_array_equal(old.start_time, [0.0, 0.0])
    old.run(5)
    sim.run(5)
    np.testing.assert_array_equal(old.positions, sim.positions)
