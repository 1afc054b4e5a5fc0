"""Waypoint guidance in the engine: visited in order, goals follow, arrival
only at the last, replaced, cleared, per scene, forgotten with the agent."""

import numpy as np
import pytest

import vosim

SQUARE_PATH = np.array([[4.0, 0.0], [4.0, 4.0], [0.0, 4.0]])


def walker(**kwargs):
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0]], waypoints=[SQUARE_PATH], radius=0.2, max_speed=1.0, waypoint_radius=0.3,
                   **kwargs)
    return sim


def test_visits_in_order_and_arrives_at_the_last():
    sim = walker()
    assert sim.goals[0].tolist() == [4.0, 0.0] and sim.waypoints_remaining[0] == 2
    traj = sim.run(500, until_arrived=True)
    assert traj.all_arrived and sim.arrived[0]
    distance = np.linalg.norm(traj.positions[:, 0, None] - SQUARE_PATH[None], axis=-1)
    first_close = [int(np.argmax(distance[:, k] <= 0.3)) for k in range(3)]
    assert first_close == sorted(first_close) and first_close[0] > 0
    assert sim.goals[0].tolist() == [0.0, 4.0] and sim.waypoints_remaining[0] == 0
    assert traj.metrics["arrival_step"][0] == traj.steps_run


def test_not_arrived_at_an_intermediate_waypoint():
    sim = vosim.Simulator(time_step=0.1)
    # The first waypoint is where the agent stands: it counts only once all are done.
    sim.add_agents([[0.0, 0.0]], waypoints=[np.array([[0.0, 0.0], [3.0, 0.0]])], max_speed=1.0, radius=0.2)
    assert not sim.arrived[0]
    sim.step()
    assert sim.goals[0].tolist() == [3.0, 0.0]


def test_replace_and_clear():
    sim = walker()
    agent = int(sim.ids[0])
    sim.set_waypoints([agent], [np.array([[-2.0, 0.0]])], waypoint_radius=0.1)
    assert sim.goals[0].tolist() == [-2.0, 0.0] and sim.waypoints_remaining[0] == 0
    sim.set_waypoints([agent], [SQUARE_PATH])
    sim.set_waypoints([agent], [None])  # clears: the current goal stays, nothing follows
    assert sim.waypoints_remaining[0] == 0 and sim.goals[0].tolist() == [4.0, 0.0]


def test_batch_per_scene_lists():
    batch = vosim.Batch(scenes=2, time_step=0.1)
    paths = [[np.array([[2.0, 0.0], [2.0, 2.0]])], [np.array([[-2.0, 0.0]])]]
    batch.add_agents(np.zeros((1, 2)), waypoints=paths, max_speed=1.0, radius=0.2, waypoint_radius=0.2)
    np.testing.assert_array_equal(batch.waypoints_remaining, [[1], [0]])
    traj = batch.run(400, until_arrived=True)
    np.testing.assert_allclose(batch.positions[:, 0], [[2.0, 2.0], [-2.0, 0.0]], atol=0.2)
    assert traj.all_arrived


def test_same_list_for_every_scene():
    batch = vosim.Batch(scenes=3, time_step=0.1)
    batch.add_agents(np.zeros((1, 2)), waypoints=[SQUARE_PATH], max_speed=1.0)
    np.testing.assert_array_equal(batch.waypoints_remaining, [[2], [2], [2]])


def test_removed_agents_lose_their_waypoints():
    sim = vosim.Simulator(time_step=0.1)
    ids = sim.add_agents([[0.0, 0.0], [9.0, 9.0]], waypoints=[SQUARE_PATH, SQUARE_PATH + 9], max_speed=1.0)
    sim.remove_agents([ids[0]])
    assert sim.waypoints_remaining.tolist() == [2]
    sim.run(5)
    assert sim.goals[0].tolist() == [13.0, 9.0]


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        (dict(waypoints=[SQUARE_PATH, SQUARE_PATH]), ValueError, "expected 1 entries"),
        (dict(waypoints=[np.zeros((0, 2))]), ValueError, r"waypoints\[0\]: expected shape \(k, 2\) with k >= 1"),
        (dict(waypoints=[np.array([[np.nan, 0.0]])]), ValueError, r"waypoints\[0\]\[0, 0\] is nan"),
        (dict(waypoints=[SQUARE_PATH], goals=[[1.0, 1.0]]), ValueError, "goals, waypoints: give one or the other"),
        (dict(waypoints=[SQUARE_PATH], waypoint_radius=-1.0), ValueError, "waypoint_radius is -1.0"),
    ],
)
def test_bad_waypoints_add_nothing(kwargs, error, message):
    sim = vosim.Simulator()
    with pytest.raises(error, match=message):
        sim.add_agents([[0.0, 0.0]], **kwargs)
    assert sim.num_agents == 0


