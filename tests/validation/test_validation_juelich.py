"""The measured fundamental diagram shipped with vosim.validation (Jülich corridor runs)."""

import numpy as np
import pytest

from vosim import validation


def test_the_measured_points_load_with_their_runs():
    data = validation.juelich_corridor()
    n = data["density"].size
    assert n == 426
    assert {len(v) for v in data.values()} == {n}
    assert len(set(data["experiment"].tolist())) == 9
    assert data["density"].min() > 0 and data["density"].max() < 4.5
    assert data["speed"].min() >= 0 and data["speed"].max() < 2.0
    # The density in a 3.6 m^2 area counts whole persons.
    persons = data["density"] * 3.6
    np.testing.assert_allclose(persons, np.round(persons), atol=2e-3)


def test_the_points_are_fresh_copies():
    first = validation.juelich_corridor()
    first["speed"][:] = -1.0
    assert validation.juelich_corridor()["speed"].min() >= 0


def test_measured_speed_falls_with_density_as_weidmann_says():
    rho = np.array([0.5, 1.0, 1.5, 2.0, 2.5, 3.0])
    measured = validation.juelich_speed(rho)
    assert np.all(np.isfinite(measured))
    assert measured[0] - measured[-1] > 0.9
    # Weidmann's curve summarises older measurements: these people walk up to
    # 0.30 m/s faster at 1-1.5 persons/m^2 and agree within 0.06 m/s from 2.5 on.
    gap = measured - validation.weidmann_speed(rho)
    assert np.all(gap > 0) and gap.max() < 0.35
    assert np.all(np.abs(gap[rho >= 2.5]) < 0.1)


def test_densities_without_enough_measurements_are_nan():
    out = validation.juelich_speed([0.0, -1.0, np.nan, 3.9, 10.0])
    assert np.all(np.isnan(out))
    assert validation.juelich_speed(3.9, min_samples=1) == pytest.approx(0.3039, abs=1e-3)


@pytest.mark.parametrize("kwargs, match", [({"bin_width": 0.0}, "bin_width"), ({"bin_width": np.inf}, "bin_width"),
                                           ({"min_samples": 0}, "min_samples"), ({"min_samples": 2.5}, "min_samples")])
def test_bad_arguments_are_refused(kwargs, match):
    with pytest.raises(ValueError, match=match):
        validation.juelich_speed(1.0, **kwargs)


def test_rimea_4_reports_the_measured_speed_at_its_densities():
    result = validation.rimea_4("orca", densities=(1.0, 3.0))
    measured = np.asarray(result.measured["juelich_speed"])
    np.testing.assert_allclose(measured, validation.juelich_speed(result.measured["density"]))
    assert np.all(np.isfinite(measured))
    assert "Jülich corridor" in result.notes
