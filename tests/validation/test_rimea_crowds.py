"""RiMEA 13 (congestion in front of stairs), 15 (large crowd round a corner) and 16 (single-file diagram)."""

import numpy as np
import pytest

import vosim
from vosim import validation


def test_single_file_envelope_is_the_measured_table():
    env = validation.single_file_envelope()
    assert len(env["low"]) == 10 and env["low"][0] == 0.75 and env["high"][-1] == 3.25
    assert np.allclose(env["high"][:-1], env["low"][1:])  # contiguous bins
    assert np.all(env["p10"] <= env["p50"]) and np.all(env["p50"] <= env["p90"])
    assert np.all(env["samples"] >= 30) and env["samples"].sum() == 2745  # of 2,794 measured
    # people slow down as the file gets denser
    assert env["p50"][0] > 0.45 and env["p50"][-2] < 0.25
    env["p10"][:] = 0.0  # a fresh copy each time
    assert validation.single_file_envelope()["p10"][0] > 0


def test_rimea_16_orca_keeps_its_speed_in_single_file():
    result = validation.rimea_16("orca", persons=(10, 30), seconds=30.0, warmup=10.0)
    m = result.measured
    assert m["persons"] == [10, 30] and m["global_density"] == pytest.approx([10 / 26, 30 / 26])
    # ORCA walks at its free speed at 1.15 persons/m, where people in single file walk about 0.5 m/s
    assert min(m["mean_speed"]) > 1.25
    assert m["share_inside"] < 0.05 and not result.passed
    # the samples of the 10 persons (0.38/m), a quarter of all, lie below the measured densities
    assert m["share_outside_range"] == pytest.approx(0.25, abs=0.02)
    assert m["samples"] == (10 + 30) * 49  # every person every 0.4 s over 20 s, but the last (no speed to it)


def test_rimea_16_judges_a_model_that_slows_like_people_bin_by_bin():
    # The collision-free speed model slows with density as people do and puts most of its samples in the
    # measured band, pooled; but in the lowest bin (0.75-1 /m) it walks faster than anyone measured there.
    result = validation.rimea_16("csm", persons=(20, 27, 34, 41))
    speeds = result.measured["mean_speed"]
    assert all(a > b for a, b in zip(speeds, speeds[1:]))
    assert result.measured["share_inside"] >= 0.5
    bins = {b["low"]: b["share_inside"] for b in result.measured["bins"]}
    assert bins[0.75] < 0.5 and min(v for low, v in bins.items() if low > 0.75) >= 0.5
    assert not result.passed


def test_rimea_16_refuses_bad_input():
    with pytest.raises(ValueError, match=r"persons\[1\]"):
        validation.rimea_16("orca", persons=(10, 60))
    with pytest.raises(ValueError, match="persons"):
        validation.rimea_16("orca", persons=())
    with pytest.raises(ValueError, match="warmup"):
        validation.rimea_16("orca", seconds=10.0, warmup=10.0)
    with pytest.raises(ValueError, match="share"):
        validation.rimea_16("orca", share=1.5)


def test_rimea_15_orca_small_crowd_round_the_corner():
    result = validation.rimea_15("orca", persons=100)
    m = result.measured
    assert m["arrived"] == {"short": 100, "corner": 100, "long": 100}
    assert 20.0 < m["time_short_s"] < m["time_long_s"] < 120.0
    assert result.passed == (m["time_short_s"] <= m["time_corner_s"] <= m["time_long_s"])
    assert result.passed
    assert len(result.data["exit_times"]["corner"]) == 100
    assert result.data["exit_times"]["corner"][-1] == pytest.approx(m["time_corner_s"])


def test_rimea_15_fails_a_crowd_not_across_in_time():
    result = validation.rimea_15("orca", persons=100, seconds=20.0)
    assert not result.passed and "not everybody across in 20 s" in result.summary
    assert result.measured["time_corner_s"] == float("inf")
    with pytest.raises(ValueError, match="persons"):
        validation.rimea_15("orca", persons=1)
    with pytest.raises(ValueError, match="persons"):
        validation.rimea_15("orca", persons=2000)  # does not fit the start area


