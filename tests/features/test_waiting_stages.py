"""Waiting areas and queues: members walk to a place, wait, and go on to their
goal when released (after a time, at a count, or by a call); inside run(),
the same on any thread count, kept by checkpoints, bad input refused."""

import pickle

import numpy as np
import pytest

import vosim

SPACING = 0.8  # between a queue's places: wider than two radii (0.25 m), so neighbours do not push
GOAL = [20.0, 0.0]


def _run_to(sim, time):
    """Run (without recording) until the simulated ``time``."""
    steps = int(round((time - sim.time) / sim.time_step))
    sim.run(steps, record_every=max(steps, 1))


def _queue_places(n=5):
    """A queue along -x from the origin (the front), as at a barrier at x = 0."""
    return np.column_stack([-SPACING * np.arange(n), np.zeros(n)])


def _goals(n):
    """Each walker's own goal, 1 m apart along x = 20 around GOAL."""
    return np.column_stack([np.full(n, GOAL[0]), np.arange(n) - (n - 1) / 2])


def _crowd(sim, n=6, **kwargs):
    """n walkers spread 4 to 14 m behind the queue's front, each bound for its own goal; their ids."""
    x = -4.0 - 2.0 * np.arange(n)
    y = np.where(np.arange(n) % 2 == 0, 3.0, -3.0)
    return sim.add_agents(np.column_stack([x, y]), goals=_goals(n), radius=0.25, pref_speed=1.3,
                          max_speed=2.0, **kwargs)


def test_a_queue_serves_in_arrival_order_one_every_release_after():
    sim = vosim.Simulator(time_step=0.1)
    ids = _crowd(sim)
    queue = sim.add_queue(_queue_places(), agents=ids[::-1], release_after=2.0)  # joined in reverse
    _run_to(sim, 60)
    # Arrival order (nearest first), not the order they joined in.
    np.testing.assert_array_equal(queue.released, ids)
    gaps = np.diff(queue.released_times)
    assert np.all(gaps >= 2.0 - 1e-9) and np.all(gaps < 4.0)  # service time, plus walking up one place
    assert len(queue.waiting) == len(queue.approaching) == 0
    # Released, each went on to its own goal.
    assert np.all(np.linalg.norm(sim.positions - _goals(len(ids)), axis=1) < 0.5)


def test_members_wait_in_their_places_until_released():
    sim = vosim.Simulator(time_step=0.1)
    ids = _crowd(sim, n=3)
    queue = sim.add_queue(_queue_places(3), agents=ids)  # no rule: released by calls only
    _run_to(sim, 40)
    assert len(queue.released) == 0
    np.testing.assert_array_equal(queue.waiting, ids)
    np.testing.assert_allclose(sim.positions, _queue_places(3), atol=queue.reach)
    assert np.all(np.linalg.norm(sim.velocities, axis=1) < 0.05)  # standing, not drifting to the goal
    assert queue.release(1) == 1
    assert queue.released.tolist() == [ids[0]] and queue.released_times.tolist() == [pytest.approx(40.0)]
    _run_to(sim, 70)
    assert np.linalg.norm(sim.positions[0] - _goals(3)[0]) < 0.5  # the front went on
    # The others moved up one place each.
    np.testing.assert_allclose(sim.positions[1:], _queue_places(2), atol=queue.reach)
    assert queue.release() == 2 and queue.release() == 0


def test_a_full_queue_holds_the_rest_at_its_tail():
    sim = vosim.Simulator(time_step=0.1)
    ids = _crowd(sim, n=8)
    queue = sim.add_queue(_queue_places(3), agents=ids, release_after=1.0)
    most_waiting = 0
    for _ in range(80):
        sim.run(steps=10)
        most_waiting = max(most_waiting, len(queue.waiting))
    assert most_waiting == 3  # never more in places than there are places
    assert sorted(queue.released) == sorted(ids)


def test_a_waiting_area_releases_groups_at_release_count():
    sim = vosim.Simulator(time_step=0.1)
    ids = _crowd(sim, n=6)
    places = [[0.0, -1.0], [0.0, 0.0], [0.0, 1.0], [1.0, -1.0], [1.0, 0.0], [1.0, 1.0]]
    area = sim.add_waiting_area(places, agents=ids, release_count=3)
    _run_to(sim, 60)
    assert sorted(area.released) == sorted(ids)
    times = area.released_times
    assert len(set(times[:3].tolist())) == 1 and len(set(times[3:].tolist())) == 1 and times[3] > times[0]


def test_a_waiting_area_gives_each_the_nearest_free_place_and_frees_it_after_release_after():
    sim = vosim.Simulator(time_step=0.1)
    goals = [[20.0, 2.0], [20.0, -2.0]]
    ids = sim.add_agents([[-5.0, 4.0], [-5.0, -4.0]], goals=goals, radius=0.25, pref_speed=1.3)
    area = sim.add_waiting_area([[0.0, -2.0], [0.0, 2.0]], agents=ids, release_after=3.0)
    _run_to(sim, 7)
    np.testing.assert_allclose(sim.positions, [[0.0, 2.0], [0.0, -2.0]], atol=area.reach)
    _run_to(sim, 40)
    assert sorted(area.released) == sorted(ids)
    assert np.all(np.linalg.norm(sim.positions - goals, axis=1) < 0.5)


