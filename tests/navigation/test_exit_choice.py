"""set_exits: nearest, quickest and assigned exit choice; agents leave through the sink they chose."""

import numpy as np
import pytest

shapely = pytest.importorskip("shapely")
if not hasattr(shapely, "constrained_delaunay_triangles"):
    pytest.skip("vosim.navigation needs shapely >= 2.1", allow_module_level=True)

import vosim  # noqa: E402
from vosim.navigation._exits import SPECIFIC_FLOW, exit_shape, path_lengths  # noqa: E402

LEFT = [[0.0, 4.0], [0.5, 4.0], [0.5, 6.0], [0.0, 6.0]]
RIGHT = [[19.5, 4.0], [20.0, 4.0], [20.0, 6.0], [19.5, 6.0]]


def room(starts, *, wall=False):
    """A 20 m x 10 m room with an exit area in the middle of each short side."""
    sim = vosim.Simulator(time_step=0.1, method=vosim.ORCA())
    sim.add_boundary([[0.0, 0.0], [20.0, 0.0], [20.0, 10.0], [0.0, 10.0]])
    if wall:  # a long wall in front of the left exit: the straight line is short, the path is not
        sim.add_obstacle([[2.0, 0.0], [2.5, 0.0], [2.5, 9.0], [2.0, 9.0]], strict=False)
    sinks = [sim.add_sink(LEFT), sim.add_sink(RIGHT)]
    ids = sim.add_agents(np.asarray(starts, dtype=float), radius=0.25, max_speed=1.34, pref_speed=1.34)
    return sim, sinks, ids


def crowd(count=20, seed=1):
    rng = np.random.default_rng(seed)
    return np.column_stack([rng.uniform(2.0, 8.0, count), rng.uniform(1.0, 9.0, count)])


def test_nearest_takes_the_shortest_path_not_the_straight_line():
    sim, sinks, _ = room([[8.0, 0.8], [15.0, 5.0]], wall=True)
    sim.set_exits(sinks, choice="nearest")
    # Agent 0 is 8.9 m from the left exit as the crow flies, but round the wall ~15 m; right is 12.5 m away.
    assert sim.chosen_exit.tolist() == [sinks[1], sinks[1]]
    straight, _, _ = room([[8.0, 0.8], [15.0, 5.0]], wall=True)
    straight.set_exits(sinks, choice="nearest", plan=None)
    assert straight.chosen_exit.tolist() == [sinks[0], sinks[1]]


def test_agents_leave_through_the_exit_they_chose():
    sim, sinks, _ = room(crowd())
    sim.set_exits(sinks, choice="quickest", reevaluate=2.0)
    traj = sim.run(700)
    assert traj.metrics["exits"] == 20
    assert np.array_equal(np.asarray(sim.exit_sink), sim.chosen_exit)


def test_nearest_sends_a_crowd_near_one_exit_all_to_it_and_quickest_spreads_it():
    starts = crowd(40)
    nearest, sinks, _ = room(starts)
    nearest.set_exits(sinks, choice="nearest")
    assert (nearest.chosen_exit == sinks[0]).all()
    quick, _, _ = room(starts)
    quick.set_exits(sinks, choice="quickest")
    counts = np.bincount(quick.chosen_exit, minlength=2)
    assert 0 < counts[1] < counts[0]
    # An agent goes right only if the left exit's queue costs it more than the longer walk.
    lengths = np.linalg.norm(starts[:, None, :] - np.array([exit_shape(np.array(p))[0] for p in (LEFT, RIGHT)]),
                             axis=2)
    right = quick.chosen_exit == sinks[1]
    assert (lengths[right, 1] - lengths[right, 0]).min() / 1.34 < counts[0] / (SPECIFIC_FLOW * 2.0)


def test_quickest_evacuates_sooner_than_nearest():
    times = {}
    for choice in ("nearest", "quickest"):
        sim, sinks, _ = room(crowd(40))
        sim.set_exits(sinks, choice=choice, reevaluate=2.0 if choice == "quickest" else None)
        traj = sim.run(1200)
        assert traj.metrics["exits"] == 40
        times[choice] = traj.metrics["last_exit_time"]
    assert times["quickest"] < 0.8 * times["nearest"]


def test_assigned_exits_are_kept():
    sim, sinks, ids = room(crowd(10))
    assignment = [sinks[k % 2] for k in range(10)]
    sim.set_exits(sinks, choice="assigned", assignment=assignment)
    assert sim.chosen_exit.tolist() == assignment
    traj = sim.run(900)
    assert traj.metrics["exits"] == 10
    assert np.asarray(sim.exit_sink).tolist() == assignment


