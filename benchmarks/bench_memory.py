"""Memory per agent of the grid crowd with ORCA: vosim against pyrvo.

    python benchmarks/bench_memory.py [--n 1000000] [--steps 5] [--no-pyrvo] [--sink-and-assignments]
                                      [--json out.json]

Each library runs in a fresh Python process. That process imports the
library and NumPy and builds the crowd's start and goal arrays (the user's
input data, 32 bytes per agent, which both libraries are given) and only then
reads its resident memory: the baseline. It then builds the simulator, takes
``--steps`` steps and reads its peak resident memory (VmHWM, or ru_maxrss
where /proc is missing). What is counted is therefore everything the
simulator holds and needs while being built and stepped: its agent state,
neighbour index, per-thread workspaces, and for vosim the checked copies
``add_agents`` makes of its arguments while adding them. The table gives

- peak: (peak over building and stepping - baseline) / N, the figure the
  target is about (vosim: at most 250 bytes per agent);
- stepping: the peak while stepping alone (the high-water mark is reset after
  building where Linux allows it), over the same baseline;
- held: resident memory after the steps, over the baseline.

vosim's agents get their goals (the engine derives preferred velocities
from them); pyrvo's get their preferred velocities set once, one agent at a
time, before the first step (its state has no goals), so that no
harness-side array inflates its figures. Adding a million agents to pyrvo
one call at a time takes a while.

With ``--sink-and-assignments`` vosim's crowd also gets a sink that no agent
reaches within the steps, and ``priority`` and ``max_acceleration`` assigned
to every agent after ``add_agents`` (one value each): fields the engine
keeps as one value while every agent holds the same.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_orca import machine  # noqa: E402

TARGET_BYTES_PER_AGENT = 250.0


def memory() -> dict:
    """Resident and peak resident bytes of this process."""
    values = {}
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(rest.split()[0]) * 1024
    except OSError:
        pass
    if "VmHWM" not in values:  # no /proc: ru_maxrss is KiB on Linux, bytes on macOS
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        values["VmHWM"] = peak if sys.platform == "darwin" else peak * 1024
        values.setdefault("VmRSS", values["VmHWM"])
    return {"rss": values["VmRSS"], "peak": values["VmHWM"]}


def reset_peak() -> bool:
    """Reset the peak resident memory to the current one (Linux >= 4.0)."""
    try:
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return False
    return True


def child(library: str, n: int, steps: int, sink_and_assignments: bool = False) -> dict:
    """Measure one library in this (fresh) process."""
    import gc

    from grid_crowd import (MAX_NEIGHBORS, MAX_SPEED, NEIGHBOR_DIST, PREF_SPEED, RADIUS, TIME_HORIZON,
                            TIME_STEP, grid_crowd)

    if library == "vosim":
        import vosim
    else:
        import pyrvo
    start, goals = grid_crowd(n)
    gc.collect()
    reset_peak()
    baseline = memory()

    started = time.perf_counter()
    if library == "vosim":
        sim = vosim.Simulator(time_step=TIME_STEP)
        sim.add_agents(start, goals=goals, pref_speed=PREF_SPEED, radius=RADIUS, max_speed=MAX_SPEED,
                       neighbor_dist=NEIGHBOR_DIST, max_neighbors=MAX_NEIGHBORS, time_horizon=TIME_HORIZON,
                       time_horizon_obst=TIME_HORIZON)
        if sink_and_assignments:
            far = float(start.max()) + 1000.0
            sim.add_sink([[far, far], [far + 1.0, far], [far + 1.0, far + 1.0], [far, far + 1.0]])
            sim.priority = 2.0
            sim.max_acceleration = 5.0
        step = sim.step
    else:
        sim = pyrvo.RVOSimulator()
        sim.set_time_step(TIME_STEP)
        sim.set_agent_defaults(NEIGHBOR_DIST, MAX_NEIGHBORS, TIME_HORIZON, TIME_HORIZON, RADIUS, MAX_SPEED)
        # In chunks, so that no list of a million Python floats counts against RVO2.
        for lo in range(0, n, 10_000):
            hi = min(n, lo + 10_000)
            for x, y in start[lo:hi].tolist():
                sim.add_agent((x, y))
        for lo in range(0, n, 10_000):
            hi = min(n, lo + 10_000)
            for i, ((x, y), (gx, gy)) in enumerate(zip(start[lo:hi].tolist(), goals[lo:hi].tolist()), lo):
                dx, dy = gx - x, gy - y
                scale = min(1.0, PREF_SPEED / max((dx * dx + dy * dy) ** 0.5, 1e-300))
                sim.set_agent_pref_velocity(i, (dx * scale, dy * scale))
        step = sim.do_step
    built_seconds = time.perf_counter() - started
    gc.collect()
    built = memory()
    stepping_reset = reset_peak()

    started = time.perf_counter()
    for _ in range(steps):
        step()
    step_seconds = (time.perf_counter() - started) / max(steps, 1)
    gc.collect()
    after = memory()
    threads = None
    if library == "vosim":
        threads = vosim.get_num_threads()
    return {
        "library": library, "n": n, "steps": steps, "threads": threads,
        "baseline_rss": baseline["rss"], "built_rss": built["rss"], "build_peak": built["peak"],
        "final_rss": after["rss"], "step_peak": after["peak"], "step_peak_reset": stepping_reset,
        "build_seconds": built_seconds, "step_seconds": step_seconds,
    }


def measure(library: str, n: int, steps: int, sink_and_assignments: bool = False) -> dict:
    """Run ``child`` in a fresh interpreter and return its figures per agent."""
    extra = ["--sink-and-assignments"] if sink_and_assignments else []
    done = subprocess.run([sys.executable, __file__, "--child", library, "--n", str(n), "--steps", str(steps),
                           *extra], check=True, capture_output=True, text=True)
    raw = json.loads(done.stdout.strip().splitlines()[-1])
    base = raw["baseline_rss"]
    peak = max(raw["build_peak"], raw["step_peak"])
    raw["peak_bytes_per_agent"] = (peak - base) / n
    raw["stepping_bytes_per_agent"] = (raw["step_peak"] - base) / n if raw["step_peak_reset"] else None
    raw["held_bytes_per_agent"] = (raw["final_rss"] - base) / n
    return raw


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=1_000_000, help="agents (default 1,000,000)")
    parser.add_argument("--steps", type=int, default=5, help="steps after building (default 5)")
    parser.add_argument("--no-pyrvo", action="store_true", help="skip the pyrvo comparison")
    parser.add_argument("--sink-and-assignments", action="store_true",
                        help="vosim: add a sink nobody reaches and assign priority and max_acceleration to all")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--child", choices=["vosim", "pyrvo"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    extras = args.sink_and_assignments

    if args.child:
        print(json.dumps(child(args.child, args.n, args.steps, extras and args.child == "vosim")))
        return

    libraries = ["vosim"]
    if not args.no_pyrvo:
        try:
            import pyrvo  # noqa: F401
            libraries.append("pyrvo")
        except ImportError:
            print("pyrvo is not installed (pip install pyrvo): no RVO2 comparison in this run")
    what = " (vosim: a sink nobody reaches, priority and max_acceleration assigned)" if extras else ""
    print(f"grid crowd{what}, ORCA, N = {args.n:,}, {args.steps} steps, one fresh process per library; {machine()}")
    header = (f"{'library':>14} | {'peak B/agent':>12} | {'stepping B/agent':>16} | {'held B/agent':>12} | "
              f"{'build':>8} | {'step':>8}")
    print(header)
    print("-" * len(header), flush=True)
    rows = []
    for library in libraries:
        row = measure(library, args.n, args.steps, extras and library == "vosim")
        rows.append(row)
        name = library if row["threads"] is None else f"{library} ({row['threads']} thr)"
        stepping = row["stepping_bytes_per_agent"]
        print(f"{name:>14} | {row['peak_bytes_per_agent']:12.1f} | "
              f"{'n/a' if stepping is None else f'{stepping:.1f}':>16} | {row['held_bytes_per_agent']:12.1f} | "
              f"{row['build_seconds']:7.2f}s | {row['step_seconds']:7.3f}s", flush=True)
    vosim_peak = rows[0]["peak_bytes_per_agent"]
    print(f"vosim peak {vosim_peak:.1f} bytes/agent; target <= {TARGET_BYTES_PER_AGENT:.0f}: "
          f"{vosim_peak / TARGET_BYTES_PER_AGENT:.2f}x the target")
    if len(rows) > 1:
        print(f"pyrvo / vosim (peak): {rows[1]['peak_bytes_per_agent'] / vosim_peak:.2f}x")
    if args.json:
        args.json.write_text(json.dumps({"machine": machine(), "target_bytes_per_agent": TARGET_BYTES_PER_AGENT,
                                         "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