def test_the_same_on_any_thread_count_and_after_a_checkpoint(tmp_path):
    def run(threads, restore=None):
        vosim.set_num_threads(threads)
        sim = vosim.Simulator(time_step=0.1, method="SocialForce")
        ids = _crowd(sim, n=10)
        sim.add_queue(_queue_places(4), agents=ids[:6], release_after=1.5)
        sim.add_waiting_area([[2.0, 3.0], [3.0, 3.0]], agents=ids[6:], release_count=2)
        _run_to(sim, 8)
        if restore == "pickle":
            sim = pickle.loads(pickle.dumps(sim))
        elif restore == "file":
            sim = vosim.load_state(sim.save_state(tmp_path / "state"))
        _run_to(sim, 30)
        return sim.positions.copy(), [s.released.tolist() for s in sim.waiting_stages]

    one = run(1)
    for other in (run(2), run(1, "pickle"), run(2, "file")):
        np.testing.assert_array_equal(one[0], other[0])
        assert one[1] == other[1]


def test_state_files_with_stages_say_so_in_their_version(tmp_path):
    from vosim import _checkpoint

    sim = vosim.Simulator()
    assert _checkpoint.payload(sim)["format_version"] == 3
    sim.add_queue(_queue_places(2))
    state = _checkpoint.payload(sim)
    assert state["format_version"] == 5 and "feature.waiting.slot_points" in state["engine"]
    back = vosim.load_state(sim.save_state(tmp_path / "s"))
    np.testing.assert_array_equal(back.waiting_stages[0].slots, _queue_places(2))


@pytest.mark.parametrize("entry, value, message", [
    ("feature.waiting.member_slots", 7, "outside the stage's 3 places"),
    ("feature.waiting.member_ids", 99, "no such agent"),
    ("feature.waiting.member_orders", -1, "do not agree"),
    ("feature.waiting.stage_kinds", 4, "kind is 4"),
    ("feature.waiting.reach", np.nan, "reach is nan"),
    ("feature.waiting.slot_offsets", [0, 9], "offsets"),
    ("feature.waiting.next_order", [-1], "next_order"),
    ("feature.waiting.member_since", [0.0], "differ in length"),
    ("feature.elevator.doors", [1], "unknown scene feature 'elevator'"),
])
def test_a_damaged_state_is_refused_by_name(entry, value, message):
    sim = vosim.Simulator(time_step=0.1)
    ids = _crowd(sim, n=2)
    sim.add_queue(_queue_places(3), agents=ids)
    _run_to(sim, 20)
    state = sim._engine.snapshot()
    engine = vosim._core.Engine(1, 0.1, 2)
    engine.restore(state)  # as saved: fine
    if np.ndim(value) == 0:  # one value of the saved array damaged
        state[entry] = state[entry].copy()
        state[entry][0] = value
    else:
        state[entry] = np.asarray(value, dtype=state[entry].dtype if entry in state else np.int64)
    with pytest.raises(ValueError, match=message):
        engine.restore(state)


def test_members_that_leave_the_simulation_leave_their_stage():
    sim = vosim.Simulator(time_step=0.1)
    ids = _crowd(sim, n=3)
    queue = sim.add_queue(_queue_places(3), agents=ids)
    _run_to(sim, 30)
    sim.remove_agents([ids[0]])
    np.testing.assert_array_equal(queue.waiting, ids[1:])
    sim.add_sink([[-0.3, -1.0], [0.3, -1.0], [0.3, 1.0], [-0.3, 1.0]])  # around the front place
    sim.run(15)  # the new front walks into the sink and leaves
    assert not sim.active[0] and sim.exit_sink[0] == 0  # (slots moved up after remove_agents)
    np.testing.assert_array_equal(queue.waiting, ids[2:])  # the last moved up to the front
    sim.run(50)  # and leaves too
    assert not sim.active[1] and len(queue.waiting) == len(queue.approaching) == len(queue.released) == 0


def test_a_batch_stage_is_in_one_scene():
    batch = vosim.Batch(2, time_step=0.1)
    ids = batch.add_agents(np.tile([[-5.0, 0.0]], (2, 1, 1)), goals=np.tile([GOAL], (2, 1, 1)), radius=0.25)
    with pytest.raises(TypeError, match="give scene="):
        batch.add_queue(_queue_places(1))
    queue = batch.add_queue(_queue_places(1), agents=[ids[1, 0]], scene=1)
    with pytest.raises(ValueError, match=r"agents\[0\]: agent 0 is in scene 0; stage 0 is in scene 1"):
        queue.join([ids[0, 0]])
    _run_to(batch, 30)
    assert np.linalg.norm(batch.positions[0, 0] - GOAL) < 0.5  # scene 0's agent walked on
    np.testing.assert_allclose(batch.positions[1, 0], [0.0, 0.0], atol=queue.reach)


