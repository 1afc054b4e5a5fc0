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
        (dict(max_neighbors=2**40), "max_neighbors is 1099511627776.0; must be <= 2147483647"),
        (dict(time_horizon=0.0), "time_horizon is 0.0; must be >= 1e-15"),
        (dict(time_horizon_obst=-1.0), "time_horizon_obst is -1.0; must be >= 1e-15"),
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
        sim.run(10, progress=3)  # a label is a string; a number is nothing


def test_huge_recording_is_refused_with_advice(sim):
    sim.add_agents(np.zeros((1000, 2)) + np.arange(1000)[:, None] * 10)
    with pytest.raises(ValueError, match="record_every"):
        sim.run(10**7)


def test_bad_method(sim):
    with pytest.raises(TypeError, match="method: expected a vosim method"):
        sim.method = 3
    with pytest.raises(ValueError, match="method: unknown method 'boids'; choose from adaptive"):
        sim.method = "boids"
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


# ---------------------------------------------------------------- working range
@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(positions=[[2e15, 0.0]]), r"positions\[0, 0\] is 2000000000000000.0; must be between -1e\+15 and 1e\+15"),
        (dict(velocities=(0.0, -1e300)), r"velocities\[1\] is -1e\+300; must be between"),
        (dict(goals=[[0.0, 1e16]]), r"goals\[0, 1\] is 1e\+16; must be between"),
        (dict(radius=1e16), r"radius is 1e\+16; must be <= 1e\+15"),
        (dict(max_speed=np.float32(1e20)), r"max_speed is 1.00000002\d*e\+20; must be <= 1e\+15"),
        (dict(time_horizon=1e-16), "time_horizon is 1e-16; must be >= 1e-15"),
        (dict(time_horizon_obst=1e300), "time_horizon_obst is 1e\\+300; must be <= 1e\\+15"),
        (dict(max_neighbors=np.uint64(2**63)), "max_neighbors is 9.223372036854776e\\+18; must be <= 2147483647"),
    ],
)
def test_values_outside_the_working_range(sim, kwargs, message):
    kwargs.setdefault("positions", [[0.0, 0.0]])
    with pytest.raises(ValueError, match=message):
        sim.add_agents(**kwargs)
    assert sim.num_agents == 0


@pytest.mark.parametrize("time_step", [1e-16, 2e15])
def test_time_step_outside_the_working_range(time_step):
    with pytest.raises(ValueError, match="time_step is"):
        vosim.Simulator(time_step=time_step)


def test_out_of_range_values_written_into_views_stop_the_step(sim):
    sim.add_agents([[0.0, 0.0], [5.0, 0.0]])
    sim.positions[1, 0] = 3e15
    with pytest.raises(ValueError, match=r"agent id 1 .*: position is 3e\+15; it must be finite and within "
                                         r"\[-1e\+15, 1e\+15\]"):
        sim.step()
    sim.positions[1, 0] = 5.0
    sim.time_horizon[0] = 1e-300
    with pytest.raises(ValueError, match=r"agent id 0 .*: time_horizon is 1e-300"):
        sim.step()


def test_inactive_agents_are_not_checked(sim):
    sim.add_agents([[0.0, 0.0], [5.0, 0.0]])
    sim.active[1] = False
    sim.positions[1] = np.nan
    sim.radius[1] = -1.0
    sim.run(3)
    assert sim.step_count == 3 and np.isfinite(sim.positions[0]).all()


@pytest.mark.parametrize(
    ("field", "value", "name"),
    [("positions", np.nan, "position"), ("goals", -np.inf, "goal"), ("pref_speed", -1.0, "pref_speed"),
     ("start_time", np.nan, "start_time"), ("max_neighbors", -1, "max_neighbors"), ("neighbor_dist", -1.0, "neighbor_dist"),
     ("priority", np.inf, "priority")],
)
def test_the_first_bad_agent_of_a_large_batch_is_named(field, value, name):
    # The check reads columns a block of agents at a time (4,096 values),
    # scene by scene, and skips the unused slots beyond the agents in use:
    # two scenes of 5,000 agents, added in two calls so that slots are to
    # spare, with the bad value in the second block of the second scene,
    # then also in an earlier agent (which is the one named).
    batch = vosim.Batch(scenes=2, time_step=0.1)
    xs = np.arange(5000.0)
    batch.add_agents(np.broadcast_to(np.column_stack([xs[:3000], np.zeros(3000)]), (2, 3000, 2)).copy(),
                     goals=np.full((2, 3000, 2), 1e4))
    batch.add_agents(np.broadcast_to(np.column_stack([xs[3000:], np.zeros(2000)]), (2, 2000, 2)).copy(),
                     goals=np.full((2, 2000, 2), 1e4))
    column = getattr(batch, field)
    column[1, 4500] = value
    with pytest.raises(ValueError, match=rf"agent id \d+ \(scene 1, slot 4500\): {name} is"):
        batch.step()
    column[0, 4200] = value
    with pytest.raises(ValueError, match=rf"\(scene 0, slot 4200\): {name} is"):
        batch.step()
    batch.active[0, 4200] = False
    with pytest.raises(ValueError, match=rf"\(scene 1, slot 4500\): {name} is"):
        batch.step()
    batch.active[1, 4500] = False
    batch.step()
    assert batch.step_count == 1


