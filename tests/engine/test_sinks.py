"""Sinks (exits) and remove_at_goal: agents leave the simulation inside run(),
with their exit time and sink recorded, counted by the metrics, kept by
checkpoints, the same on any thread count."""

import pickle

import numpy as np
import pytest

import vosim
from vosim import _checkpoint

LINE_X = 2.05  # crossed by an agent from x = 0 at 1 m/s during the step 2.0 -> 2.1 s


def _walkers(sim, rows=3, **kwargs):
    """Agents at x = 0, one per row 3 m apart, walking +x at 1 m/s towards x = 20."""
    y = 3.0 * np.arange(rows)
    starts = np.column_stack([np.zeros(rows), y])
    return sim.add_agents(starts, goals=starts + [20.0, 0.0], pref_speed=1.0, max_speed=1.0, radius=0.25,
                          **kwargs)


def test_agents_leave_through_a_line_and_an_area_inside_run():
    sim = vosim.Simulator(time_step=0.1)
    ids = _walkers(sim)
    line = sim.add_sink([[LINE_X, -1.0], [LINE_X, 1.0]])
    area = sim.add_sink([[3.05, 2.0], [5.0, 2.0], [5.0, 4.0], [3.05, 4.0]])
    assert (line, area) == (0, 1)
    assert np.all(np.isnan(sim.exit_time)) and np.all(sim.exit_sink == -1)
    traj = sim.run(60)
    np.testing.assert_array_equal(sim.ids, ids)  # ids and slots stay
    np.testing.assert_array_equal(sim.active, [False, False, True])
    np.testing.assert_allclose(sim.exit_time[:2], [2.1, 3.1])
    assert np.isnan(sim.exit_time[2])
    np.testing.assert_array_equal(sim.exit_sink, [line, area, -1])
    # The trajectory shows a leaver where it left, as it shows any inactive agent.
    frame = int(np.argmin(np.abs(traj.times - 2.1)))
    np.testing.assert_array_equal(traj.positions[frame:, 0], np.broadcast_to(traj.positions[frame, 0], (61 - frame, 2)))
    assert traj.positions[-1, 2, 0] == pytest.approx(6.0)
    assert list(traj.active) == [False, False, True]
    m = traj.metrics
    assert m["exits"] == 2 and m["last_exit_time"] == pytest.approx(3.1)
    np.testing.assert_array_equal(m["exit_step"], [21, 31, -1])
    np.testing.assert_allclose(m["agent_mean_speed"], 1.0)  # until it left
    assert m["arrival_rate"] == 0.0  # left through a sink, not at its goal
    assert [(s.id, s.kind, s.scene) for s in sim.sinks] == [(0, "line", None), (1, "area", None)]
    with pytest.raises(ValueError):
        sim.sinks[0].points[0, 0] = 1.0  # read-only


def test_a_line_is_crossed_either_way_and_a_removed_sink_lets_agents_through():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[4.0, 0.0], [0.0, 3.0]], goals=[[-10.0, 0.0], [20.0, 3.0]], pref_speed=1.0, max_speed=1.0)
    closed = sim.add_sink([[1.0, 2.0], [1.0, 4.0]])
    sim.add_sink([[2.0, -1.0], [2.0, 1.0]])
    sim.remove_sink(closed)
    assert [s.id for s in sim.sinks] == [1]
    sim.run(40)
    np.testing.assert_array_equal(sim.active, [False, True])
    np.testing.assert_allclose(sim.exit_time[0], 2.1)
    assert sim.add_sink([[9.0, 2.0], [9.0, 4.0]]) == 2  # ids are never reused
    with pytest.raises(ValueError, match="sink_id: no sink 0"):
        sim.remove_sink(closed)


