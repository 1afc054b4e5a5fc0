"""3D agents: Simulator/Batch(dimensions=3), their views, runs, recording,
checkpoints and errors."""

import pickle

import numpy as np
import pytest

import vosim


def crossing(n=12, seed=0):
    """n agents spread evenly on a sphere of radius 20 (a Fibonacci lattice,
    turned by `seed`), each heading for the antipode."""
    k = np.arange(n) + 0.5
    z = 1.0 - 2.0 * k / n
    azimuth = np.pi * (1.0 + 5.0**0.5) * k + seed
    ring = np.sqrt(1.0 - z * z)
    directions = np.column_stack([ring * np.cos(azimuth), ring * np.sin(azimuth), z])
    return 20.0 * directions, -20.0 * directions


def test_default_is_2d_and_dimensions_must_be_2_or_3():
    assert vosim.Simulator().dimensions == 2
    assert vosim.Batch(2).dimensions == 2
    for bad in (1, 4, 0):
        with pytest.raises(ValueError, match="dimensions"):
            vosim.Simulator(dimensions=bad)
    with pytest.raises(TypeError, match="dimensions"):
        vosim.Simulator(dimensions=2.5)


def test_views_are_n_by_3_zero_copy_and_writable():
    sim = vosim.Simulator(time_step=0.1, dimensions=3)
    start, goals = crossing(5)
    sim.add_agents(start, goals=goals, velocities=[0.0, 0.0, 1.0])
    for name in ("positions", "velocities", "pref_velocities", "goals"):
        view = getattr(sim, name)
        assert view.shape == (5, 3) and view.dtype == np.float64
    np.testing.assert_array_equal(sim.velocities, np.tile([0.0, 0.0, 1.0], (5, 1)))
    positions = sim.positions
    positions[0] = [1.0, 2.0, 3.0]  # writes through
    np.testing.assert_array_equal(sim.positions[0], [1.0, 2.0, 3.0])
    assert np.shares_memory(positions, sim.positions)
    sim.goals = [0.0, 0.0, 0.0]  # one vector for all
    np.testing.assert_array_equal(sim.goals, np.zeros((5, 3)))
    assert "dimensions=3" in repr(sim) and "dimensions=2" in repr(vosim.Simulator())


def test_batch_views_are_b_n_3():
    batch = vosim.Batch(scenes=3, time_step=0.1, dimensions=3)
    start, goals = crossing(4)
    batch.add_agents(start, goals=goals)
    assert batch.positions.shape == (3, 4, 3) and batch.goals.shape == (3, 4, 3)
    traj = batch.run(10)
    assert traj.positions.shape == (11, 3, 4, 3)
    # Identical scenes stay identical.
    np.testing.assert_array_equal(traj.positions[:, 0], traj.positions[:, 2])
    assert "dimensions=3" in repr(batch)


def test_two_columns_into_3d_and_three_into_2d_are_refused():
    sim3 = vosim.Simulator(dimensions=3)
    with pytest.raises(ValueError, match=r"positions: expected shape \(n, 3\), got \(2, 2\) \(this simulator has dimensions=3\)"):
        sim3.add_agents(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="goals"):
        sim3.add_agents(np.zeros((2, 3)), goals=np.zeros((2, 2)))
    with pytest.raises(ValueError, match="velocities"):
        sim3.add_agents(np.zeros((2, 3)), velocities=np.zeros((2, 2)))
    sim3.add_agents(np.zeros((2, 3)) + [[0, 0, 0], [5, 0, 0]])
    with pytest.raises(ValueError, match="positions"):
        sim3.positions = np.zeros((2, 2))
    sim2 = vosim.Simulator()
    with pytest.raises(ValueError, match=r"positions: expected shape \(n, 2\), got \(2, 3\) \(this simulator has dimensions=2\)"):
        sim2.add_agents(np.zeros((2, 3)))
    batch = vosim.Batch(2, dimensions=3)
    with pytest.raises(ValueError, match=r"\(2, n, 3\) or \(n, 3\)"):
        batch.add_agents(np.zeros((2, 4, 2)))


