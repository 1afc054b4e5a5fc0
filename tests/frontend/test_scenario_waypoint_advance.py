"""The waypoint rule in a Scenario: applied when built, kept by JSON, checked when read."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

import vosim
from vosim import scenarios
from vosim.scenarios import Scenario
from vosim.scenarios import _scenario

STEPS = 60


def _door(rule="distance", n=9) -> Scenario:
    """A crowd heading through a door for a point past it, then for its slot: the rule changes the paths."""
    return replace(scenarios.bottleneck(n, seed=1), waypoint_advance=rule)


def _by_hand(scenario: Scenario, rule) -> np.ndarray:
    """Positions after STEPS of the scenario's layout built without it, the rule given to add_agents."""
    sim = vosim.Simulator(time_step=scenario.time_step, method=scenario.method)
    for kind, vertices in scenario.obstacles:
        sim.add_wall(vertices) if kind == "wall" else sim.add_obstacle(vertices)
    sim.add_agents(scenario.positions, waypoints=scenario.waypoints, waypoint_advance=rule, **scenario.agent_params)
    return sim.run(STEPS).positions


@pytest.mark.parametrize("rule", ["passed", "visible", ["visible", "passed"] * 4 + ["distance"]])
def test_build_runs_as_add_agents_with_the_rule(rule):
    scenario = _door(rule)
    built = scenario.build().run(STEPS).positions
    assert np.array_equal(built, _by_hand(scenario, rule))
    if "visible" in rule:  # the door's far side is in sight before its point is reached
        assert not np.array_equal(built, _door().build().run(STEPS).positions)


def test_build_gives_each_agent_its_rule():
    """Three agents 10 m apart, each to a corner 5 m ahead then 5 m up, with no obstacle in sight."""
    starts = np.array([[0.0, 0.0], [0.0, 10.0], [0.0, 20.0]])
    corner = np.array([[5.0, 0.0], [5.0, 5.0]])
    scenario = Scenario(name="corners", positions=starts, goals=starts + corner[1], time_step=0.1,
                        waypoints=[start + corner for start in starts], agent_params={"waypoint_radius": 0.1},
                        waypoint_advance=["distance", "passed", "visible"])
    sim = scenario.build()
    sim.step()
    assert sim.goals.tolist() == [[5.0, 0.0], [5.0, 10.0], [5.0, 25.0]]  # only "visible" cut its corner
    sim.positions[:2] = starts[:2] + (5.4, -0.6)  # carried past x = 5, 0.72 from the corner
    sim.velocities[:2] = 0.0
    sim.step()
    assert sim.goals[:2].tolist() == [[5.0, 0.0], [5.0, 15.0]]  # "distance" turns back, "passed" goes on


@pytest.mark.parametrize("rule", ["passed", "visible", ["visible", "passed"] * 4 + ["distance"]])
def test_json_round_trip_keeps_the_rule(rule):
    scenario = _door(rule)
    text = scenario.to_json()
    data = json.loads(text)
    assert data["format_version"] == 3 and data["waypoint_advance"] == rule
    again = Scenario.from_json(text)
    assert again.waypoint_advance == rule and again.to_json() == text
    assert np.array_equal(again.build().run(STEPS).positions, scenario.build().run(STEPS).positions)


def test_one_rule_for_all_is_kept_as_its_name():
    assert _door(["passed"] * 9).waypoint_advance == "passed"
    assert _door(["distance"] * 9).to_dict()["format_version"] == 1


def test_the_default_rule_writes_the_oldest_format_and_older_files_load_as_distance():
    data = _door().to_dict()
    assert data["format_version"] == 1 and "waypoint_advance" not in data
    assert Scenario.from_dict(data).waypoint_advance == "distance"
    data.pop("format_version")  # a file from before format versions
    assert Scenario.from_dict(data).waypoint_advance == "distance"
    periodic = replace(scenarios.corridor(seed=2), periodic=("x", -12.0, 12.0)).to_dict()
    assert periodic["format_version"] == 2 and Scenario.from_dict(periodic).waypoint_advance == "distance"
    both = replace(scenarios.corridor(seed=2), periodic=("x", -12.0, 12.0), waypoint_advance="passed").to_dict()
    assert both["format_version"] == 3 and both["periodic"]["axis"] == "x" and both["waypoint_advance"] == "passed"


def test_an_older_vosim_refuses_the_file_rather_than_drop_the_rule():
    data = _door("passed").to_dict()
    data["format_version"] = _scenario.FORMAT_VERSION + 1
    with pytest.raises(ValueError, match=f"scenario format {_scenario.FORMAT_VERSION + 1} is newer"):
        Scenario.from_dict(data)


@pytest.mark.parametrize("entry, message", [
    ("sideways", r"waypoint_advance is 'sideways'; must be one of 'distance', 'passed', 'visible'"),
    (["passed"] * 4 + ["sideways"] + ["passed"] * 4, r"waypoint_advance\[4\] is 'sideways'; must be one of"),
    (["passed"] * 2 + [7] + ["passed"] * 6, r"waypoint_advance\[2\] is 7; must be one of"),
    (["passed"] * 8, r"waypoint_advance: expected one rule per agent \(9\), got 8"),
    (None, r"data: waypoint_advance is None; expected one of 'distance', 'passed', 'visible' or a list"),
    ({"rule": "passed"}, r"data: waypoint_advance is \{'rule': 'passed'\}; expected one of"),
    (2, r"data: waypoint_advance is 2; expected one of"),
])
def test_a_bad_rule_in_a_file_is_refused_naming_the_field_index_and_value(entry, message):
    data = _door("passed").to_dict()
    data["waypoint_advance"] = entry
    with pytest.raises(ValueError, match=message):
        Scenario.from_json(json.dumps(data))


def test_visible_is_refused_in_3d():
    scenario = scenarios.random3d(seed=1)
    with pytest.raises(ValueError, match="waypoint_advance is 'visible', which looks past obstacle polygons: 2D"):
        replace(scenario, waypoint_advance="visible")
    rules = ["passed"] * (scenario.num_agents - 1) + ["visible"]
    with pytest.raises(ValueError, match=rf"waypoint_advance\[{scenario.num_agents - 1}\] is 'visible'"):
        replace(scenario, waypoint_advance=rules)
    assert replace(scenario, waypoint_advance="passed").waypoint_advance == "passed"


def test_a_batch_gets_the_rule_and_refuses_scenes_that_differ():
    scenes = [_door("visible"), replace(_door("visible"), positions=_door().positions + 0.05)]
    batch = scenarios.build_batch(scenes)
    batch.run(STEPS)
    alone = scenes[0].build()
    alone.run(STEPS)
    assert np.array_equal(batch.positions[0], alone.positions)  # scene 0 walks by its rule as built alone
    with pytest.raises(ValueError, match=r"scenes\[1\]\.waypoint_advance is 'distance'; every scene needs 'visible'"):
        scenarios.build_batch([_door("visible"), _door()])
