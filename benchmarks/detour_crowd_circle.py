"""200 agents swapping sides of a 30 m circle with AdaptiveSampling: the bare sampler against DetourCrowd's crowd
update (acceleration limit and collision handling), and with more collision rounds.

Prints the deepest overlap, the overlapping agent-steps and the arrivals; with --plot FILE draws the crowd at the
moment of its deepest overlap and the minimum clearance over time (needs matplotlib).

    python benchmarks/detour_crowd_circle.py --plot docs/detour_crowd_circle.png
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np

import vosim

N, RADIUS, AGENT_RADIUS, TIME_STEP, STEPS = 200, 15.0, 0.25, 0.1, 1000
VARIANTS = {
    "bare sampler\n(resolve_collisions=False, max_acceleration=1e15)":
        dict(resolve_collisions=False, max_acceleration=1e15),
    "DetourCrowd's update (defaults)": {},
    "collision_rounds=30": dict(collision_rounds=30),
}


def run(settings: dict) -> vosim.Trajectory:
    angles = 2.0 * np.pi * np.arange(N) / N
    start = RADIUS * np.c_[np.cos(angles), np.sin(angles)]
    sim = vosim.Simulator(time_step=TIME_STEP, method=vosim.AdaptiveSampling(**settings))
    sim.add_agents(start, goals=-start, radius=AGENT_RADIUS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", vosim.OverlapWarning)
        return sim.run(STEPS, until_arrived=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plot", help="write the figure here")
    args = parser.parse_args()
    runs = {label: run(settings) for label, settings in VARIANTS.items()}
    for label, traj in runs.items():
        m = traj.metrics
        print(f"{label.splitlines()[0]:32s} min clearance {float(m['min_clearance']):+.3f} m "
              f"({-float(m['min_clearance']) / AGENT_RADIUS:.0%} of the radius), "
              f"{int(m['collision_agent_steps'])} overlapping agent-steps, "
              f"{int(np.sum(traj.metrics['arrival_step'] >= 0))}/{N} arrived, makespan {float(m['makespan']):.1f} s")
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.collections import EllipseCollection

        fig, axes = plt.subplots(1, len(runs) + 1, figsize=(5 * (len(runs) + 1), 5))
        for ax, (label, traj) in zip(axes, runs.items()):
            series = np.asarray(traj.metrics["min_clearance_series"])
            worst = int(np.argmin(series))
            p = np.asarray(traj.positions)[worst]
            size = 2 * AGENT_RADIUS
            ax.add_collection(EllipseCollection(size, size, 0, units="x", offsets=p, offset_transform=ax.transData,
                                                facecolors="none", edgecolors="C0", linewidths=0.6))
            ax.set_xlim(-4, 4)
            ax.set_ylim(-4, 4)
            ax.set_aspect("equal")
            ax.set_title(f"{label}\nat {traj.times[worst]:.1f} s: min clearance {series[worst]:+.3f} m",
                         fontsize=9)
            axes[-1].plot(traj.times, series, label=label.splitlines()[0])
        axes[-1].axhline(-0.1 * AGENT_RADIUS, color="k", ls=":", lw=0.8, label="10 % of the radius")
        axes[-1].set_xlabel("time (s)")
        axes[-1].set_ylabel("min clearance (m, negative: overlap)")
        axes[-1].legend(fontsize=8)
        fig.suptitle(f"AdaptiveSampling, {N} agents (radius {AGENT_RADIUS} m) swapping sides of a "
                     f"{2 * RADIUS:g} m circle: the centre at the deepest overlap")
        fig.tight_layout()
        fig.savefig(args.plot, dpi=90)


if __name__ == "__main__":
    main()
