"""Cost of differential-drive agents: ORCA on the grid crowd, holonomic against differential drive.

    python benchmarks/bench_kinematics.py [--sizes 2000] [--steps 20] [--threads 1]
    python benchmarks/bench_kinematics.py --holonomic-only     # also runs on vosim without kinematics

For each size, the median wall time of one step (after --warmup steps) of
the same crowd with holonomic agents and with every agent a differential
drive (ORCA-DD: effective centres, the realisable polygon in ORCA's program,
arcs), measured alternately in --rounds rounds; the ratio is the second
over the first, per agent. --holonomic-only times the first alone and
prints one JSON line, for comparing two builds of vosim round by round.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_orca import median_step_seconds  # noqa: E402
from grid_crowd import vosim_simulator  # noqa: E402


def step_seconds(n: int, steps: int, warmup: int, kinematics: str | None) -> float:
    sim = vosim_simulator(n)
    if kinematics is not None:
        sim.kinematics = kinematics  # wheel_track and the rest keep add_agents' derived defaults
    return median_step_seconds(sim.step, steps=steps, warmup=warmup)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[2000])
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--holonomic-only", action="store_true")
    args = parser.parse_args()

    import vosim

    vosim.set_num_threads(args.threads)
    for n in args.sizes:
        if args.holonomic_only:
            seconds = step_seconds(n, args.steps, args.warmup, None)
            print(json.dumps({"n": n, "threads": args.threads, "holonomic_step_seconds": seconds}))
            continue
        holonomic, drive = [], []
        for _ in range(args.rounds):
            holonomic.append(step_seconds(n, args.steps, args.warmup, None))
            drive.append(step_seconds(n, args.steps, args.warmup, "differential_drive"))
        h, d = statistics.median(holonomic), statistics.median(drive)
        print(f"{n:>8} agents, {args.threads} thread(s): holonomic {h * 1e6 / n:.3f} us/agent-step, "
              f"differential drive {d * 1e6 / n:.3f} us/agent-step, ratio {d / h:.2f}")


if __name__ == "__main__":
    main()
