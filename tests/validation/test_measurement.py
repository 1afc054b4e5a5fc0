"""Measurement areas and lines, against PedPy on the same trajectories."""

import warnings

import numpy as np
import pytest

import vosim
from vosim import measurement

pedpy = pytest.importorskip("pedpy")


@pytest.fixture(scope="module")
def corridor_run():
    """Agents in two lanes walking a 12 m corridor with walls, recorded every step."""
    sim = vosim.Simulator(time_step=0.1)
    sim.add_wall([[-12.0, -1.5], [14.0, -1.5]])
    sim.add_wall([[-12.0, 1.5], [14.0, 1.5]])
    rng = np.random.default_rng(3)
    starts = np.column_stack([-np.repeat(np.arange(10), 3) * 0.9 - 1.0, np.tile([-0.8, 0.0, 0.8], 10)])
    starts += rng.uniform(-0.05, 0.05, starts.shape)
    sim.add_agents(starts, goals=starts + [13.0 + 9.0, 0.0], radius=0.25, pref_speed=rng.uniform(1.0, 1.5, 30),
                   max_speed=2.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        traj = sim.run(260)
    return traj


AREA = [[4.0, -1.5], [6.0, -1.5], [6.0, 1.5], [4.0, 1.5]]


def test_density_and_mean_speed_match_pedpy(corridor_run):
    traj = corridor_run
    data = traj.to_pedpy()
    area = measurement.MeasurementArea(AREA)
    theirs_density = pedpy.compute_classic_density(traj_data=data, measurement_area=pedpy.MeasurementArea(AREA))
    ours = measurement.measure_area(traj, area, frame_step=5)
    assert np.allclose(ours["density"], theirs_density["density"].to_numpy(), rtol=0, atol=1e-12)
    assert ours["density"].max() >= 1.0  # the crowd did pass through
    speed = pedpy.compute_individual_speed(traj_data=data, frame_step=5)
    # PedPy needs a speed wherever someone stands: leave out the 5 frames at either end, which have none
    frames = data.data["frame"]
    kept = data.data[(frames >= 5) & (frames <= frames.max() - 5)][["id", "frame", "x", "y"]]
    inner = pedpy.TrajectoryData(data=kept, frame_rate=data.frame_rate)
    theirs_speed = pedpy.compute_mean_speed_per_frame(traj_data=inner, individual_speed=speed,
                                                      measurement_area=pedpy.MeasurementArea(AREA))
    theirs_speed = theirs_speed["speed"].to_numpy()
    assert np.isnan(ours["mean_speed"][:5]).all() and np.isnan(ours["mean_speed"][-5:]).all()
    inner_speed = ours["mean_speed"][5:-5]
    someone = np.isfinite(inner_speed)
    assert someone.sum() > 50
    assert np.allclose(inner_speed[someone], theirs_speed[someone], rtol=1e-12, atol=1e-12)
    assert np.all(theirs_speed[~someone] == 0.0)  # PedPy writes 0 where nobody is; vosim NaN
    assert np.allclose(ours["specific_flow"], ours["density"] * np.nan_to_num(ours["mean_speed"]))


def test_line_crossings_and_flow_match_pedpy(corridor_run):
    traj = corridor_run
    data = traj.to_pedpy()
    line = measurement.MeasurementLine([8.0, -1.5], [8.0, 1.5])
    nt, crossing = pedpy.compute_n_t(traj_data=data, measurement_line=pedpy.MeasurementLine([[8.0, -1.5], [8.0, 1.5]]))
    ours_nt = measurement.cumulative_crossings(traj, line)
    assert np.array_equal(ours_nt, nt["cumulative_pedestrians"].to_numpy())
    assert ours_nt[-1] == 30
    first = measurement.crossing_frames(traj, line)
    assert sorted(first.tolist()) == sorted(crossing["frame"].tolist())
    speed = pedpy.compute_individual_speed(traj_data=data, frame_step=5)
    theirs = pedpy.compute_flow(nt=nt, crossing_frames=crossing, individual_speed=speed, delta_frame=10,
                                frame_rate=data.frame_rate)
    ours = measurement.flow(traj, line, delta_frame=10, frame_step=5)
    assert len(ours["flow"]) == len(theirs) > 3
    assert np.allclose(ours["flow"], theirs["flow"].to_numpy(), rtol=1e-12)
    assert np.allclose(ours["mean_speed"], theirs["mean_speed"].to_numpy(), rtol=1e-12, equal_nan=True)
    assert np.allclose(ours["specific_flow"], ours["flow"] / 3.0)


def test_bad_areas_and_lines_are_refused():
    with pytest.raises(ValueError, match="at least 3 vertices"):
        measurement.MeasurementArea([[0, 0], [1, 0]])
    with pytest.raises(ValueError, match="no area"):
        measurement.MeasurementArea([[0, 0], [1, 0], [2, 0]])
    with pytest.raises(ValueError, match=r"vertices\[1\]"):
        measurement.MeasurementArea([[0, 0], [np.nan, 0], [1, 1]])
    with pytest.raises(ValueError, match="no length"):
        measurement.MeasurementLine([1, 1], [1, 1])
    with pytest.raises(TypeError, match="traj"):
        measurement.density(None, measurement.MeasurementArea(AREA))


def test_uneven_frames_are_refused(corridor_run):
    import dataclasses

    traj = corridor_run
    times = np.array(traj.times, dtype=float)
    times[5] += 0.03
    bent = dataclasses.replace(traj, times=times)
    with pytest.raises(ValueError, match="evenly spaced"):
        measurement.density(bent, measurement.MeasurementArea(AREA))


def _leave_through_a_sink(record_every=1):
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0], [0.0, 1.0], [-3.0, 2.0]], goals=[[10.0, 0.0], [10.0, 1.0], [10.0, 2.0]],
                   radius=0.25, max_speed=1.0, pref_speed=1.0)
    sim.add_sink([[4.0, -1.0], [4.0, 3.0]])
    sim.run(10)  # the steps counted in exit_step are the simulator's own
    return sim.run(100, record_every=record_every)


