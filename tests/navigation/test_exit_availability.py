"""Exits open only for a time (ISO 20414's dynamic availability): a sink takes nobody while closed, and
set_exits sends the agents bound for a closed exit to an open one."""

import pickle

import numpy as np
import pytest

import vosim

shapely = pytest.importorskip("shapely")
if not hasattr(shapely, "constrained_delaunay_triangles"):
    pytest.skip("vosim.navigation needs shapely >= 2.1", allow_module_level=True)

LEFT = [[0.0, 4.0], [0.5, 4.0], [0.5, 6.0], [0.0, 6.0]]
RIGHT = [[19.5, 4.0], [20.0, 4.0], [20.0, 6.0], [19.5, 6.0]]


def room(count=12, seed=1, *, right_closes=10.0, right_opens=None):
    """A 20 m x 10 m room, an exit at each short side; the crowd starts nearer the right one."""
    sim = vosim.Simulator(time_step=0.1, method=vosim.ORCA())
    sim.add_boundary([[0.0, 0.0], [20.0, 0.0], [20.0, 10.0], [0.0, 10.0]])
    left = sim.add_sink(LEFT)
    right = sim.add_sink(RIGHT, opens_at=right_opens, closes_at=right_closes)
    rng = np.random.default_rng(seed)
    starts = np.column_stack([rng.uniform(13.0, 18.0, count), rng.uniform(1.0, 9.0, count)])
    sim.add_agents(starts, radius=0.25, max_speed=1.34, pref_speed=1.34)
    return sim, left, right


def test_a_sink_takes_nobody_after_it_closes():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0], [0.0, 3.0]], goals=[[9.0, 0.0], [9.0, 3.0]], pref_speed=1.0, max_speed=1.0)
    early = sim.add_sink([[0.55, -1.0], [0.55, 1.0]], closes_at=0.5)  # crossed in the step 0.5 -> 0.6: closed
    late = sim.add_sink([[0.55, 2.0], [0.55, 4.0]], opens_at=0.5)  # open from that step on
    assert (sim.sinks[0].opens_at, sim.sinks[0].closes_at) == (None, 0.5)
    assert (sim.sinks[1].opens_at, sim.sinks[1].closes_at) == (0.5, None)
    sim.run(20)
    np.testing.assert_array_equal(sim.active, [True, False])
    assert sim.exit_sink[1] == late and sim.exit_time[1] == pytest.approx(0.6)
    sim.set_sink_times(early)  # open always again: nothing more to cross, nobody leaves
    assert sim.sinks[0].closes_at is None


@pytest.mark.parametrize("call, match", [
    (lambda sim: sim.set_sink_times(0, opens_at=3.0, closes_at=3.0), "closes_at is 3.0; it must be after"),
    (lambda sim: sim.set_sink_times(0, opens_at=5.0, closes_at=1.0), "closes_at"),
    (lambda sim: sim.set_sink_times(0, closes_at=float("nan")), "closes_at"),
    (lambda sim: sim.set_sink_times(0, opens_at=float("inf")), "opens_at"),
    (lambda sim: sim.set_sink_times(7, closes_at=1.0), "sink_id: no sink 7"),
    (lambda sim: sim.set_sink_times(-1, closes_at=1.0), "sink_id"),
    (lambda sim: sim.add_sink([[0.0, 0.0], [0.0, 1.0]], opens_at=2.0, closes_at=1.0), "closes_at"),
])
def test_bad_times_are_refused_naming_the_argument(call, match):
    sim = vosim.Simulator(time_step=0.1)
    sim.add_sink([[0.0, 0.0], [0.0, 1.0]])
    with pytest.raises(ValueError, match=match):
        call(sim)
    assert sim.sinks[0].opens_at is None and sim.sinks[0].closes_at is None  # nothing changed
    assert len(sim.sinks) == 1


def test_a_removed_sink_has_no_times_to_set():
    sim = vosim.Simulator(time_step=0.1)
    sim.remove_sink(sim.add_sink([[0.0, 0.0], [0.0, 1.0]]))
    with pytest.raises(ValueError, match="sink_id: no sink 0"):
        sim.set_sink_times(0, closes_at=1.0)


