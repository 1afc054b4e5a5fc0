"""ISO 20414 components 9 (an exit closing during the run) and 12 (specific flow on stairs)."""

import numpy as np
import pytest

from vosim import validation

shapely = pytest.importorskip("shapely")
if not hasattr(shapely, "constrained_delaunay_triangles"):
    pytest.skip("vosim.navigation needs shapely >= 2.1", allow_module_level=True)


def test_iso_9_orca_nobody_leaves_by_the_closed_exit_and_everyone_gets_out():
    result = validation.iso_9("orca", persons=20)
    m = result.measured
    assert result.test == "ISO 9" and result.method == "ORCA"
    assert m["chose_near_first"] == 20  # all bound for the near exit at first
    assert m["near_after_closing"] == 0 and m["near_before_closing"] > 0
    assert m["near_before_closing"] + m["far_exit"] == 20 and m["still_inside"] == 0
    assert m["closes_at_s"] < m["evacuation_time_s"] < 120.0
    assert result.passed
    assert len(result.data["route"]) == 20


def test_iso_9_fails_when_time_runs_out():
    result = validation.iso_9("orca", persons=20, seconds=12.0, closes_at=5.0)
    assert result.measured["still_inside"] > 0 and not result.passed
    assert np.isinf(result.measured["evacuation_time_s"])


def test_iso_12_orca_measures_the_specific_flow_on_the_stairs_down_and_up():
    result = validation.iso_12("orca", persons=40)
    m = result.measured
    assert m["effective_width_m"] == pytest.approx(1.7)
    for direction in ("down", "up"):
        assert m[f"out_{direction}"] == 40
        assert m[f"specific_flow_{direction}"] == pytest.approx(m[f"flow_{direction}_per_s"] / 1.7)
        assert m[f"density_{direction}_per_m2"] > 0.5 and 0.0 < m[f"speed_{direction}_m_s"] < 1.34
    low, high = validation.STAIR_MAX_SPECIFIC_FLOW
    inside = all(low * 0.95 <= m[f"specific_flow_{d}"] <= high * 1.05 for d in ("down", "up"))
    assert result.passed == inside
    assert set(result.data["crossed"]) == {"down", "up"}


def test_iso_12_criterion_follows_the_tolerance():
    wide = validation.iso_12("orca", persons=40, tolerance=0.5)
    m = wide.measured
    inside = all(0.94 * 0.5 <= m[f"specific_flow_{d}"] <= 1.16 * 1.5 for d in ("down", "up"))
    assert wide.passed == inside


@pytest.mark.parametrize("call, match", [
    (lambda: validation.iso_9("orca", persons=1), "persons"),
    (lambda: validation.iso_9("orca", closes_at=0.0), "closes_at"),
    (lambda: validation.iso_9("orca", closes_at=500.0), "closes_at"),
    (lambda: validation.iso_9("orca", seconds=float("nan")), "seconds"),
    (lambda: validation.iso_9("orca", reevaluate=0.0), "reevaluate"),
    (lambda: validation.iso_12("orca", persons=5), "persons"),
    (lambda: validation.iso_12("orca", tolerance=-0.1), "tolerance"),
    (lambda: validation.iso_12("orca", seconds=1.0), "seconds"),
])
def test_bad_input_is_refused_naming_the_argument(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_iso_9_and_12_are_registered_and_cover_their_components():
    assert validation.TESTS["iso9"] is validation.iso_9
    assert validation.TESTS["iso12"] is validation.iso_12
    coverage = dict((c.number, text) for c, text in validation.iso_20414_coverage(validation.TESTS))
    assert coverage[9] == "ISO 9" and coverage[12] == "ISO 12"


def test_pedestrian_models_leave_nobody_through_the_closed_exit():
    # The collision-free speed model and the social force model, as ORCA above: the closed sink takes
    # nobody, whatever the method (whether everyone gets out is the method's own result, in docs/validation.md).
    for method in ("csm", "sfm"):
        result = validation.iso_9(method, persons=20)
        m = result.measured
        assert m["near_after_closing"] == 0 and m["near_before_closing"] > 0, method


def test_figure_of_iso_12_draws(tmp_path):
    pytest.importorskip("matplotlib")
    result = validation.iso_12("orca", persons=20)
    figures = validation.figures([result])
    assert list(figures) == ["iso_12_orca"]
    figures["iso_12_orca"].savefig(tmp_path / "iso_12.png")
    assert (tmp_path / "iso_12.png").stat().st_size > 0


def test_figure_of_iso_9_carries_the_verdict_in_its_title():
    pytest.importorskip("matplotlib")
    import matplotlib.pyplot as plt

    passed = validation.iso_9("orca", persons=20)
    failed = validation.iso_9("orca", persons=20, seconds=12.0, closes_at=5.0)
    for result, verdict in ((passed, "pass"), (failed, "fail")):
        figure = validation.figures([result])["iso_9_orca"]
        assert figure.axes[0].get_title() == f"ISO 9: ORCA ({verdict})\n{result.summary}"
        plt.close(figure)
