"""Waypoints in 3D: visited in order by 3D distance, arrival only at the last,
widths checked against the simulator's dimension, checkpoints, Batch and
thread counts."""

import pickle

import numpy as np
import pytest

import vosim

CLIMB = np.array([[4.0, 0.0, 1.0], [4.0, 4.0, 3.0], [0.0, 4.0, -2.0]])


def climber():
    sim = vosim.Simulator(time_step=0.1, dimensions=3)
    sim.add_agents([[0.0, 0.0, 0.0]], waypoints=[CLIMB], radius=0.2, max_speed=1.0, waypoint_radius=0.3)
    return sim


def crowd_with_tracks(count, seed):
    """`count` agents spread in a cube, each with three waypoints ahead of it."""
    rng = np.random.default_rng(seed)
    start = rng.uniform(-40.0, 40.0, (count, 3))
    legs = rng.normal(size=(count, 3, 3))
    legs *= 2.0 / np.linalg.norm(legs, axis=-1, keepdims=True)
    return start, list(start[:, None] + np.cumsum(legs, axis=1))


def test_visits_three_altitudes_in_order_and_arrives_at_the_last():
    sim = climber()
    assert sim.goals[0].tolist() == CLIMB[0].tolist() and sim.waypoints_remaining[0] == 2
    assert sim._engine.final_goals().shape == (1, 1, 3)
    np.testing.assert_array_equal(sim._engine.final_goals()[0, 0], CLIMB[-1])
    traj = sim.run(800, until_arrived=True)
    assert traj.all_arrived and sim.arrived[0]
    distance = np.linalg.norm(traj.positions[:, 0, None] - CLIMB[None], axis=-1)
    first_close = [int(np.argmax(distance[:, k] <= 0.3)) for k in range(3)]
    assert all(distance[:, k].min() <= 0.3 for k in range(3))
    assert first_close == sorted(first_close) and first_close[0] > 0
    assert sim.goals[0].tolist() == CLIMB[-1].tolist() and sim.waypoints_remaining[0] == 0
    assert traj.metrics["arrival_step"][0] == traj.steps_run


def test_moving_on_uses_the_distance_in_space():
    sim = vosim.Simulator(time_step=0.1, dimensions=3)
    # Straight above the agent: within reach in the plane, 5 away in space.
    above = np.array([[0.0, 0.0, 5.0], [3.0, 0.0, 0.0]])
    near = np.array([[0.0, 0.0, 0.2], [3.0, 0.0, 0.0]])
    sim.add_agents(np.zeros((2, 3)) + [[0.0, 0.0, 0.0], [0.0, 20.0, 0.0]], max_speed=0.0, waypoint_radius=0.3,
                   waypoints=[above, near + [0.0, 20.0, 0.0]])
    sim.step()
    assert sim.goals[0].tolist() == [0.0, 0.0, 5.0] and sim.waypoints_remaining.tolist() == [1, 0]
    assert sim.goals[1].tolist() == [3.0, 20.0, 0.0]
    assert not sim.arrived.any()  # an intermediate waypoint is no arrival


def test_wrong_widths_are_refused_naming_the_argument_index_and_shape():
    sim = vosim.Simulator(dimensions=3)
    ids = sim.add_agents([[0.0, 0.0, 0.0], [5.0, 0.0, 0.0]])
    with pytest.raises(ValueError, match=r"waypoints\[1\]: expected shape \(k, 3\).*dimensions=3.*\(2, 2\)"):
        sim.set_waypoints(ids, [CLIMB, np.ones((2, 2))])
    with pytest.raises(ValueError, match=r"waypoints\[0\]: expected shape \(k, 3\).*\(3, 2\)"):
        sim.add_agents([[1.0, 1.0, 1.0]], waypoints=[CLIMB[:, :2]])
    assert sim.waypoints_remaining.tolist() == [0, 0] and len(sim.ids) == 2  # nothing changed
    plane = vosim.Simulator()
    plane_ids = plane.add_agents([[0.0, 0.0]])
    with pytest.raises(ValueError, match=r"waypoints\[0\]: expected shape \(k, 2\).*dimensions=2.*\(3, 3\)"):
        plane.set_waypoints(plane_ids, [CLIMB])
    with pytest.raises(ValueError, match=r"waypoints\[0\]: expected shape \(k, 2\)"):
        plane.add_agents([[1.0, 1.0]], waypoints=[CLIMB])
    with pytest.raises(ValueError, match=r"waypoints\[0\]"):
        sim.set_waypoints(ids[:1], [np.array([[0.0, 0.0, np.inf]])])


def test_replace_and_clear_in_3d():
    sim = climber()
    agent = int(sim.ids[0])
    sim.set_waypoints([agent], [np.array([[-2.0, 0.0, 7.0]])], waypoint_radius=0.1)
    assert sim.goals[0].tolist() == [-2.0, 0.0, 7.0] and sim.waypoints_remaining[0] == 0
    sim.set_waypoints([agent], [CLIMB])
    sim.set_waypoints([agent], [None])  # clears: the current goal stays, nothing follows
    assert sim.waypoints_remaining[0] == 0 and sim.goals[0].tolist() == CLIMB[0].tolist()
    np.testing.assert_array_equal(sim._engine.final_goals()[0, 0], CLIMB[0])