@pytest.mark.parametrize("kwargs, error, message", [
    ({"slots": [[0.0, 0.0, 0.0]]}, ValueError, r"slots: expected shape \(n, 2\)"),
    ({"slots": np.zeros((0, 2))}, ValueError, r"slots: expected shape \(n, 2\) with n >= 1"),
    ({"slots": [[0.0, np.nan]]}, ValueError, r"slots\[0, 1\] is nan"),
    ({"reach": 0.0}, ValueError, "reach is 0.0"),
    ({"release_after": -1.0}, ValueError, "release_after is -1.0"),
    ({"release_count": 0}, ValueError, "release_count is 0"),
    ({"release_count": 2.5}, TypeError, "release_count: expected an integer"),
    ({"agents": [7]}, ValueError, r"agents\[0\]: no agent with id 7"),
    ({"agents": [0, 0]}, ValueError, r"agents\[1\]: agent 0 is given twice"),
    ({"agents": [2]}, ValueError, r"agents\[0\]: agent 2 has no goal"),
    ({"agents": [1]}, ValueError, r"agents\[0\]: agent 1 is inactive"),
    ({"scene": 0}, TypeError, "a Simulator has one scene"),
])
def test_bad_input_is_named_and_adds_nothing(kwargs, error, message):
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0], [1.0, 0.0]], goals=[GOAL, GOAL])
    sim.add_agents([[2.0, 0.0]])  # no goal
    sim.active[1] = False
    arguments = {"slots": _queue_places(2)} | kwargs
    with pytest.raises(error, match=message):
        sim.add_queue(arguments.pop("slots"), **arguments)
    assert sim.waiting_stages == []


def test_an_agent_waits_in_one_stage_at_a_time_and_3d_is_refused():
    sim = vosim.Simulator(time_step=0.1)
    ids = _crowd(sim, n=1)
    sim.add_queue(_queue_places(1), agents=ids)
    with pytest.raises(ValueError, match=r"agents\[0\]: agent 0 already waits in a stage"):
        sim.add_waiting_area(_queue_places(1), agents=ids)
    assert len(sim.waiting_stages) == 1
    with pytest.raises(ValueError, match="waiting stages need a 2D simulator"):
        vosim.Simulator(dimensions=3).add_queue(_queue_places(1))


def test_rules_can_be_changed_and_are_reported():
    sim = vosim.Simulator(time_step=0.1)
    ids = _crowd(sim, n=2)
    queue = sim.add_queue(_queue_places(2), agents=ids)
    assert (queue.release_after, queue.release_count, queue.kind) == (None, None, "queue")
    _run_to(sim, 20)
    assert len(queue.released) == 0
    queue.set_rules(release_after=1.0)
    assert queue.release_after == 1.0 and "release_after=1" in repr(queue)
    _run_to(sim, 40)
    np.testing.assert_array_equal(queue.released, ids)
    with pytest.raises(ValueError, match="release_after is -2.0"):
        queue.set_rules(release_after=-2.0)


def test_members_waiting_in_their_places_are_neither_stalled_nor_deadlocked():
    sim = vosim.Simulator(time_step=0.1, method=vosim.ORCA(deadlock="sidestep"))
    ids = _crowd(sim, n=3)
    queue = sim.add_queue(_queue_places(3), agents=ids)
    traj = sim.run(600, record_every=600)  # a minute in the queue, released by nobody
    np.testing.assert_array_equal(queue.waiting, ids)
    assert int(traj.metrics["stalled_agents"]) == 0 and "stalled agents     0" in traj.summary()
    assert np.all(sim._engine.view("detour_side") == 0)  # no detours taken to get "unstuck"
    # Released, they are as any other agent: one blocked in front of a wall is stalled.
    sim.add_obstacle([[2.0, -6.0], [2.5, -6.0], [2.5, 6.0], [2.0, 6.0]])
    sim.method = vosim.ORCA()  # (no detours round the wall)
    queue.release()
    assert int(sim.run(200).metrics["stalled_agents"]) > 0


@pytest.mark.parametrize("call, error, message", [
    (lambda q: q.release(-1), ValueError, "count is -1; must be >= 0"),
    (lambda q: q.release(2.5), TypeError, "count: expected an integer"),
    (lambda q: q.join([np.nan]), TypeError, r"agents\[0\] is nan"),
    (lambda q: q.join(np.zeros((2, 2), int)), ValueError, "agents: expected a 1-D array"),
    (lambda q: q.join([]), None, None),  # nobody: nothing changes
    (lambda q: q.set_rules(release_count=-3), ValueError, "release_count is -3"),
    (lambda q: q.set_rules(release_after=np.nan), ValueError, "release_after is nan"),
])
def test_a_stage_s_calls_name_bad_arguments(call, error, message):
    sim = vosim.Simulator(time_step=0.1)
    ids = _crowd(sim, n=2)
    queue = sim.add_queue(_queue_places(2), agents=ids[:1], release_after=1.0)
    if error is None:
        call(queue)
    else:
        with pytest.raises(error, match=message):
            call(queue)
    assert queue.approaching.tolist() == [ids[0]] and queue.release_after == 1.0  # unchanged

