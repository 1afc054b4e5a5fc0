"""Checkpoints taken in the middle of a deadlock detour resume bit-identically.

The deadlock resolution option keeps per-agent state in the engine (how long
each agent has stalled, the side of its detour): a checkpoint taken while
agents of a symmetric ring are stalled and detouring must resume exactly as
the run that never stopped, on 1 and 2 threads.
"""

from __future__ import annotations

import numpy as np
import pytest

import vosim

from test_checkpoints import _assert_same, _round_trips, threads

STALLED_AT = 245  # the ring's agents have met and stalled; detours are under way
MORE_STEPS = 55


def _rings(rule: str, scenes: int | None):
    method = vosim.ORCA(deadlock=rule, seed=3)
    sim = vosim.Simulator(time_step=0.1, method=method) if scenes is None else vosim.Batch(
        scenes, time_step=0.1, method=method)
    angles = np.linspace(0, 2 * np.pi, 30, endpoint=False)
    start = 15 * np.column_stack([np.cos(angles), np.sin(angles)])
    if scenes is not None:
        start = np.broadcast_to(start, (scenes, 30, 2))
    # A 10 s horizon and 15 m neighbourhood (RVO2's Circle example) stall the ring by STALLED_AT.
    sim.add_agents(start, goals=-start, radius=0.5, max_speed=1.0, pref_speed=1.0, neighbor_dist=15.0,
                   time_horizon=10.0)
    return sim


@pytest.mark.parametrize("threads_", threads, ids=lambda t: f"{t} threads")
@pytest.mark.parametrize("rule", ["sidestep", "random_side"])
@pytest.mark.parametrize("scenes", [None, 2], ids=["simulator", "batch"])
def test_resuming_mid_detour_is_bit_identical(rule, scenes, threads_, tmp_path):
    vosim.set_num_threads(1)
    reference = _rings(rule, scenes)
    reference.run(STALLED_AT + MORE_STEPS)

    vosim.set_num_threads(threads_)
    sim = _rings(rule, scenes)
    sim.run(STALLED_AT)
    columns = sim._engine.snapshot()["columns"]
    assert np.count_nonzero(columns["deadlock_timer"]) > 0  # the checkpoint falls in the stall
    for how, resumed in _round_trips(sim, tmp_path):
        assert resumed.method == sim.method, how
        for name in ("deadlock_timer", "detour_side"):
            assert np.array_equal(resumed._engine.snapshot()["columns"][name], columns[name]), how
        traj = resumed.run(MORE_STEPS)
        _assert_same(resumed, reference)
        assert traj.steps_run == MORE_STEPS, how
    sim.run(MORE_STEPS)
    _assert_same(sim, reference)


def test_the_detours_matter_after_the_checkpoint(tmp_path):
    """The saved timers and sides are needed: zeroing them changes the rest of the run."""
    sim = _rings("sidestep", None)
    sim.run(STALLED_AT)
    state = sim._engine.snapshot()
    reference = _rings("sidestep", None)
    reference.run(STALLED_AT + MORE_STEPS)
    for name in ("deadlock_timer", "detour_side"):
        state["columns"][name][...] = 0
    sim._engine.restore(state)
    sim.run(MORE_STEPS)
    assert not np.array_equal(sim.positions, reference.positions)
