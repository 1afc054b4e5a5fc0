"""A periodic axis in a Scenario: built into simulators and batches, kept by JSON, checked when read."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from vosim import scenarios
from vosim.scenarios import Scenario, _scenario


def _ring(**changes) -> Scenario:
    changes.setdefault("periodic", ("x", -12.0, 12.0))
    return replace(scenarios.corridor(seed=2), **changes)


def test_build_sets_the_axis_and_agents_wrap():
    scenario = _ring()
    assert scenario.periodic == ("x", -12.0, 12.0)
    sim = scenario.build()
    assert sim.periodic == ("x", -12.0, 12.0)
    sim.run(200)
    assert np.all((sim.positions[:, 0] >= -12.0) & (sim.positions[:, 0] < 12.0))


def test_a_batch_gets_the_axis_and_refuses_scenes_that_differ():
    batch = scenarios.build_batch([_ring(), _ring()])
    assert batch.periodic == ("x", -12.0, 12.0)
    with pytest.raises(ValueError, match=r"scenes\[1\]\.periodic is None; every scene needs"):
        scenarios.build_batch([_ring(), scenarios.corridor(seed=2)])


@pytest.mark.parametrize("periodic", [("x", -12.0, 12.0), ("y", -2.0, 2.0), ("x", -12, 12.5)])
def test_json_round_trip_keeps_the_axis_exactly(periodic):
    scenario = _ring(periodic=periodic)
    text = scenario.to_json()
    data = json.loads(text)
    assert data["format_version"] == 2
    assert data["periodic"] == {"axis": periodic[0], "low": float(periodic[1]), "high": float(periodic[2])}
    again = Scenario.from_json(text)
    assert again.periodic == scenario.periodic
    assert again.to_json() == text
    traj_a, traj_b = scenario.build().run(30), again.build().run(30)
    assert np.array_equal(traj_a.positions, traj_b.positions)


def test_a_scenario_without_the_axis_writes_the_old_format():
    data = scenarios.corridor(seed=2).to_dict()
    assert data["format_version"] == 1 and "periodic" not in data
    assert Scenario.from_dict(data).periodic is None


def test_an_older_file_without_the_key_loads():
    data = scenarios.corridor(seed=2).to_dict()
    data.pop("format_version")
    assert Scenario.from_dict(data).periodic is None
    data["periodic"] = None
    assert Scenario.from_dict(data).periodic is None


@pytest.mark.parametrize("entry, message", [
    ({"axis": "z", "low": 0.0, "high": 1.0}, "periodic: axis is 'z'; it must be 'x' or 'y'"),
    ({"axis": True, "low": 0.0, "high": 1.0}, "periodic: axis is True"),
    ({"axis": "x", "low": 1.0, "high": 1.0}, r"periodic \(x\) is \(1.0, 1.0\); the period high - low must be > 0"),
    ({"axis": "x", "low": 5.0, "high": -5.0}, r"the period high - low must be > 0"),
    ({"axis": "x", "low": float("nan"), "high": 1.0}, r"periodic \(x\): low is nan; it must be finite"),
    ({"axis": "y", "low": 0.0, "high": float("inf")}, r"periodic \(y\): high is inf; it must be finite"),
    ({"axis": "x", "low": 0.0, "high": 1e300}, "must be finite and within"),
    ({"axis": "x", "low": "0", "high": 1.0}, "periodic low is '0'; expected a number"),
    ({"axis": "x", "low": 0.0}, "periodic must be an object with keys axis, low, high; got"),
    ({"axis": "x", "low": 0.0, "high": 1.0, "extra": 1}, "periodic must be an object with keys"),
    (["x", 0.0, 1.0], "periodic must be an object with keys axis, low, high; got list"),
])
def test_a_bad_periodic_entry_is_refused_by_name(entry, message):
    data = _ring().to_dict()
    data["periodic"] = entry
    with pytest.raises(ValueError, match=message):
        Scenario.from_dict(data)


def test_the_axis_is_checked_against_obstacles_and_dimensions():
    with pytest.raises(ValueError, match=r"obstacles\[0\]: vertex 0 has x = -12.0, outside the periodic bounds"):
        _ring(periodic=("x", -10.0, 10.0))
    with pytest.raises(ValueError, match="periodic: a periodic axis needs a 2D scenario; this one has 3"):
        replace(scenarios.random3d(seed=1), periodic=("x", -50.0, 50.0))


def test_a_newer_format_and_a_bad_version_are_refused():
    data = _ring().to_dict()
    data["format_version"] = _scenario.FORMAT_VERSION + 1
    with pytest.raises(ValueError, match=f"scenario format {_scenario.FORMAT_VERSION + 1} is newer"):
        Scenario.from_dict(data)
    data["format_version"] = "2"
    with pytest.raises(ValueError, match="format_version is '2'; expected an integer"):
        Scenario.from_dict(data)