def test_reevaluation_switches_agents_when_an_exit_crowds_and_carries_across_runs():
    starts = crowd(40)
    first, sinks, _ = room(starts)
    first.set_exits(sinks, choice="quickest", reevaluate=1.0)
    first.run(25)
    first.run(25)
    second, _, _ = room(starts)
    second.set_exits(sinks, choice="quickest", reevaluate=1.0)
    second.run(50)
    assert np.array_equal(first.positions, second.positions)  # many short runs re-evaluate as one long one
    assert np.array_equal(first.chosen_exit, second.chosen_exit)


def test_the_choice_is_deterministic_and_the_same_on_any_thread_count():
    results = []
    for threads in [1, 2] if vosim.have_threads() else [1, 1]:
        vosim.set_num_threads(threads)
        sim, sinks, _ = room(crowd(30))
        sim.set_exits(sinks, choice="quickest", reevaluate=1.5)
        traj = sim.run(300)
        results.append((sim.chosen_exit, traj.positions))
    vosim.set_num_threads(1)
    assert np.array_equal(results[0][0], results[1][0])
    assert np.array_equal(results[0][1], results[1][1])


def test_quickest_with_replan_stalled_runs_both():
    sim, sinks, _ = room(crowd(20))
    sim.set_goals(sim.ids, np.array(sim.positions), plan="navmesh")
    sim.set_exits(sinks, choice="quickest", reevaluate=1.0)
    traj = sim.run(700, replan_stalled=2.0)
    assert traj.metrics["exits"] == 20
    assert np.array_equal(np.asarray(sim.exit_sink), sim.chosen_exit)


def test_no_exits_chosen_gives_minus_one():
    sim, _, _ = room(crowd(3))
    assert sim.chosen_exit.tolist() == [-1, -1, -1]


def test_exit_shape_and_path_lengths():
    centre, width = exit_shape(np.array([[0.0, 0.0], [0.0, 3.0]]))
    assert centre.tolist() == [0.0, 1.5] and width == 3.0
    centre, width = exit_shape(np.array(LEFT))
    assert np.allclose(centre, [0.25, 5.0]) and width == 2.0
    starts = np.array([[0.0, 0.0], [1.0, 1.0]])
    offsets = np.array([0, 2, 3])
    points = np.array([[3.0, 0.0], [3.0, 4.0], [1.0, 2.0]])
    assert path_lengths(offsets, points, starts).tolist() == [7.0, 1.0]


@pytest.mark.parametrize("kwargs, message", [
    ({"sinks": [0, 7]}, r"sinks\[1\]: no sink with id 7"),
    ({"sinks": [1, 1]}, r"sinks\[1\]: sink 1 is given twice"),
    ({"sinks": []}, "at least one sink"),
    ({"choice": "fastest"}, "choice is 'fastest'"),
    ({"choice": "assigned"}, "assignment"),
    ({"choice": "assigned", "assignment": [0]}, "expected 3 sink ids"),
    ({"choice": "assigned", "assignment": [0, 1, 5]}, r"assignment\[2\]: sink 5 is not among"),
    ({"choice": "nearest", "assignment": [0, 1, 1]}, 'only for choice="assigned"'),
    ({"choice": "quickest", "reevaluate": 0.0}, "reevaluate"),
    ({"choice": "quickest", "reevaluate": float("nan")}, "reevaluate"),
    ({"plan": "astar"}, "plan is 'astar'"),
    ({"clearance": -1.0}, "clearance"),
    ({"waypoint_radius": -1.0}, "waypoint_radius"),
])
def test_bad_input_is_refused_and_changes_nothing(kwargs, message):
    sim, sinks, _ = room(crowd(3))
    kwargs = {"sinks": sinks, **kwargs}
    before = np.array(sim.goals)
    with pytest.raises(ValueError, match=message):
        sim.set_exits(**kwargs)
    assert np.array_equal(np.array(sim.goals), before, equal_nan=True)
    assert sim.chosen_exit.tolist() == [-1, -1, -1]


def test_a_planner_of_the_wrong_type_is_a_type_error():
    sim, sinks, _ = room(crowd(3))
    with pytest.raises(TypeError, match="plan"):
        sim.set_exits(sinks, plan=3)


def corridors(stairs_factor=None):
    """Two ways from a room (x < 4) to one exit (x > 16): a short lower one (y 0-2) and a long upper one."""
    sim = vosim.Simulator(time_step=0.1, method=vosim.ORCA())
    sim.add_boundary([[0.0, 0.0], [20.0, 0.0], [20.0, 10.0], [0.0, 10.0]])
    sim.add_obstacle([[4.0, 2.0], [16.0, 2.0], [16.0, 8.0], [4.0, 8.0]])  # the block between the ways
    if stairs_factor is not None:
        sim.add_speed_zone([[6.0, 0.0], [14.0, 0.0], [14.0, 2.0], [6.0, 2.0]], stairs_factor)
    exit_id = sim.add_sink([[18.0, 4.0], [19.9, 4.0], [19.9, 5.9], [18.0, 5.9]])
    sim.add_agents([[2.0, 3.0]], radius=0.25, max_speed=1.34, pref_speed=1.34)
    return sim, exit_id


