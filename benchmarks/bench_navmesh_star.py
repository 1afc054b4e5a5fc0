"""A navigation mesh around one large star polygon (many narrow spikes).

    python benchmarks/bench_navmesh_star.py [--sizes 5000 10000 20000 50000] [--timeout 300]

Each size runs in a fresh process: a star of n vertices (random radii
between 25 and 50 m, as in tests/engine/test_large_maps.py) added as an obstacle,
then one agent of radius 0.3 m sent across it with
``set_goals(plan="navmesh")``. Reported: seconds for ``add_obstacle`` (its
checks) and for ``set_goals`` (inflating the star, meshing, planning), and
how much of the latter went to shapely's buffer (the inflation), and the
inflation's path: "exact", or "filled" with the extra margin it may keep
(notches filled first, see ``NavMesh.from_simulator``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import textwrap

PROBE = textwrap.dedent("""
    import json, sys, time
    import numpy as np, shapely, vosim
    n = int(sys.argv[1])
    rng = np.random.default_rng(7)
    angles = np.sort(rng.choice(np.linspace(0, 2 * np.pi, 8 * n, endpoint=False), n, replace=False))
    star = 50.0 * rng.uniform(0.5, 1.0, n)[:, None] * np.column_stack([np.cos(angles), np.sin(angles)])
    buffered = [0.0]
    plain_buffer = shapely.buffer
    def timed_buffer(*args, **kwargs):
        started = time.perf_counter()
        try:
            return plain_buffer(*args, **kwargs)
        finally:
            buffered[0] += time.perf_counter() - started
    shapely.buffer = timed_buffer  # Geometry.buffer calls shapely.buffer
    from vosim.navigation import _navmesh
    margins = []
    plain_inflatable = _navmesh.inflatable_polygon
    def noted_inflatable(*args, **kwargs):
        polygon, tolerance = plain_inflatable(*args, **kwargs)
        margins.append(tolerance)
        return polygon, tolerance
    _navmesh.inflatable_polygon = noted_inflatable
    sim = vosim.Simulator(0.1)
    started = time.perf_counter()
    sim.add_obstacle(star)
    added = time.perf_counter() - started
    sim.add_agents([[-70.0, -70.0]], radius=0.3)
    started = time.perf_counter()
    sim.set_goals([0], [[70.0, 70.0]], plan="navmesh")
    print(json.dumps(dict(add=added, plan=time.perf_counter() - started, buffer=buffered[0],
                          margin=max(margins, default=0.0))))
""")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[5_000, 10_000, 20_000, 50_000])
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per size")
    args = parser.parse_args()
    print(f"{'vertices':>9} {'add_obstacle (s)':>17} {'set_goals (s)':>14} {'of which buffer (s)':>20}  inflation")
    for n in args.sizes:
        try:
            done = subprocess.run([sys.executable, "-c", PROBE, str(n)], capture_output=True, text=True,
                                  check=True, timeout=args.timeout)
        except subprocess.TimeoutExpired:
            print(f"{n:>9} {'over ' + format(args.timeout, 'g') + ' s':>17}")
            continue
        row = json.loads(done.stdout)
        path = f"filled (+{row['margin']:g} m at most)" if row["margin"] else "exact"
        print(f"{n:>9} {row['add']:>17.2f} {row['plan']:>14.2f} {row['buffer']:>20.2f}  {path}", flush=True)


if __name__ == "__main__":
    main()