def test_run_records_reaches_goals_and_measures():
    sim = vosim.Simulator(time_step=0.1, dimensions=3)
    start, goals = crossing(12)
    ids = sim.add_agents(start, goals=goals, radius=1.0, max_speed=2.0)
    traj = sim.run(400, until_arrived=True)
    assert traj.all_arrived
    assert traj.positions.shape[1:] == (12, 3) and traj.velocities.shape[1:] == (12, 3)
    np.testing.assert_array_equal(traj.positions[-1], sim.positions)
    assert sim.arrived.all()
    assert traj.metrics["collision_agent_steps"] == 0
    assert traj.metrics["min_clearance"] > 0
    assert np.all(np.isfinite(traj.min_clearance_per_frame()))
    # Paths are at least the straight lines through space.
    straight = np.linalg.norm(goals - start, axis=1)
    assert np.all(traj.metrics["path_length"] >= straight - 1.0 - 1e-9)
    assert list(ids) == list(range(12))


def test_min_clearance_between_balls():
    positions = np.array([[[0.0, 0.0, 0.0], [0.0, 0.0, 3.0], [10.0, 10.0, 10.0]]])
    traj = vosim.Trajectory(positions=positions, velocities=np.zeros_like(positions), times=np.zeros(1),
                            steps=np.zeros(1, dtype=np.int64), ids=np.arange(3), radius=np.ones(3),
                            goals=np.zeros((3, 3)), has_goal=np.zeros(3, bool), time_step=0.1, steps_run=0,
                            all_arrived=True, wall_time=0.0)
    np.testing.assert_allclose(traj.min_clearance_per_frame(), [1.0])


def test_results_do_not_depend_on_the_thread_count():
    # A crowd larger than one block of agents per thread (the conftest
    # fixture restores the thread count).
    start, goals = crossing(3000, seed=3)
    runs = []
    for threads in (1, 2, 3):
        vosim.set_num_threads(threads)
        sim = vosim.Simulator(time_step=0.1, dimensions=3, method=vosim.ORCA(perturbation=0.01, seed=4))
        sim.add_agents(start * 2.0, goals=goals * 2.0, radius=0.5, max_speed=1.5)
        traj = sim.run(10)
        runs.append((traj.positions, traj.metrics["min_clearance"]))
    for positions, clearance in runs[1:]:
        np.testing.assert_array_equal(positions, runs[0][0])
        np.testing.assert_array_equal(clearance, runs[0][1])


def test_pickle_and_save_state_resume_bit_identically(tmp_path):
    sim = vosim.Simulator(time_step=0.1, dimensions=3)
    start, goals = crossing(20, seed=1)
    sim.add_agents(start, goals=goals, radius=1.0)
    sim.run(30)
    copy = pickle.loads(pickle.dumps(sim))
    loaded = vosim.load_state(sim.save_state(tmp_path / "state"))
    assert copy.dimensions == loaded.dimensions == 3
    expected = sim.run(40).positions
    np.testing.assert_array_equal(copy.run(40).positions, expected)
    np.testing.assert_array_equal(loaded.run(40).positions, expected)


def test_a_3d_state_is_refused_by_a_2d_engine():
    sim = vosim.Simulator(dimensions=3)
    sim.add_agents(np.zeros((1, 3)))
    state = sim._engine.snapshot()
    flat = vosim.Simulator()
    with pytest.raises(ValueError, match="dimensions=3; this engine has dimensions=2"):
        flat._engine.restore(state)


def test_trajectory_save_load_and_dataframe_with_z(tmp_path):
    pytest.importorskip("pandas")
    sim = vosim.Simulator(time_step=0.1, dimensions=3)
    start, goals = crossing(4)
    sim.add_agents(start, goals=goals)
    traj = sim.run(5)
    back = vosim.load(traj.save(tmp_path / "traj"))
    np.testing.assert_array_equal(back.positions, traj.positions)
    table = traj.to_dataframe()
    assert list(table.columns) == ["scene", "frame", "time", "id", "x", "y", "z", "vx", "vy", "vz", "heading"]
    np.testing.assert_array_equal(table["z"].to_numpy().reshape(6, 4), traj.positions[..., 2])
    assert "z" not in vosim.Simulator().run(0).to_dataframe().columns


