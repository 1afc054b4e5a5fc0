"""The warehouse scenario: its layout, its routes, and differential-drive (or holonomic) robots completing it."""

import numpy as np
import pytest

import vosim
from vosim import scenarios
from vosim.scenarios._warehouse import AISLE_LANE, CROSS_LANE, SHELF_DEPTH


def _shelves(scene):
    return [vertices for kind, vertices in scene.obstacles if kind == "polygon"]


def _layout(scene):
    """(aisle centres x, cross aisle centre y) recovered from the shelves."""
    shelves = _shelves(scene)
    lefts = np.unique([v[:, 0].min() for v in shelves])
    bottoms = sorted({v[:, 1].min() for v in shelves})
    tops = sorted({v[:, 1].max() for v in shelves})
    aisle_x = (lefts[:-1] + SHELF_DEPTH + lefts[1:]) / 2
    return aisle_x, (tops[0] + bottoms[1]) / 2


@pytest.mark.parametrize("aisles", [1, 4, 7])
def test_rows_of_shelves_with_aisles_and_a_cross_aisle(aisles):
    scene = scenarios.warehouse(2 * aisles, aisles=aisles, shelf_length=8.0, aisle_width=2.0)
    kinds = [kind for kind, _ in scene.obstacles]
    assert kinds.count("boundary") == 1 and kinds.count("polygon") == 2 * (aisles + 1)
    shelves = _shelves(scene)
    lefts = np.unique([v[:, 0].min() for v in shelves])
    assert np.allclose(np.diff(lefts), SHELF_DEPTH + 2.0)                        # aisles 2 m wide
    assert all(np.isclose(np.ptp(v[:, 1]), 8.0) and np.isclose(np.ptp(v[:, 0]), SHELF_DEPTH) for v in shelves)
    aisle_x, cross_y = _layout(scene)
    assert len(aisle_x) == aisles
    # the cross aisle runs clear through every row; every shelf lies wholly above or below it
    assert all(v[:, 1].min() >= cross_y + 1.5 - 1e-9 or v[:, 1].max() <= cross_y - 1.5 + 1e-9 for v in shelves)
    boundary = next(v for kind, v in scene.obstacles if kind == "boundary")
    every = np.vstack(shelves)
    # lanes round the shelves: as wide as the aisles at the sides, 2.5 m at the ends
    assert np.allclose(every.min(axis=0) - boundary.min(axis=0), [2.0, 2.5])
    assert np.allclose(boundary.max(axis=0) - every.max(axis=0), [2.0, 2.5])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_robots_go_both_ways_in_the_aisles_into_other_aisles_keeping_right(seed):
    scene = scenarios.warehouse(24, seed=seed)
    aisle_x, cross_y = _layout(scene)
    start_aisle = np.abs(scene.positions[:, :1] - aisle_x).argmin(axis=1)
    goal_aisle = np.abs(scene.goals[:, :1] - aisle_x).argmin(axis=1)
    assert np.abs(scene.positions[:, 0] - aisle_x[start_aisle]).max() <= 0.1 + 1e-12   # on the centre lines
    north = scene.positions[:, 1] < cross_y
    assert north.sum() == 12 and (scene.goals[north, 1] > cross_y).all() and (scene.goals[~north, 1] < cross_y).all()
    assert np.mean(start_aisle != goal_aisle) >= 0.9        # crossing into another aisle (unless none is left free)
    assert len(np.unique(np.c_[start_aisle, north], axis=0)) >= 6   # both directions, several aisles
    for k, route in enumerate(scene.waypoints):
        heading = 1.0 if north[k] else -1.0
        assert np.allclose(route[0], (aisle_x[start_aisle[k]] + heading * AISLE_LANE,
                                      cross_y - CROSS_LANE * np.sign(goal_aisle[k] - start_aisle[k])))
        assert np.isclose(route[-2, 0], aisle_x[goal_aisle[k]] + heading * AISLE_LANE)   # the right lane
        assert np.array_equal(route[-1], scene.goals[k])


def test_one_aisle_keeps_every_robot_in_it():
    scene = scenarios.warehouse(8, aisles=1, seed=3)
    assert np.ptp(np.r_[scene.positions[:, 0], scene.goals[:, 0]]) <= 0.2
    assert all(len(route) == 3 for route in scene.waypoints)   # the cross aisle, the aisle's end, the goal


