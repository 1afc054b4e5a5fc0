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
import os
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
    """The processor, Python and vosim of this process.

    Scripts that time other builds in child processes (bench_builds.py,
    bench_compare.py) need no vosim here: the line then says so.
    """
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    python = f"Python {platform.python_version()}"
    try:
        import vosim
    except ImportError:
        processors = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
        return f"{cpu}; {processors} processors available; {python}; no vosim in this process (each build runs its own)"
    return f"{cpu}; {vosim.get_num_threads()} threads available; {python}; vosim {vosim.__version__}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    add_timing_arguments(parser)
    args = parser.parse_args()

    import vosim

    print(f"grid crowd, ORCA; {machine()}")
    peer = (lambda n: bench_pyrvo(n, args.steps, args.warmup)) if pyrvo_wanted_and_installed(args) else None
    size_table(args, lambda n, threads: bench_vosim(n, threads, args.steps, args.warmup), peer,
               peer_label="pyrvo (RVO2)", peer_name="pyrvo", peer_key="pyrvo")


def size_table(args: argparse.Namespace, bench_one, bench_peer, *, peer_label: str, peer_name: str,
               peer_key: str) -> None:
    """For each of --sizes: vosim on 1 thread and on all, the peer (None: not compared) and the
    ratio, printed row by row and written to --json (keys named after ``peer_key``). ``bench_one(n, threads)`` and
    ``bench_peer(n)`` return the median seconds of a step."""
    import vosim

    all_threads = vosim.get_num_threads()
    ratio_label = f"1 thread / {peer_name}"
    header = (f"{'N':>9} | {'vosim 1 thread':>22} | {f'vosim {all_threads} threads':>22} | "
              f"{peer_label:>22} | {ratio_label:>{max(16, len(ratio_label))}}")
    print(header)
    print("-" * len(header), flush=True)
    width = max(16, len(ratio_label))
    rows = []
    for n in args.sizes:
        one = bench_one(n, 1)
        many = bench_one(n, all_threads)
        reference = bench_peer(n) if bench_peer else None
        vosim.set_num_threads(all_threads)
        cell = lambda s: f"{s * 1e3:8.2f} ms {n / s / 1e6:7.2f} M/s"  # noqa: E731
        ratio = f"{reference / one:{width - 1}.2f}x" if reference else f"{'n/a':>{width}}"
        print(f"{n:>9} | {cell(one)} | {cell(many)} | {cell(reference) if reference else 'n/a':>22} | {ratio}",
              flush=True)
        rows.append({"n": n, "vosim_1_thread_s": one, f"vosim_{all_threads}_threads_s": many,
                     f"{peer_key}_s": reference, "agent_steps_per_s_1_thread": n / one,
                     f"ratio_1_thread_vs_{peer_key}": (reference / one) if reference else None})
    if args.json:
        args.json.write_text(json.dumps({"machine": machine(), "rows": rows}, indent=1) + "\n")

if __name__ == "__main__":
    main()