def test_remove_at_goal_takes_agents_out_at_their_final_goal():
    sim = vosim.Simulator(time_step=0.1)
    # Two agents for one goal: the first one there leaves and frees it for the second.
    sim.add_agents([[0.0, 0.0], [-1.0, 0.0], [0.0, 3.0]], goals=[[3.0, 0.0], [3.0, 0.0], [3.0, 3.0]],
                   remove_at_goal=[True, True, False], pref_speed=1.0, max_speed=1.0, radius=0.25)
    np.testing.assert_array_equal(sim.remove_at_goal, [True, True, False])
    traj = sim.run(100, until_arrived=True)
    assert traj.all_arrived
    np.testing.assert_array_equal(sim.active, [False, False, True])
    np.testing.assert_array_equal(sim.exit_sink, [-1, -1, -1])
    assert 2.0 < sim.exit_time[0] < sim.exit_time[1] and np.isnan(sim.exit_time[2])
    m = traj.metrics
    assert m["exits"] == 2 and m["arrival_rate"] == 1.0
    np.testing.assert_array_equal(m["exit_step"][:2], m["arrival_step"][:2])
    assert m["exit_step"][2] == -1
    with pytest.raises(ValueError, match=r"remove_at_goal\[1\] is 2"):
        sim.add_agents([[0.0, 9.0], [1.0, 9.0]], remove_at_goal=[0, 2])


def test_waypoints_ahead_keep_an_agent_with_remove_at_goal():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0]], waypoints=[[[0.05, 0.0], [2.0, 0.0]]], remove_at_goal=True, pref_speed=1.0,
                   max_speed=1.0)
    sim.run(5)
    assert sim.active[0]
    sim.run(40)
    assert not sim.active[0] and sim.positions[0, 0] > 1.5


def test_a_batch_sink_of_one_scene():
    batch = vosim.Batch(scenes=2, time_step=0.1)
    batch.add_agents(np.zeros((2, 1, 2)), goals=np.full((2, 1, 2), [9.0, 0.0]), pref_speed=1.0, max_speed=1.0)
    assert batch.add_sink([[1.05, -1.0], [1.05, 1.0]], scene=1) == 0
    assert batch.sinks[0].scene == 1
    traj = batch.run(20)
    np.testing.assert_array_equal(batch.active[:, 0], [True, False])
    np.testing.assert_array_equal(traj.metrics["exits"], [0, 1])
    assert np.isnan(batch.exit_time[0, 0]) and batch.exit_time[1, 0] == pytest.approx(1.1)
    with pytest.raises(TypeError, match="scene"):
        vosim.Simulator().add_sink([[0, 0], [1, 0]], scene=0)


