"""ORCA speed on the grid crowd: vosim (1 thread, all threads) against pyrvo.

    pip install pyrvo            # optional: the RVO2 reference in the same run
    python benchmarks/bench_orca.py [--sizes 1000 10000 100000] [--json out.json]
    python benchmarks/bench_orca.py --sizes 10000 1000000     # a million agents: a few minutes

For each size: the median wall time of one step over --steps steps after
--warmup steps, and agent-steps per second. vosim's time is the whole
``step()`` call (state checks, preferred velocities from goals, neighbour
search, ORCA, integration); pyrvo's is its ``do_step`` alone (setting its
preferred velocities from Python is not timed). The ratio column is vosim
on one thread over pyrvo (RVO2 is single-threaded in pyrvo).

At a million agents most of the time goes to pyrvo: adding the agents one
call at a time, its steps (over 2 s each) and, between them, setting its
preferred velocities from Python (not timed). Rows are printed as they are
done.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grid_crowd import PyrvoCrowd, vosim_simulator  # noqa: E402


def median_step_seconds(step, prepare=None, steps=20, warmup=10) -> float:
    times = []
    for k in range(warmup + steps):
        if prepare is not None:
            prepare()
        started = time.perf_counter()
        step()
        elapsed = time.perf_counter() - started
        if k >= warmup:
            times.append(elapsed)
    return statistics.median(times)


def bench_vosim(n: int, threads: int, steps: int, warmup: int, method=None) -> float:
    import vosim

    vosim.set_num_threads(threads)
    sim = vosim_simulator(n, method=method)
    return median_step_seconds(sim.step, steps=steps, warmup=warmup)


def bench_pyrvo(n: int, steps: int, warmup: int) -> float | None:
    try:
        crowd = PyrvoCrowd(n)
    except ImportError:
        return None
    return median_step_seconds(crowd.do_step, crowd.set_preferred_velocities, steps=steps, warmup=warmup)


def add_timing_arguments(parser: argparse.ArgumentParser, steps: int = 20, pyrvo: bool = True) -> None:
    """--steps, --warmup, --no-pyrvo (when pyrvo is compared) and --json."""
    parser.add_argument("--steps", type=int, default=steps)
    parser.add_argument("--warmup", type=int, default=10)
    if pyrvo:
        parser.add_argument("--no-pyrvo", action="store_true", help="skip the pyrvo comparison")
    parser.add_argument("--json", type=Path, help="also write the results here")


def pyrvo_wanted_and_installed(args: argparse.Namespace) -> bool:
    """Whether to compare with pyrvo: not with --no-pyrvo, nor (said once) when it is missing."""
    if args.no_pyrvo:
        return False
    try:
        import pyrvo  # noqa: F401
    except ImportError:
        print("pyrvo is not installed (pip install pyrvo): no RVO2 comparison in this run")
        return False
    return True


def machine() -> str:
    import vosim

    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}; {vosim.get_num_threads()} threads available; Python {platform.python_version()}; vosim {vosim.__version__}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    add_timing_arguments(parser)
    args = parser.parse_args()

    import vosim

    all_threads = vosim.get_num_threads()
    print(f"grid crowd, ORCA; {machine()}")
    have_pyrvo = pyrvo_wanted_and_installed(args)
    header = (f"{'N':>9} | {'vosim 1 thread':>22} | {f'vosim {all_threads} threads':>22} | "
              f"{'pyrvo (RVO2)':>22} | {'1 thread / pyrvo':>16}")
    print(header)
    print("-" * len(header), flush=True)
    rows = []
    for n in args.sizes:
        one = bench_vosim(n, 1, args.steps, args.warmup)
        many = bench_vosim(n, all_threads, args.steps, args.warmup)
        reference = bench_pyrvo(n, args.steps, args.warmup) if have_pyrvo else None
        vosim.set_num_threads(all_threads)
        cell = lambda s: f"{s * 1e3:8.2f} ms {n / s / 1e6:7.2f} M/s"  # noqa: E731
        ratio = f"{reference / one:15.2f}x" if reference else f"{'n/a':>16}"
        print(f"{n:>9} | {cell(one)} | {cell(many)} | {cell(reference) if reference else 'n/a':>22} | {ratio}",
              flush=True)
        rows.append({"n": n, "vosim_1_thread_s": one, f"vosim_{all_threads}_threads_s": many,
                     "pyrvo_s": reference, "agent_steps_per_s_1_thread": n / one,
                     "ratio_1_thread_vs_pyrvo": (reference / one) if reference else None})
    if args.json:
        args.json.write_text(json.dumps({"machine": machine(), "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
