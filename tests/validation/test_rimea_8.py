"""RiMEA test 8: the three-storey building's evacuation under varied parameters."""

import numpy as np
import pytest

from vosim import validation

SMALL = (("base", {"persons": 6}), ("more persons", {"persons": 12}), ("slower on the stairs",
                                                                      {"persons": 6, "stair_speed": 0.4}))


def test_rimea_8_reports_each_variation_and_storey():
    result = validation.rimea_8("orca", variations=SMALL, seeds=(0,))
    m = result.measured
    assert result.test == "RiMEA 8" and result.method == "ORCA"
    assert m["variations"] == ["base", "more persons", "slower on the stairs"]
    assert m["persons"] == [18, 36, 18] and m["out"] == m["persons"]
    assert len(m["per_storey_s"]) == 3 and all(len(row) == 3 for row in m["per_storey_s"])
    for total, storeys in zip(m["total_s"], m["per_storey_s"]):
        assert total == pytest.approx(max(storeys)) and 0.0 < min(storeys)
    # The second floor walks both flights, the ground floor none: its last person is out first.
    assert all(row[0] < row[2] for row in m["per_storey_s"])
    # Two of the default checks apply to these variations (more persons, slower stairs), and both hold.
    assert m["plausible"] == {"more persons longer than base": True, "slower on the stairs longer than base": True}
    assert result.passed
    assert "base" in result.summary and "per storey" in result.notes
    assert set(result.data["runs"]) == set(m["variations"])


def test_slower_stairs_take_longer_by_about_the_flights_time():
    result = validation.rimea_8("orca", variations=SMALL[::2], seeds=(0,))
    base, slow = result.measured["total_s"]
    # Two 8 m flights at 0.4 instead of 0.694 m/s: 2 x 8 x (1/0.4 - 1/0.694) = 16.9 s more for the last walker.
    assert 10.0 < slow - base < 25.0


def test_rimea_8_fails_when_a_parameter_moves_the_time_the_wrong_way():
    # "faster on the stairs" named as the slower one: the plausibility check must catch it.
    variations = (("base", {"persons": 6}), ("slower on the stairs", {"persons": 6, "stair_speed": 1.34}))
    result = validation.rimea_8("orca", variations=variations, seeds=(0,))
    assert not result.passed
    assert result.measured["plausible"] == {"slower on the stairs longer than base": False}
    assert "slower on the stairs not longer than base" in result.summary


def test_rimea_8_fails_when_not_everybody_is_out():
    result = validation.rimea_8("orca", variations=SMALL[:2], seeds=(0,), seconds=2.0)
    assert not result.passed and result.measured["out"] == [0, 0]
    assert result.summary == "base 0/18 out, more persons 0/36 out"
    assert result.measured["plausible"] == {}  # no times to compare


def test_rimea_8_rejects_bad_arguments():
    with pytest.raises(ValueError, match="variations: expected at least one"):
        validation.rimea_8("orca", variations=())
    with pytest.raises(ValueError, match=r"variations\[0\]: unknown parameter 'speed'"):
        validation.rimea_8("orca", variations=(("x", {"speed": 1.0}),))
    with pytest.raises(ValueError, match=r"variations\[0\]: expected a \(name, changes\) pair"):
        validation.rimea_8("orca", variations=("base",))
    with pytest.raises(ValueError, match=r"variations\[0\] persons"):
        validation.rimea_8("orca", variations=(("x", {"persons": 0}),))
    with pytest.raises(ValueError, match=r"seeds\[0\]"):
        validation.rimea_8("orca", seeds=(-1,))
    with pytest.raises(ValueError, match="seeds: expected at least one"):
        validation.rimea_8("orca", seeds=())


def test_rimea_8_is_registered_and_drawn(tmp_path):
    assert validation.TESTS["8"] is validation.rimea_8
    result = validation.rimea_8("orca", variations=SMALL[:1], seeds=(0,))
    pytest.importorskip("matplotlib")
    figures = validation.figures([result])
    assert list(figures) == ["rimea_8_orca"]
    figures["rimea_8_orca"].savefig(tmp_path / "f.png")
    assert (tmp_path / "f.png").stat().st_size > 0
    import matplotlib.pyplot as plt

    plt.close(figures["rimea_8_orca"])
    assert np.isfinite(result.measured["total_s"]).all()
