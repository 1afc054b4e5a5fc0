"""Wall time of one sweep on a Dask LocalCluster against the same sweep in a single process.

    python benchmarks/bench_sweep.py [--seeds 8] [--agents 24] [--workers N] [--json out.json]

The grid: ORCA, HRVO and ForceBased on ``crossing``, ``bottleneck`` and
``random_crowd`` (``--agents`` agents each, ``scenario_params``) for
``--seeds`` seeds: 9 cells, each one Batch of all seeds, run to arrival.

- single process: ``vosim.sweep(..., client=False)``, the cells one after
  another, each Batch on all of vosim's threads;
- LocalCluster: ``vosim.sweep(..., client="local")`` (one worker
  process per core, one thread each; ``--workers`` overrides), the cells in
  parallel. Its time includes starting and stopping the cluster, which is
  also reported alone (an empty cluster's start and stop).

Both tables are checked equal (apart from the wall-time columns).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_orca import machine  # noqa: E402


def run(agents: int, seeds: int, **where):
    import functools

    import vosim
    from vosim import scenarios

    sources = [functools.partial(scenarios.crossing, max(1, agents // 2)),
               functools.partial(scenarios.bottleneck, agents), functools.partial(scenarios.random_crowd, agents)]
    started = time.perf_counter()
    table = vosim.sweep([vosim.ORCA(), vosim.HRVO(), vosim.ForceBased()], sources, seeds=range(seeds), **where)
    return table, time.perf_counter() - started


def cluster_overhead(workers) -> float:
    from vosim._dask import client_for

    started = time.perf_counter()
    with client_for("local", workers=workers):
        pass
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--agents", type=int, default=24)
    parser.add_argument("--workers", type=int, default=None, help="LocalCluster workers (default: one per core)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()

    import vosim
    from vosim._dask import local_layout

    description = machine()
    workers, threads = local_layout(args.workers, None)
    print(f"3 methods x 3 scenarios x {args.seeds} seeds, {args.agents} agents; {description}")
    single, single_seconds = run(args.agents, args.seeds, client=False)
    print(f"{'single process':>34} | {single_seconds:8.2f} s ({vosim.get_num_threads()} threads)")
    cluster, cluster_seconds = run(args.agents, args.seeds, client="local", workers=args.workers)
    print(f"{f'LocalCluster ({workers} x {threads} thread)':>34} | {cluster_seconds:8.2f} s")
    overhead = cluster_overhead(args.workers)
    print(f"{'of which the cluster start/stop':>34} | {overhead:8.2f} s")
    timings = list(vosim.metrics.TIMES)  # wall times differ between runs
    same = single.drop(columns=timings).equals(cluster.drop(columns=timings))
    print(f"single process / LocalCluster: {single_seconds / cluster_seconds:.2f}x; tables equal: {same}")
    if not same:
        raise SystemExit("the two sweeps' tables differ")
    if args.json:
        args.json.write_text(json.dumps({"machine": description, "seeds": args.seeds, "agents": args.agents,
                                         "workers": workers, "seconds": {"single_process": single_seconds,
                                                                         "local_cluster": cluster_seconds,
                                                                         "cluster_start_stop": overhead}},
                                        indent=1) + "\n")


if __name__ == "__main__":
    main()
