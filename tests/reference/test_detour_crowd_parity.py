"""AdaptiveSampling and GridSampling against DetourCrowd's whole crowd update (dtCrowd::update).

The recordings (tests/data/detour_crowd, README there) hold every agent's
state after each update of dtCrowd on a flat navmesh: three scenes, each with
the library's adaptive sampler and with its grid sampler. DetourCrowd computes
in float32 and vosim in float64, and a crowd's trajectories part ways once one
near tie is broken differently, so the strict comparison is one step at a
time: vosim starts each step from the library's state (positions, velocities,
and the desired velocities the library steered by) and must land where the
library did. The pass mark is the velocity samplers' (test_detour_parity.py):
at least 99 % of the agent-steps within 1e-4, where the adaptive sampler's
steps with a zero desired velocity (which vosim defines differently) are
counted apart. Whole runs are compared too, more loosely.
"""

from __future__ import annotations

import numpy as np
import pytest

import vosim
from _detour_crowd import PATTERNS, SCENES, arrival_times, load, one_step, whole_run

TOLERANCE = 1e-4
PASS_SHARE = 0.99


def one_step_share(scene: str, pattern: str, **settings) -> float:
    """Share of the comparable agent-steps that vosim ends within TOLERANCE of DetourCrowd."""
    rec = load(scene, pattern)
    steps = len(rec.positions) - 1
    errors = np.array([np.linalg.norm(one_step(rec, pattern, k, **settings)[0] - rec.positions[k + 1], axis=1)
                       for k in range(steps)])
    comparable = np.ones_like(errors, dtype=bool)
    if pattern == "adaptive":
        comparable = ~np.all(rec.desired[1:] == 0.0, axis=2)
    return float(np.mean(errors[comparable] < TOLERANCE))


@pytest.mark.parametrize("pattern", list(PATTERNS))
@pytest.mark.parametrize("scene", SCENES)
def test_one_step_lands_where_detour_crowd_did(scene, pattern):
    assert one_step_share(scene, pattern) >= PASS_SHARE


@pytest.mark.parametrize("scene,pattern,settings", [
    ("circle", "adaptive", {"resolve_collisions": False}),
    ("crossing", "grid", {"resolve_collisions": False}),
    ("circle", "adaptive", {"max_acceleration": 1e15}),
    ("corridor", "grid", {"max_acceleration": 1e15}),
])
def test_without_the_crowd_update_the_steps_part_from_detour_crowd(scene, pattern, settings):
    """The recordings hold pushes and acceleration limits: the bare sampler misses the pass mark."""
    assert one_step_share(scene, pattern, **settings) < PASS_SHARE


@pytest.mark.parametrize("pattern", list(PATTERNS))
@pytest.mark.parametrize("scene", ["circle", "corridor"])
def test_whole_run_follows_detour_crowd(scene, pattern):
    """From the library's start to its targets: within a tenth of a metre on average. Arrivals (within one
    radius of the target) come later in vosim, by the goal approach: vosim slows within pref_speed * 1 s of the
    goal, DetourCrowd within two radii (README, DetourCrowd)."""
    rec = load(scene, pattern)
    positions = whole_run(rec, pattern)
    assert np.mean(np.linalg.norm(positions - rec.positions, axis=2)) < 0.1
    r, dt = rec.scene["radius"], rec.scene["time_step"]
    lag = arrival_times(positions, rec.targets, r, dt) - arrival_times(rec.positions, rec.targets, r, dt)
    lag = lag[np.isfinite(lag)]
    assert len(lag) >= len(rec.targets) - 3
    assert np.all((lag > -0.5) & (lag < 1.5))


def test_crowd_update_bounds_the_velocity_change():
    """Each step changes the velocity by at most max_acceleration * time_step (dtCrowd's integrate)."""
    sim = vosim.Simulator(time_step=0.1, method=vosim.AdaptiveSampling(max_acceleration=2.0))
    sim.add_agents([[0.0, 0.0]], goals=[[10.0, 0.0]], max_speed=1.5, pref_speed=1.5)
    traj = sim.run(10, metrics=False)
    change = np.linalg.norm(np.diff(np.asarray(traj.velocities)[:, 0], axis=0), axis=1)
    assert change.max() == pytest.approx(0.2) and np.all(change <= 0.2 + 1e-12)


def circle_crowd(method, n: int = 40, radius: float = 5.0) -> vosim.Trajectory:
    angles = 2.0 * np.pi * np.arange(n) / n
    start = radius * np.c_[np.cos(angles), np.sin(angles)]
    sim = vosim.Simulator(time_step=0.1, method=method)
    sim.add_agents(start, goals=-start, radius=0.25)
    return sim.run(250)


def test_collision_handling_thins_out_the_overlaps_of_a_circle():
    """40 agents swapping sides of a 10 m circle: the bare sampler overlaps ten times as often."""
    bare = circle_crowd(vosim.AdaptiveSampling(resolve_collisions=False, max_acceleration=1e15)).metrics
    crowd = circle_crowd(vosim.AdaptiveSampling()).metrics
    assert crowd["collision_agent_steps"] * 5 < bare["collision_agent_steps"]
    assert crowd["min_clearance"] > bare["min_clearance"] + 0.05
    assert crowd["arrival_rate"] == 1.0

