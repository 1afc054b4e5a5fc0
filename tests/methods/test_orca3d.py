"""ORCA in 3D: units, neighbours, behaviour, and RVO2-3D's Sphere example run
to the end (the single-step parity with RVO2-3D is in test_orca_parity.py)."""

import numpy as np
import pytest

import vosim
from _reference import f32, load_rvo2


@pytest.mark.parametrize("time_step", [0.01, 0.05, 0.1, 0.25, 0.5])
@pytest.mark.parametrize("speed", [0.5, 2.0, 10.0])
def test_an_unobstructed_agent_covers_speed_times_time(time_step, speed):
    """max_speed v and preferred speed v: v * t metres in t seconds, whatever
    the time step (RVO2-3D users report speeds 10x the setting at some)."""
    seconds = 5.0
    steps = int(round(seconds / time_step))
    direction = np.array([1.0, -2.0, 2.0]) / 3.0
    start = np.array([[0.0, 0.0, 0.0], [0.0, 0.0, 50.0]])  # beyond each other's neighbour range
    sim = vosim.Simulator(time_step=time_step, dimensions=3)
    # One agent seeks a far goal, the other is told its preferred velocity.
    sim.add_agents(start, goals=[1e6 * direction, [np.nan, np.nan, np.nan]],
                   pref_velocities=[[0.0, 0.0, 0.0], speed * direction], max_speed=speed, pref_speed=speed)
    sim.run(steps)
    displacement = sim.positions - start
    np.testing.assert_allclose(np.linalg.norm(displacement, axis=1), speed * seconds, rtol=1e-9)
    np.testing.assert_allclose(displacement, speed * seconds * np.tile(direction, (2, 1)), rtol=1e-9)


def brute_force_neighbors(positions, neighbor_dist, max_neighbors):
    """Each agent's neighbours by the definition: strictly closer than the
    range, nearest first, ties by the lower slot, at most max_neighbors."""
    table = np.full((len(positions), max_neighbors), -1)
    for i, p in enumerate(positions):
        dist_sq = np.sum((positions - p) ** 2, axis=1)
        order = np.lexsort((np.arange(len(positions)), dist_sq))
        chosen = [j for j in order if j != i and dist_sq[j] < neighbor_dist**2][:max_neighbors]
        table[i, :len(chosen)] = chosen
    return table


@pytest.mark.parametrize("layout", ["cloud", "lattice_with_ties", "one_spot", "far_apart"])
def test_3d_neighbours_match_the_definition(layout):
    rng = np.random.default_rng(5)
    if layout == "cloud":
        positions = rng.uniform(-20.0, 20.0, size=(400, 3))
    elif layout == "lattice_with_ties":  # many exactly equal distances
        grid = np.arange(6, dtype=float) * 2.0
        positions = np.stack(np.meshgrid(grid, grid, grid), axis=-1).reshape(-1, 3)
    elif layout == "one_spot":
        positions = np.zeros((50, 3))
    else:  # a spread far beyond the cell count
        positions = np.concatenate([rng.uniform(-1.0, 1.0, size=(30, 3)), [[1e14, -1e14, 1e13]]])
    sim = vosim.Simulator(dimensions=3)
    sim.add_agents(positions, neighbor_dist=5.0, max_neighbors=7)
    np.testing.assert_array_equal(sim.neighbors(), brute_force_neighbors(positions, 5.0, 7))


def test_inactive_agents_are_neither_moved_nor_seen():
    sim = vosim.Simulator(time_step=0.1, dimensions=3)
    sim.add_agents([[0.0, 0.0, 0.0], [3.0, 0.0, 0.0], [6.0, 0.0, 0.0]], pref_velocities=[1.0, 0.0, 0.0])
    sim.active = [True, False, True]
    sim.step()
    np.testing.assert_array_equal(sim.positions[1], [3.0, 0.0, 0.0])
    assert list(sim.neighbors()[0][:2]) == [2, -1]


def test_a_head_on_pair_passes_in_space_without_touching():
    sim = vosim.Simulator(time_step=0.1, dimensions=3)
    sim.add_agents([[-10.0, 0.0, 0.0], [10.0, 0.0, 0.1]], goals=[[10.0, 0.0, 0.0], [-10.0, 0.0, 0.1]],
                   radius=1.0, max_speed=1.5, pref_speed=1.0)
    traj = sim.run(400, until_arrived=True)
    assert traj.all_arrived
    assert np.all(traj.min_clearance_per_frame() >= 0.0)


def test_overlapping_agents_separate_within_a_step():
    """The collision case: the pair leaves the overlap at 1 / time_step."""
    sim = vosim.Simulator(time_step=0.125, dimensions=3)
    sim.add_agents([[0.0, 0.0, 0.0], [0.0, 0.29, 0.0]], radius=1.5, max_speed=2.0)
    before = np.linalg.norm(sim.positions[1] - sim.positions[0])
    sim.step()
    after = np.linalg.norm(sim.positions[1] - sim.positions[0])
    assert after - before == pytest.approx(0.5, rel=1e-12)  # 2 * max_speed * time_step


def test_fallback_keeps_a_crowded_agent_within_its_speed():
    """Surrounded on all sides (linear program 4): a velocity no faster than max_speed."""
    directions = np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]], dtype=float)
    positions = np.concatenate([[[0.0, 0.0, 0.0]], 1.9 * directions])
    sim = vosim.Simulator(time_step=0.1, dimensions=3)
    sim.add_agents(positions, velocities=np.concatenate([[[0.0, 0.0, 0.0]], -directions]), radius=1.0,
                   pref_velocities=[0.0, 0.0, 1.0])
    info = sim.inspect(0)
    assert info["used_fallback"]
    assert np.linalg.norm(info["new_velocity"]) <= 2.0 * (1 + 1e-9)


@pytest.mark.slow
def test_rvo2_3d_sphere_example_reaches_its_goals():
    """RVO2-3D's Sphere example, 812 agents: all arrive (RVO2-3D needs 2331 steps)."""
    case = load_rvo2("sphere", full=False)
    kwargs = case.agent_kwargs()
    sim = vosim.Simulator(time_step=case.time_step, dimensions=3)
    # The example's rule: head for the goal at speed 1 at most; done within 2 radii.
    sim.add_agents(f32(case.meta["initial_positions"]), goals=f32(case.meta["goals"]), pref_speed=1.0,
                   arrival_radius=2 * kwargs["radius"], **kwargs)
    traj = sim.run(3000, until_arrived=True, record_every=100)
    assert traj.all_arrived
    assert traj.steps_run < 2500  # 2337 steps (RVO2-3D: 2331)
    # The start overlaps (as in RVO2-3D, clearance -2.21); later overlaps
    # stay about as shallow as RVO2-3D's (-0.211 from step 10 on).
    assert traj.min_clearance_per_frame()[0] < -2.0
    assert traj.min_clearance_per_frame()[1:].min() > -0.3  # -0.217 at step 10
