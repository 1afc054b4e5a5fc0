"""How many steps RVO2 needs for its Circle and Blocks examples when the start is nudged.

Whole runs of these examples are chaotic: changing the start by a fraction
of float32's resolution changes the number of steps to completion by
hundreds. This script measures RVO2's own spread with the ``pyrvo`` package
(RVO2 2.0.3 inside), so that vosim's full-run tests compare against RVO2's
distribution rather than against the single number RVO2 prints for the
unperturbed start (Circle 3547, Blocks 3785).

    pip install pyrvo
    python benchmarks/rvo2_makespan.py circle250 --runs 40 --out tests/data/rvo2/circle250_makespan.json
    python benchmarks/rvo2_makespan.py blocks100 --runs 40 --out tests/data/rvo2/blocks100_makespan.json

Runs that do not finish within --max-steps (RVO2 deadlocks now and then in
Blocks) are counted as unfinished and left out of the statistics.
Run k (k = 1..runs) adds normal noise of standard deviation ``--scale`` to
every start coordinate (NumPy generator seeded with k); run 0 is the
unperturbed start. Preferred velocities follow each example's rule (see
../shared/reference/rvo2/README.md); Blocks adds its splitmix64 perturbation.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from rvo2_rules import ExampleRules  # noqa: E402


def makespan(pyrvo, rules: ExampleRules, start: np.ndarray, max_steps: int) -> int:
    sim = pyrvo.RVOSimulator()
    sim.set_time_step(rules.time_step)
    p = rules.params
    sim.set_agent_defaults(p["neighbor_dist"], p["max_neighbors"], p["time_horizon"], p["time_horizon_obst"],
                           p["radius"], p["max_speed"])
    for polygon in rules.obstacles:
        sim.add_obstacle([(float(x), float(y)) for x, y in polygon])
    if rules.obstacles:
        sim.process_obstacles()
    for q in start:
        sim.add_agent((float(q[0]), float(q[1])))
    n = len(start)
    pref_rule = rules.preferred_velocities()
    for step in range(1, max_steps + 1):
        positions = np.array([sim.get_agent_position(i).to_tuple() for i in range(n)])
        for i, v in enumerate(pref_rule(positions)):
            sim.set_agent_pref_velocity(i, (float(v[0]), float(v[1])))
        sim.do_step()
        positions = np.array([sim.get_agent_position(i).to_tuple() for i in range(n)])
        if rules.all_arrived(positions):
            return step
    return -1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenario", choices=["circle250", "blocks100"])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--scale", type=float, default=1e-4)
    parser.add_argument("--max-steps", type=int, default=10_000)
    parser.add_argument("--out", type=Path, help="write the summary as JSON here")
    args = parser.parse_args()
    try:
        import pyrvo
    except ImportError:
        sys.exit("pyrvo is not installed: pip install pyrvo")
    rules = ExampleRules.load(args.scenario)
    steps = []
    for k in range(args.runs + 1):
        noise = np.random.default_rng(k).normal(0.0, args.scale, rules.start.shape) if k else 0.0
        steps.append(makespan(pyrvo, rules, rules.start + noise, args.max_steps))
        print(f"run {k}: {steps[-1]} steps", flush=True)
    perturbed = np.array(steps[1:])
    finished = perturbed[perturbed > 0]
    summary = {
        "description": f"steps RVO2 (pyrvo) needs to complete {args.scenario} from perturbed starts",
        "command": f"python benchmarks/rvo2_makespan.py {args.scenario} --runs {args.runs} --scale {args.scale:g}",
        "unperturbed": steps[0],
        "perturbation_std": args.scale,
        "perturbed_runs": perturbed.tolist(),
        "unfinished": int(np.sum(perturbed < 0)),
        "max_steps": args.max_steps,
        # Statistics over the runs that finished within max_steps.
        "mean": float(finished.mean()),
        "std": float(finished.std()),
        "median": float(np.median(finished)),
        "min": int(finished.min()),
        "max": int(finished.max()),
    }
    print(json.dumps({k: v for k, v in summary.items() if k != "perturbed_runs"}, indent=1))
    if args.out:
        args.out.write_text(json.dumps(summary, indent=1) + "\n")


if __name__ == "__main__":
    main()
