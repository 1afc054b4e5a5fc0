"""What scene features cost a step: the grid crowd with and without sinks, speed zones and a waiting area.

    python benchmarks/bench_scene_features.py [--sizes 10000] [--steps 40] [--rounds 5] [--threads 1]

For each size, the grid crowd (benchmarks/grid_crowd.py) runs ``--steps``
steps, recording only the last frame, in four set-ups built alike: no
feature; two sinks (an area and a line) that nobody reaches, so that every
agent is tested against them every step; three live speed zones over part
of the crowd; and a waiting area of 50 places that 50 agents join. The
rounds alternate the set-ups; the table gives each one's median and best
wall time and its median over the plain run's. A feature whose cost grows
shows here before anywhere else.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grid_crowd import vosim_simulator  # noqa: E402

import vosim  # noqa: E402


def _extent(sim) -> tuple[np.ndarray, np.ndarray]:
    positions = np.asarray(sim.positions)
    return positions.min(axis=0), positions.max(axis=0)


def plain(sim) -> None:
    return None


def sinks(sim) -> None:
    low, high = _extent(sim)
    far = high[0] + 1000.0
    sim.add_sink([[far, low[1]], [far + 10.0, low[1]], [far + 10.0, high[1]], [far, high[1]]])
    sim.add_sink([[far + 20.0, low[1]], [far + 20.0, high[1]]])


def speed_zones(sim) -> None:
    low, high = _extent(sim)
    width = (high[0] - low[0]) / 7.0
    for k in range(3):
        x0 = low[0] + (2 * k + 1) * width
        sim.add_speed_zone([[x0, low[1]], [x0 + width, low[1]], [x0 + width, high[1]], [x0, high[1]]], 0.8)


def waiting_area(sim) -> None:
    low, _ = _extent(sim)
    places = np.column_stack([np.repeat(np.arange(5), 10) * 1.0, np.tile(np.arange(10), 5) * 1.0]) + low - [10.0, 0.0]
    sim.add_waiting_area(places, agents=np.asarray(sim.ids)[:50])


SETUPS = {"no feature": plain, "two sinks nobody reaches": sinks, "three speed zones": speed_zones,
          "a waiting area of 50": waiting_area}


def timed(n: int, steps: int, setup) -> float:
    sim = vosim_simulator(n)
    setup(sim)
    sim.run(2, record_every=2, metrics=False)  # warm up: caches, thread pool
    started = time.perf_counter()
    sim.run(steps, record_every=steps, metrics=False)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000])
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    vosim.set_num_threads(args.threads)
    results = []
    print(f"threads {args.threads}, {args.steps} steps, {args.rounds} interleaved rounds")
    print("| agents | set-up | median (s) | best (s) | median / no feature |")
    print("|---|---|---|---|---|")
    for n in args.sizes:
        # A set-up this build lacks (an older one, run for comparison) is left out.
        setups = {name: setup for name, setup in SETUPS.items()
                  if setup is not waiting_area or hasattr(vosim.Simulator, "add_waiting_area")}
        times = {name: [] for name in setups}
        for _ in range(args.rounds):
            for name, setup in setups.items():
                times[name].append(timed(n, args.steps, setup))
        base = statistics.median(times["no feature"])
        for name, values in times.items():
            median = statistics.median(values)
            results.append({"agents": n, "setup": name, "median_s": median, "best_s": min(values),
                            "ratio": median / base})
            print(f"| {n} | {name} | {median:.4f} | {min(values):.4f} | {median / base:.2f} |")
    if args.json:
        machine = {"platform": platform.platform(), "processor": platform.processor(),
                   "python": platform.python_version(), "vosim": vosim.__version__}
        args.json.write_text(json.dumps({"machine": machine, "results": results}, indent=1))


if __name__ == "__main__":
    main()
