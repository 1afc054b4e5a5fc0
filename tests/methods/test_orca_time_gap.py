"""ORCA's opt-in headway rule (time_gap): the preferred speed capped by the spacing ahead."""

import numpy as np
import pytest

import vosim


def follower_speed(time_gap, gap=1.0, steps=1):
    # A leader standing still, a follower (time horizon one step, so ORCA itself does not slow it) `gap` metres behind it (centres), both radius 0.25.
    sim = vosim.Simulator(time_step=0.1, method=vosim.ORCA(time_gap=time_gap))
    sim.add_agents([[0.0, 0.0], [gap, 0.0]], radius=0.25, max_speed=2.0, pref_speed=1.34, time_horizon=0.1,
                   max_acceleration=np.inf)
    sim.goals = [[50.0, 0.0], [np.nan, np.nan]]
    for _ in range(steps):
        sim.step()
    return float(np.linalg.norm(sim.velocities[0]))


def test_off_by_default_and_same_as_rvo2():
    assert vosim.ORCA().time_gap == 0.0
    a = vosim.scenarios.circle(30).build(method=vosim.ORCA()).run(50)
    b = vosim.scenarios.circle(30).build(method=vosim.ORCA(time_gap=0.0)).run(50)
    assert np.array_equal(a.positions, b.positions)


@pytest.mark.parametrize("time_gap", [0.5, 1.0])
def test_speed_is_the_spacing_over_the_gap(time_gap):
    spacing = 1.0 - 0.5
    assert follower_speed(time_gap) == pytest.approx(min(1.34, spacing / time_gap), rel=1e-9)


def test_free_agents_keep_their_preferred_speed():
    assert follower_speed(1.0, gap=10.0) == pytest.approx(1.34)  # nobody close ahead


def test_a_neighbour_beside_the_lane_does_not_slow():
    sim = vosim.Simulator(time_step=0.1, method=vosim.ORCA(time_gap=1.0))
    sim.add_agents([[0.0, 0.0], [1.0, 0.6]], radius=0.25, max_speed=2.0, pref_speed=1.34, time_horizon=0.1,
                   max_acceleration=np.inf)
    sim.goals = [[50.0, 0.0], [np.nan, np.nan]]  # 0.6 m to the side: outside both radii of the lane
    sim.step()
    assert sim.velocities[0, 0] == pytest.approx(1.34, rel=1e-6)


def test_never_below_a_tenth_of_the_preferred_speed():
    # Spacing 0.05 m over 0.5 s would be 0.1 m/s: the floor, 0.134 m/s, holds
    # (so two agents each ahead of the other never both stand for good).
    assert follower_speed(0.5, gap=0.55) == pytest.approx(0.134, rel=1e-9)


def test_in_space_too():
    sim = vosim.Simulator(time_step=0.1, method=vosim.ORCA(time_gap=1.0), dimensions=3)
    sim.add_agents([[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]], radius=0.25, max_speed=2.0, pref_speed=1.34, time_horizon=0.1,
                   max_acceleration=np.inf)
    sim.goals = [[50.0, 0.0, 0.0], [np.nan, np.nan, np.nan]]
    sim.step()
    assert np.linalg.norm(sim.velocities[0]) == pytest.approx(0.5, rel=1e-9)


def test_same_for_any_thread_count():
    # A dense block walking right: most agents have someone ahead (800 agents: loops run on threads).
    xs, ys = np.meshgrid(np.arange(40) * 0.6, np.arange(20) * 0.6)
    start = np.column_stack([xs.ravel(), ys.ravel()])
    runs = []
    for threads in (1, 2):
        vosim.set_num_threads(threads)
        sim = vosim.Simulator(time_step=0.1, method=vosim.ORCA(time_gap=0.5))
        sim.add_agents(start, goals=start + [100.0, 0.0], radius=0.25, pref_speed=1.34, max_speed=2.0)
        runs.append(sim.run(20).positions)
    assert np.array_equal(runs[0], runs[1])
    assert np.median(np.linalg.norm(np.diff(runs[0][-2:], axis=0)[0], axis=1)) / 0.1 < 1.0  # slowed


@pytest.mark.parametrize("bad", [-0.1, np.nan, np.inf, "1"])
def test_bad_time_gap_is_refused(bad):
    with pytest.raises((ValueError, TypeError), match="time_gap"):
        vosim.ORCA(time_gap=bad)


def test_validate_takes_a_method_with_settings_and_heads_its_column_with_them():
    from vosim.cli import main
    from vosim.validation import run_all

    [result] = run_all(vosim.ORCA(time_gap=0.5), tests=["1"])
    assert result.method == "ORCA, time_gap=0.5"
    assert run_all("orca", tests=["1"])[0].method == "ORCA"
    assert main(["validate", "--methods", "orca:time_gap=0.5", "--tests", "1"]) == 0


def test_validate_refuses_an_unknown_setting(capsys):
    from vosim.cli import main

    with pytest.raises(SystemExit):
        main(["validate", "--methods", "orca:bogus=1", "--tests", "1"])
    assert "bogus" in capsys.readouterr().err
