"""State files written by earlier versions (tests/data/states/README.md) load, and go on as a current run would."""

from pathlib import Path

import numpy as np

import vosim

STATES = Path(__file__).resolve().parents[1] / "data" / "states"


def _zones_scene():
    """The scene of speed_zones_v3.npz, built by the current version."""
    sim = vosim.Simulator(time_step=0.1)
    starts = np.array([[0.0, 0.5], [0.0, 2.0]])
    sim.add_agents(starts, goals=starts + [12.0, 0.0], pref_speed=1.0, max_speed=2.0, radius=0.25)
    sim.add_speed_zone([[2, 0], [5, 0], [5, 3], [2, 3]], 0.5)
    sim.add_speed_zone([[6, 0], [7, 0], [7, 1], [6, 1]], 1.5)
    sim.add_speed_zone([[8, 2], [9, 2], [9, 3]], 0.8)
    sim.remove_speed_zone(1)
    return sim


def test_speed_zones_saved_before_they_were_a_scene_feature_load_and_go_on(tmp_path):
    old = vosim.load_state(STATES / "speed_zones_v3.npz")
    assert [(z.id, z.factor) for z in old.speed_zones] == [(0, 0.5), (2, 0.8)]
    np.testing.assert_array_equal(old.speed_zones[1].polygon, [[8, 2], [9, 2], [9, 3]])
    assert old.add_speed_zone([[0, 5], [1, 5], [1, 6]], 1.0) == 3  # removed zone 1 keeps its id
    old.remove_speed_zone(3)
    current = _zones_scene()
    current.run(30)
    np.testing.assert_array_equal(old.positions, current.positions)
    old.run(60)
    current.run(60)
    np.testing.assert_array_equal(old.positions, current.positions)
    np.testing.assert_allclose(old.positions, [[5.95, 0.5], [5.95, 2.0]], atol=1e-12)  # as 0.1.0 went on
    # Saved again, the zones are a scene feature's entries, and load the same.
    again = vosim.load_state(old.save_state(tmp_path / "again"))
    assert [(z.id, z.factor) for z in again.speed_zones] == [(0, 0.5), (2, 0.8)]


def test_sinks_saved_before_they_were_a_scene_feature_load_and_go_on(tmp_path):
    old = vosim.load_state(STATES / "sinks_v3.npz")
    assert [(s.id, s.kind, s.opens_at) for s in old.sinks] == [(0, "line", None), (2, "area", None), (3, "area", 9.0)]
    assert old.exit_sink.tolist() == [0, -1, -1, -1] and not old.active[0]
    old.run(80)
    assert old.exit_sink.tolist() == [0, 2, -1, -1]  # the third walked through sink 3 before it opened
    np.testing.assert_allclose(old.exit_time[:2], [2.1, 3.1])
    assert np.isnan(old.exit_time[2:]).all()
    again = vosim.load_state(old.save_state(tmp_path / "again"))
    assert [(s.id, s.kind, s.opens_at) for s in again.sinks] == [(0, "line", None), (2, "area", None),
                                                                  (3, "area", 9.0)]


def _waypoints_periodic_scene():
    """The scene of waypoints_periodic_v3.npz, built by the current version."""
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 1.0], [0.0, 3.0]], pref_speed=1.0, max_speed=1.5, radius=0.25,
                   waypoints=[[[4.0, 1.0], [8.0, 2.0], [14.0, 1.0]], [[6.0, 3.0], [9.0, 4.0]]],
                   waypoint_advance=["passed", "distance"])
    sim.add_agents([[2.0, 5.0]], goals=[[30.0, 5.0]], pref_speed=1.0, max_speed=1.5, radius=0.25)
    sim.set_periodic(x=(0.0, 10.0))
    return sim


def test_waypoints_and_a_periodic_axis_saved_before_they_had_parts_load_and_go_on(tmp_path):
    old = vosim.load_state(STATES / "waypoints_periodic_v3.npz")
    assert tuple(old.periodic) == ("x", 0.0, 10.0)
    assert old.waypoints_remaining.tolist() == [2, 1, 0]
    current = _waypoints_periodic_scene()
    current.run(30)
    np.testing.assert_array_equal(old.positions, current.positions)
    np.testing.assert_array_equal(old.goals, current.goals)
    np.testing.assert_array_equal(old.waypoints.final_goals(), current.waypoints.final_goals())
    old.run(80)
    current.run(80)
    np.testing.assert_array_equal(old.positions, current.positions)
    np.testing.assert_allclose(old.positions, [[9.63977917, 1.65905468], [8.90533731, 3.97118688], [3.0, 5.0]],
                               atol=1e-8)  # as the version that wrote it went on
    assert old.goals[2].tolist() == [20.0, 5.0]  # the goal wrapped with its agent
    # Saved again, they are parts of their own ("feature.waypoints.*", "feature.periodic.*"), and load the same.
    path = old.save_state(tmp_path / "again")
    names = set(np.load(path).files)
    assert {"feature.waypoints.ids", "feature.periodic.axis"} <= names
    assert not any(name.startswith(("waypoint_", "periodic_")) for name in names)
    again = vosim.load_state(path)
    assert again.periodic == old.periodic
    np.testing.assert_array_equal(again.waypoints.final_goals(), old.waypoints.final_goals())
