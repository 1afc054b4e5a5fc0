"""Dense and degenerate states have defined behaviour and finite results
(docs/guide/working_range.md, "Degenerate states"): agents on one spot, zero radius, zero speed,
horizons shorter than the step, no agents, one agent, 100,000 agents on one
point, huge coordinates, tiny radii, the edges of the working range."""

import time

import numpy as np
import pytest

import vosim


def finite(sim):
    return np.isfinite(sim.positions).all() and np.isfinite(sim.velocities).all()


def speeds(sim):
    return np.hypot(sim.velocities[..., 0], sim.velocities[..., 1])  # no underflow for tiny speeds


def test_agents_on_one_spot_are_pushed_apart():
    """Coincident agents with equal velocities have no preferred direction:
    each pair is split along x, the lower slot towards -x, then ORCA's
    overlap rule spreads them until no two overlap."""
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents(np.full((5, 2), 3.0), radius=0.5, max_speed=1.0)
    sim.step()
    assert finite(sim)
    assert sim.velocities[0, 0] < 0 and sim.velocities[-1, 0] > 0
    traj = sim.run(200)
    assert traj.min_clearance_per_frame()[-1] > -1e-9
    assert np.all(speeds(sim) <= 1.0 + 1e-9)


def test_zero_radius_agents_are_points():
    """Radius 0: point agents, which overlap only on the same spot; they keep
    apart like any others. The arrival radius defaults to the radius, so
    give them one: with 0 only landing exactly on the goal counts."""
    for goals in ([[5.0, 0.0], [-5.0, 0.0]], [[5.0, 0.0], [0.0, 5.0]]):
        start = [[-5.0, 0.0], [5.0, 0.0]] if goals[1][0] < 0 else [[-5.0, 0.0], [0.0, -5.2]]
        sim = vosim.Simulator(time_step=0.1)
        sim.add_agents(start, goals=goals, radius=0.0, max_speed=1.0, arrival_radius=1e-6)
        traj = sim.run(500, until_arrived=True)
        assert traj.all_arrived and finite(sim)
        assert traj.min_clearance_per_frame().min() > 0.0


def test_zero_radius_agents_on_one_spot():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents(np.zeros((4, 2)), radius=0.0, max_speed=0.0)
    traj = sim.run(3)
    np.testing.assert_array_equal(traj.min_clearance_per_frame(), 0.0)  # used to loop forever
    np.testing.assert_array_equal(sim.positions, 0.0)


def test_zero_max_speed_agents_stay_put():
    """max_speed 0: the agent does not move, whatever it wants or overlaps."""
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0], [0.3, 0.0], [9.0, 9.0]], goals=[[5.0, 0.0], [-5.0, 0.0], [9.0, 9.0 + 1e-200]],
                   radius=0.5, max_speed=0.0, pref_speed=[1.0, 1.0, 1e-300])
    start = sim.positions.copy()
    sim.run(10)
    np.testing.assert_array_equal(sim.positions, start)
    np.testing.assert_array_equal(speeds(sim), 0.0)


def test_time_horizon_shorter_than_the_time_step():
    """Agents then look less than one step ahead: they may overlap at the
    end of a step, and the overlap rule separates them within the next."""
    sim = vosim.Simulator(time_step=0.5)
    sim.add_agents([[-5.0, 0.1], [5.0, 0.0]], goals=[[5.0, 0.1], [-5.0, 0.0]], radius=0.5, max_speed=1.0,
                   time_horizon=0.01)
    traj = sim.run(300, until_arrived=True)
    assert traj.all_arrived and finite(sim)
    clearance = traj.min_clearance_per_frame()
    assert clearance.min() < 0.0  # they did overlap...
    overlapping = np.flatnonzero(clearance < -1e-9)
    assert np.all(clearance[overlapping + 1] > -1e-9)  # ...for one step at a time


def test_no_agents():
    sim = vosim.Simulator()
    sim.step()
    traj = sim.run(5)
    assert traj.positions.shape == (6, 0, 2) and np.all(traj.min_clearance_per_frame() == np.inf)
    assert sim.neighbors().shape == (0, 1) and sim.arrived.shape == (0,)
    with pytest.raises(ValueError, match="until_arrived=True needs at least one active agent with a goal"):
        sim.run(5, until_arrived=True)


def test_many_empty_scenes_cost_nothing():
    batch = vosim.Batch(scenes=2**31 - 1)
    batch.step()
    assert batch.run(3).positions.shape == (4, 2**31 - 1, 0, 2)
    assert batch.neighbors().shape == (2**31 - 1, 0, 1)