def test_rimea_13_measures_the_queue_before_the_stairs():
    result = validation.rimea_13("hrvo")
    m = result.measured
    assert m["out"] == m["persons"] == 150
    assert m["stair_flow_per_s"] <= 0.9 * m["door_flow_per_s"]
    assert m["foot_density_per_m2"] > m["middle_density_per_m2"]
    assert result.passed


def test_rimea_13_orca_stairs_pass_as_many_as_the_door():
    """ORCA's followers share the avoidance with slow people on the stairs, so they walk faster than the
    stair speed and no queue forms at the foot: the test fails."""
    result = validation.rimea_13("orca")
    m = result.measured
    assert m["out"] == 150
    assert m["stair_flow_per_s"] > 0.9 * m["door_flow_per_s"] and not result.passed
    with pytest.raises(ValueError, match="persons"):
        validation.rimea_13("orca", persons=5)
    with pytest.raises(ValueError, match="stair_speed"):
        validation.rimea_13("orca", stair_speed=0.0)
    with pytest.raises(ValueError, match="margin"):
        validation.rimea_13("orca", margin=-0.1)


def test_rimea_13_15_16_in_the_suite_and_their_figures(tmp_path, capsys):
    from vosim.cli import main

    assert {"13", "15", "16", "overlap"} <= set(validation.TESTS)
    assert "RiMEA 13" not in {item.test for item in validation.NOT_EXPRESSIBLE}
    code = main(["validate", "--methods", "orca", "--tests", "13", "--seeds", "2", "--plot", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 1 and "| RiMEA 13 congestion in front of stairs | **FAIL** 0/2: flow" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rimea_13_orca.png"]
    pytest.importorskip("matplotlib")
    results = [validation.rimea_15("orca", persons=40), validation.rimea_16("orca", persons=(30,), seconds=10.0,
                                                                             warmup=2.0)]
    figures = validation.figures(results)
    assert sorted(figures) == ["rimea_15_orca", "rimea_16_orca"]


def test_single_file_speeds_come_from_displacement_not_velocity():
    # An agent that steps back and forth between two points 0.134 m apart every 0.1 s moves at 1.34 m/s
    # in each step and makes no progress: measured over the 0.4 s between samples, it stands.
    from vosim.validation._single_file import RING_LENGTH, ring_speeds

    radius = RING_LENGTH / (2 * np.pi)
    angles = np.array([0.0, 0.134 / radius] * 6)[::4]  # samples every 4 steps land on the same point
    standing = np.stack([np.cos(angles), np.sin(angles)], axis=-1)[:, None, :] * radius
    assert np.allclose(ring_speeds(standing, radius), 0.0, atol=1e-12)
    walking = np.linspace(0.0, 1.34 * 0.4 * 5, 6) / radius  # 1.34 m/s round the ring
    moving = np.stack([np.cos(walking), np.sin(walking)], axis=-1)[:, None, :] * radius
    assert np.allclose(ring_speeds(moving, radius), 1.34)


def test_area_speeds_of_an_oscillating_agent_are_about_zero():
    from dataclasses import replace

    from vosim import measurement

    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0]], goals=[[10.0, 0.0]], max_speed=1.34)
    traj = sim.run(40)
    # Back and forth between two points 0.134 m apart every step (1.34 m/s per step, no progress).
    x = np.where(np.arange(len(traj.times)) % 2 == 0, 0.0, 0.134)
    oscillating = replace(traj, positions=np.stack([x, np.zeros_like(x)], axis=-1)[:, None, :])
    speeds = measurement.individual_speeds(oscillating, frame_step=5)
    assert np.nanmax(speeds) < 0.02
    assert np.nanmin(measurement.individual_speeds(traj, frame_step=5)) > 1.0  # the real walk is fast
