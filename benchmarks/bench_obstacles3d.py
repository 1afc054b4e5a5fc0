"""Cost of a 3D obstacle query: the set's grid cull against a scan of every shape, in the same run.

    python benchmarks/bench_obstacles3d.py [--shapes 10 100 1000 5000] [--queries 100000] [--json out.json]

Half boxes, half spheres (0.5 to 2 m) scattered uniformly in a 100 m cube;
queries at uniform random points with range 3.5 m (what an agent of radius
0.5 m moving 1.5 m/s asks with a 2 s obstacle horizon). "grid" is the
engine's query (below 32 bounded shapes a set uses a plain list); "scan"
computes the closest point of every shape. Best of --repeats runs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_orca import machine  # noqa: E402


def field(count: int, seed: int = 0):
    import vosim

    rng = np.random.default_rng(seed)
    shapes = [vosim.Sphere(rng.uniform(0, 100, 3), rng.uniform(0.5, 2.0)) if k % 2 else
              vosim.Box(rng.uniform(0, 100, 3), rng.uniform(0.5, 2.0, 3)) for k in range(count)]
    return vosim.ObstacleSet3D(shapes)


def best_seconds(call, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shapes", type=int, nargs="+", default=[10, 100, 1_000, 5_000])
    parser.add_argument("--queries", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()

    print(f"3D obstacle queries, range 3.5 m; {machine()}")
    header = f"{'shapes':>7} | {'grid query':>12} | {'scan':>12} | {'scan / grid':>11}"
    print(header)
    print("-" * len(header), flush=True)
    points = np.random.default_rng(1).uniform(0, 100, (args.queries, 3))
    rows = []
    for count in args.shapes:
        obstacles = field(count)
        # penetrating() runs one query per point in C++; nearest() scans every shape.
        grid = best_seconds(lambda: obstacles.penetrating(points, 3.5), args.repeats) / args.queries
        few = points[: max(1, args.queries // max(1, count // 100 + 1))]
        scan = best_seconds(lambda: obstacles.nearest(few), args.repeats) / len(few)
        print(f"{count:>7} | {grid * 1e9:9.0f} ns | {scan * 1e9:9.0f} ns | {scan / grid:10.1f}x", flush=True)
        rows.append({"shapes": count, "grid_query_s": grid, "scan_s": scan})
    if args.json:
        args.json.write_text(json.dumps({"machine": machine(), "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
