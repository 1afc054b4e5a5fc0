"""Agents and obstacles: no penetration, rooms keep agents in, doors and
corridors are passable, obstacles added between steps act at once, and the
perturbation breaks symmetric deadlocks."""

import numpy as np
import pytest

import vosim
from vosim import scenarios

# ORCA's obstacle half-planes are hard constraints; what remains is round-off.
PENETRATION_TOLERANCE = 1e-5


def test_blocks_never_penetrates_obstacles():
    sim = scenarios.blocks().build()
    traj = sim.run(20_000, until_arrived=True, record_every=1)
    assert traj.all_arrived
    assert traj.min_obstacle_clearance_per_frame().min() > -PENETRATION_TOLERANCE


def corridor(bidirectional: bool, n_per_side: int = 12):
    sim = vosim.Simulator(time_step=0.1)
    sim.add_wall([[-20.0, 2.0], [20.0, 2.0]])
    sim.add_wall([[-20.0, -2.0], [20.0, -2.0]])
    rng = np.random.default_rng(0)
    left = np.column_stack([-18.0 + 1.2 * np.arange(n_per_side) * -1, rng.uniform(-1.2, 1.2, n_per_side)])
    goals = left + [40.0 + 1.2 * n_per_side, 0.0]
    sim.add_agents(left, goals=goals, radius=0.3, max_speed=1.5, pref_speed=1.2, time_horizon=2.0,
                   time_horizon_obst=1.0, neighbor_dist=5.0)
    if bidirectional:
        right = left * [-1.0, 1.0]
        sim.add_agents(right, goals=right - [40.0 + 1.2 * n_per_side, 0.0], radius=0.3, max_speed=1.5,
                       pref_speed=1.2, time_horizon=2.0, time_horizon_obst=1.0, neighbor_dist=5.0)
    return sim


@pytest.mark.parametrize("bidirectional", [False, True])
def test_corridor_is_passable_without_touching_the_walls(bidirectional):
    sim = corridor(bidirectional)
    sim.method = vosim.ORCA(perturbation=1e-4)
    traj = sim.run(5000, until_arrived=True)
    assert traj.all_arrived
    assert traj.min_obstacle_clearance_per_frame().min() > -PENETRATION_TOLERANCE
    assert np.all(np.abs(traj.positions[..., 1]) < 2.0)  # nobody crossed a wall


def test_bottleneck_door():
    """A room closed by a wall with a 1.6 m door: everyone gets through it.

    ORCA is local: an agent whose straight line to its goal hits the wall
    stops there. So, as a user would, each agent first heads for the door and
    gets its real goal once through (goals rewritten between short runs).
    """
    sim = vosim.Simulator(time_step=0.1, method=vosim.ORCA(perturbation=1e-4))
    sim.add_boundary([[-10.0, -6.0], [10.0, -6.0], [10.0, 6.0], [-10.0, 6.0]])
    sim.add_wall([[0.0, -6.0], [0.0, -0.8]])
    sim.add_wall([[0.0, 0.8], [0.0, 6.0]])
    rng = np.random.default_rng(1)
    start = np.column_stack([rng.uniform(-9, -2, 30), rng.uniform(-5, 5, 30)])
    keep = [0]
    for k in range(1, len(start)):  # no two starts overlapping
        if np.min(np.linalg.norm(start[keep] - start[k], axis=1)) > 0.7:
            keep.append(k)
    start = start[keep]
    slots = np.array([[x, y] for x in (3.0, 5.0, 7.0, 9.0) for y in np.linspace(-4.5, 4.5, 6)])
    final = slots[: len(start)]  # goals 1.8 m apart or more: room for everyone
    sim.add_agents(start, goals=np.tile([1.5, 0.0], (len(start), 1)), radius=0.3, max_speed=1.5,
                   pref_speed=1.2, time_horizon=2.0, time_horizon_obst=1.0, neighbor_dist=5.0,
                   arrival_radius=0.5)
    frames = []
    for _ in range(300):
        through = sim.positions[:, 0] > 0.5
        sim.goals[through] = final[through]
        traj = sim.run(20)
        frames.append(traj.positions[1:])
        if through.all() and sim.arrived.all():
            break
    positions = np.concatenate(frames)
    assert sim.arrived.all(), f"{sim.arrived.sum()} of {sim.num_agents} arrived"
    traj.positions = positions
    assert traj.min_obstacle_clearance_per_frame().min() > -PENETRATION_TOLERANCE
    crossed = np.diff(np.sign(positions[..., 0]), axis=0) != 0
    frames_crossing, agents = np.nonzero(crossed)
    assert np.all(np.abs(positions[frames_crossing, agents, 1]) < 0.8)  # through the door only


