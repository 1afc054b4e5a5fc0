"""run() warns once of deep overlaps under methods without a collision guarantee; summaries say when stalled
agents arrived afterwards."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import vosim


def circle(method, n: int = 40, radius: float = 5.0) -> vosim.Simulator:
    angles = 2.0 * np.pi * np.arange(n) / n
    start = radius * np.c_[np.cos(angles), np.sin(angles)]
    sim = vosim.Simulator(time_step=0.1, method=method)
    sim.add_agents(start, goals=-start, radius=0.25)
    return sim


def overlap_warnings(sim: vosim.Simulator, steps: int) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sim.run(steps)
    return [str(w.message) for w in caught if issubclass(w.category, vosim.OverlapWarning)]


def test_bare_sampler_warns_once_naming_the_method_and_the_option():
    sim = circle(vosim.AdaptiveSampling(resolve_collisions=False))
    first = overlap_warnings(sim, 150)
    assert len(first) == 1
    assert "AdaptiveSampling" in first[0] and "resolve_collisions=True" in first[0]
    assert overlap_warnings(sim, 50) == []  # once per simulator


def test_grid_sampling_with_collision_handling_names_its_rounds():
    sim = circle(vosim.GridSampling(), n=200, radius=15.0)
    messages = overlap_warnings(sim, 400)
    assert len(messages) == 1 and "GridSampling" in messages[0] and "collision_rounds" in messages[0]


def test_orca_does_not_warn():
    assert overlap_warnings(circle(vosim.ORCA()), 150) == []


def test_no_warning_without_deep_overlaps():
    sim = vosim.Simulator(time_step=0.1, method=vosim.AdaptiveSampling(resolve_collisions=False))
    sim.add_agents([[0.0, 0.0], [0.0, 3.0]], goals=[[5.0, 0.0], [5.0, 3.0]])
    assert overlap_warnings(sim, 50) == []


def test_summary_says_that_stalled_agents_arrived_afterwards():
    sim = circle(vosim.AdaptiveSampling(resolve_collisions=False, max_acceleration=1e15), n=200, radius=15.0)
    with pytest.warns(vosim.OverlapWarning):
        traj = sim.run(900)
    m = traj.metrics
    assert m["stalled_agents"] > 0 and traj.all_arrived  # the contradiction to be explained
    line = next(line for line in traj.summary().splitlines() if "stalled agents" in line)
    assert f"{int(m['stalled_agents'])} of them arrived afterwards (stalled first, then arrived)" in line
