"""Every method keeps agents out of walls (ORCA by its own obstacle lines, the others by the integrate
phase's obstacle guard), and ForceBased's wall margin lets agents through a 0.9 m door."""

import numpy as np
import pytest

import vosim
from vosim.validation import rimea_6

METHODS = [
    vosim.ORCA(), vosim.VO(), vosim.RVO(), vosim.HRVO(), vosim.VO(selection="geometric"),
    vosim.RVO(selection="geometric"), vosim.HRVO(selection="sampling"), vosim.AdaptiveSampling(),
    vosim.GridSampling(grid_size=17), vosim.ForceBased(), vosim.AVO(), vosim.CollisionFreeSpeed(),
]
# How deep a body may reach into a wall: rounding only.
DEPTH = 1e-9


def label(method):
    selection = getattr(method, "selection", None)
    return method.name + (f"-{selection}" if selection else "")


def into_walls(traj) -> float:
    return float(np.asarray(traj.metrics["max_obstacle_penetration"]))


@pytest.mark.parametrize("method", METHODS, ids=label)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_rimea_6_corner_keeps_every_method_inside(method, seed):
    result = rimea_6(method, seed=seed)
    assert result.measured["persons_through_wall"] == 0, result.summary
    assert result.measured["max_wall_penetration_m"] <= DEPTH, result.summary


def box_crowd(method, *, speed=1.34):
    """Twelve agents around a 2 m box, each heading for a point inside it: they press against its walls
    and one another (SteerSuite's obstacle cases, squeezed)."""
    sim = vosim.Simulator(time_step=0.1, method=method)
    sim.add_obstacle([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
    angles = np.linspace(0.0, 2 * np.pi, 12, endpoint=False)
    starts = np.column_stack([np.cos(angles), np.sin(angles)]) * 3.0
    goals = np.column_stack([np.cos(angles + 2.0), np.sin(angles + 2.0)]) * 0.5
    sim.add_agents(starts, goals=goals, radius=0.3, pref_speed=speed, max_speed=speed, neighbor_dist=5.0,
                   time_horizon=2.0, time_horizon_obst=1.0)
    return sim


@pytest.mark.parametrize("method", METHODS, ids=label)
def test_agents_pushed_into_a_box_stay_out(method):
    sim = box_crowd(method)
    traj = sim.run(200)
    assert into_walls(traj) <= DEPTH
    # No centre inside the box, ever.
    inside = np.all(np.abs(traj.positions) < 1.0, axis=-1)
    assert not inside.any()


@pytest.mark.parametrize("method", METHODS, ids=label)
def test_head_on_at_a_wall_stops_at_it(method):
    # Fast enough to cross the 0.25 m body in one step were nothing to stop it.
    sim = vosim.Simulator(time_step=0.1, method=method)
    sim.add_wall([[0.0, -5.0], [0.0, 5.0]])
    sim.add_agents([[-2.0, 0.0]], goals=[[3.0, 0.0]], radius=0.25, pref_speed=4.0, max_speed=4.0,
                   time_horizon_obst=1.0)
    traj = sim.run(100)
    assert into_walls(traj) <= DEPTH
    assert traj.positions[..., 0].max() <= -0.25 + DEPTH


def test_agents_already_overlapping_a_wall_are_not_thrown_out_or_deeper():
    sim = vosim.Simulator(time_step=0.1, method=vosim.AdaptiveSampling())
    sim.add_wall([[0.0, -5.0], [0.0, 5.0]])
    sim.add_agents([[-0.1, 0.0]], goals=[[3.0, 0.0]], radius=0.25, pref_speed=1.0, max_speed=1.0)
    traj = sim.run(20)
    x = traj.positions[:, 0, 0]
    assert np.all(x <= -0.1 + DEPTH)  # never deeper than it started
    assert np.all(np.diff(x) <= 0.25)  # no jump out


def test_guard_slides_along_a_wall_instead_of_stopping():
    # Heading at 45 degrees into a wall: the motion along it is kept.
    sim = vosim.Simulator(time_step=0.1, method=vosim.ForceBased())
    sim.add_wall([[0.0, -50.0], [0.0, 50.0]])
    sim.add_agents([[-0.3, 0.0]], goals=[[20.0, 20.0]], radius=0.25, pref_speed=1.0, max_speed=1.0)
    traj = sim.run(50)
    assert into_walls(traj) <= DEPTH
    assert traj.positions[-1, 0, 1] > 2.0


@pytest.mark.parametrize("method", [vosim.AdaptiveSampling(), vosim.ForceBased(), vosim.RVO()], ids=label)
def test_guard_is_the_same_for_any_thread_count(method):
    previous = vosim.get_num_threads()
    try:
        runs = []
        for threads in (1, 2):
            vosim.set_num_threads(threads)
            runs.append(box_crowd(method).run(60).positions)
    finally:
        vosim.set_num_threads(previous)
    np.testing.assert_array_equal(runs[0], runs[1])


def door(method, starts, width=0.9, steps=300):
    sim = vosim.Simulator(time_step=0.1, method=method)
    half = width / 2
    sim.add_wall([[0.0, half], [0.0, 5.0]])
    sim.add_wall([[0.0, -5.0], [0.0, -half]])
    sim.add_agents(starts, goals=[[5.0, 0.0]] * len(starts), radius=0.25, pref_speed=1.34, max_speed=1.34)
    traj = sim.run(steps)
    return traj.positions[-1, :, 0] > 0.5, traj


@pytest.mark.parametrize("start", [[-0.5, 0.0], [-3.0, 0.0], [-3.0, 0.3], [-2.0, -0.3]])
def test_force_based_walks_through_a_door_of_0_9_m(start):
    # Before, the two jambs' margins (0.5 m each) held an agent in front of the door.
    through, traj = door(vosim.ForceBased(), [start])
    assert through.all()
    assert into_walls(traj) <= DEPTH


def test_force_based_file_through_a_door_of_0_9_m():
    through, _ = door(vosim.ForceBased(), [[-1.0 - 0.8 * k, 0.0] for k in range(5)], steps=400)
    assert through.all()
