"""DetourCrowd's recorded crowds (tests/data/detour_crowd) and vosim set up as they were."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

import vosim

DATA = Path(__file__).parent / "data" / "detour_crowd"
SCENES = ["circle", "crossing", "corridor"]
PATTERNS = {"adaptive": vosim.AdaptiveSampling, "grid": vosim.GridSampling}
# The wall's thickness in vosim (any positive value: only its inner edges count).
WALL = 1.0


@dataclass
class Recording:
    scene: dict
    positions: np.ndarray      # (steps + 1, n, 2), step 0 the start
    velocities: np.ndarray     # (steps + 1, n, 2)
    desired: np.ndarray        # (steps + 1, n, 2): dvel of the update that led to the step (row 0: zeros)

    @property
    def targets(self) -> np.ndarray:
        return np.asarray(self.scene["targets"], dtype=float)


def load(scene: str, pattern: str) -> Recording:
    meta = json.loads((DATA / f"{scene}.json").read_text())
    table = np.loadtxt(DATA / f"{scene}_{pattern}.csv.gz", delimiter=",", skiprows=1)
    n = len(meta["targets"])
    rows = table.reshape(-1, n, table.shape[1])
    return Recording(meta, rows[:, :, 2:4], rows[:, :, 4:6], rows[:, :, 6:8])


def method(pattern: str, **settings) -> vosim.Method:
    return PATTERNS[pattern](**settings)


def simulator(rec: Recording, pattern: str, positions, *, velocities=None, pref_velocities=None,
              goals=None, **settings) -> vosim.Simulator:
    """A simulator with DetourCrowd's agents and walls. The navmesh border is DetourCrowd's wall; vosim's
    obstacles are not eroded by the radius, so its walls stand one radius beyond the border."""
    s = rec.scene
    settings = {"max_acceleration": s["max_acceleration"], **settings}
    sim = vosim.Simulator(time_step=s["time_step"], method=method(pattern, **settings))
    r = s["radius"]
    x0, x1, z0, z1 = s["navmesh"]
    x0, x1, z0, z1 = x0 - r, x1 + r, z0 - r, z1 + r
    for lo, hi in (((x0 - WALL, z0 - WALL), (x1 + WALL, z0)), ((x0 - WALL, z1), (x1 + WALL, z1 + WALL)),
                   ((x0 - WALL, z0), (x0, z1)), ((x1, z0), (x1 + WALL, z1))):
        sim.add_obstacle([[lo[0], lo[1]], [hi[0], lo[1]], [hi[0], hi[1]], [lo[0], hi[1]]])
    # DetourCrowd samples up to the desired speed, maxSpeed when heading for a target.
    sim.add_agents(positions, velocities=velocities, pref_velocities=pref_velocities, goals=goals, radius=r,
                   max_speed=s["max_speed"], pref_speed=s["max_speed"],
                   neighbor_dist=s["collision_query_range"], max_neighbors=s["max_neighbours"])
    return sim


def one_step(rec: Recording, pattern: str, k: int, **settings) -> tuple[np.ndarray, np.ndarray]:
    """vosim's positions and velocities after one step from DetourCrowd's state after update k, with the desired
    velocities DetourCrowd steered by in update k + 1."""
    sim = simulator(rec, pattern, rec.positions[k], velocities=rec.velocities[k],
                    pref_velocities=rec.desired[k + 1], **settings)
    sim.step()
    return np.array(sim.positions), np.array(sim.velocities)


def whole_run(rec: Recording, pattern: str, **settings) -> np.ndarray:
    """vosim's positions (steps + 1, n, 2) from DetourCrowd's start, heading for its targets."""
    sim = simulator(rec, pattern, rec.positions[0], goals=rec.targets, **settings)
    steps = len(rec.positions) - 1
    traj = sim.run(steps, metrics=False)
    return np.asarray(traj.positions)


def arrival_times(positions: np.ndarray, targets: np.ndarray, radius: float, dt: float) -> np.ndarray:
    """(n,) seconds until each agent first came within `radius` of its target (NaN: never)."""
    inside = np.linalg.norm(positions - targets[None], axis=2) < radius
    first = np.argmax(inside, axis=0).astype(float)
    first[~inside.any(axis=0)] = np.nan
    return first * dt
