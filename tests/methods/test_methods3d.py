"""The methods in 3D: ORCA, ForceBased and sampling VO/RVO run there; the
methods that are 2D by nature refuse dimensions=3 by name."""

import numpy as np
import pytest

import vosim
from vosim.methods import METHODS


def swap_pairs():
    """Three pairs swapping places across the origin, slightly off-axis."""
    start = np.array([[-8.0, 0.2, 0.0], [8.0, 0.0, 0.1], [0.0, -8.0, 0.3], [0.1, 8.0, 0.0],
                      [0.0, 0.2, -8.0], [0.3, 0.0, 8.0]])
    return start, -start


@pytest.mark.parametrize("method", ["orca", "force"])
def test_3d_methods_bring_agents_home_without_collisions(method):
    sim = vosim.Simulator(time_step=0.1, dimensions=3, method=method)
    sim.add_obstacle(vosim.Sphere((0.0, 0.0, 12.0), 2.0))
    start, goals = swap_pairs()
    sim.add_agents(start, goals=goals, radius=0.5, max_speed=2.0, pref_speed=1.5)
    traj = sim.run(600, until_arrived=True)
    assert traj.all_arrived
    assert traj.metrics["collision_agent_steps"] == 0
    assert traj.metrics["obstacle_agent_steps"] == 0


def test_force_based_walls_hold_in_3d():
    sim = vosim.Simulator(time_step=0.1, dimensions=3, method=vosim.ForceBased())
    sim.add_obstacle(vosim.HalfSpace((0.0, 0.0, 0.0), (0.0, 0.0, 1.0)))
    sim.add_agents([[0.0, 0.0, 2.0]], pref_velocities=[[0.5, 0.0, -2.0]], radius=0.5)
    traj = sim.run(100)
    assert traj.positions[:, 0, 2].min() >= 0.5 - 1e-9
    assert traj.positions[-1, 0, 0] > 3.0  # it slides along the ground


def test_force_based_in_3d_matches_2d_in_the_plane():
    """Agents at z = 0 with planar goals move exactly as in the 2D engine."""
    start2 = np.array([[-5.0, 0.1], [5.0, 0.0], [0.0, 4.0]])
    runs = []
    for dims in (2, 3):
        sim = vosim.Simulator(time_step=0.1, dimensions=dims, method="force")
        pad = np.zeros((3, dims - 2))
        sim.add_agents(np.hstack([start2, pad]), goals=np.hstack([-start2, pad]), radius=0.5)
        runs.append(sim.run(50).positions)
    np.testing.assert_allclose(runs[1][..., :2], runs[0], atol=1e-12)
    assert np.all(runs[1][..., 2] == 0.0)


@pytest.mark.parametrize("name", sorted(METHODS))
def test_every_method_either_runs_in_3d_or_refuses_by_name(name):
    method = METHODS[name]()
    try:
        sim = vosim.Simulator(time_step=0.1, dimensions=3, method=method)
    except ValueError as error:
        assert f"method: method {method._make_core().name} does not support dimensions=3" in str(error)
        assert name not in ("ORCA", "ForceBased", "VO", "RVO")
        return
    sim.add_agents([[0.0, 0.0, 0.0], [3.0, 0.0, 0.0]], goals=[[3.0, 0.0, 1.0], [0.0, 0.0, 1.0]])
    sim.run(5)
    assert np.all(np.isfinite(sim.positions))


@pytest.mark.parametrize("method", [vosim.VO(), vosim.RVO(), vosim.RVO(truncate=True)], ids=["VO", "RVO", "RVO-truncated"])
def test_vo_family_samples_a_fixed_lattice_in_the_speed_ball(method):
    sim = vosim.Simulator(time_step=0.1, dimensions=3, method=method)
    sim.add_agents([[0.0, 0.0, 0.0], [6.0, 0.0, 0.2], [0.0, 30.0, 0.0]],
                   velocities=[[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
                   pref_velocities=[[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 0.0, 1.0]], max_speed=2.0)
    first, far = sim.inspect(0), sim.inspect(2)
    candidates = first["candidates"]
    assert candidates.shape == (method.samples + 1, 3)
    np.testing.assert_array_equal(candidates[0], [1.0, 0.0, 0.0])  # the preferred velocity first
    assert np.all(np.linalg.norm(candidates, axis=1) <= 2.0 * (1 + 1e-12))
    np.testing.assert_array_equal(candidates[1:], far["candidates"][1:])  # the same lattice for everyone
    # It fills the ball: every octant, and speeds from slow to fast.
    octants = {tuple(row) for row in (candidates[1:] > 0)}
    assert len(octants) == 8
    speeds = np.linalg.norm(candidates[1:], axis=1)
    assert speeds.min() < 0.5 and speeds.max() > 1.9
    assert first["chosen"] == int(np.argmin(first["penalties"]))
    # The head-on neighbour makes the preferred velocity costly; the lone agent keeps its own.
    assert first["chosen"] != 0 and far["chosen"] == 0
    np.testing.assert_array_equal(far["new_velocity"], [0.0, 0.0, 1.0])
    sim.step()
    np.testing.assert_array_equal(sim.velocities[0], first["new_velocity"])


def test_rvo_pair_passes_in_3d_without_touching():
    sim = vosim.Simulator(time_step=0.1, dimensions=3, method=vosim.RVO())
    sim.add_agents([[-8.0, 0.0, 0.0], [8.0, 0.0, 0.2]], goals=[[8.0, 0.0, 0.0], [-8.0, 0.0, 0.2]], radius=0.5,
                   pref_speed=1.0, max_speed=2.0)
    traj = sim.run(400, until_arrived=True)
    assert traj.all_arrived
    assert traj.metrics["collision_agent_steps"] == 0


def test_vo_sampling_keeps_off_obstacle_surfaces():
    sim = vosim.Simulator(time_step=0.1, dimensions=3, method=vosim.VO())
    sim.add_obstacle(vosim.HalfSpace((0.0, 0.0, 0.0), (0.0, 0.0, 1.0)))
    sim.add_agents([[0.0, 0.0, 2.0]], pref_velocities=[[1.0, 0.0, -2.0]], radius=0.5)
    traj = sim.run(100)
    assert traj.positions[:, 0, 2].min() >= 0.5 - 1e-9
    assert traj.positions[-1, 0, 0] > 2.0


def test_planar_selections_are_refused_in_3d_with_the_reason():
    with pytest.raises(ValueError, match=r"method VO does not support dimensions=3 \(in 3D only selection='sampling'\)"):
        vosim.Simulator(dimensions=3, method=vosim.VO(selection="geometric"))
    with pytest.raises(ValueError, match="method HRVO does not support dimensions=3"):
        vosim.Simulator(dimensions=3, method=vosim.HRVO(selection="sampling"))
