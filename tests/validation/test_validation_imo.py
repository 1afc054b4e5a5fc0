"""IMO MSC.1/Circ.1238 tests 4 and 8, ISO 20414's overtaking test and the ISO 20414 component mapping."""

from pathlib import Path

import numpy as np
import pytest

from vosim import validation

VALIDATION_PAGE = Path(__file__).resolve().parents[2] / "docs" / "validation.md"


def test_imo_4_orca_measures_the_flow_through_the_exit():
    result = validation.imo_4("orca", persons=30)
    m = result.measured
    assert result.test == "IMO 4" and m["left"] == 30
    times = result.data["exit_times"]
    assert m["flow_persons_per_s"] == pytest.approx(29 / (times[-1] - times[0]))
    assert m["peak_flow_10s_persons_per_s"] >= m["flow_persons_per_s"]
    assert result.passed == (m["flow_persons_per_s"] <= 1.33)
    # The same run against a limit below its flow fails.
    strict = validation.imo_4("orca", persons=30, max_flow=m["flow_persons_per_s"] / 2)
    assert not strict.passed and strict.measured == m


def test_imo_4_peak_flow_is_never_below_the_flow_over_the_whole_period():
    from vosim.validation._imo import peak_flow

    # Two persons out 0.6 s apart: 1.67 persons/s over the period, and so at its peak (not 2 / 10 s).
    assert peak_flow([3.0, 3.6], 10.0) == pytest.approx(1 / 0.6)
    # Ten out in the first 2 s, one more 20 s later: the peak is the dense stretch of at least 10 s.
    times = [0.0, 0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4, 1.6, 1.8, 22.0]
    assert peak_flow(times, 10.0) == pytest.approx(10 / 22.0) and peak_flow(times, 10.0) >= 10 / 22.0
    assert peak_flow([1.0], 10.0) == 0.0
    partial = validation.imo_4("orca", persons=30, seconds=8.0)
    m = partial.measured
    assert m["left"] < 30 and m["peak_flow_10s_persons_per_s"] >= m["flow_persons_per_s"]


def test_imo_4_fails_when_not_everybody_leaves_in_time():
    result = validation.imo_4("orca", persons=30, seconds=5.0)
    assert result.measured["left"] < 30 and not result.passed


def test_imo_8_orca_counterflow_delays_the_last_person():
    result = validation.imo_8("orca", persons=30, counterflows=(0, 60), seconds=120.0)
    m = result.measured
    assert m["arrived"] == [30, 30]
    without, against = m["time_last_in_room_2_s"]
    # 30 persons walk about 20 m through the corridor: at 1.34 m/s at least 10 s; the counter-flow costs time.
    assert 10.0 < without < against
    assert result.passed


def test_imo_8_fails_when_nobody_gets_through_in_time():
    result = validation.imo_8("orca", persons=5, counterflows=(0, 5), seconds=3.0)
    assert result.measured["arrived"] == [0, 0] and not result.passed
    assert all(np.isinf(result.measured["time_last_in_room_2_s"]))


def test_iso_7_orca_faster_persons_overtake_the_slow_one():
    result = validation.iso_7("orca", faster=4)
    m = result.measured
    assert m["overtook"] == 4 and max(m["faster_times_s"]) < m["slow_time_s"]
    assert m["slow_time_s"] == pytest.approx(60.0, rel=0.1)
    assert result.passed


@pytest.mark.parametrize("call, match", [
    (lambda: validation.imo_4("orca", persons=0), "persons"),
    (lambda: validation.imo_4("orca", persons=500), "persons"),
    (lambda: validation.imo_4("orca", seconds=float("nan")), "seconds"),
    (lambda: validation.imo_4("orca", max_flow=-1.0), "max_flow"),
    (lambda: validation.imo_8("orca", counterflows=(0, 50, 10)), "counterflows"),
    (lambda: validation.imo_8("orca", counterflows=(0,)), "counterflows"),
    (lambda: validation.imo_8("orca", counterflows=(0, -5)), r"counterflows\[1\]"),
    (lambda: validation.imo_8("orca", persons=0), "persons"),
    (lambda: validation.iso_7("orca", slow_speed=1.3), "slow_speed"),
    (lambda: validation.iso_7("orca", faster=0), "faster"),
])
def test_bad_input_is_refused_naming_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_unknown_method_is_refused():
    with pytest.raises(ValueError, match="no-such-method"):
        validation.imo_4("no-such-method")


def test_new_tests_are_registered():
    for key, function in (("imo4", validation.imo_4), ("imo8", validation.imo_8), ("iso7", validation.iso_7)):
        assert validation.TESTS[key] is function


def test_iso_20414_mapping_covers_its_13_components_with_tests_or_needs():
    components = validation.ISO_20414_COMPONENTS
    assert [c.number for c in components] == list(range(1, 14))
    for component in components:
        assert component.tests or component.needs  # every component says what covers it or what is missing
    coverage = dict((c.number, text) for c, text in validation.iso_20414_coverage(validation.TESTS))
    assert coverage[6] == "IMO 8" and coverage[7] == "ISO 7" and coverage[11] == "IMO 4"
    assert coverage[3] == "RiMEA 2, RiMEA 3"
    assert coverage[9] == "ISO 9" and coverage[12] == "ISO 12"
    # A component whose test is not registered is reported as missing, not as covered.
    assert validation.iso_20414_coverage({})[0][1].startswith("not expressible yet")


def test_the_validation_page_shows_the_iso_20414_mapping_from_the_code():
    assert validation.iso_20414_table() in VALIDATION_PAGE.read_text(encoding="utf-8")


def test_vosim_validate_runs_the_new_tests_and_writes_their_figures(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    from vosim.cli import main

    code = main(["validate", "--methods", "orca", "--tests", "iso7", "--plot", str(tmp_path)])
    out = capsys.readouterr().out
    assert "ISO 7 overtaking" in out and code == 0
    assert (tmp_path / "iso_7_orca.png").is_file()


def test_figures_of_imo_4_and_8_draw():
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    results = [validation.imo_4("orca", persons=10), validation.imo_8("orca", persons=5, counterflows=(0, 5))]
    figures = validation.figures(results)
    assert set(figures) == {"imo_4_orca", "imo_8_orca"}
    for figure in figures.values():
        plt.close(figure)
