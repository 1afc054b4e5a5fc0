"""Whole runs of RVO2's Circle and Blocks examples.

The number of steps these examples need is chaotic. RVO2 itself needs
anything from about 2500 to 5200 steps for Circle and 3000 to 9800 for
Blocks (where 2 of 40 runs never finish) when its start is nudged by 1e-4
(data/rvo2/*_makespan.json, measured with benchmarks/rvo2_makespan.py), and
3547 and 3785 for the exact starts with its float32 arithmetic. A float64
implementation cannot reproduce one chaotic run; it must reproduce the
distribution. So these tests check that vosim completes the run from RVO2's
exact start within RVO2's observed range, and that vosim's mean over nudged
starts matches RVO2's mean.

vosim applies the examples' rules itself: goals with preferred speed 1,
arrival within the radius (Circle) or 20 m (Blocks), and for Blocks a
preferred-velocity perturbation of 1e-4 (vosim draws it from its own seeded
generator; the reference used another generator with the same law).
"""

import json

import numpy as np
import pytest

import vosim
from _reference import DATA, f32

MAX_STEPS = 10_000


def rvo2_example(name):
    meta = json.loads((DATA / "rvo2" / f"{name}.json").read_text())
    makespan = json.loads((DATA / "rvo2" / f"{name}_makespan.json").read_text())
    return meta, makespan


def whole_run(meta, start, seed=0) -> int:
    """Steps to completion, or -1 when not within MAX_STEPS."""
    blocks = bool(meta["obstacles"])
    p = meta["agent_params"]
    sim = vosim.Simulator(time_step=float(f32(meta["timeStep"])),
                          method=vosim.ORCA(perturbation=1e-4 if blocks else 0.0, seed=seed))
    for polygon in meta["obstacles"]:
        sim.add_obstacle(f32(polygon))
    radius = f32(p["radius"])
    sim.add_agents(start, goals=f32(meta["goals"]), pref_speed=1.0, radius=radius, max_speed=f32(p["maxSpeed"]),
                   neighbor_dist=f32(p["neighborDist"]), max_neighbors=p["maxNeighbors"],
                   time_horizon=f32(p["timeHorizon"]), time_horizon_obst=f32(p["timeHorizonObst"]),
                   arrival_radius=20.0 if blocks else radius)
    traj = sim.run(MAX_STEPS, until_arrived=True, record_every=MAX_STEPS)
    return traj.steps_run if traj.all_arrived else -1


def test_exact_start_completes_within_rvo2s_range():
    """Circle has no randomness: one run from RVO2's exact start. (Blocks'
    perturbation makes every run a draw, deadlocks included: see below.)"""
    meta, makespan = rvo2_example("circle250")
    steps = whole_run(meta, f32(meta["initial_positions"]))
    assert makespan["min"] <= steps <= makespan["max"], steps


@pytest.mark.slow
@pytest.mark.parametrize("name, runs", [("circle250", 16), ("blocks100", 32)])
def test_mean_over_nudged_starts_matches_rvo2(name, runs):
    meta, makespan = rvo2_example(name)
    start = f32(meta["initial_positions"])
    steps = np.array([
        whole_run(meta, start + np.random.default_rng(k).normal(0.0, makespan["perturbation_std"], start.shape), seed=k)
        for k in range(1, runs + 1)
    ])
    finished = steps[steps > 0]
    # RVO2 deadlocks in a few runs of Blocks (2 of 40); allow at most 20 %.
    assert len(finished) >= 0.8 * runs, steps
    # The two means agree within three standard errors of their difference.
    rvo2 = np.array(makespan["perturbed_runs"])
    rvo2 = rvo2[rvo2 > 0]
    error = np.sqrt(finished.var(ddof=1) / len(finished) + rvo2.var(ddof=1) / len(rvo2))
    assert abs(finished.mean() - rvo2.mean()) < 3.0 * error, (finished.mean(), rvo2.mean(), error, steps)
