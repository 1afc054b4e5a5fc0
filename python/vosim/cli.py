"""Command line: ``python -m vosim`` (also installed as ``vosim``)."""

from __future__ import annotations

import argparse
import sys

import numpy as np


def _demo(args: argparse.Namespace) -> int:
    from . import scenarios

    scenario = scenarios.circle(args.agents) if args.scenario == "circle" else scenarios.blocks()
    sim = scenario.build()
    print(f"vosim demo: {scenario.name}, {scenario.num_agents} agents, {len(scenario.obstacles)} obstacles, "
          f"{sim.method.name}, time step {sim.time_step} s")
    max_steps = scenario.max_steps if args.max_steps is None else args.max_steps
    traj = sim.run(max_steps, until_arrived=True, progress=not args.quiet)
    arrived = int(sim.arrived.sum())
    clearance = float(traj.min_clearance().min())
    print(f"steps:             {traj.steps_run}")
    print(f"simulated time:    {sim.time:.2f} s")
    print(f"wall time:         {traj.wall_time:.3f} s")
    print(f"agents arrived:    {arrived} of {sim.num_agents}")
    print(f"minimum clearance: {clearance:+.4f} between agents (negative means overlap)")
    if traj.obstacles:
        print(f"                   {float(traj.min_obstacle_clearance().min()):+.2e} to obstacles")
    if args.out:
        from . import plot

        ax = plot.trajectories(traj, title=f"{scenario.name}: {sim.method.name}, {traj.steps_run} steps")
        ax.figure.savefig(args.out, dpi=args.dpi, bbox_inches="tight")
        print(f"plot written to {args.out}")
    return 0 if traj.all_arrived else 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="vosim", description="Multi-agent collision avoidance simulations.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    demo = commands.add_parser(
        "demo", help="run one of RVO2's example scenarios with ORCA and plot the trajectories",
        description="Runs one of RVO2's example scenarios with ORCA until every agent has arrived, "
                    "prints a summary (steps, times, arrivals, closest approach) and writes a plot. "
                    "circle: agents on a circle swap to the antipodes; blocks: four groups cross "
                    "between four square obstacles.")
    demo.add_argument("--scenario", choices=["circle", "blocks"], default="circle",
                      help="which scenario (default: %(default)s)")
    demo.add_argument("--out", default="circle.png", help="where to write the plot (default: %(default)s)")
    demo.add_argument("--agents", type=int, default=250,
                      help="number of agents of the circle scenario (default: %(default)s)")
    demo.add_argument("--max-steps", type=int, default=None,
                      help="give up after this many steps (default: the scenario's limit)")
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
