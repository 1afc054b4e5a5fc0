"""Acceleration limits measured in 3D: ORCA-3D with the limit inside its
linear programs (the reachable polyhedron), ORCA-3D with the limit clamped
afterwards, and ORCA-3D without a limit; collisions, overlap depth, arrival,
smoothness and cost. The 3D counterpart of acceleration_limits.py (same
columns, same measurement).

    python benchmarks/acceleration_limits3d.py [--seeds 4] [--accel 1.0]

Scenes (vosim.scenarios): sphere (RVO2-3D's example, 812 agents to their
antipodes; no seed to vary, so one run), layers_crossing (three altitudes of
two crossing groups of 16 drones) and swarm_gate (two swarms of 24 drones
through one window in a wall, in opposite directions). Every agent gets
max_acceleration = --accel m/s^2. Each row runs --seeds seeds as the scenes
of one Batch, up to the scenario's max_steps. Columns as in
acceleration_limits.py, plus:

- obstacle steps: agent-states overlapping an obstacle;
- cost: the velocity phase (ORCA-3D) in microseconds per agent-step, on the
  threads vosim uses.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import vosim  # noqa: E402
from vosim import scenarios  # noqa: E402

from acceleration_limits import run  # noqa: E402


def variants(accel: float) -> dict:
    return {
        "ORCA-3D, limit in the linear program": (vosim.ORCA(acceleration="constraint"), accel),
        "ORCA-3D, limit clamped afterwards": (vosim.ORCA(acceleration="clamp"), accel),
        "ORCA-3D, no limit": (vosim.ORCA(), np.inf),
    }


# Scene -> (factory taking seed=, whether seeds vary it).
SCENES = {
    "sphere": (lambda seed: scenarios.sphere(), False),
    "layers_crossing": (lambda seed: scenarios.layers_crossing(3, 16, seed=seed), True),
    "swarm_gate": (lambda seed: scenarios.swarm_gate(24, seed=seed), True),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--accel", type=float, default=1.0)
    parser.add_argument("--scenes", nargs="+", choices=list(SCENES), default=list(SCENES))
    args = parser.parse_args()
    print("| scene | method | collisions (pairs) | max overlap | obstacle steps | arrived | max \\|dv\\|/dt | "
          "sum \\|dv\\| per agent | cost (us/agent-step) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for scene in args.scenes:
        factory, seeded = SCENES[scene]
        seeds = args.seeds if seeded else 1
        for label, (method, accel) in variants(args.accel).items():
            r = run(factory, method, accel, seeds)
            print(f"| {scene} | {label} | {r['collisions']} ({r['pairs']}) | {r['max overlap']:.3f} m | "
                  f"{r['obstacle steps']} | {r['arrived']:.1%} | {r['max accel']:.2f} | {r['sum dv']:.2f} m/s | "
                  f"{r['cost'] * 1e6:.2f} |", flush=True)


if __name__ == "__main__":
    main()
