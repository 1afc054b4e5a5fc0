"""Cost of NH-ORCA: ORCA's step for differential drives, NH-ORCA against ORCA-DD.

    python benchmarks/bench_nh_orca.py [--sizes 2000] [--steps 20] [--threads 1]

For each size, the median wall time of one step (after --warmup steps) of
the grid crowd (bench_orca.py) with every agent a differential drive,
planned by ORCA-DD (``ORCA()``: effective centres, the realisable polygon)
and by NH-ORCA (``ORCA(nonholonomic="nh_orca")``: the robots' centres, the
32-direction polygon of trackable velocities), measured alternately in
--rounds rounds, and holonomic agents for scale. The ratio is NH-ORCA over
ORCA-DD.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_orca import median_step_seconds  # noqa: E402
from grid_crowd import vosim_simulator  # noqa: E402


def step_seconds(n: int, steps: int, warmup: int, kinematics: str, nonholonomic: str) -> float:
    import vosim

    sim = vosim_simulator(n, method=vosim.ORCA(nonholonomic=nonholonomic))
    sim.kinematics = kinematics  # wheel_track and the rest keep add_agents' derived defaults
    return median_step_seconds(sim.step, steps=steps, warmup=warmup)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[2000])
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()

    import vosim

    vosim.set_num_threads(args.threads)
    for n in args.sizes:
        times = {"holonomic": [], "ORCA-DD": [], "NH-ORCA": []}
        for _ in range(args.rounds):
            times["holonomic"].append(step_seconds(n, args.steps, args.warmup, "holonomic", "effective_center"))
            times["ORCA-DD"].append(step_seconds(n, args.steps, args.warmup, "differential_drive", "effective_center"))
            times["NH-ORCA"].append(step_seconds(n, args.steps, args.warmup, "differential_drive", "nh_orca"))
        h, dd, nh = (statistics.median(times[k]) for k in ("holonomic", "ORCA-DD", "NH-ORCA"))
        print(f"{n:>8} agents, {args.threads} thread(s): holonomic {h * 1e6 / n:.3f}, ORCA-DD {dd * 1e6 / n:.3f}, "
              f"NH-ORCA {nh * 1e6 / n:.3f} us/agent-step; NH-ORCA / ORCA-DD {nh / dd:.2f}")


if __name__ == "__main__":
    main()
