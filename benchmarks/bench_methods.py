"""Speed of every avoidance method on the grid crowd, and its cost relative to ORCA.

    python benchmarks/bench_methods.py [--sizes 1000 10000] [--methods ORCA VO ...] [--json out.json]

Every method of vosim with its default settings (``vosim.methods.METHODS``:
ORCA, VO, RVO and HRVO, DetourCrowd's adaptive and grid sampling, the
force-based baseline) steps the grid crowd (benchmarks/grid_crowd.py) on 1
thread and on all threads. For each: the median wall time of one ``step()``
over --steps steps after --warmup steps of a fresh simulator, as agent-steps
per second, and the cost relative to ORCA (its step time over ORCA's, at the
same size and thread count).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_orca import add_timing_arguments, bench_vosim, machine  # noqa: E402


def main() -> None:
    from vosim.methods import METHODS

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000])
    parser.add_argument("--methods", nargs="+", choices=list(METHODS), default=list(METHODS),
                        help="methods to time (default: all); ORCA is always timed, as the reference")
    add_timing_arguments(parser, pyrvo=False)
    args = parser.parse_args()

    import vosim

    all_threads = vosim.get_num_threads()
    description = machine()
    names = ["ORCA"] + [name for name in args.methods if name != "ORCA"]
    thread_counts = sorted({1, all_threads})
    print(f"grid crowd, every method with its defaults; {description}")
    cells = [f"{t} thread{'s' if t > 1 else ''}" for t in thread_counts]
    header = f"{'N':>7} | {'method':>16} | " + " | ".join(f"{c:>30}" for c in cells)
    print(header)
    print("-" * len(header), flush=True)
    rows = []
    for n in args.sizes:
        orca = {}
        for name in names:
            seconds = {}
            for threads in thread_counts:
                seconds[threads] = bench_vosim(n, threads, args.steps, args.warmup, method=METHODS[name]())
            vosim.set_num_threads(all_threads)
            if name == "ORCA":
                orca = seconds
            text = " | ".join(f"{s * 1e3:8.2f} ms {n / s / 1e6:6.3f} M/s {s / orca[t]:5.1f}x"
                              for t, s in seconds.items())
            print(f"{n:>7} | {name:>16} | {text}", flush=True)
            for threads, s in seconds.items():
                rows.append({"n": n, "method": name, "threads": threads, "step_s": s,
                             "agent_steps_per_s": n / s, "relative_to_orca": s / orca[threads]})
    if args.json:
        args.json.write_text(json.dumps({"machine": description, "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
