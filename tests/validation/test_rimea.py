"""The RiMEA verification tests vosim can express, run fast for ORCA, and what they report."""

import numpy as np
import pytest

from vosim import validation


def test_rimea_1_orca_walks_the_corridor_in_time():
    result = validation.rimea_1("orca")
    assert result.passed and result.method == "ORCA"
    # 40 m at 1.33 m/s from a standing start, timed at the end line
    assert 30.0 <= result.measured["travel_time_s"] <= 30.3


def test_rimea_7_takes_the_groups_given():
    result = validation.rimea_7("orca", groups={"one speed": (1.0, 1.0)}, per_group=2)
    assert result.passed and np.allclose(result.measured["measured"], 1.0, rtol=1e-9)
    assert result.measured["groups"] == {"one speed": pytest.approx((1.0, 1.0))}
    with pytest.raises(ValueError, match="max"):
        validation.rimea_7("orca", groups={"bad": (1.2, 1.0)})


def test_rimea_7_orca_keeps_each_assigned_speed():
    result = validation.rimea_7("orca", per_group=5)
    assert result.passed
    assert result.measured["largest_relative_error"] < 1e-6
    assert len(result.measured["measured"]) == 15


def test_rimea_4_orca_departs_from_weidmann_at_high_density():
    result = validation.rimea_4("orca", densities=(0.5, 2.0), length=24.0, width=4.0, start=2.0, duration=3.0)
    density, speed, weidmann = (np.array(result.measured[k]) for k in ("density", "speed", "weidmann_speed"))
    assert np.allclose(density, [0.5, 2.0], rtol=0.25)
    assert abs(speed[0] - weidmann[0]) < 0.1  # free walking agrees
    # ORCA walks at its preferred speed at 2 persons/m^2, where people slow to about 0.6 m/s
    assert speed[1] > 1.2 and weidmann[1] < 0.8
    assert not result.passed and "above Weidmann's" in result.notes
    with pytest.raises(ValueError, match=r"densities\[0\]"):
        validation.rimea_4("orca", densities=(6.0,))


def test_no_overlap_measures_overlaps_at_a_door():
    result = validation.no_overlap("orca", agents=30, seconds=20.0)
    assert result.test == "No overlaps" and "RiMEA" not in result.test
    assert result.measured["max_wall_penetration_m"] <= 0.01
    assert result.measured["through_door"] > 5
    assert result.passed == (result.measured["max_overlap_m"] <= 0.01)


def test_rimea_5_orca_sets_off_at_the_pre_movement_times():
    # Without the walker aimed at a waiting person: ORCA's waiting agents give way to that one
    # (tests/validation/test_validation_variants.py).
    result = validation.rimea_5("orca", walker=False)
    start, set_off = result.data["start_time"], result.data["set_off"]
    assert result.passed and result.measured["early"] == 0 and result.measured["late"] == 0
    assert start.min() >= 10.0 and start.max() <= 100.0
    assert np.all((set_off >= start) & (set_off <= start + 1.0))


def test_rimea_5_fails_a_method_whose_waiting_agents_are_pushed_aside():
    """ForceBased's separation pushes standing pedestrians away as others pass: they 'set off' early."""
    result = validation.rimea_5("force")
    assert not result.passed and result.measured["early"] > 0
    assert "set off on time" in result.summary


def test_weidmann_diagram():
    assert validation.weidmann_speed(0.0) == pytest.approx(1.34)
    assert validation.weidmann_speed(5.4) == 0.0 and validation.weidmann_speed(6.0) == 0.0
    rho = np.linspace(0.1, 5.4, 2000)
    flow = validation.weidmann_specific_flow(rho)
    assert flow.max() == pytest.approx(1.22, abs=0.01) and rho[flow.argmax()] == pytest.approx(1.75, abs=0.05)