def test_adding_more_agents_than_memory_holds_is_refused():
    batch = vosim.Batch(scenes=2**31 - 1)
    with pytest.raises(ValueError, match="positions: 1 more agents in each of 2147483647 scenes would need about"):
        batch.add_agents(np.zeros((1, 2)))


def test_one_agent():
    sim = vosim.Simulator(time_step=0.5)
    sim.add_agents([[0.0, 0.0]], goals=[[3.0, 4.0]], max_speed=1.0, radius=0.1)
    traj = sim.run(100, until_arrived=True)
    # 0.5 m per step, then half the remaining distance per step (the
    # preferred velocity is goal - position when shorter than pref_speed)
    assert traj.all_arrived and traj.steps_run == 12 and np.isinf(traj.min_clearance_per_frame()).all()
    np.testing.assert_allclose(sim.positions[0], [3.0 - 0.6 / 16, 4.0 - 0.8 / 16])


def test_100000_agents_on_one_point():
    """Every agent's 10 neighbours are at distance 0; the neighbour search
    answers each query from a k-d tree of the one crowded cell instead of
    scanning all 100,000 agents. A step costs no more than a step of the same
    crowd spread out (a quadratic search would take about 1000 times as long)."""
    n = 100_000
    times = {}
    for layout in ("spread", "one point"):
        sim = vosim.Simulator(time_step=0.1)
        positions = (np.zeros((n, 2)) if layout == "one point"
                     else np.random.default_rng(0).uniform(0.0, 630.0, (n, 2)))
        sim.add_agents(positions, radius=0.5, max_speed=1.0, pref_velocities=(1.0, 0.0))
        started = time.perf_counter()
        sim.step()
        times[layout] = time.perf_counter() - started
        assert finite(sim) and np.all(speeds(sim) <= 1.0 + 1e-9)
    assert times["one point"] < 20 * times["spread"] + 0.5, times


def test_huge_coordinates():
    """At 1e12 the spacing of doubles is 1.2e-4: a crossing there follows the
    same paths as at the origin, to within a few times that."""
    runs = []
    for offset in (0.0, 1e12):
        sim = vosim.Simulator(time_step=0.1)
        sim.add_agents(np.array([[-5.0, 0.0], [0.0, -6.0]]) + offset, goals=np.array([[5.0, 0.0], [0.0, 5.0]]) + offset,
                       radius=0.5, max_speed=1.0, time_horizon=2.0)
        traj = sim.run(400, until_arrived=True)
        assert traj.all_arrived and finite(sim)
        assert traj.min_clearance_per_frame().min() > -1e-3  # they pass within 2 mm of each other
        runs.append(traj.positions - offset)
    assert abs(len(runs[0]) - len(runs[1])) <= 1
    frames = min(len(runs[0]), len(runs[1]))
    np.testing.assert_allclose(runs[0][:frames], runs[1][:frames], atol=0.01)


def test_edge_of_the_working_range():
    """Positions at +-1e15 and time steps of 1e-15 or 1e15 are accepted and
    give finite results; a run that carries a position beyond 1e15 stops
    before the next step, with the partial trajectory."""
    sim = vosim.Simulator(time_step=1e15)
    sim.add_agents([[1e15, -1e15], [0.0, 0.0]], pref_velocities=[[1.0, 0.0], [0.0, 0.0]], max_speed=1.0)
    with pytest.raises(ValueError, match=r"agent id 0 .*: position is 2e\+15") as raised:
        sim.run(5)
    assert raised.value.trajectory.steps_run == sim.step_count == 1 and finite(sim)
    tiny = vosim.Simulator(time_step=1e-15)
    tiny.add_agents([[0.0, 0.0], [1e-300, 0.0]], radius=0.5, max_speed=0.0, time_horizon=1e-15)
    tiny.run(3)
    assert finite(tiny) and np.all(speeds(tiny) == 0.0)  # overlapping, but cannot move


@pytest.mark.parametrize("radius", [1e-9, 1e-300, 5e-324])
def test_tiny_radii(radius):
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0], [0.0, 0.0], [radius, 0.0]], radius=radius, max_speed=1.0,
                   pref_velocities=[[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0]])
    sim.run(5)
    assert finite(sim) and np.all(speeds(sim) <= 1.0 + 1e-9)


def test_tiny_speeds_keep_to_max_speed():
    """Speeds whose squares underflow (below 1e-154) are compared by length."""
    sim = vosim.Simulator(time_step=1.0)
    sim.add_agents([[0.0, 0.0], [100.0, 0.0]], pref_velocities=[[1e-170, 0.0], [3e-200, 4e-200]],
                   max_speed=[1e-180, 1e-200])
    sim.step()
    np.testing.assert_allclose(speeds(sim), [1e-180, 1e-200], rtol=1e-12)