# ------------------------------------------------------------ setting a field
def test_assigning_a_field_checks_and_writes_every_agent(sim):
    sim.add_agents([[0.0, 0.0], [5.0, 0.0], [9.0, 0.0]])
    sim.radius = 0.25
    np.testing.assert_array_equal(sim.radius, 0.25)
    sim.max_speed = [1.0, 2.0, 3.0]
    np.testing.assert_array_equal(sim.max_speed, [1.0, 2.0, 3.0])
    sim.pref_velocities = (1.0, 0.0)
    np.testing.assert_array_equal(sim.pref_velocities, [[1.0, 0.0]] * 3)
    sim.max_neighbors = np.array([1, 2, 3], dtype=np.uint8)
    assert sim.max_neighbors.dtype == np.int32 and list(sim.max_neighbors) == [1, 2, 3]
    sim.active = [True, 1, 0]
    np.testing.assert_array_equal(sim.active, [True, True, False])


@pytest.mark.parametrize(
    "name, value, error, message",
    [
        ("radius", [0.5, -0.5, 1.0], ValueError, r"radius\[1\] is -0.5; must be >= 0"),
        ("radius", [0.5, 0.5], ValueError, r"radius: expected a scalar or \(3,\), got shape \(2,\)"),
        ("max_speed", "fast", TypeError, "max_speed: expected real numbers"),
        ("positions", [[0, 0], [1, np.nan], [2, 2]], ValueError, r"positions\[1, 1\] is nan; must be finite"),
        ("velocities", np.ones((3, 2), complex), TypeError, "velocities: expected real numbers"),
        ("time_horizon", 0.0, ValueError, "time_horizon is 0.0; must be >= 1e-15"),
        ("max_neighbors", [1, 2, 2.5], ValueError, r"max_neighbors\[2\] is 2.5; must be a whole number"),
        ("active", [True, 2, False], ValueError, r"active\[1\] is 2; must be True or False"),
        ("has_goal", [0.0, 1.0, 1.0], TypeError, "has_goal: expected booleans"),
        ("goals", [[1.0, np.nan], [0, 0], [0, 0]], ValueError, r"goals\[0\] is .*give both coordinates"),
    ],
)
def test_assigning_bad_values_changes_nothing(sim, name, value, error, message):
    sim.add_agents([[0.0, 0.0], [5.0, 0.0], [9.0, 0.0]])
    before = getattr(sim, name).copy()
    with pytest.raises(error, match=message):
        setattr(sim, name, value)
    np.testing.assert_array_equal(getattr(sim, name), before)


def test_assigning_goals_sets_has_goal(sim):
    sim.add_agents([[0.0, 0.0], [5.0, 0.0]])
    sim.goals = [[1.0, 1.0], [np.nan, np.nan]]
    np.testing.assert_array_equal(sim.has_goal, [True, False])
    sim.goals = (3.0, 4.0)
    np.testing.assert_array_equal(sim.has_goal, [True, True])


def test_ids_are_read_only(sim):
    sim.add_agents([[0.0, 0.0]])
    with pytest.raises(AttributeError):
        sim.ids = [5]


def test_batch_fields_take_a_scene_axis():
    batch = vosim.Batch(scenes=2)
    batch.add_agents(np.zeros((2, 3, 2)) + np.arange(3)[None, :, None] * 5)
    batch.radius = [[0.1], [0.2]] * np.ones((2, 3))
    np.testing.assert_array_equal(batch.radius[:, 0], [0.1, 0.2])
    with pytest.raises(ValueError, match=r"radius\[1, 2\] is -1.0"):
        batch.radius = [[0.1, 0.1, 0.1], [0.1, 0.1, -1.0]]


