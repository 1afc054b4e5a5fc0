"""Opt-in deadlock resolution (the methods' ``deadlock=`` option).

Symmetric jams that stall reciprocal methods for good: a 30-agent ring
(RVO2 freezes on it too) and the exact head-on pair. With a detour rule
every method finishes them, deterministically.
"""

from __future__ import annotations

import numpy as np
import pytest

import vosim
from vosim import scenarios

EVERY_METHOD = [vosim.ORCA, vosim.VO, vosim.RVO, vosim.HRVO, vosim.AdaptiveSampling, vosim.GridSampling,
                vosim.ForceBased]


def ring(method, agents: int = 30, size: float = 15.0) -> vosim.Simulator:
    """Agents evenly spaced on a circle of radius `size`, swapping to the antipodes at 1 m/s."""
    sim = vosim.Simulator(time_step=0.1, method=method)
    angles = np.linspace(0, 2 * np.pi, agents, endpoint=False)
    start = size * np.column_stack([np.cos(angles), np.sin(angles)])
    sim.add_agents(start, goals=-start, radius=0.5, max_speed=1.0, pref_speed=1.0)
    return sim


def headon_pair(method) -> vosim.Simulator:
    sim = vosim.Simulator(time_step=0.25, method=method)
    sim.add_agents([[-5.0, 0.0], [5.0, 0.0]], goals=[[5.0, 0.0], [-5.0, 0.0]], radius=0.5)
    return sim


def finish(sim: vosim.Simulator, steps: int) -> vosim.Trajectory:
    traj = sim.run(steps, until_arrived=True)
    return traj


@pytest.mark.filterwarnings("ignore:run\\(until_arrived=True\\)")
@pytest.mark.parametrize("method", [vosim.ORCA(), vosim.AdaptiveSampling(resolve_collisions=False, max_acceleration=1e15)])
def test_without_resolution_the_ring_stalls(method):
    """The jam is the method's own behaviour: without the option nobody arrives (the bare sampler, without
    DetourCrowd's acceleration limit and collision handling, which push this ring through)."""
    traj = finish(ring(method), 1500)
    assert not traj.all_arrived and traj.metrics["arrival_rate"] == 0.0
    assert traj.metrics["stalled_agents"] == 30


@pytest.mark.filterwarnings("ignore:run\\(until_arrived=True\\)")
def test_without_resolution_the_headon_pair_stalls():
    traj = finish(headon_pair(vosim.ORCA()), 400)
    assert not traj.all_arrived and traj.metrics["stalled_agents"] == 2


@pytest.mark.parametrize("rule", ["sidestep", "random_side"])
@pytest.mark.parametrize("cls", EVERY_METHOD, ids=lambda cls: cls.__name__)
def test_ring_and_pair_finish_with_every_method(cls, rule):
    kwargs = dict(samples=60) if cls in (vosim.VO, vosim.RVO) else {}
    ring_run = finish(ring(cls(deadlock=rule, **kwargs)), 3000)
    assert ring_run.all_arrived, f"{cls.__name__} ring: {ring_run.summary()}"
    pair_run = finish(headon_pair(cls(deadlock=rule, **kwargs)), 400)
    assert pair_run.all_arrived, f"{cls.__name__} pair: {pair_run.summary()}"


@pytest.mark.parametrize("rule", ["sidestep", "random_side"])
def test_blocks_finishes_without_a_perturbation(rule):
    scenario = scenarios.blocks()
    sim = scenario.build()
    sim.method = vosim.ORCA(deadlock=rule)  # the option alone, without Blocks' 1e-4 perturbation
    traj = sim.run(scenario.max_steps, until_arrived=True)
    assert traj.all_arrived


def test_sidestep_passes_the_pair_on_the_right():
    """Each agent turns right of its heading: the one heading +x moves to -y, the other to +y."""
    sim = headon_pair(vosim.ORCA(deadlock="sidestep"))
    traj = sim.run(400, until_arrived=True)
    lateral = traj.positions[:, :, 1]
    assert lateral[:, 0].min() < -0.3 and lateral[:, 1].max() > 0.3
    assert lateral[:, 0].max() < 1e-9 and lateral[:, 1].min() > -1e-9


def test_state_is_per_agent_and_cleared_on_arrival():
    sim = headon_pair(vosim.ORCA(deadlock="sidestep", deadlock_hold=1.0))
    sides, timers = [], []
    for _ in range(60):
        sim.step()
        sides.append(np.array(sim._engine.view("detour_side")[0]))
        timers.append(np.array(sim._engine.view("deadlock_timer")[0]))
    sides = np.array(sides)
    assert set(np.unique(sides)) <= {0, 1} and sides.max() == 1  # sidestep: always right
    assert np.all(np.array(timers) >= 0)
    sim.run(400, until_arrived=True)
    assert np.all(sim._engine.view("detour_side")[0] == 0) and np.all(sim._engine.view("deadlock_timer")[0] == 0)


def test_no_detour_before_the_patience_runs_out():
    """A stall shorter than deadlock_patience changes nothing: the paths equal those without the option."""
    plain = headon_pair(vosim.ORCA()).run(30)
    patient = headon_pair(vosim.ORCA(deadlock="sidestep", deadlock_patience=1e6)).run(30)
    np.testing.assert_array_equal(plain.positions, patient.positions)


@pytest.mark.skipif(not vosim.have_threads(), reason="built without threads")
@pytest.mark.parametrize("rule", ["sidestep", "random_side"])
def test_bit_identical_whatever_the_thread_count(rule):
    runs = []
    for threads in (1, 2, 3):
        vosim.set_num_threads(threads)
        runs.append(ring(vosim.ORCA(deadlock=rule, seed=4), agents=200, size=50.0).run(800).positions)
    for other in runs[1:]:
        np.testing.assert_array_equal(runs[0], other)
    plain = ring(vosim.ORCA(), agents=200, size=50.0).run(800).positions
    assert not np.array_equal(runs[0], plain)  # detours happened


def test_the_seed_chooses_random_sides():
    a = ring(vosim.ORCA(deadlock="random_side", seed=1)).run(600).positions
    b = ring(vosim.ORCA(deadlock="random_side", seed=1)).run(600).positions
    c = ring(vosim.ORCA(deadlock="random_side", seed=2)).run(600).positions
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


@pytest.mark.parametrize("settings, message", [
    (dict(deadlock="left"), "deadlock is 'left'; must be one of 'none', 'sidestep', 'random_side'"),
    (dict(deadlock=None), "deadlock is None"),
    (dict(deadlock_patience=-1.0), "deadlock_patience is -1.0"),
    (dict(deadlock_turn=200.0), "deadlock_turn is 200.0"),
    (dict(deadlock_stall=float("nan")), "deadlock_stall"),
])
def test_bad_settings_are_refused(settings, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        vosim.ORCA(**settings)


def test_settings_survive_a_round_trip_through_plain_data():
    from vosim.methods import method_from_dict

    method = vosim.HRVO(deadlock="random_side", deadlock_turn=45.0, seed=3)
    assert method_from_dict(method.to_dict()) == method