@pytest.mark.parametrize("record_every", [1, 4])
def test_agents_that_left_count_until_they_left(record_every):
    traj = _leave_through_a_sink(record_every)
    left = traj.metrics["exit_step"]
    assert (left[:2] > 0).all() and left[2] > 0 and not traj.active.any()
    # Everybody crossed the line before the sink, although nobody is active at the end.
    line = measurement.MeasurementLine([3.0, -1.0], [3.0, 3.0])
    frames = measurement.crossing_frames(traj, line)
    assert (frames >= 0).all()
    assert (traj.steps[frames] < left).all()
    assert measurement.cumulative_crossings(traj, line)[-1] == 3
    # Once gone they are not counted in an area, though their frozen positions lie in it.
    area = measurement.MeasurementArea([[3.5, -1.0], [4.5, -1.0], [4.5, 3.0], [3.5, 3.0]])
    rho = measurement.density(traj, area)
    assert rho[-1] == 0.0
    after = traj.steps > left.max()
    assert after.any() and (rho[after] == 0).all()
    # Speeds stop where the agents did: no window reaches past an agent's exit.
    speeds = measurement.individual_speeds(traj, frame_step=1)
    for agent in range(3):
        walking = np.isfinite(speeds[:, agent])
        assert walking.any()
        assert (traj.steps[walking] < left[agent]).all()
        np.testing.assert_allclose(speeds[walking, agent], 1.0, rtol=1e-6)


def test_agents_switched_off_before_the_run_take_no_part():
    sim = vosim.Simulator(time_step=0.1)
    ids = sim.add_agents([[0.0, 0.0], [0.0, 1.0]], goals=[[10.0, 0.0], [10.0, 1.0]], radius=0.25, max_speed=1.0)
    sim.active[1] = False
    traj = sim.run(60)
    frames = measurement.crossing_frames(traj, measurement.MeasurementLine([3.0, -1.0], [3.0, 3.0]))
    assert frames[0] > 0 and frames[1] == -1
    assert len(ids) == 2


def test_a_crossing_that_lands_on_the_line_counts_on_the_next_move():
    # At 1 m/s and dt 0.1 the agent lands on x = 3 within round-off (either side), then moves on.
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0]], goals=[[10.0, 0.0]], radius=0.25, max_speed=1.0)
    traj = sim.run(60)
    landed = int(np.argmin(np.abs(traj.positions[:, 0, 0] - 3.0)))
    assert abs(traj.positions[landed, 0, 0] - 3.0) < 1e-9
    frames = measurement.crossing_frames(traj, measurement.MeasurementLine([3.0, -1.0], [3.0, 3.0]))
    assert frames.tolist() == [landed + 1]