def test_agents_re_choose_when_their_exit_closes_and_nobody_leaves_by_it_after():
    sim, left, right = room()
    sim.set_exits([left, right], choice="nearest")
    assert np.all(sim.chosen_exit == right)
    sim.run(101)  # the right exit closes at t = 10.0: the 101st step is the first it is closed
    assert np.all(sim.chosen_exit[np.asarray(sim.active)] == left)
    sim.run(400, until_arrived=True)
    by, at = np.asarray(sim.exit_sink), np.asarray(sim.exit_time)
    assert np.all(np.isfinite(at))  # everybody out
    assert np.all(at[by == right] <= 10.0 + 1e-9) and np.any(by == right)
    assert np.any(by == left)


def test_an_exit_that_opens_later_is_chosen_when_it_opens():
    sim, left, right = room(right_closes=None, right_opens=1.0)
    sim.set_exits([left, right], choice="nearest")
    assert np.all(sim.chosen_exit == left)  # the right one is still closed
    sim.run(11)
    assert np.all(sim.chosen_exit[np.asarray(sim.active)] == right)
    sim.run(300, until_arrived=True)
    assert np.all(np.asarray(sim.exit_sink) == right)


@pytest.mark.parametrize("choice", ["quickest", "assigned"])
def test_quickest_and_assigned_leave_a_closed_exit_too(choice):
    sim, left, right = room()
    extra = {"assignment": np.full(12, right)} if choice == "assigned" else {}
    sim.set_exits([left, right], choice=choice, reevaluate=1.0 if choice == "quickest" else None, **extra)
    sim.run(400, until_arrived=True)
    by, at = np.asarray(sim.exit_sink), np.asarray(sim.exit_time)
    assert np.all(np.isfinite(at)) and np.all(at[by == right] <= 10.0 + 1e-9) and np.any(by == left)


def test_with_every_exit_closed_choices_stay():
    sim, left, right = room(right_closes=4.0)
    sim.set_sink_times(left, closes_at=2.0)
    sim.set_exits([left, right], choice="nearest", plan=None)
    sim.run(80)
    assert np.all(sim.chosen_exit == right) and np.all(sim.active)  # nobody leaves, nobody re-chosen


def test_times_survive_pickle_and_state_files(tmp_path):
    sim, left, right = room()
    copy = pickle.loads(pickle.dumps(sim))
    loaded = vosim.load_state(sim.save_state(tmp_path / "exits"))
    for other in (copy, loaded):
        assert [(s.opens_at, s.closes_at) for s in other.sinks] == [(None, None), (None, 10.0)]


@pytest.mark.parametrize("threads", [2, 4])
def test_closing_is_the_same_bits_on_any_thread_count(threads):
    try:
        vosim.set_num_threads(1)
        one, left, right = room(count=20)
        one.set_exits([left, right], choice="nearest")
        one.run(200)
        vosim.set_num_threads(threads)
        many, left, right = room(count=20)
        many.set_exits([left, right], choice="nearest")
        many.run(200)
    finally:
        vosim.set_num_threads(vosim.thread_limit())
    np.testing.assert_array_equal(one.positions, many.positions)
    np.testing.assert_array_equal(one.exit_time, many.exit_time)
    np.testing.assert_array_equal(one.exit_sink, many.exit_sink)


def test_a_batch_sink_closes_in_every_scene():
    batch = vosim.Batch(scenes=2, time_step=0.1)
    batch.add_agents([[0.0, 0.0]], goals=[[9.0, 0.0]], pref_speed=1.0, max_speed=1.0)
    batch.add_sink([[0.55, -1.0], [0.55, 1.0]], closes_at=0.5)
    batch.run(20)
    assert not np.any(np.asarray(batch.exit_sink) >= 0)


def test_stepping_re_chooses_when_an_exit_closes_as_run_does():
    stepped, left, right = room()
    stepped.set_exits([left, right], choice="nearest")
    for _ in range(150):
        stepped.step()
    ran, left, right = room()
    ran.set_exits([left, right], choice="nearest")
    ran.run(150)
    assert np.all(stepped.chosen_exit[np.asarray(stepped.active)] == left)  # re-chosen when the right one closed
    assert np.array_equal(stepped.positions, ran.positions)
    assert np.array_equal(stepped.chosen_exit, ran.chosen_exit)
