"""Bad input raises a clear error naming the argument, index and value."""

import numpy as np
import pytest

import vosim


@pytest.fixture
def sim():
    return vosim.Simulator(time_step=0.1)


@pytest.mark.parametrize("time_step", [0.0, -1.0, np.nan, np.inf])
def test_bad_time_step(time_step):
    with pytest.raises(ValueError, match="time_step"):
        vosim.Simulator(time_step=time_step)


@pytest.mark.parametrize("time_step", ["0.1", None, [0.1], True])
def test_time_step_of_the_wrong_type(time_step):
    with pytest.raises(TypeError, match="time_step"):
        vosim.Simulator(time_step=time_step)


def test_setting_a_bad_time_step(sim):
    with pytest.raises(ValueError, match="time_step"):
        sim.time_step = -0.5
    assert sim.time_step == 0.1


@pytest.mark.parametrize(
    "positions, error, message",
    [
        ([[0.0, 0.0, 0.0]], ValueError, r"positions: expected shape \(n, 2\), got \(1, 3\)"),
        ([0.0, 0.0], ValueError, r"positions: expected shape \(n, 2\), got \(2,\)"),
        ([[0.0, 0.0], [1.0]], ValueError, "positions: cannot be read"),
        ([["a", "b"]], TypeError, "positions: expected real numbers"),
        ([[True, False]], TypeError, "positions: expected real numbers"),
        ([[0.0, 0.0], [1.0, np.nan]], ValueError, r"positions\[1, 1\] is nan; must be finite"),
        ([[np.inf, 0.0]], ValueError, r"positions\[0, 0\] is inf"),
    ],
)
def test_bad_positions(sim, positions, error, message):
    with pytest.raises(error, match=message):
        sim.add_agents(positions)
    assert sim.num_agents == 0


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(radius=[1.0, -1.0]), r"radius\[1\] is -1.0; must be >= 0"),
        (dict(radius=np.nan), r"radius is nan; must be finite"),
        (dict(max_speed=-2), r"max_speed is -2.0; must be >= 0"),
        (dict(neighbor_dist=[1.0, -0.5]), r"neighbor_dist\[1\] is -0.5"),
        (dict(max_neighbors=-1), "max_neighbors is -1.0; must be >= 0"),
        (dict(max_neighbors=[1, 2.5]), r"max_neighbors\[1\] is 2.5; must be a whole number"),
        (dict(max_neighbors=2**40), "max_neighbors: values must fit in 32 bits"),
        (dict(time_horizon=0.0), "time_horizon is 0.0; must be > 0"),
        (dict(time_horizon_obst=-1.0), "time_horizon_obst is -1.0; must be > 0"),
        (dict(pref_speed=[1.0, -1.0]), r"pref_speed\[1\] is -1.0"),
        (dict(arrival_radius=-1.0), "arrival_radius is -1.0"),
        (dict(velocities=[[0.0, np.inf], [0.0, 0.0]]), r"velocities\[0, 1\] is inf"),
        (dict(velocities=[1.0, 2.0, 3.0]), r"velocities: expected \(2,\) or \(2, 2\)"),
        (dict(radius=[1.0, 2.0, 3.0]), r"radius: expected a scalar or \(2,\), got shape \(3,\)"),
        (dict(goals=[[1.0, np.nan], [0.0, 0.0]]), r"goals\[0\] is .*give both coordinates"),
        (dict(goals=[[np.inf, 0.0], [0.0, 0.0]]), r"goals\[0, 0\] is inf"),
        (dict(radius="big"), "radius: expected real numbers"),
    ],
)
def test_bad_agent_parameters(sim, kwargs, message):
    with pytest.raises((ValueError, TypeError), match=message):
        sim.add_agents([[0.0, 0.0], [5.0, 0.0]], **kwargs)
    assert sim.num_agents == 0


def test_empty_add_is_fine(sim):
    ids = sim.add_agents(np.zeros((0, 2)))
    assert ids.shape == (0,)


@pytest.mark.parametrize(
    "field, index, value, message",
    [
        ("positions", (1, 0), np.nan, "agent id 1 .*: position is nan"),
        ("velocities", (0, 1), np.inf, "agent id 0 .*: velocity is inf"),
        ("pref_velocities", (1, 1), -np.inf, "agent id 1 .*: pref_velocity is -inf"),
        ("radius", 1, -0.5, r"agent id 1 .*: radius is -0.5; it must be finite and within \[0, 1e\+15\]"),
        ("max_speed", 0, np.nan, "max_speed is nan"),
        ("neighbor_dist", 0, -1.0, "neighbor_dist is -1"),
        ("max_neighbors", 0, -3, "max_neighbors is -3"),
        ("time_horizon", 1, 0.0, r"time_horizon is 0; it must be finite and within \[1e-15, 1e\+15\]"),
        ("time_horizon_obst", 1, np.inf, "time_horizon_obst is inf"),
    ],
)
def test_bad_values_written_into_views_stop_the_step(sim, field, index, value, message):
    sim.add_agents([[0.0, 0.0], [5.0, 0.0]], pref_velocities=[[1.0, 0.0], [0.0, 1.0]])
    before = sim.positions.copy()
    getattr(sim, field)[index] = value
    with pytest.raises(ValueError, match=message):
        sim.step()
    with pytest.raises(ValueError, match="Nothing was advanced"):
        sim.run(10)
    assert sim.step_count == 0
    if field != "positions":
        np.testing.assert_array_equal(sim.positions, before)


def test_bad_goal_written_into_view(sim):
    sim.add_agents([[0.0, 0.0]], goals=[[1.0, 1.0]])
    sim.goals[0, 0] = np.nan
    with pytest.raises(ValueError, match="agent id 0 .*: goal is nan"):
        sim.step()
    sim.has_goal[0] = False  # without a goal the NaN goal does not matter
    sim.step()


def test_bad_run_arguments(sim):
    sim.add_agents([[0.0, 0.0]])
    with pytest.raises(ValueError, match="steps is -1"):
        sim.run(-1)
    with pytest.raises(TypeError, match="steps: expected an integer"):
        sim.run(2.5)
    with pytest.raises(ValueError, match="record_every is 0"):
        sim.run(10, record_every=0)
    with pytest.raises(ValueError, match="until_arrived=True needs"):
        sim.run(10, until_arrived=True)
    with pytest.raises(TypeError, match="progress"):
        sim.run(10, progress="yes")


def test_huge_recording_is_refused_with_advice(sim):
    sim.add_agents(np.zeros((1000, 2)) + np.arange(1000)[:, None] * 10)
    with pytest.raises(ValueError, match="record_every"):
        sim.run(10**7)


def test_bad_method(sim):
    with pytest.raises(TypeError, match="method: expected a vosim method"):
        sim.method = "ORCA"
    with pytest.raises(ValueError, match="bisector_weight"):
        vosim.ORCA(bisector_weight=-1.0)


def test_batch_shapes():
    batch = vosim.Batch(scenes=2)
    with pytest.raises(ValueError, match=r"positions: expected shape \(2, n, 2\) or \(n, 2\)"):
        batch.add_agents(np.zeros((3, 4, 2)))
    with pytest.raises(ValueError, match=r"radius: expected a scalar or \(4,\) or \(2, 4\)"):
        batch.add_agents(np.zeros((2, 4, 2)), radius=np.ones((3, 4)))
    with pytest.raises(ValueError, match="scenes is 0"):
        vosim.Batch(scenes=0)


def test_threads():
    with pytest.raises(ValueError, match="num_threads is 0; must be >= 1"):
        vosim.set_num_threads(0)
