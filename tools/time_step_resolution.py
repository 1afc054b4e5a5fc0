"""Measure which time step resolves a method: its door flow at each candidate step.

For each method named, runs ``vosim.validation.door_flow`` (60 persons leave a
10 x 10 m room through a 1 m door) with seeds 0 to N-1 at each step of
``validation.CANDIDATE_STEPS`` and prints the mean flow, its change against
the finest step, and the largest step within ``validation.RESOLVED_WITHIN``
(2 %) of it: the step ``validation.METHOD_TIME_STEPS`` should hold.

    python tools/time_step_resolution.py --methods sfm,csm --seeds 5
"""

import argparse
import time

import numpy as np

from vosim import validation
from vosim.methods import method_from_name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--methods", "--method", dest="method", default="sfm", help="comma-separated method names (default: sfm)")
    parser.add_argument("--seeds", type=int, default=5, help="seeds 0 to N-1 per step (default: 5)")
    parser.add_argument("--persons", type=int, default=60, help="persons in the room (default: 60)")
    args = parser.parse_args()
    for name in args.method.split(","):
        method = method_from_name(name.strip())
        flows = {}
        for step in validation.CANDIDATE_STEPS:
            began = time.perf_counter()
            runs = [validation.door_flow(method, time_step=step, persons=args.persons, seed=s)
                    for s in range(args.seeds)]
            finite = np.isfinite(runs)
            flows[step] = float(np.mean(np.asarray(runs)[finite]))
            jammed = f", {int((~finite).sum())} seeds jammed (fewer than 10 out, left out of the mean)" if not finite.all() else ""
            print(f"{method.name} dt {step:g} s: door flow {flows[step]:.3f} /s{jammed} "
                  f"(seeds: {', '.join(f'{f:.3f}' for f in runs)}; {time.perf_counter() - began:.0f} s)", flush=True)
        finest = flows[min(flows)]
        resolved = max(step for step, flow in flows.items()
                       if abs(flow - finest) <= validation.RESOLVED_WITHIN * finest)
        for step, flow in flows.items():
            print(f"  dt {step:g}: {flow:.3f} /s, {100 * (flow - finest) / finest:+.1f} % against dt {min(flows):g}")
        print(f"{method.name}: largest step within {100 * validation.RESOLVED_WITHIN:g} %: {resolved:g} s", flush=True)


if __name__ == "__main__":
    main()
