"""What global planning costs: building the planners and planning for many agents at once.

    python benchmarks/bench_navigation.py [--pillars 100] [--agents 1000 10000] [--threads K] [--json out.json]

A 200 m x 200 m hall holds ``--pillars`` square pillars (2 m, seeded random
spots); agents get random free starts and goals. For each planner (a
navigation mesh and a visibility roadmap, agent radius 0.3 m) the script
times building it and ``set_goals(ids, goals, plan=planner)`` for each
crowd size, on all threads and on one (the result is the same: the searches
are deterministic), and prints the time per agent.
"""

from __future__ import annotations

import argparse
import json
import platform
import time

import numpy as np

import vosim
from vosim.navigation import NavMesh, Roadmap


def hall(pillars: int, seed: int = 0) -> vosim.Simulator:
    rng = np.random.default_rng(seed)
    sim = vosim.Simulator()
    sim.add_boundary([[-100, -100], [100, -100], [100, 100], [-100, 100]])
    square = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], dtype=float)
    for centre in rng.uniform(-95, 95, (pillars, 2)):
        sim.add_obstacle(centre + square, strict=False)
    return sim


def free_points(sim: vosim.Simulator, count: int, rng) -> np.ndarray:
    found = np.zeros((0, 2))
    while len(found) < count:
        p = rng.uniform(-99, 99, (2 * count, 2))
        keep = ~sim._engine.blocked_points(p, 0) & (sim._engine.obstacle_distances(p, 0) > 0.5)
        found = np.vstack([found, p[keep]])
    return found[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pillars", type=int, default=100)
    parser.add_argument("--agents", type=int, nargs="+", default=[1_000, 10_000])
    parser.add_argument("--threads", type=int, help="threads to use (default: all)")
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args()
    if args.threads:
        vosim.set_num_threads(args.threads)
    threads = vosim.get_num_threads()
    rng = np.random.default_rng(1)
    rows = []
    print(f"{args.pillars} pillars; {threads} threads")
    print(f"{'planner':>8} {'build s':>8} {'agents':>8} {'plan s':>8} {'us/agent':>9} {'1 thread s':>11}")
    for name, build in (("navmesh", NavMesh.from_simulator), ("roadmap", Roadmap.from_simulator)):
        sim = hall(args.pillars)
        started = time.perf_counter()
        planner = build(sim, radius=0.3)
        built = time.perf_counter() - started
        for n in args.agents:
            sim = hall(args.pillars)
            ids = sim.add_agents(free_points(sim, n, rng), radius=0.3)
            goals = free_points(sim, n, rng)
            vosim.set_num_threads(threads)
            started = time.perf_counter()
            sim.set_goals(ids, goals, plan=planner)
            planned = time.perf_counter() - started
            vosim.set_num_threads(1)
            started = time.perf_counter()
            sim.set_goals(ids, goals, plan=planner)
            one = time.perf_counter() - started
            vosim.set_num_threads(threads)
            rows.append(dict(planner=name, build_s=built, agents=n, plan_s=planned, plan_1_thread_s=one))
            print(f"{name:>8} {built:8.3f} {n:8d} {planned:8.3f} {1e6 * planned / n:9.1f} {one:11.3f}", flush=True)
    if args.json:
        with open(args.json, "w") as out:
            json.dump({"machine": platform.platform(), "processor": platform.processor(), "rows": rows}, out, indent=1)


if __name__ == "__main__":
    main()