def test_a_3d_checkpoint_with_tracks_resumes_bit_identically(tmp_path):
    start, tracks = crowd_with_tracks(40, seed=5)
    sim = vosim.Simulator(time_step=0.1, dimensions=3, method=vosim.ORCA(perturbation=0.01, seed=2))
    sim.add_agents(start, waypoints=tracks, radius=0.3, max_speed=1.5, waypoint_radius=0.4)
    sim.run(25)
    assert 0 < sim.waypoints_remaining.sum() < 80  # agents moved on, tracks still ahead
    resumed = [pickle.loads(pickle.dumps(sim)), vosim.load_state(sim.save_state(tmp_path / "state.npz"))]
    left_before = sim.waypoints_remaining.copy()
    expected = sim.run(40)
    for copy in resumed:
        np.testing.assert_array_equal(copy.waypoints_remaining, left_before)
        traj = copy.run(40)
        np.testing.assert_array_equal(traj.positions, expected.positions)
        np.testing.assert_array_equal(copy.goals, sim.goals)
        np.testing.assert_array_equal(copy.waypoints_remaining, sim.waypoints_remaining)
        np.testing.assert_array_equal(copy._engine.final_goals(), sim._engine.final_goals())


def test_a_saved_3d_track_of_the_wrong_width_is_refused():
    sim = climber()
    state = sim.__getstate__()
    assert state["engine"]["feature.waypoints.points"].shape == (9,)  # flat: three points of three values
    state["engine"]["feature.waypoints.points"] = state["engine"]["feature.waypoints.points"][:6]  # of two
    with pytest.raises(ValueError, match="waypoints: waypoint offsets do not match the points"):
        pickle.loads(pickle.dumps(vosim.Simulator(dimensions=3))).__setstate__(state)


def test_2d_states_keep_their_layout_and_load_without_a_dimension():
    from _older_formats import as_older_payload

    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0]], waypoints=[np.array([[4.0, 0.0], [4.0, 4.0], [0.0, 4.0]])], max_speed=1.0)
    sim.run(10)
    state = sim.__getstate__()
    assert state["engine"]["feature.waypoints.points"].shape == (6,)
    assert state["engine"]["feature.waypoints.offsets"].tolist() == [0, 3]
    del state["engine"]["dimensions"]  # as states saved before 3D engines
    resumed = vosim.Simulator()
    resumed.__setstate__(as_older_payload(state))
    np.testing.assert_array_equal(resumed.run(30).positions, sim.run(30).positions)
    assert resumed.waypoints_remaining.tolist() == sim.waypoints_remaining.tolist()


def test_batch_per_scene_tracks_in_3d():
    batch = vosim.Batch(scenes=2, time_step=0.1, dimensions=3)
    paths = [[np.array([[2.0, 0.0, 1.0], [2.0, 2.0, 2.0]])], [np.array([[-2.0, 0.0, -1.0]])]]
    batch.add_agents(np.zeros((1, 3)), waypoints=paths, max_speed=1.0, radius=0.2, waypoint_radius=0.2)
    np.testing.assert_array_equal(batch.waypoints_remaining, [[1], [0]])
    assert batch._engine.final_goals().shape == (2, 1, 3)
    traj = batch.run(400, until_arrived=True)
    assert traj.all_arrived
    np.testing.assert_allclose(batch.positions[:, 0], [[2.0, 2.0, 2.0], [-2.0, 0.0, -1.0]], atol=0.2)
    np.testing.assert_array_equal(batch.waypoints_remaining, [[0], [0]])


def test_3d_tracks_do_not_depend_on_the_thread_count():
    # A crowd larger than one block of agents per thread (the conftest
    # fixture restores the thread count).
    start, tracks = crowd_with_tracks(3000, seed=8)
    runs = []
    for threads in (1, 2, 3):
        vosim.set_num_threads(threads)
        sim = vosim.Simulator(time_step=0.1, dimensions=3, method=vosim.ORCA(perturbation=0.01, seed=4))
        sim.add_agents(start, waypoints=tracks, radius=0.3, max_speed=1.5, waypoint_radius=0.5)
        traj = sim.run(15)
        runs.append((traj.positions, sim.waypoints_remaining.copy(), traj.metrics["min_clearance"]))
    assert runs[0][1].sum() < 2 * 3000  # agents moved on during the run
    for positions, left, clearance in runs[1:]:
        np.testing.assert_array_equal(positions, runs[0][0])
        np.testing.assert_array_equal(left, runs[0][1])
        np.testing.assert_array_equal(clearance, runs[0][2])


def test_a_3d_scenario_with_waypoints_builds_and_arrives():
    from vosim.scenarios import Scenario

    scenario = Scenario(name="climb", positions=np.zeros((1, 3)), goals=CLIMB[-1:],
                        waypoints=[CLIMB], agent_params={"waypoint_radius": 0.3})
    sim = scenario.build()
    assert sim.dimensions == 3 and sim.waypoints_remaining.tolist() == [2]
    assert sim.run(scenario.max_steps, until_arrived=True).all_arrived