# ------------------------------------------------------------- other calls
def test_more_bad_run_arguments(sim):
    with pytest.raises(TypeError, match="until_arrived: expected True or False"):
        sim.run(1, until_arrived=np.array([True]))
    with pytest.raises(ValueError, match="steps is 1267650600228229401496703205376; must be <="):
        sim.run(2**100)
    with pytest.raises(ValueError, match="record less often"):
        sim.run(10**15)  # no agents, but 10^15 frames of times and step numbers
    with pytest.raises(TypeError, match="record_every: expected an integer"):
        sim.run(10, record_every=None)


@pytest.mark.parametrize(
    "ids, error, message",
    [
        (np.array([2**63], dtype=np.uint64), ValueError, r"ids\[0\]: no agent with id 9223372036854775808"),
        ([[0]], ValueError, r"ids: expected a 1-D array of agent ids, got shape \(1, 1\)"),
        (["a"], TypeError, "ids: expected integer agent ids"),
        ([0.0], TypeError, r"ids\[0\] is 0.0; expected integer agent ids"),
        ([True], TypeError, r"ids\[0\] is True; expected integer agent ids"),
        ([-1], ValueError, r"ids\[0\]: no agent with id -1"),
    ],
)
def test_bad_ids(sim, ids, error, message):
    sim.add_agents([[0.0, 0.0]])
    with pytest.raises(error, match=message):
        sim.remove_agents(ids)
    assert sim.num_agents == 1


@pytest.mark.parametrize(
    "threads, error, message",
    [(2.0, TypeError, "num_threads: expected an integer"), (True, TypeError, "num_threads: expected an integer"),
     (10**9, ValueError, "num_threads is 1000000000; must be <= "), (2**70, ValueError, "num_threads is")],
)
def test_bad_thread_counts(threads, error, message):
    with pytest.raises(error, match=message):
        vosim.set_num_threads(threads)
    assert 1 <= vosim.get_num_threads() <= vosim.thread_limit()


def test_bad_scene_counts_and_methods():
    with pytest.raises(ValueError, match="scenes is 1099511627776; must be <= 2147483647"):
        vosim.Batch(scenes=2**40)
    with pytest.raises(TypeError, match="Can't instantiate abstract class Method"):
        vosim.Method()
    with pytest.raises(ValueError, match="bisector_weight is 1e\\+300; must be <= 1e\\+15"):
        vosim.ORCA(bisector_weight=1e300)
    with pytest.raises(TypeError, match="bisector_weight: expected a real number"):
        vosim.ORCA(bisector_weight="1")
    with pytest.raises(ValueError, match="time_step is an integer of 401 digits"):
        vosim.Simulator(time_step=10**400)
    assert vosim.Simulator(time_step=np.array(0.5)).time_step == 0.5


def test_min_clearance_checks_active_agents_only():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0], [3.0, 0.0], [9.0, 0.0]], radius=0.5)
    traj = sim.run(2)
    traj.positions[1, 2, 0] = np.inf
    with pytest.raises(ValueError, match=r"positions\[1, 2, 0\] is inf; must be finite"):
        traj.min_clearance_per_frame()
    traj.active = np.array([True, True, False])
    np.testing.assert_allclose(traj.min_clearance_per_frame(), 2.0)


def test_bad_plot_arguments():
    pytest.importorskip("matplotlib")
    from vosim import plot

    with pytest.raises(TypeError, match="traj: expected a vosim.Trajectory"):
        plot.trajectories(np.zeros((3, 2, 2)))
    batch = vosim.Batch(scenes=2)
    batch.add_agents(np.zeros((1, 2)))
    with pytest.raises(ValueError, match="scene is 2; must be <= 1"):
        plot.trajectories(batch.run(1), scene=2)


def test_bad_value_written_during_a_run_stops_it_with_the_partial_trajectory(sim):
    sim.add_agents([[0.0, 0.0], [50.0, 0.0]], pref_velocities=(1.0, 0.0))
    calls = []

    def sabotage(done, total):
        calls.append(done)
        sim.radius[1] = -2.0

    with pytest.raises(ValueError, match=r"agent id 1 .*: radius is -2") as raised:
        sim.run(10**6, record_every=10**6, progress=sabotage)
    traj = raised.value.trajectory
    assert calls and traj.steps_run == sim.step_count == calls[0]
    np.testing.assert_array_equal(traj.positions[-1], sim.positions)
