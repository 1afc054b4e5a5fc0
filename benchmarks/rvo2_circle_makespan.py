"""How many steps RVO2 needs for its Circle example when the start is nudged.

The Circle run is chaotic: changing the start by a fraction of float32's
resolution changes the number of steps to completion by hundreds. This script
measures RVO2's own spread with the ``pyrvo`` package (RVO2 2.0.3 inside), so
that vosim's full-run test compares against RVO2's distribution rather than
against the one number RVO2 prints for the unperturbed start (3547).

    pip install pyrvo
    python benchmarks/rvo2_circle_makespan.py --runs 40 --out tests/data/rvo2/circle250_makespan.json

Run k (k = 1..runs) adds normal noise of standard deviation ``--scale`` to
every start coordinate (NumPy generator seeded with k); run 0 is the
unperturbed start. Preferred velocities follow the example's rule.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]


def makespan(pyrvo, start: np.ndarray, goals: np.ndarray, max_steps: int) -> int:
    sim = pyrvo.RVOSimulator()
    sim.set_time_step(0.25)
    sim.set_agent_defaults(15.0, 10, 10.0, 10.0, 1.5, 2.0)
    for p in start:
        sim.add_agent((float(p[0]), float(p[1])))
    n = len(start)
    for step in range(1, max_steps + 1):
        positions = np.array([sim.get_agent_position(i).to_tuple() for i in range(n)])
        to_goal = goals - positions
        length = np.linalg.norm(to_goal, axis=1, keepdims=True)
        pref = np.where(length > 1.0, to_goal / np.maximum(length, 1e-300), to_goal)
        for i in range(n):
            sim.set_agent_pref_velocity(i, (float(pref[i, 0]), float(pref[i, 1])))
        sim.do_step()
        positions = np.array([sim.get_agent_position(i).to_tuple() for i in range(n)])
        if np.all(np.sum((positions - goals) ** 2, axis=1) <= 1.5**2):
            return step
    return -1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--scale", type=float, default=1e-4)
    parser.add_argument("--max-steps", type=int, default=10_000)
    parser.add_argument("--out", type=Path, help="write the summary as JSON here")
    args = parser.parse_args()
    try:
        import pyrvo
    except ImportError:
        sys.exit("pyrvo is not installed: pip install pyrvo")
    meta = json.loads((ROOT / "tests" / "data" / "rvo2" / "circle250.json").read_text())
    start = np.asarray(meta["initial_positions"], dtype=np.float32).astype(np.float64)
    goals = np.asarray(meta["goals"], dtype=np.float32).astype(np.float64)
    steps = []
    for k in range(args.runs + 1):
        noise = np.random.default_rng(k).normal(0.0, args.scale, start.shape) if k else 0.0
        steps.append(makespan(pyrvo, start + noise, goals, args.max_steps))
        print(f"run {k}: {steps[-1]} steps", flush=True)
    perturbed = np.array(steps[1:])
    summary = {
        "description": "steps RVO2 (pyrvo) needs to complete Circle 250 from perturbed starts",
        "command": f"python benchmarks/rvo2_circle_makespan.py --runs {args.runs} --scale {args.scale:g}",
        "unperturbed": steps[0],
        "perturbation_std": args.scale,
        "perturbed_runs": perturbed.tolist(),
        "mean": float(perturbed.mean()),
        "std": float(perturbed.std()),
        "median": float(np.median(perturbed)),
        "min": int(perturbed.min()),
        "max": int(perturbed.max()),
    }
    print(json.dumps({k: v for k, v in summary.items() if k != "perturbed_runs"}, indent=1))
    if args.out:
        args.out.write_text(json.dumps(summary, indent=1) + "\n")


if __name__ == "__main__":
    main()
