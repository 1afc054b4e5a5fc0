"""Metrics when every agent overlaps every other: n agents on one point.

    python benchmarks/bench_metrics_one_spot.py [--sizes 10000 100000] [--dimensions 2]

Each size runs in a fresh process (so that its peak resident memory is its
own): ``run(3)`` of n radius-0.5 agents at the origin heading for (1, 1),
with metrics and without. Reported: wall seconds of each and the peak
resident memory of the run with metrics. Distinct overlapping pairs are
told apart only up to 16 per agent, so memory stays linear in n (it grew
with the square of n before, 23 GB at 100,000 agents).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import textwrap

PROBE = textwrap.dedent("""
    import json, resource, sys, time
    import numpy as np, vosim
    n, dims, metrics = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1"
    sim = vosim.Simulator(0.1, dimensions=dims)
    sim.add_agents(np.zeros((n, dims)), goals=np.ones((n, dims)), radius=0.5)
    started = time.perf_counter()
    sim.run(3, metrics=metrics)
    print(json.dumps(dict(seconds=time.perf_counter() - started,
                          peak_mib=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)))
""")


def probe(n: int, dims: int, metrics: bool) -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE, str(n), str(dims), "1" if metrics else "0"],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--dimensions", type=int, choices=(2, 3), default=2)
    args = parser.parse_args()
    print(f"{'agents':>8} {'with metrics (s)':>17} {'without (s)':>12} {'peak memory (MiB)':>18}")
    for n in args.sizes:
        with_metrics = probe(n, args.dimensions, True)
        without = probe(n, args.dimensions, False)
        print(f"{n:>8} {with_metrics['seconds']:>17.2f} {without['seconds']:>12.2f} {with_metrics['peak_mib']:>18.0f}")


if __name__ == "__main__":
    main()
