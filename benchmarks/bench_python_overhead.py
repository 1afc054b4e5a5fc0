"""What Python adds to run(): its wall time against the engine's own step time.

    python benchmarks/bench_python_overhead.py [--n 1000] [--steps 1000] [--repeats 5] [--threads 1] [--json out.json]

The grid crowd (benchmarks/grid_crowd.py) of --n agents on --threads
threads runs ``run(steps, record_every=steps)`` (two frames recorded: the
least recording run() does) on a fresh simulator after 10 warm-up steps.
The engine measures the wall time spent inside its steps
(``traj.step_time``: the state check, preferred velocities, neighbour
search, the method, integration and the metrics' bookkeeping, all in C++).
The overhead is the run's wall time, measured around the Python call, over
that step time, minus 1: the Python call, its argument checks, allocating
the recording, the Trajectory it returns and anything per step outside the
steps. Target: at most 5 %.

For reference the table also gives the same run with ``metrics=False``,
the default ``run(steps)`` (a frame recorded after every step: copying the
state is then part of the run), the same steps as ``--steps`` calls of
``step()``, the engine's per-phase times, and the fixed cost of a call
(``run(0, metrics=False)``). Every figure is the median over --repeats
fresh simulators (the variants alternate, so machine noise hits them
alike); the overhead is the median of the per-repeat ratios.
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
    every = max(steps, 1)
    sim = fresh(n)
    started = time.perf_counter()
    traj = sim.run(steps, record_every=every)
    run_s = time.perf_counter() - started
    m = traj.metrics
    phases = {name: float(m[f"time_{name}"]) for name in ("neighbors", "velocities", "integration")}

    sim = fresh(n)
    started = time.perf_counter()
    plain = sim.run(steps, record_every=every, metrics=False)
    run_no_metrics_s = time.perf_counter() - started

    sim = fresh(n)
    started = time.perf_counter()
    recorded = sim.run(steps)
    run_recorded_s = time.perf_counter() - started

    sim = fresh(n)

    def step_loop():
        for _ in range(steps):
            sim.step()

    step_calls = timed(step_loop)
    fixed = statistics.median(timed(lambda: sim.run(0, metrics=False)) for _ in range(20))
    return {"run_s": run_s, "step_time_s": traj.step_time,
            "run_no_metrics_s": run_no_metrics_s, "step_time_no_metrics_s": plain.step_time,
            "run_recorded_s": run_recorded_s, "step_time_recorded_s": recorded.step_time,
            **{f"{k}_s": v for k, v in phases.items()}, "step_calls_s": step_calls, "run0_s": fixed,
            "overhead": run_s / traj.step_time - 1,
            "overhead_no_metrics": run_no_metrics_s / plain.step_time - 1,
            "overhead_recorded": run_recorded_s / recorded.step_time - 1}


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
    print(f"run({args.steps}) against the engine's step time, grid crowd N = {args.n:,}, ORCA, "
          f"{vosim.get_num_threads()} thread(s), median of {args.repeats}; {description}")
    repeats = [one_repeat(args.n, args.steps) for _ in range(args.repeats)]
    med = {key: statistics.median(r[key] for r in repeats) for key in repeats[0]}

    def line(label: str, seconds: float, engine: float | None = None, overhead: float | None = None) -> None:
        inside = f"{engine * 1e3:9.1f} ms" if engine is not None else f"{'':>12}"
        extra = f"{100 * overhead:+8.1f}%" if overhead is not None else f"{'':>9}"
        print(f"{label:<48} | {seconds * 1e3:9.1f} ms | {inside} | {extra}")

    header = f"{'':<48} | {'wall time':>12} | {'in steps':>12} | {'overhead':>9}"
    print(header)
    print("-" * len(header))
    every = max(args.steps, 1)
    line(f"run({args.steps}, record_every={every})", med["run_s"], med["step_time_s"], med["overhead"])
    line(f"run({args.steps}, record_every={every}, metrics=False)", med["run_no_metrics_s"],
         med["step_time_no_metrics_s"], med["overhead_no_metrics"])
    line(f"run({args.steps}) (records every step)", med["run_recorded_s"], med["step_time_recorded_s"],
         med["overhead_recorded"])
    line(f"{args.steps} x step()", med["step_calls_s"])
    line("phases of the first run: neighbours", med["neighbors_s"])
    line("phases of the first run: method", med["velocities_s"])
    line("phases of the first run: integration", med["integration_s"])
    print(f"{'fixed cost of a call, run(0, metrics=False)':<48} | {med['run0_s'] * 1e6:9.1f} us")
    overhead = med["overhead"]
    print(f"overhead of run() over the C++ step time: {100 * overhead:.1f}% (target <= {100 * TARGET_OVERHEAD:.0f}%: "
          f"{overhead / TARGET_OVERHEAD:.2f}x the target)")
    if args.json:
        args.json.write_text(json.dumps({"machine": description, "n": args.n, "steps": args.steps,
                                         "threads": args.threads, "median": med, "repeats": repeats,
                                         "target_overhead": TARGET_OVERHEAD}, indent=1) + "\n")


if __name__ == "__main__":
    main()
