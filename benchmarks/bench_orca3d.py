"""ORCA-3D speed on a 3D grid crowd: vosim (1 thread, all threads) against RVO2-3D.

    pip install jt-pyrvo23d      # optional: RVO2-3D's Python wrapper, compared in the same run
    python benchmarks/bench_orca3d.py [--sizes 1000 10000 100000] [--json out.json]

The crowd: N agents on a cubic lattice of spacing 2 m (side ceil(N^(1/3))),
each jittered by up to 0.4 m on each axis, each heading 50 m in a random
direction (uniform on the sphere). Radius 0.5 m, max speed 1.5 m/s,
preferred speed 1 m/s, neighbour distance 3.5 m, 10 neighbours, time
horizon 2 s, time step 0.1 s. Seeded: both libraries get the same crowd.

For each size: the median wall time of one step over --steps steps after
--warmup steps, and agent-steps per second. vosim's time is the whole
``step()`` call (state checks, preferred velocities from goals, neighbour
search, ORCA-3D, integration); RVO2-3D's is its ``doStep`` alone (its
preferred velocities are set from Python between steps, not timed). The
ratio column is vosim on one thread over RVO2-3D (the wrapper's build of
RVO2-3D runs on one thread).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_orca import add_timing_arguments, machine, median_step_seconds  # noqa: E402

TIME_STEP = 0.1
NEIGHBOR_DIST = 3.5
MAX_NEIGHBORS = 10
TIME_HORIZON = 2.0
RADIUS = 0.5
MAX_SPEED = 1.5
PREF_SPEED = 1.0


def grid_crowd3d(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Start positions and goals, both ``(n, 3)``."""
    rng = np.random.default_rng(seed)
    side = math.ceil(round(n ** (1 / 3), 9))
    k = np.arange(n)
    start = 2.0 * np.column_stack([k % side, k // side % side, k // (side * side)]) + rng.uniform(-0.4, 0.4, (n, 3))
    heading = rng.normal(size=(n, 3))
    heading /= np.linalg.norm(heading, axis=1, keepdims=True)
    return start, start + 50.0 * heading


def preferred_velocities(positions: np.ndarray, goals: np.ndarray) -> np.ndarray:
    to_goal = goals - positions
    length = np.linalg.norm(to_goal, axis=1, keepdims=True)
    return np.where(length > PREF_SPEED, to_goal * (PREF_SPEED / np.maximum(length, 1e-300)), to_goal)


def vosim_simulator3d(n: int, seed: int = 0, method=None):
    import vosim

    start, goals = grid_crowd3d(n, seed)
    sim = vosim.Simulator(time_step=TIME_STEP, method=method, dimensions=3)
    sim.add_agents(start, goals=goals, pref_speed=PREF_SPEED, radius=RADIUS, max_speed=MAX_SPEED,
                   neighbor_dist=NEIGHBOR_DIST, max_neighbors=MAX_NEIGHBORS, time_horizon=TIME_HORIZON)
    return sim


class Rvo2_3dCrowd:
    """The same crowd in RVO2-3D (jt-pyrvo23d); preferred velocities are set from Python before each step."""

    def __init__(self, n: int, seed: int = 0):
        import rvo23d

        self.start, self.goals = grid_crowd3d(n, seed)
        # timeStep, neighborDist, maxNeighbors, timeHorizon, radius, maxSpeed (the agent defaults)
        self.sim = rvo23d.PyRVOSimulator(TIME_STEP, NEIGHBOR_DIST, MAX_NEIGHBORS, TIME_HORIZON, RADIUS, MAX_SPEED)
        for p in self.start:
            self.sim.addAgent((float(p[0]), float(p[1]), float(p[2])))
        self.n = n

    def set_preferred_velocities(self) -> None:
        positions = np.array([self.sim.getAgentPosition(i) for i in range(self.n)])
        for i, v in enumerate(preferred_velocities(positions, self.goals)):
            self.sim.setAgentPrefVelocity(i, (float(v[0]), float(v[1]), float(v[2])))

    def do_step(self) -> None:
        self.sim.doStep()


def bench_vosim(n: int, threads: int, steps: int, warmup: int) -> float:
    import vosim

    vosim.set_num_threads(threads)
    sim = vosim_simulator3d(n)
    return median_step_seconds(sim.step, steps=steps, warmup=warmup)


def bench_rvo2_3d(n: int, steps: int, warmup: int) -> float:
    crowd = Rvo2_3dCrowd(n)
    return median_step_seconds(crowd.do_step, crowd.set_preferred_velocities, steps=steps, warmup=warmup)


def rvo2_3d_installed() -> bool:
    try:
        import rvo23d  # noqa: F401
    except ImportError:
        print("jt-pyrvo23d is not installed (pip install jt-pyrvo23d): no RVO2-3D comparison in this run")
        return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    add_timing_arguments(parser, pyrvo=False)
    parser.add_argument("--no-rvo2-3d", action="store_true", help="skip the RVO2-3D comparison")
    args = parser.parse_args()

    import vosim

    all_threads = vosim.get_num_threads()
    print(f"3D grid crowd, ORCA-3D; {machine()}")
    have_peer = not args.no_rvo2_3d and rvo2_3d_installed()
    header = (f"{'N':>9} | {'vosim 1 thread':>22} | {f'vosim {all_threads} threads':>22} | "
              f"{'RVO2-3D':>22} | {'1 thread / RVO2-3D':>18}")
    print(header)
    print("-" * len(header), flush=True)
    rows = []
    for n in args.sizes:
        one = bench_vosim(n, 1, args.steps, args.warmup)
        many = bench_vosim(n, all_threads, args.steps, args.warmup)
        reference = bench_rvo2_3d(n, args.steps, args.warmup) if have_peer else None
        vosim.set_num_threads(all_threads)
        cell = lambda s: f"{s * 1e3:8.2f} ms {n / s / 1e6:7.2f} M/s"  # noqa: E731
        ratio = f"{reference / one:17.2f}x" if reference else f"{'n/a':>18}"
        print(f"{n:>9} | {cell(one)} | {cell(many)} | {cell(reference) if reference else 'n/a':>22} | {ratio}",
              flush=True)
        rows.append({"n": n, "vosim_1_thread_s": one, f"vosim_{all_threads}_threads_s": many,
                     "rvo2_3d_s": reference, "agent_steps_per_s_1_thread": n / one,
                     "ratio_1_thread_vs_rvo2_3d": (reference / one) if reference else None})
    if args.json:
        args.json.write_text(json.dumps({"machine": machine(), "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