def test_agents_stay_inside_a_boundary_for_1000_steps():
    room = np.array([[0.0, 0.0], [8.0, 0.0], [8.0, 5.0], [4.0, 8.0], [0.0, 5.0]])  # a house shape
    sim = vosim.Simulator(time_step=0.1)
    sim.add_boundary(room)
    rng = np.random.default_rng(2)
    start = np.array([[1.0 + 1.5 * i, 1.0 + 1.5 * j] for i in range(4) for j in range(3)])
    sim.add_agents(start, radius=0.4, max_speed=2.0, time_horizon=2.0, time_horizon_obst=1.0,
                   pref_velocities=rng.normal(0, 3, (12, 2)))  # all of them pushing outwards, wildly
    traj = sim.run(1000)
    assert traj.min_obstacle_clearance_per_frame().min() > -PENETRATION_TOLERANCE
    inside = [np.all(sim._engine.blocked_points(np.ascontiguousarray(frame), 0) == False)  # noqa: E712
              for frame in traj.positions]
    assert all(inside)


def test_obstacle_added_between_steps_acts_on_the_next_step():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0]], radius=0.5, max_speed=1.0, pref_velocities=[[1.0, 0.0]], time_horizon_obst=2.0)
    sim.step()
    assert sim.velocities[0, 0] == pytest.approx(1.0)
    sim.add_wall([[1.2, -3.0], [1.2, 3.0]])  # 0.6 beyond the agent's edge: within the horizon
    sim.step()
    assert sim.velocities[0, 0] < 0.5
    sim.run(100)
    assert sim.positions[0, 0] < 1.2 - 0.5 + PENETRATION_TOLERANCE


def test_batch_scene_obstacles_only_affect_their_scene():
    batch = vosim.Batch(scenes=2, time_step=0.1)
    batch.add_agents(np.array([[0.0, 0.0]]), pref_velocities=(1.0, 0.0), radius=0.5, max_speed=1.0)
    batch.add_wall([[1.0, -3.0], [1.0, 3.0]], scene=0)
    batch.run(40)
    assert batch.positions[0, 0, 0] < 0.5 + PENETRATION_TOLERANCE
    assert batch.positions[1, 0, 0] == pytest.approx(4.0)


class TestPerturbation:
    def headon(self, **method):
        sim = vosim.Simulator(time_step=0.1, method=vosim.ORCA(**method))
        sim.add_agents([[-5.0, 0.0], [5.0, 0.0]], goals=[[5.0, 0.0], [-5.0, 0.0]], radius=0.5, max_speed=1.0,
                       pref_speed=1.0, neighbor_dist=10.0, time_horizon=2.0)
        return sim

    def test_head_on_pair_stalls_without_and_passes_with_it(self):
        stuck = self.headon().run(600, until_arrived=True)
        assert not stuck.all_arrived and np.all(stuck.positions[..., 1] == 0.0)
        passed = self.headon(perturbation=1e-4).run(600, until_arrived=True)
        assert passed.all_arrived
        assert passed.min_clearance_per_frame().min() > -1e-9

    def test_symmetric_circle_jam_needs_a_larger_one(self):
        """20 agents exactly on a circle jam in a ring around the centre: a
        stable equilibrium that 1e-4 does not break, but 0.1 does."""
        circle = scenarios.circle(20, radius=20.0)
        assert not circle.build(vosim.ORCA(perturbation=1e-4)).run(2000, until_arrived=True).all_arrived
        assert circle.build(vosim.ORCA(perturbation=0.1)).run(2000, until_arrived=True).all_arrived

    def test_it_is_seeded(self):
        a = self.headon(perturbation=1e-3, seed=1).run(50).positions
        b = self.headon(perturbation=1e-3, seed=1).run(50).positions
        c = self.headon(perturbation=1e-3, seed=2).run(50).positions
        np.testing.assert_array_equal(a, b)
        assert not np.array_equal(a, c)

    def test_it_leaves_agents_without_goals_alone(self):
        sim = vosim.Simulator(time_step=0.1, method=vosim.ORCA(perturbation=0.5))
        sim.add_agents([[0.0, 0.0]], pref_velocities=[[1.0, 0.0]])
        sim.run(10)
        np.testing.assert_allclose(sim.positions, [[1.0, 0.0]])

    @pytest.mark.parametrize("bad, message", [(dict(perturbation=-1.0), "perturbation is -1.0"),
                                              (dict(perturbation=np.nan), "perturbation is nan"),
                                              (dict(seed=-1), "seed is -1"), (dict(seed=1.5), "seed: expected an integer")])
    def test_bad_settings(self, bad, message):
        with pytest.raises((ValueError, TypeError), match=message):
            vosim.ORCA(**bad)
