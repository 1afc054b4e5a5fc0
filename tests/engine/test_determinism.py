"""Results do not depend on the thread count or on the process.

Every test here runs for every method in METHODS: a new method joins by
adding a line there.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import vosim

# Name -> configuration; the name is what a fresh process is told.
METHODS = {
    "ORCA": lambda: vosim.ORCA(),
    "ORCA, bisector_weight=0.5": lambda: vosim.ORCA(bisector_weight=0.5, perturbation=0.01, seed=3),
    "VO": lambda: vosim.VO(samples=40),
    "RVO, geometric": lambda: vosim.RVO(selection="geometric"),
    "HRVO": lambda: vosim.HRVO(),
    "HRVO, sampling": lambda: vosim.HRVO(selection="sampling", samples=40, truncate=True),
    "AdaptiveSampling": lambda: vosim.AdaptiveSampling(),
    "GridSampling": lambda: vosim.GridSampling(grid_size=9),
    "ForceBased": lambda: vosim.ForceBased(perturbation=0.05, seed=8),
}

threads_available = vosim.have_threads()


def scenario(method_name: str, seed: int, scenes: int = 3, agents: int = 300, steps: int = 120) -> vosim.Batch:
    """A seeded batch that reaches every part of a step: goals and written
    preferred velocities, a dense cluster (a crowded cell's tree), removed
    agents, overlaps, obstacles shared and per scene, agent options; run
    for `steps` steps."""
    rng = np.random.default_rng(seed)
    starts = rng.uniform(-20.0, 20.0, (scenes, agents, 2))
    starts[:, : agents // 5] = rng.normal(0.0, 0.05, (scenes, agents // 5, 2))  # a dense cluster
    goals = -starts
    goals[:, ::7] = np.nan  # some agents without a goal...
    batch = vosim.Batch(scenes=scenes, time_step=0.1, method=METHODS[method_name]())
    batch.add_obstacle([[3.0, 3.0], [9.0, 3.0], [9.0, 5.0], [3.0, 5.0]], strict=False)
    batch.add_wall([[-15.0, -8.0], [-2.0, -12.0], [4.0, -9.0]], scene=scenes - 1)
    batch.add_boundary([[-30.0, -30.0], [30.0, -30.0], [30.0, 30.0], [-30.0, 30.0]])
    ids = batch.add_agents(starts, goals=goals, radius=rng.uniform(0.2, 0.6, (scenes, agents)),
                           neighbor_dist=5.0, max_neighbors=rng.integers(1, 15, agents), time_horizon=2.0,
                           time_horizon_obst=1.0, priority=rng.uniform(0.5, 2.0, agents),
                           max_acceleration=np.where(rng.uniform(size=agents) < 0.5, np.inf, 3.0),
                           uncertainty_offset=rng.uniform(0.0, 0.1, agents),
                           pref_velocities=rng.uniform(-1.0, 1.0, (scenes, agents, 2)),  # ...walk as told
                           strict=False)
    batch.remove_agents(ids[0, 1::11])
    batch.run(steps, record_every=steps)
    return batch


def fingerprint(method_name: str, seed: int, **kwargs) -> str:
    batch = scenario(method_name, seed, **kwargs)
    digest = hashlib.sha256()
    for name in ("positions", "velocities", "pref_velocities", "active", "ids"):
        digest.update(np.ascontiguousarray(getattr(batch, name)).tobytes())
    return digest.hexdigest()


@pytest.mark.parametrize("method_name", METHODS)
def test_same_seed_gives_the_same_result_in_a_fresh_process(method_name):
    code = (f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); "
            f"import test_determinism as t; print(t.fingerprint({method_name!r}, 11))")
    there = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    here = fingerprint(method_name, 11)
    assert there.stdout.split()[-1] == here
    assert fingerprint(method_name, 12) != here  # the fingerprint does see the seed


@pytest.mark.skipif(not threads_available, reason="built without threads")
@pytest.mark.parametrize("method_name", METHODS)
def test_bit_identical_for_one_and_two_threads(method_name):
    results = []
    for threads in (1, 2, 3):
        vosim.set_num_threads(threads)
        results.append(fingerprint(method_name, 5))
    assert results[0] == results[1] == results[2]


@pytest.mark.skipif(not threads_available, reason="built without threads")
@pytest.mark.parametrize("method_name", METHODS)
def test_bit_identical_for_one_and_two_threads_in_a_large_crowd(method_name):
    """A crowd larger than one block of agents per thread, so that a step is
    computed in several blocks (between which Ctrl-C is checked)."""
    results = []
    for threads in (1, 2):
        vosim.set_num_threads(threads)
        results.append(fingerprint(method_name, 6, scenes=1, agents=12_000, steps=15))
    assert results[0] == results[1]


@pytest.mark.skipif(not threads_available, reason="built without threads")
@pytest.mark.parametrize("method_name", METHODS)
def test_bit_identical_for_one_and_several_threads_in_a_small_crowd(method_name):
    """A crowd too small to split by its agent count: costly methods still run on several threads,
    in chunks cut finer than usual (block_runner.hpp's plan_blocks), from the second step on."""
    results = []
    for threads in (1, 2, 3):
        vosim.set_num_threads(threads)
        results.append(fingerprint(method_name, 7, scenes=1, agents=60, steps=60))
    assert results[0] == results[1] == results[2]