def test_set_waypoints_errors():
    sim = walker()
    with pytest.raises(ValueError, match="no agent with id 5"):
        sim.set_waypoints([5], [SQUARE_PATH])
    with pytest.raises(TypeError, match="waypoints: expected a sequence"):
        sim.set_waypoints([0], 3.0)
    with pytest.raises(ValueError, match="waypoint_radius is -2.0"):
        sim.set_waypoints([0], [SQUARE_PATH], waypoint_radius=-2.0)
    assert sim.goals[0].tolist() == [4.0, 0.0]


def test_set_waypoints_takes_add_agents_keyword_and_warns_on_the_old_one():
    def walker():
        sim = vosim.Simulator(time_step=0.1)
        sim.add_agents(positions=[[0.0, 0.0]], goals=[[4.0, 0.0]], radius=0.3, max_speed=1.0)
        return sim

    new, old = walker(), walker()
    new.set_waypoints([0], [SQUARE_PATH], waypoint_radius=0.2)
    with pytest.warns(DeprecationWarning, match="waypoint_radius"):
        old.set_waypoints([0], [SQUARE_PATH], radius=0.2)
    np.testing.assert_array_equal(new.run(steps=60).positions, old.run(steps=60).positions)
    with pytest.raises(ValueError, match="waypoint_radius is -2.0"):
        new.set_waypoints([0], [SQUARE_PATH], waypoint_radius=-2.0)
    with pytest.raises(TypeError, match="waypoint_radius only"):
        new.set_waypoints([0], [SQUARE_PATH], waypoint_radius=0.2, radius=0.2)


def test_the_old_keyword_warning_points_at_the_callers_line():
    sim = walker()
    with pytest.warns(DeprecationWarning) as caught:
        sim.set_waypoints([0], [SQUARE_PATH], radius=0.2)
    assert caught[0].filename == __file__


def test_the_waypoints_part_reads_what_is_left_and_where_each_agent_is_bound():
    sim = walker()
    sim.add_agents([[9.0, 9.0]], goals=[[9.0, 0.0]], radius=0.2)
    assert isinstance(sim.waypoints, vosim.Waypoints)
    assert sim.waypoints.remaining().tolist() == [2, 0]
    np.testing.assert_array_equal(sim.waypoints_remaining, sim.waypoints.remaining())
    assert sim.waypoints.final_goals().tolist() == [[0.0, 4.0], [9.0, 0.0]]
    batch = vosim.Batch(scenes=2, time_step=0.1)
    batch.add_agents([[0.0, 0.0]], waypoints=[SQUARE_PATH], radius=0.2)
    assert batch.waypoints.final_goals().shape == (2, 1, 2)
    assert batch.waypoints.remaining().tolist() == [[2], [2]]


def test_flat_tracks_set_and_clear_waypoints_and_bad_ones_change_nothing():
    sim = walker()
    sim.add_agents([[9.0, 9.0]], goals=[[9.0, 0.0]], radius=0.2)
    # Agent 0 cleared (an empty range), agent 1 given two points.
    sim.waypoints.set_tracks([0, 1], [0, 0, 2], [[9.0, 5.0], [5.0, 5.0]], [0.3, 0.3])
    assert sim.waypoints.remaining().tolist() == [0, 1]
    assert sim.goals.tolist() == [[4.0, 0.0], [9.0, 5.0]]
    assert sim.waypoints.final_goals().tolist() == [[4.0, 0.0], [5.0, 5.0]]
    with pytest.raises(ValueError, match="offsets"):
        sim.waypoints.set_tracks([0, 1], [0, 2, 1], [[1.0, 1.0], [2.0, 2.0]], [0.3, 0.3])
    with pytest.raises(ValueError, match="no agent with id 7"):
        sim.waypoints.set_tracks([7], [0, 1], [[1.0, 1.0]], [0.3])
    with pytest.raises(ValueError, match=r"waypoints\[0\]\[0\] is \(nan, 0\)"):
        sim.waypoints.set_tracks([0], [0, 1], [[np.nan, 0.0]], [0.3])
    with pytest.raises(ValueError, match=r"radius\[0\] is -1"):
        sim.waypoints.set_tracks([0], [0, 1], [[1.0, 0.0]], [-1.0])
    with pytest.raises(ValueError, match=r"points: expected \(k, 2\)"):
        sim.waypoints.set_tracks([0], [0, 1], [[1.0, 0.0, 0.0]], [0.3])
    assert sim.waypoints.remaining().tolist() == [0, 1]


def test_the_waypoints_part_says_what_is_left_in_its_repr():
    sim = walker()
    sim.add_agents([[9.0, 9.0]], goals=[[9.0, 0.0]], radius=0.2)
    assert repr(sim.waypoints) == "Waypoints(agents with waypoints left: 1, waypoints left: 2)"