def test_inspect_shows_orca_planes():
    sim = vosim.Simulator(time_step=0.1, dimensions=3)
    sim.add_agents([[0.0, 0.0, 0.0], [4.0, 0.0, 0.0]], goals=[[10.0, 0.0, 0.0], [-10.0, 0.0, 0.0]], radius=1.0)
    info = sim.inspect(0)
    assert info["position"].shape == (3,) and info["new_velocity"].shape == (3,)
    assert info["planes"]["point"].shape == (1, 3) and info["planes"]["normal"].shape == (1, 3)
    np.testing.assert_allclose(np.linalg.norm(info["planes"]["normal"], axis=1), 1.0)
    assert list(info["neighbors"]) == [1]
    # The chosen velocity lies in the admissible half-space.
    plane_point, normal = info["planes"]["point"][0], info["planes"]["normal"][0]
    assert np.dot(info["new_velocity"] - plane_point, normal) >= -1e-12
    sim.step()
    np.testing.assert_array_equal(sim.velocities[0], info["new_velocity"])


def test_2d_only_methods_and_features_are_refused_in_3d():
    for method in ("hrvo", "grid", "adaptive"):
        with pytest.raises(ValueError, match=r"method: .*does not support dimensions=3"):
            vosim.Simulator(dimensions=3, method=method)
    sim = vosim.Simulator(dimensions=3)
    with pytest.raises(ValueError, match="dimensions=3"):
        sim.add_wall([[0.0, 0.0], [1.0, 0.0]])


def test_bad_values_written_into_3d_views_are_named():
    sim = vosim.Simulator(dimensions=3)
    ids = sim.add_agents([[0.0, 0.0, 0.0], [5.0, 0.0, 0.0]])
    sim.positions[1, 2] = np.nan
    with pytest.raises(ValueError, match=rf"id {ids[1]}.*position"):
        sim.step()


def test_max_acceleration_and_priority_work_in_3d():
    sim = vosim.Simulator(time_step=0.1, dimensions=3)
    sim.add_agents([[0.0, 0.0, 0.0]], pref_velocities=[[0.0, 0.0, 2.0]], max_acceleration=1.0)
    sim.step()
    np.testing.assert_allclose(sim.velocities[0], [0.0, 0.0, 0.1], atol=1e-10)  # the reachable polyhedron's apex, up to 1e-9 of the reach
    # A zero-priority agent does all the avoiding of a head-on pair.
    sim = vosim.Simulator(time_step=0.1, dimensions=3)
    sim.add_agents([[0.0, 0.0, 0.0], [6.0, 0.0, 0.3]], pref_velocities=[[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0]],
                   velocities=[[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0]], radius=1.0, priority=[0.0, 1.0])
    sim.step()
    np.testing.assert_array_equal(sim.velocities[1], [-1.0, 0.0, 0.0])
    assert not np.allclose(sim.velocities[0], [1.0, 0.0, 0.0])


def test_an_interrupted_3d_run_keeps_its_partial_trajectory():
    """Ctrl-C (here raised by the progress callback, as the tick would) stops
    the run; the exception carries the frames recorded so far."""
    sim = vosim.Simulator(time_step=0.1, dimensions=3)
    start, goals = crossing(2000)
    sim.add_agents(start * 3.0, goals=goals * 3.0, radius=0.5)

    def interrupt(done, total):
        if done > 0:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as caught:
        sim.run(100_000, record_every=100, progress=interrupt)
    partial = caught.value.trajectory
    assert 1 < len(partial.times) < 1001
    assert partial.positions.shape[1:] == (2000, 3)
    np.testing.assert_array_equal(partial.positions[-1], sim.positions)
    assert sim.step_count == partial.steps[-1]