def realised_motion(traj):
    """Forward speed and turn rate of every robot over every recorded step, from positions and
    headings alone (exact for arcs): (T-1, N) each."""
    turn = np.angle(np.exp(1j * np.diff(traj.headings, axis=0)))
    moved = np.diff(traj.positions, axis=0)
    middle = traj.headings[:-1] + turn / 2
    along = moved[..., 0] * np.cos(middle) + moved[..., 1] * np.sin(middle)
    return along / np.sinc(turn / (2 * np.pi)) / traj.time_step, turn / traj.time_step


def test_robots_are_differential_drives_facing_along_their_aisles():
    scene = scenarios.warehouse(seed=1)
    sim = scene.build()
    assert list(sim.kinematics) == ["differential_drive"] * 24
    assert (sim.wheel_track == 0.45).all() and (sim.max_wheel_speed == 1.2).all()
    assert (sim.max_angular_speed == 3.0).all() and (sim.effective_center_distance == 0.1).all()
    facing = np.column_stack([np.cos(sim.headings), np.sin(sim.headings)])
    assert np.abs(facing[:, 1]).min() > 0.95                       # along the aisle (y), towards the cross aisle
    again = scenarios.Scenario.from_json(scene.to_json()).build()
    assert list(again.kinematics) == list(sim.kinematics) and np.array_equal(again.headings, sim.headings)
    assert list(scenarios.warehouse(4, kinematics="holonomic").build().kinematics) == ["holonomic"] * 4


@pytest.mark.parametrize("kwargs", [dict(seed=0), dict(seed=1), dict(seed=2), dict(seed=3), dict(n=32, seed=4),
                                    dict(n=16, aisles=2, seed=5)])
def test_differential_drive_robots_arrive_within_their_wheel_limits(kwargs):
    scene = scenarios.warehouse(**kwargs)
    traj = scene.build().run(scene.max_steps, until_arrived=True)
    assert traj.all_arrived and traj.steps_run >= scene.max_steps / 40
    speed, turn = realised_motion(traj)
    assert (np.abs(speed) + np.abs(turn) * 0.45 / 2).max() <= 1.2 * (1 + 1e-9)      # each wheel within 1.2 m/s
    assert np.abs(turn).max() <= 3.0 * (1 + 1e-9)
    assert traj.metrics["peak_angular_speed"].max() <= 3.0 * (1 + 1e-9)
    # Millimetres of overlap, as in dense crowds of robots and people (tests/methods/test_differential_drive.py);
    # squeezed at a shelf's end, ORCA-DD may graze its corner (a few centimetres, never through it).
    assert traj.min_clearance_per_frame().min() >= -0.01
    assert traj.metrics["max_obstacle_penetration"] <= 0.05


@pytest.mark.parametrize("kwargs", [dict(seed=0), dict(seed=1), dict(seed=2), dict(n=32, seed=4),
                                    dict(n=48, aisles=6, seed=5), dict(n=24, aisle_width=1.8, seed=6)])
def test_holonomic_robots_arrive_without_entering_shelves(kwargs):
    scene = scenarios.warehouse(**kwargs, kinematics="holonomic")
    traj = scene.build().run(scene.max_steps, until_arrived=True)
    assert traj.all_arrived and traj.steps_run >= scene.max_steps / 40
    assert traj.min_obstacle_clearance_per_frame().min() >= -1e-9          # no robot enters a shelf or a wall
    assert traj.metrics["max_obstacle_penetration"] <= 1e-9
    assert traj.min_clearance_per_frame().min() >= -0.05 * 0.3                # robots overlap 5 % of a radius at most
    assert (np.linalg.norm(np.diff(traj.positions, axis=0), axis=2) <= 1.2 * 0.1 + 1e-9).all()   # max speed


def test_the_same_seed_gives_the_same_warehouse():
    assert scenarios.warehouse(seed=7).to_json() == scenarios.warehouse(seed=7).to_json()
    assert scenarios.warehouse(seed=7).to_json() != scenarios.warehouse(seed=8).to_json()
    assert vosim.scenarios.SCENARIOS["warehouse"] is scenarios.warehouse


@pytest.mark.parametrize("kwargs, message", [
    (dict(n=0), "n is 0; must be >= 1"),
    (dict(n=33), "n is 33; 4 aisle(s) with 4 slot(s) per half hold at most 32 robots"),
    (dict(aisles=0), "aisles is 0; must be >= 1"),
    (dict(aisle_width=1.2), "aisle_width is 1.2; must be >= 1.8"),
    (dict(shelf_length=float("nan")), "shelf_length"),
    (dict(seed=-1), "seed is -1; must be >= 0"),
    (dict(kinematics="tracked"), "kinematics is 'tracked'; must be one of 'holonomic', 'differential_drive'"),
])
def test_bad_parameters_are_named(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        scenarios.warehouse(**kwargs)