def test_via_points_make_routes_and_quickest_weighs_speed_zones():
    via = [[[10.0, 1.0]], [[10.0, 9.0]]]
    for factor, expected in [(None, 0), (0.9, 0), (0.3, 1)]:
        sim, exit_id = corridors(factor)
        sim.set_exits([exit_id, exit_id], choice="quickest", via=via)
        assert sim.chosen_route.tolist() == [expected], factor
        assert sim.chosen_exit.tolist() == [exit_id]
        traj = sim.run(600)
        assert traj.metrics["exits"] == 1
        below = traj.positions[:, 0, 1][np.abs(traj.positions[:, 0, 0] - 10.0) < 1.0]
        assert (below.max() < 2.0) if expected == 0 else (below.min() > 8.0)
    sim, exit_id = corridors(0.3)
    sim.set_exits([exit_id, exit_id], choice="nearest", via=via)
    assert sim.chosen_route.tolist() == [0]  # nearest: length only


def test_a_passed_via_point_is_not_walked_back_to():
    sim, exit_id = corridors()
    sim.set_exits([exit_id, exit_id], choice="nearest", via=[[[10.0, 1.0]], [[10.0, 9.0]]], reevaluate=0.5)
    traj = sim.run(600)
    assert traj.metrics["exits"] == 1 and sim.chosen_route.tolist() == [0]
    x = traj.positions[:, 0, 0]
    past = np.argmax(x > 10.5)
    assert x[past:].min() > 10.0  # re-planned every 0.5 s, never sent back to (10, 1)


def test_bad_via_is_refused():
    sim, exit_id = corridors()
    with pytest.raises(ValueError, match="via: expected 2 entries"):
        sim.set_exits([exit_id, exit_id], via=[None])
    with pytest.raises(ValueError, match=r"via\[1\]"):
        sim.set_exits([exit_id, exit_id], via=[None, [[np.nan, 1.0]]])
    with pytest.raises(ValueError, match="sinks\\[1\\]: sink 0 is given twice with the same via points"):
        sim.set_exits([exit_id, exit_id], via=[[[10.0, 1.0]], [[10.0, 1.0]]])
    with pytest.raises(TypeError, match="via"):
        sim.set_exits([exit_id], via="up")


@pytest.mark.parametrize("choice", ["nearest", "quickest", "assigned"])
def test_agents_added_after_set_exits_are_chosen_for_at_the_next_reevaluation(choice):
    sim, sinks, _ = room(crowd(4))
    sim.set_exits(sinks, choice=choice, reevaluate=1.0,
                  assignment=[sinks[1]] * 4 if choice == "assigned" else None)
    late = sim.add_agents([[3.0, 5.0]], radius=0.25, max_speed=1.34, pref_speed=1.34)
    assert sim.chosen_exit[-1] == -1 and sim.chosen_route[-1] == -1
    traj = sim.run(600)
    if choice == "assigned":  # no exit was assigned to it: it is left alone
        assert sim.chosen_exit[-1] == -1 and traj.metrics["exits"] == 4
    else:
        assert sim.chosen_exit[-1] == sinks[0] and traj.metrics["exits"] == 5
    assert int(late[0]) == int(np.asarray(sim.ids)[-1])


def test_stepping_re_evaluates_as_run_does():
    """set_exits' schedule is the same for step() as for run(): n steps give run(n)'s bits."""
    starts = crowd(40)
    runs = []
    for drive in ("run", "step", "both"):
        sim, sinks, _ = room(starts)
        sim.set_exits(sinks, choice="quickest", reevaluate=1.0)
        if drive == "run":
            sim.run(55)
        elif drive == "step":
            for _ in range(55):
                sim.step()
        else:  # runs and steps mixed: the period carries across both
            sim.run(7)
            for _ in range(13):
                sim.step()
            sim.run(35)
        runs.append((sim.positions.copy(), sim.chosen_exit.copy()))
    once, sinks, _ = room(starts)
    once.set_exits(sinks, choice="quickest", reevaluate=1.0)
    first_choice = once.chosen_exit.copy()
    assert not np.array_equal(runs[0][1], first_choice)  # the choices changed on the way
    for positions, chosen in runs[1:]:
        assert np.array_equal(positions, runs[0][0]) and np.array_equal(chosen, runs[0][1])
