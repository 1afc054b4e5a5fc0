"""RiMEA tests 6 (corner) and 12 (bottleneck): what they measure, their verdicts, their arguments."""

import numpy as np
import pytest

from vosim import validation


def test_rimea_6_orca_rounds_the_corner_inside_the_walls():
    result = validation.rimea_6("orca")
    assert result.passed
    assert result.measured["persons_out"] == result.measured["persons"] == 20
    assert result.measured["persons_through_wall"] == 0
    traj = result.data["trajectory"]
    # Everyone started in the first 6 m and left through the open end (the sink beyond y = 12).
    assert np.all(traj.positions[0, :, 0] <= 6.0) and np.all(traj.positions[-1, :, 1] > 12.0)


def test_rimea_6_fails_when_someone_does_not_get_round_in_time():
    result = validation.rimea_6("orca", seconds=5.0)
    assert not result.passed
    assert result.measured["persons_out"] < 20


def test_rimea_12_orca_jams_at_the_corridor_not_at_the_exit():
    result = validation.rimea_12("orca")
    m = result.measured
    assert result.passed, result.summary
    assert m["persons_out"] == 150
    assert m["flow_exit_per_s"] <= m["flow_bottleneck_per_s"] + 0.05
    assert m["peak_density_before_exit"] < m["peak_density_before_corridor"]
    # A 1 m corridor passes about one person a second (ORCA: 1.05).
    assert 0.5 < m["flow_bottleneck_per_s"] < 2.0


def test_rimea_12_fails_when_not_everyone_leaves_in_time():
    result = validation.rimea_12("orca", persons=40, seconds=20.0)
    assert not result.passed and result.measured["persons_out"] < 40


def test_tests_6_and_12_run_in_order_with_the_others():
    numbered = [key for key in validation.TESTS if key.isdigit()]
    assert numbered == sorted(numbered, key=int)
    assert validation.TESTS["6"] is validation.rimea_6 and validation.TESTS["12"] is validation.rimea_12


@pytest.mark.parametrize("call, message", [
    (lambda: validation.rimea_6("orca", persons=21), "persons"),
    (lambda: validation.rimea_6("orca", seconds=0.0), "seconds"),
    (lambda: validation.rimea_12("orca", persons=1), "persons"),
    (lambda: validation.rimea_12("orca", tolerance=-1.0), "tolerance"),
])
def test_bad_arguments_are_refused_by_name(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_figures_draw_every_path_with_the_walls():
    pytest.importorskip("matplotlib")
    result = validation.rimea_6("orca")
    fig = validation.figures([result])["rimea_6_orca"]
    lines = fig.axes[0].get_lines()
    # Two walls, 20 paths (everyone left through the sink: still drawn), the starts.
    assert len(lines) == 2 + 20 + 1
    path = lines[2].get_xydata()
    assert path[-1, 1] > 12.0
