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
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_orca import add_timing_arguments, machine, median_step_seconds, size_table  # noqa: E402
from grid_crowd import (MAX_NEIGHBORS, MAX_SPEED, NEIGHBOR_DIST, RADIUS, TIME_HORIZON, TIME_STEP,  # noqa: E402
                        grid_crowd, preferred_velocities, vosim_simulator)


class Rvo2_3dCrowd:
    """The same crowd in RVO2-3D (jt-pyrvo23d); preferred velocities are set from Python before each step."""

    def __init__(self, n: int, seed: int = 0):
        import rvo23d

        self.start, self.goals = grid_crowd(n, seed, dimensions=3)
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
    sim = vosim_simulator(n, dimensions=3)
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

    print(f"3D grid crowd, ORCA-3D; {machine()}")
    compare = not args.no_rvo2_3d and rvo2_3d_installed()
    peer = (lambda n: bench_rvo2_3d(n, args.steps, args.warmup)) if compare else None
    size_table(args, lambda n, threads: bench_vosim(n, threads, args.steps, args.warmup), peer,
               peer_label="RVO2-3D", peer_name="RVO2-3D", peer_key="rvo2_3d")


if __name__ == "__main__":
    main()
