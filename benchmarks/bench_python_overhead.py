"""What Python adds to run(): its wall time against the engine's own step time.

    python benchmarks/bench_python_overhead.py [--n 1000] [--steps 1000] [--repeats 5] [--threads 1] [--json out.json]

The grid crowd (benchmarks/grid_crowd.py) of --n agents on --threads
threads runs ``run(steps, record_every=steps)`` (two frames recorded: the
least recording run() does) on a fresh simulator after 10 warm-up steps.
The engine times the phases of every step (neighbour index and queries, the
method, integration) and reports them in ``traj.metrics``; their sum is the
C++ step time. The overhead is the run's wall time over that sum, minus 1:
everything else, from the Python call, its argument checks and the
Trajectory it returns to the per-step work outside the phases (checking the
state, preferred velocities from goals, recording, metrics bookkeeping).
Target: at most 5 %.

The phase timers come with the metrics, which also add work inside the
phases; for reference the table also gives the same run with
``metrics=False``, the same steps as ``--steps`` calls of ``step()``, and the
fixed cost of a call (``run(0, metrics=False)``). Every figure is the median
over --repeats fresh simulators (the variants alternate, so machine noise
hits them alike); the overhead is the median of the per-repeat ratios.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_orca import machine  # noqa: E402
from grid_crowd import vosim_simulator  # noqa: E402

TARGET_OVERHEAD = 0.05
WARMUP_STEPS = 10


def fresh(n: int):
    sim = vosim_simulator(n)
    sim.run(WARMUP_STEPS, metrics=False)
    return sim


def timed(call) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def one_repeat(n: int, steps: int) -> dict:
    sim = fresh(n)
    started = time.perf_counter()
    traj = sim.run(steps, record_every=max(steps, 1))
    with_metrics = time.perf_counter() - started
    m = traj.metrics
    phases = {name: float(m[f"time_{name}"]) for name in ("neighbors", "velocities", "integration")}

    sim = fresh(n)
    without_metrics = timed(lambda: sim.run(steps, record_every=max(steps, 1), metrics=False))

    sim = fresh(n)

    def step_loop():
        for _ in range(steps):
            sim.step()

    step_calls = timed(step_loop)
    fixed = statistics.median(timed(lambda: sim.run(0, metrics=False)) for _ in range(20))
    return {"run_s": with_metrics, "phases_s": sum(phases.values()), **{f"{k}_s": v for k, v in phases.items()},
            "run_no_metrics_s": without_metrics, "step_calls_s": step_calls, "run0_s": fixed,
            "overhead": with_metrics / sum(phases.values()) - 1}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=1_000)
    parser.add_argument("--steps", type=int, default=1_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1, help="threads to use (default 1)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()

    import vosim

    description = machine()
    vosim.set_num_threads(args.threads)
    print(f"run({args.steps}) against the engine's phase times, grid crowd N = {args.n:,}, ORCA, "
          f"{vosim.get_num_threads()} thread(s), median of {args.repeats}; {description}")
    repeats = [one_repeat(args.n, args.steps) for _ in range(args.repeats)]
    med = {key: statistics.median(r[key] for r in repeats) for key in repeats[0]}
    phases = med["phases_s"]

    def line(label: str, seconds: float, relative: bool = True) -> None:
        versus = f"{100 * (seconds / phases - 1):+8.1f}%" if relative else f"{'':>9}"
        print(f"{label:<52} | {seconds * 1e3:9.1f} ms | {seconds / max(args.steps, 1) * 1e6:8.1f} us | {versus}")

    header = f"{'':<52} | {'total':>12} | {'per step':>11} | {'vs phases':>9}"
    print(header)
    print("-" * len(header))
    line("C++ phases: neighbours", med["neighbors_s"], False)
    line("C++ phases: method", med["velocities_s"], False)
    line("C++ phases: integration", med["integration_s"], False)
    line("C++ step time (sum of the phases)", phases, False)
    line(f"run({args.steps}, record_every={args.steps})", med["run_s"])
    line(f"run({args.steps}, record_every={args.steps}, metrics=False)", med["run_no_metrics_s"])
    line(f"{args.steps} x step()", med["step_calls_s"])
    print(f"{'fixed cost of a call, run(0, metrics=False)':<52} | {med['run0_s'] * 1e6:9.1f} us")
    overhead = med["overhead"]
    print(f"overhead of run() over the C++ step time: {100 * overhead:.1f}% (target <= {100 * TARGET_OVERHEAD:.0f}%: "
          f"{overhead / TARGET_OVERHEAD:.2f}x the target)")
    if args.json:
        args.json.write_text(json.dumps({"machine": description, "n": args.n, "steps": args.steps,
                                         "threads": args.threads, "median": med, "repeats": repeats,
                                         "target_overhead": TARGET_OVERHEAD}, indent=1) + "\n")


if __name__ == "__main__":
    main()
