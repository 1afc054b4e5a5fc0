"""Command line: ``python -m vosim`` (also installed as ``vosim``)."""

from __future__ import annotations

import argparse
import sys

import numpy as np


def _demo(args: argparse.Namespace) -> int:
    from . import scenarios

    scenario = scenarios.circle(args.agents)
    sim = scenario.build()
    print(f"vosim demo: {scenario.name}, {scenario.num_agents} agents, ORCA, time step {sim.time_step} s")
    traj = sim.run(args.max_steps, until_arrived=True, progress=not args.quiet)
    arrived = int(sim.arrived.sum())
    clearance = float(traj.min_clearance().min())
    print(f"steps:             {traj.steps_run}")
    print(f"simulated time:    {sim.time:.2f} s")
    print(f"wall time:         {traj.wall_time:.3f} s")
    print(f"agents arrived:    {arrived} of {sim.num_agents}")
    print(f"minimum clearance: {clearance:.4f} (negative means overlap)")
    if args.out:
        from . import plot

        ax = plot.trajectories(traj, title=f"{scenario.name}: ORCA, {traj.steps_run} steps")
        ax.figure.savefig(args.out, dpi=args.dpi, bbox_inches="tight")
        print(f"plot written to {args.out}")
    return 0 if traj.all_arrived else 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="vosim", description="Multi-agent collision avoidance simulations.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    demo = commands.add_parser(
        "demo", help="run RVO2's Circle scenario with ORCA and plot the trajectories",
        description="Runs RVO2's Circle scenario (agents on a circle swap to the antipodes) with "
                    "ORCA until every agent has arrived, prints a summary and writes a plot.")
    demo.add_argument("--out", default="circle.png", help="where to write the plot (default: %(default)s)")
    demo.add_argument("--agents", type=int, default=250, help="number of agents (default: %(default)s)")
    demo.add_argument("--max-steps", type=int, default=10_000,
                      help="give up after this many steps (default: %(default)s)")
    demo.add_argument("--dpi", type=int, default=150, help="plot resolution (default: %(default)s)")
    demo.add_argument("--quiet", action="store_true", help="no progress bar")
    demo.set_defaults(handler=_demo)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except (ValueError, TypeError) as error:
        print(f"vosim: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\nvosim: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
