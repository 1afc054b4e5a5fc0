"""Where a step's time goes and how it scales with threads (ORCA on the grid crowd).

    python benchmarks/bench_scaling.py [--sizes 1000 10000 100000] [--steps 20] [--rounds 3]
                                       [--threads 1 2 ...] [--json out.json]

For each size, from ``run(--steps)`` of a fresh grid crowd (benchmarks/grid_crowd.py)
after one warm-up step:

- per-phase time per agent-step on 1 thread (ns): the neighbour index and
  queries, the method, integration, and the rest of the step (state checks,
  goals, metrics' bookkeeping), from the phase times of a run with metrics;
- the serial fraction: the share of a one-thread step spent outside loops
  that run on several threads. It is measured on all threads, as the step's
  wall time less the wall time of its parallel loops (the engine counts it:
  ``vosim._core.parallel_loop_seconds``; the call of ``step()`` from Python
  counts as serial), over the one-thread step time. By Amdahl's law it
  bounds the speed-up on many cores (1 / f);
- the speed-up at each thread count (--threads; default 1 up to the cores
  this process may use): one-thread step time over that count's, from the
  median of --steps calls of ``step()`` (no metrics, nothing recorded).

Thread counts are interleaved within each of --rounds rounds and the median
is kept, so that load from elsewhere falls on all alike; the load average is
printed with each size.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_orca import machine  # noqa: E402
from grid_crowd import vosim_simulator  # noqa: E402


def fresh(n: int, threads: int):
    import vosim

    vosim.set_num_threads(threads)
    sim = vosim_simulator(n)
    sim.step()  # first step: grids and workspaces are made
    return sim


def phases(n: int, steps: int) -> dict:
    """Seconds per step of each phase on 1 thread, from a run's phase times (a run with metrics)."""
    sim = fresh(n, 1)
    trajectory = sim.run(steps)
    m = trajectory.metrics
    out = {"neighbours": float(m["time_neighbors"]) / steps, "method": float(m["time_velocities"]) / steps,
           "integration": float(m["time_integration"]) / steps}
    out["rest"] = max(0.0, trajectory.step_time / steps - sum(out.values()))
    return out


def steps_only(n: int, threads: int, steps: int) -> dict:
    """Median seconds of one ``step()`` and mean seconds per step in parallel loops."""
    import time

    from vosim import _core

    sim = fresh(n, threads)
    counted = hasattr(_core, "parallel_loop_seconds")
    loops_before = _core.parallel_loop_seconds() if counted else float("nan")
    times = []
    for _ in range(steps):
        started = time.perf_counter()
        sim.step()
        times.append(time.perf_counter() - started)
    loops = (_core.parallel_loop_seconds() - loops_before) if counted else float("nan")
    return {"step": statistics.median(times), "mean_step": sum(times) / steps, "parallel_loops": loops / steps}


def main() -> None:
    import vosim

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, nargs="+", default=list(range(1, cores + 1)))
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    counts = sorted(set(args.threads) | {1})
    most = counts[-1]
    default_threads = vosim.get_num_threads()

    print(f"grid crowd, ORCA, run({args.steps}); {cores} cores usable; vosim {vosim.__version__}")
    rows = []
    for n in args.sizes:
        runs: dict[int, list[dict]] = {t: [] for t in counts}
        phase_runs = []
        for r in range(args.rounds):
            phase_runs.append(phases(n, args.steps))
            for t in (counts if r % 2 == 0 else counts[::-1]):
                runs[t].append(steps_only(n, t, args.steps))
        vosim.set_num_threads(default_threads)
        step = {t: statistics.median(x["step"] for x in runs[t]) for t in counts}
        phase_ns = {name: 1e9 * statistics.median(x[name] for x in phase_runs) / n for name in phase_runs[0]}
        serial_seconds = statistics.median(x["mean_step"] - x["parallel_loops"] for x in runs[most])
        serial_fraction = serial_seconds / step[1] if most > 1 else float("nan")
        load = "/".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"\nN = {n} (load {load})")
        print("  per agent-step on 1 thread, with metrics: " +
              ", ".join(f"{k} {v:.0f} ns" for k, v in phase_ns.items()) + f"; total {sum(phase_ns.values()):.0f} ns")
        print(f"  serial fraction (outside parallel loops, on {most} threads, over the 1-thread step): "
              f"{100 * serial_fraction:.2f} % ({serial_seconds * 1e6:.0f} us per step)")
        print("  threads | step ms | M agent-steps/s | speed-up")
        for t in counts:
            print(f"  {t:>7} | {step[t] * 1e3:7.2f} | {n / step[t] / 1e6:15.2f} | {step[1] / step[t]:7.2f}x")
        rows.append({"n": n, "phase_ns_per_agent_1_thread": phase_ns, "serial_fraction": serial_fraction,
                     "serial_seconds": serial_seconds, "step_s": step, "load": os.getloadavg()})
    if args.json:
        args.json.write_text(json.dumps({"machine": machine(), "cores": cores, "steps": args.steps, "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
