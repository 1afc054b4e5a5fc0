"""Acceleration limits measured: ORCA with the limit inside its linear
programs, ORCA with the limit clamped afterwards, ORCA without a limit, and
AVO; collisions, overlap depth, arrival and smoothness.

    python benchmarks/acceleration_limits.py [--seeds 4] [--accel 1.0]

Scenes (vosim.scenarios): crossing (two groups of 16 pedestrians at right
angles), circle (24 of RVO2's Circle agents on a circle of radius 20 m
swapping to the antipodes; every method with deadlock="sidestep", without
which the exact circle jams) and bottleneck (40 pedestrians
through a 1.2 m door). Every agent gets
max_acceleration = --accel m/s^2 (AVO: acceleration_interval 0.5 s). Each
row runs --seeds seeds as the scenes of one Batch, up to the scenario's
max_steps. Columns, over all seeds:

- collisions: agent-states overlapping another agent (and distinct pairs);
- max overlap: deepest r_i + r_j - dist;
- arrived: share of the agents at their goals at the end;
- max |dv|/dt: the largest realised acceleration (m/s^2);
- sum |dv|: total velocity change per agent (m/s), smoothness.
"""

from __future__ import annotations

import argparse
import functools

import numpy as np

import vosim
from vosim import scenarios


def variants(accel: float, options: dict) -> dict:
    nudge = dict(options)
    return {
        "ORCA, limit in the linear program": (vosim.ORCA(acceleration="constraint", **nudge), accel),
        "ORCA, limit clamped afterwards": (vosim.ORCA(acceleration="clamp", **nudge), accel),
        "ORCA, no limit": (vosim.ORCA(**nudge), np.inf),
        "AVO": (vosim.AVO(**nudge), accel),
    }


# Scene -> (factory taking seed=, options of every method: the exact circle
# jams every one of them without deadlock resolution).
SCENES = {
    "crossing": (functools.partial(scenarios.crossing, 16), {}),
    "circle": (functools.partial(scenarios.circle, 24, 20.0), {"deadlock": "sidestep"}),
    "bottleneck": (functools.partial(scenarios.bottleneck, 40), {}),
}


def run(factory, method, accel: float, seeds: int) -> dict:
    scenes = [factory(seed=seed) for seed in range(seeds)]
    for scene in scenes:
        scene.agent_params["max_acceleration"] = accel
        scene.agent_params["acceleration_interval"] = 0.5
    batch = scenarios.build_batch(scenes, method=method)
    dt = batch.time_step
    steps = max(s.max_steps for s in scenes)
    traj = batch.run(steps, until_arrived=True, record_every=1)
    m = traj.metrics
    v = traj.velocities  # (frames, B, N, 2 or 3)
    dv = np.linalg.norm(np.diff(v, axis=0), axis=-1)
    return {
        "collisions": int(np.sum(m["collision_agent_steps"])),
        "pairs": int(np.sum(m["collision_pairs"])),
        "max overlap": float(np.max(m["max_penetration"])),
        "arrived": float(np.mean(m["arrival_rate"])),
        "max accel": float(dv.max() / dt),
        "sum dv": float(np.sum(m["sum_abs_dv"]) / (seeds * batch.positions.shape[1])),
        "steps": len(traj) - 1,
        "obstacle steps": int(np.sum(m["obstacle_agent_steps"])),
        # Seconds in the method per agent-step (its phase time is averaged over threads).
        "cost": float(np.max(m["time_velocities"])) / ((len(traj) - 1) * seeds * batch.positions.shape[1]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--accel", type=float, default=1.0)
    args = parser.parse_args()
    print("| scene | method | collisions (pairs) | max overlap | arrived | max \\|dv\\|/dt | sum \\|dv\\| per agent |")
    print("|---|---|---|---|---|---|---|")
    for scene, (factory, options) in SCENES.items():
        for label, (method, accel) in variants(args.accel, options).items():
            r = run(factory, method, accel, args.seeds)
            print(f"| {scene} | {label} | {r['collisions']} ({r['pairs']}) | {r['max overlap']:.3f} m | "
                  f"{r['arrived']:.1%} | {r['max accel']:.2f} | {r['sum dv']:.2f} m/s |", flush=True)


if __name__ == "__main__":
    main()