@pytest.mark.parametrize("points, message", [
    ([[0.0, 0.0], [np.nan, 1.0]], r"points\[1, 0\] is nan"),
    ([[0.0, 0.0], [1.0, 2e15]], r"points\[1, 1\] is 2000000000000000.0; must be between"),
    ([[0.0, 0.0]], "needs 2 points"),
    ([[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]], r"expected shape \(n, 2\)"),
    ([0.0, 1.0], r"expected shape \(n, 2\)"),
    ([[1.0, 1.0], [1.0, 1.0]], "coincide"),
    ([[0.0, 0.0], [1.0, 1.0], [2.0, 2.0]], "enclose no area"),
    ([[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [0.0, 0.0]], "enclose no area"),
])
def test_bad_sinks_are_refused_naming_what_is_wrong(points, message):
    sim = vosim.Simulator()
    with pytest.raises(ValueError, match=message):
        sim.add_sink(points)
    assert sim.sinks == []


def test_bad_sink_arguments():
    with pytest.raises(TypeError, match="points"):
        vosim.Simulator().add_sink([["a", "b"], ["c", "d"]])
    with pytest.raises(ValueError, match="scene is 2"):
        vosim.Batch(scenes=2).add_sink([[0, 0], [1, 0]], scene=2)
    with pytest.raises(ValueError, match="2D"):
        vosim.Simulator(dimensions=3).add_sink([[0, 0], [1, 0]])


def _crowd_with_exits(remove_at_goal=False):
    sim = vosim.Simulator(time_step=0.1)
    rng = np.random.default_rng(3)
    starts = rng.uniform(0.0, 8.0, (60, 2))
    starts = starts[np.all(np.linalg.norm(starts[:, None] - starts[None], axis=-1) + np.eye(60) > 0.6, axis=1)]
    goals = np.where(rng.uniform(size=(len(starts), 1)) < 0.5, [12.0, 4.0], [-4.0, 4.0])
    sim.add_agents(starts, goals=goals + rng.uniform(-2, 2, starts.shape), remove_at_goal=remove_at_goal,
                   max_speed=1.5)
    sim.add_sink([[9.0, 0.0], [10.0, 0.0], [10.0, 8.0], [9.0, 8.0]])
    sim.add_sink([[-1.0, -1.0], [-1.0, 9.0]])
    return sim


@pytest.mark.parametrize("threads", [2, 4])
def test_exits_are_the_same_bits_on_any_thread_count(threads):
    try:
        vosim.set_num_threads(1)
        one = _crowd_with_exits(remove_at_goal=True)
        t1 = one.run(120)
        vosim.set_num_threads(threads)
        many = _crowd_with_exits(remove_at_goal=True)
        tn = many.run(120)
    finally:
        vosim.set_num_threads(vosim.thread_limit())
    assert t1.metrics["exits"] > 10
    np.testing.assert_array_equal(t1.positions, tn.positions)
    np.testing.assert_array_equal(one.exit_time, many.exit_time)
    np.testing.assert_array_equal(one.exit_sink, many.exit_sink)
    np.testing.assert_array_equal(t1.metrics["exit_step"], tn.metrics["exit_step"])


def test_sinks_and_exits_survive_pickle_and_state_files(tmp_path):
    straight = _crowd_with_exits()
    straight.run(80)
    resumed = _crowd_with_exits()
    resumed.run(30)
    assert np.any(~resumed.active)  # some left already
    resumed.remove_sink(resumed.add_sink([[0.0, 0.0], [0.0, 1.0]]))  # a removed one travels too
    copy = pickle.loads(pickle.dumps(resumed))
    loaded = vosim.load_state(resumed.save_state(tmp_path / "exits"))
    for sim in (copy, loaded):
        assert [s.id for s in sim.sinks] == [0, 1]
        assert sim.add_sink([[5.0, 5.0], [5.0, 6.0]]) == 3  # 2 stays removed
        sim.remove_sink(3)
        sim.run(50)
        np.testing.assert_array_equal(sim.positions, straight.positions)
        np.testing.assert_array_equal(sim.exit_time, straight.exit_time)
        np.testing.assert_array_equal(sim.exit_sink, straight.exit_sink)


def test_a_state_saved_before_sinks_restores_without_them():
    sim = vosim.Simulator(time_step=0.1)
    _walkers(sim)
    state = _checkpoint.payload(sim)
    engine = state["engine"]
    for key in [k for k in engine if k.startswith("sink_")]:
        del engine[key]
    for name in ("remove_at_goal", "exit_time", "exit_sink"):
        del engine["columns"][name]
    state["checksum"] = _checkpoint.checksum(state)
    old = pickle.loads(pickle.dumps(sim))
    _checkpoint.restore_into(old, state)
    assert old.sinks == [] and np.all(np.isnan(old.exit_time)) and np.all(old.exit_sink == -1)
    assert not np.any(old.remove_at_goal)
    old.run(5)


def test_a_damaged_saved_sink_is_refused():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_sink([[0.0, 0.0], [0.0, 1.0]])
    state = _checkpoint.payload(sim)
    state["engine"]["feature.sinks.points"] = np.array([0.0, 0.0, 0.0, 0.0])
    state["checksum"] = _checkpoint.checksum(state)
    with pytest.raises(ValueError, match="sink 0"):
        pickle.loads(pickle.dumps(sim)).__setstate__(state)
    state["engine"]["feature.sinks.points"] = np.array([0.0, 0.0, 0.0, 1.0])
    state["engine"]["feature.sinks.scenes"] = np.array([5], dtype=np.int64)
    state["checksum"] = _checkpoint.checksum(state)
    with pytest.raises(ValueError, match="scene is 5"):
        pickle.loads(pickle.dumps(sim)).__setstate__(state)


def test_a_scenario_takes_one_flag_for_every_agent():
    from vosim import scenarios

    scenario = scenarios.Scenario(name="flags", positions=[[0.0, 0.0], [0.0, 2.0], [0.0, 4.0]],
                                  goals=[[3.0, 0.0], [3.0, 2.0], [3.0, 4.0]], agent_params=dict(remove_at_goal=True))
    assert scenario.agent_params["remove_at_goal"] is True
    sim = scenario.build()
    assert sim.remove_at_goal.tolist() == [True, True, True]
    traj = sim.run(100, until_arrived=True)
    assert traj.all_arrived and not sim.active.any() and traj.took_part().all()
    assert "arrived            3 of 3 goal-seeking" in traj.summary()
