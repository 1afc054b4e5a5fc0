"""Fields stored as one value while every agent holds it (the engine's lazy
columns: priorities, pre-movement times, drive limits, exits, ...): their
views still show and take every agent's own value, zero-copy, and a crowd
that leaves them at their defaults does not pay for them."""

import gc
import pickle

import numpy as np
import pytest

import vosim

from _run_elsewhere import running_in_another_thread
from test_memory import resident_bytes


def row(n: int = 4, **fields) -> vosim.Simulator:
    sim = vosim.Simulator(time_step=0.1)
    x = 3.0 * np.arange(n)
    sim.add_agents(np.column_stack([x, np.zeros(n)]), goals=np.column_stack([x, np.full(n, 10.0)]), **fields)
    return sim


def test_a_view_writes_one_agent_and_the_others_keep_theirs():
    sim = row(priority=2.0)
    view = sim.priority
    np.testing.assert_array_equal(view, [2.0, 2.0, 2.0, 2.0])
    view[1] = 0.5
    np.testing.assert_array_equal(sim.priority, [2.0, 0.5, 2.0, 2.0])
    sim.step()
    sim.add_agents([[30.0, 0.0]], goals=[[30.0, 10.0]], priority=7.0)
    np.testing.assert_array_equal(sim.priority, [2.0, 0.5, 2.0, 2.0, 7.0])
    again = pickle.loads(pickle.dumps(sim))
    np.testing.assert_array_equal(again.priority, sim.priority)
    np.testing.assert_array_equal(again.start_time, np.zeros(5))


def test_agents_added_later_with_another_value_keep_it():
    sim = row(start_time=0.0)
    sim.add_agents([[30.0, 0.0], [33.0, 0.0]], goals=[[30.0, 10.0], [33.0, 10.0]], start_time=0.3)
    np.testing.assert_array_equal(sim.start_time, [0.0, 0.0, 0.0, 0.0, 0.3, 0.3])
    sim.run(2)
    assert np.all(sim.positions[4:, 1] == 0.0)  # still waiting
    assert np.all(sim.positions[:4, 1] > 0.0)


def test_a_view_taken_before_an_exit_shows_it():
    sim = row(2, remove_at_goal=True)
    left = sim.exit_time  # taken while no agent has left: the engine's later writes show in it
    assert np.isnan(left).all() and not left.flags.writeable
    sim.goals = sim.positions.copy()  # at their goals: they leave in the next step
    sim.step()
    np.testing.assert_allclose(left, [0.1, 0.1])
    np.testing.assert_array_equal(sim.active, [False, False])


def test_a_field_never_read_refuses_a_view_while_a_run_is_under_way():
    sim = row(400)
    with running_in_another_thread(sim):
        # Its one value would have to become a column while the run reads it.
        with pytest.raises(RuntimeError, match="busy.*tracking_time"):
            sim.tracking_time
    np.testing.assert_array_equal(sim.tracking_time, np.full(400, 0.5))


def test_a_field_never_read_refuses_a_view_in_a_progress_callback():
    sim = row(400)
    with pytest.raises(RuntimeError, match="busy.*progress callback.*start_time"):
        sim.run(10**6, record_every=10**6, progress=lambda done, total: sim.start_time)
    assert 0 < sim.step_count < 10**6
    np.testing.assert_array_equal(sim.start_time, np.zeros(400))


@pytest.mark.skipif(resident_bytes() is None, reason="this platform reports no resident memory")
@pytest.mark.skipif(vosim._core.SANITIZED, reason="AddressSanitizer's quarantine keeps freed memory resident")
def test_a_crowd_at_the_default_values_holds_under_250_bytes_per_agent():
    n = 200_000
    rng = np.random.default_rng(0)
    start = rng.uniform(0.0, 900.0, (n, 2))
    goals = start[::-1].copy()
    gc.collect()
    before = resident_bytes()
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents(start, goals=goals, radius=0.5, neighbor_dist=3.5, max_neighbors=10, time_horizon=2.0)
    sim.step()
    gc.collect()
    held = (resident_bytes() - before) / n
    # About 180 bytes: 18 method-specific columns (about 120 bytes if each
    # agent had its own values) are held as one value each.
    assert held < 250, f"{held:.0f} bytes per agent"


def test_a_batch_keeps_each_scenes_values():
    batch = vosim.Batch(scenes=3, time_step=0.1)
    start = np.stack([np.column_stack([3.0 * np.arange(4), np.full(4, 10.0 * b)]) for b in range(3)])
    batch.add_agents(start, goals=start + [0.0, 5.0], priority=np.repeat([[1.0], [2.0], [3.0]], 4, axis=1))
    batch.add_agents(start[:, :1] + [20.0, 0.0], priority=1.0)
    np.testing.assert_array_equal(batch.priority, [[1, 1, 1, 1, 1], [2, 2, 2, 2, 1], [3, 3, 3, 3, 1]])
    batch.run(3)
    np.testing.assert_array_equal(batch.priority[:, 0], [1, 2, 3])


def test_in_space_too():
    sim = vosim.Simulator(time_step=0.1, dimensions=3)
    sim.add_agents([[0.0, 0.0, 0.0], [5.0, 0.0, 0.0]], goals=[[0.0, 5.0, 0.0], [5.0, 5.0, 0.0]],
                   start_time=[0.0, 0.45])
    sim.run(4)
    assert sim.positions[0, 1] > 0.0 and sim.positions[1, 1] == 0.0
    np.testing.assert_array_equal(sim.start_time, [0.0, 0.45])


