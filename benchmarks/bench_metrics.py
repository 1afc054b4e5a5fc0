"""What the metrics cost: run() with and without them, same crowd, same steps.

    python benchmarks/bench_metrics.py [--sizes 1000 10000 100000] [--steps 100] [--repeats 5] [--threads K]

For each size, the grid crowd (benchmarks/grid_crowd.py) runs ``--steps``
steps with ``run(metrics=True)`` and with ``run(metrics=False)``, recording
only the first and last frames; the median wall time of ``--repeats``
alternating runs of each is reported with the overhead in percent. Metrics
observe every state while the next step finds neighbours (overlaps,
clearance, obstacle penetrations) and every move at integration.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grid_crowd import vosim_simulator  # noqa: E402


def timed_run(n: int, steps: int, metrics: bool) -> float:
    sim = vosim_simulator(n)
    sim.run(5, metrics=False)  # warm up: caches, thread pool
    started = time.perf_counter()
    sim.run(steps, record_every=steps, metrics=metrics)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--threads", type=int, help="threads to use (default: all)")
    args = parser.parse_args()

    import vosim

    if args.threads:
        vosim.set_num_threads(args.threads)
    print(f"metrics overhead of run(), grid crowd, ORCA, {vosim.get_num_threads()} threads, "
          f"{args.steps} steps, median of {args.repeats}")
    print(f"{'N':>9} | {'with metrics':>14} | {'without':>14} | {'overhead':>9}")
    for n in args.sizes:
        on, off = [], []
        for _ in range(args.repeats):  # alternate, so that machine noise hits both alike
            on.append(timed_run(n, args.steps, True))
            off.append(timed_run(n, args.steps, False))
        with_metrics, without = statistics.median(on), statistics.median(off)
        print(f"{n:>9} | {with_metrics * 1e3:11.1f} ms | {without * 1e3:11.1f} ms | "
              f"{100 * (with_metrics / without - 1):8.1f}%")


if __name__ == "__main__":
    main()