def test_the_table_lists_tests_not_expressible_yet():
    results = [validation.rimea_1("orca"), validation.rimea_1("rvo")]
    missing = (validation.NotExpressible("RiMEA 99", "a test from the future", "levels"),)
    text = validation.table(results, missing)
    assert text.splitlines()[0] == "| test | ORCA | RVO |"
    assert "| RiMEA 1 corridor 40 m at 1.33 m/s | pass: 30.1 s | pass:" in text
    assert "| not expressible yet | needs |" in text and "| RiMEA 99 a test from the future | levels |" in text
    assert "not expressible" not in validation.table(results, validation.NOT_EXPRESSIBLE)
    assert not {"RiMEA 8", "RiMEA 10", "RiMEA 11"} & {item.test for item in validation.NOT_EXPRESSIBLE}
    with pytest.raises(ValueError, match="unknown test '17'"):
        validation.run_all("orca", tests=["17"])
    with pytest.raises(TypeError, match="method"):
        validation.rimea_1(42)


def test_vosim_validate_prints_the_table_and_writes_figures(tmp_path, capsys):
    from vosim.cli import main

    code = main(["validate", "--methods", "orca", "--tests", "1,7", "--plot", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0
    assert "| RiMEA 1 corridor 40 m at 1.33 m/s | pass 5/5: 30.1 s (seed 0) |" in out
    assert "RiMEA 7 speeds by group | pass 5/5" in out and "not expressible" not in out  # every RiMEA test is expressible
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rimea_1_orca.png", "rimea_7_orca.png"]
    with pytest.raises(SystemExit):
        main(["validate", "--tests", "99"])


def test_rimea_9_orca_evacuation_time_about_doubles_with_half_the_exits():
    """200 persons (the guideline: 1,000) leave through sinks inside one run: every one, both times."""
    result = validation.rimea_9("orca", persons=200)
    m = result.measured
    assert m["left_4_exits"] == m["left_2_exits"] == 200
    assert 30.0 < m["evacuation_time_4_exits_s"] < m["evacuation_time_2_exits_s"] < 300.0
    assert m["ratio"] == pytest.approx(m["evacuation_time_2_exits_s"] / m["evacuation_time_4_exits_s"])
    assert result.passed == (1.6 <= m["ratio"] <= 2.4) and result.passed
    curves = result.data["exit_times"]
    assert len(curves["4 exits"]) == 200 and curves["2 exits"][-1] == pytest.approx(m["evacuation_time_2_exits_s"])
    with pytest.raises(ValueError, match="persons"):
        validation.rimea_9("orca", persons=2)
    with pytest.raises(ValueError, match=r"ratio_range\[1\]"):
        validation.rimea_9("orca", persons=4, ratio_range=(2.0, 1.0))


def test_rimea_9_fails_a_room_not_evacuated_in_time():
    result = validation.rimea_9("orca", persons=40, seconds=5.0)
    assert not result.passed and result.measured["left_4_exits"] < 40
    assert "not evacuated in 5 s" in result.summary


@pytest.mark.parametrize("test, speed", [(validation.rimea_2, 0.610), (validation.rimea_3, 0.694)])
def test_rimea_2_and_3_orca_keeps_the_stair_speed(test, speed):
    result = test("orca")
    assert result.passed and result.measured["stair_speed"] == speed
    assert result.measured["factor"] == pytest.approx(speed / 1.34)
    assert result.measured["length_m"] == 8.0  # 10 m along the slope, 8 m in plan
    assert result.measured["stair_time_s"] == pytest.approx(8.0 / speed, rel=0.02)
    # a pedestrian who kept the level speed would fail
    assert 8.0 / 1.34 < 0.95 * result.measured["expected_s"]


def test_rimea_2_fails_when_the_stairs_are_timed_at_another_speed():
    result = validation.rimea_2("orca", length=6.0, stair_speed=1.0)
    assert result.passed  # the zone follows the stair speed given
    slow = validation.rimea_2("orca", length=6.0, tolerance=0.01)
    assert slow.measured["length_m"] == 6.0
    with pytest.raises(ValueError, match="stair_speed"):
        validation.rimea_2("orca", stair_speed=0.0)


def test_collision_free_speed_model_passes_the_fast_tests():
    assert validation.rimea_1("csm").passed
    assert validation.rimea_7("csm").passed
    result = validation.no_overlap("csm")
    assert result.passed and result.measured["max_overlap_m"] <= 0.01


def test_collision_free_speed_model_slows_with_density():
    # The speed law V = (spacing) / T makes the fundamental diagram fall
    # monotonically (unlike the robotics methods, which keep their speed).
    speeds = validation.rimea_4("csm", densities=(0.5, 2.0, 4.0)).measured["speed"]
    assert speeds[0] > speeds[1] > speeds[2] and speeds[2] < 0.2


def test_social_force_model_passes_the_corridor_and_the_speed_groups():
    assert validation.rimea_1("sfm").passed
    assert validation.rimea_7("sfm").passed


def test_social_force_model_slows_only_near_contact_densities():
    # The repulsion reaches B = 0.08 m beyond contact: free speed at low density. At its resolved step
    # (0.05 s) a crowd of equal desired speeds keeps the free speed even at 2.9 persons/m²; with spread
    # desired speeds the faster ones must pass the slower, which slows the crowd there.
    result = validation.rimea_4("sfm", densities=(0.5, 3.0))
    speeds, equal = result.measured["speed"], result.measured["equal_speed"]["speed"]
    assert speeds[0] > 1.3 and speeds[1] < 1.1
    assert equal[1] > 1.3


def test_rimea_10_orca_leaves_through_the_assigned_exits():
    result = validation.rimea_10("orca")
    m = result.measured
    assert result.passed and m["by_assigned_exit"] == m["persons"] == 23
    assert m["by_other_exit"] == m["still_inside"] == 0
    assert 10.0 < m["evacuation_time_s"] < 200.0


def test_rimea_10_without_replanning_loses_people_pushed_off_their_path():
    """Planned once, some are pushed through a side door and stay pinned there: the test fails."""
    result = validation.rimea_10("orca", reevaluate=None)
    assert not result.passed and result.measured["still_inside"] > 0
    assert "still inside" in result.summary
    with pytest.raises(ValueError, match="reevaluate"):
        validation.rimea_10("orca", reevaluate=0.0)


def test_rimea_11_orca_prefers_the_near_exit_and_some_take_the_far_one():
    result = validation.rimea_11("orca", persons=40)
    m = result.measured
    assert result.passed and m["near_exit"] + m["far_exit"] == 40 and m["near_exit"] > m["far_exit"] > 0
    with pytest.raises(ValueError, match="persons"):
        validation.rimea_11("orca", persons=1)


def test_rimea_11_fails_a_room_not_evacuated_in_time():
    result = validation.rimea_11("orca", persons=40, seconds=5.0)
    assert not result.passed and result.measured["still_inside"] > 0


def test_rimea_14_orca_route_choice_follows_the_stairs_speed():
    """Weidmann's stair speeds: most take the stairs, the one at the far end of the room the level way."""
    result = validation.rimea_14("orca")
    m = result.measured
    assert result.passed and m["as_chosen"] == m["persons"] == 10
    assert m["kind"] == "mixed" and m["short_route"] > m["long_route"] > 0
    pytest.importorskip("matplotlib")
    figure = validation.figures([result])["rimea_14_orca"]
    labels = figure.axes[0].get_legend_handles_labels()[1]
    assert labels == [f"over the stairs ({m['short_route']})", f"the level way ({m['long_route']})"]
    # Stairs walked at 0.3 m/s: everyone takes the level way; "nearest" ignores the stairs' slowness.
    slow = validation.rimea_14("orca", stair_down=0.3, stair_up=0.3)
    assert slow.passed and slow.measured["kind"] == "long"
    nearest = validation.rimea_14("orca", stair_down=0.3, stair_up=0.3, choice="nearest")
    assert nearest.passed and nearest.measured["kind"] == "short"
    with pytest.raises(ValueError, match="stair_up"):
        validation.rimea_14("orca", stair_up=0.0)
    with pytest.raises(ValueError, match="choice is 'fastest'"):
        validation.rimea_14("orca", choice="fastest")


def test_figure_titles_start_with_the_test_the_method_and_the_verdict():
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    results = [validation.rimea_1("orca"), validation.rimea_7("orca")]
    failed = validation.rimea_9("orca", persons=40, seconds=5.0)
    assert [r.passed for r in results] == [True, True] and not failed.passed
    figures = validation.figures(results + [failed])
    assert figures["rimea_1_orca"].axes[0].get_title().startswith("RiMEA 1: ORCA (pass), ")
    assert figures["rimea_7_orca"].axes[0].get_title().startswith("RiMEA 7: ORCA (pass), ")
    assert figures["rimea_9_orca"].axes[0].get_title().startswith("RiMEA 9: ORCA (fail), 40 persons\n")
    plt.close("all")