@pytest.mark.parametrize("priority, ratio", [([3.0, 1.0], 3.0), (2.0, 1.0)])
def test_priorities_share_the_avoidance_in_space(priority, ratio):
    """A head-on pair slightly off axis in 3D: agent 0 with priority 3 and agent
    1 with 1 dodge in the ratio 1 : 3; with one priority for both (a column of
    one value), equally."""
    sim = vosim.Simulator(time_step=0.1, dimensions=3)
    sim.add_agents([[0.0, 0.0, 0.0], [8.0, 0.1, 0.0]], goals=[[20.0, 0.0, 0.0], [-12.0, 0.1, 0.0]],
                   velocities=[[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0]], radius=0.5, time_horizon=5.0, pref_speed=1.0,
                   max_speed=2.0, priority=priority)
    for _ in range(40):
        sim.step()
        dodge = np.abs(sim.velocities[:, 1])
        if dodge.max() > 1e-3:
            break
    assert dodge[1] / dodge[0] == pytest.approx(ratio, rel=1e-6)


@pytest.mark.parametrize("name, value, shown", [
    ("priority", 2.0, 2.0),
    ("max_acceleration", np.full(4, 3.5), 3.5),
    ("remove_at_goal", True, True),
    ("start_time", [0.25, 0.25, 0.25, 0.25], 0.25),
])
def test_one_value_assigned_to_every_agent_stays_one_value(name, value, shown):
    sim = row()
    setattr(sim, name, value)
    assert sim._engine.holds_one_value(name)
    np.testing.assert_array_equal(getattr(sim, name), np.full(4, shown))
    # Its view made a column: later assignments write through it, and the view shows them.
    view = getattr(sim, name)
    assert not sim._engine.holds_one_value(name)
    setattr(sim, name, value)
    np.testing.assert_array_equal(view, np.full(4, shown))


def test_one_value_assigned_while_a_run_is_under_way_is_refused():
    sim = row(400)
    with running_in_another_thread(sim):
        with pytest.raises(RuntimeError, match="busy"):
            sim.priority = 2.0
    assert sim._engine.holds_one_value("priority")
    np.testing.assert_array_equal(sim.priority, np.ones(400))


def test_differing_values_assigned_make_a_column():
    sim = row()
    sim.priority = [1.0, 2.0, 1.0, 1.0]
    assert not sim._engine.holds_one_value("priority")
    np.testing.assert_array_equal(sim.priority, [1.0, 2.0, 1.0, 1.0])
    batch = vosim.Batch(scenes=2, time_step=0.1)
    batch.add_agents(np.zeros((2, 3, 2)) + [[[0.0, 0.0]], [[0.0, 0.0]]] + np.arange(3)[:, None] * 3.0)
    batch.priority = [[1.0], [2.0]]  # one per scene
    assert not batch._engine.holds_one_value("priority")
    np.testing.assert_array_equal(batch.priority, [[1.0] * 3, [2.0] * 3])


@pytest.mark.parametrize("name, value, message", [
    ("max_acceleration", -1.0, "max_acceleration is -1.0"),
    ("max_acceleration", np.nan, "max_acceleration is nan"),
    ("priority", [1.0, 2.0], r"priority: expected a scalar or \(4,\), got shape \(2,\)"),
    ("priority", [], r"priority: expected a scalar or \(4,\), got shape \(0,\)"),
    ("remove_at_goal", 2, "remove_at_goal is 2"),
])
def test_one_value_assigned_is_checked_as_any_other(name, value, message):
    sim = row()
    before = getattr(row(), name).copy()
    with pytest.raises(ValueError, match=message):
        setattr(sim, name, value)
    assert sim._engine.holds_one_value(name)  # refused: nothing made, nothing changed
    np.testing.assert_array_equal(getattr(sim, name), before)


def test_one_value_assigned_steers_the_step():
    """The same crowd with priorities given at add_agents and assigned later
    moves alike, bit for bit."""
    start = np.column_stack([np.arange(6) * 1.2, np.zeros(6)])
    goals = start[::-1] + [0.0, 0.3]
    a = vosim.Simulator(time_step=0.1)
    a.add_agents(start, goals=goals, priority=3.0, max_acceleration=2.0)
    b = vosim.Simulator(time_step=0.1)
    b.add_agents(start, goals=goals)
    b.priority = 3.0
    b.max_acceleration = 2.0
    a.run(30)
    b.run(30)
    np.testing.assert_array_equal(a.positions, b.positions)


def test_exit_columns_stay_one_value_until_an_agent_leaves():
    sim = row(2)
    sim.add_sink([[-1.0, 20.0], [1.0, 20.0], [1.0, 22.0], [-1.0, 22.0]])  # beyond agent 0's goal
    sim.run(3)
    assert sim._engine.holds_one_value("exit_time") and sim._engine.holds_one_value("exit_sink")
    sim.goals = [[0.0, 21.0], [3.0, 10.0]]
    sim.run(300, until_arrived=False)
    assert not sim._engine.holds_one_value("exit_time")
    assert sim.active.tolist() == [False, True]
    assert sim.exit_sink.tolist() == [0, -1]
    assert 0.0 < sim.exit_time[0] <= sim.time and np.isnan(sim.exit_time[1])
