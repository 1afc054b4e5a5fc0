"""The README's comparison end to end, two or more builds side by side, interleaved.

    python benchmarks/bench_compare.py --build before=../old/python --build after=python \\
        [--rounds 5] [--warm 3] [--json out.json]

Each ``--build LABEL=DIR`` names a directory that holds a ``vosim`` package
(as in benchmarks/bench_builds.py). Each round runs every build once, in
turn, each in a fresh process on the default thread count: it imports vosim,
then calls ``vosim.compare({"ORCA": ORCA(), "RVO": RVO()}, ["crossing"],
seeds=4)`` (the README's comparison; the first call imports pandas too), then
--warm more times. The table gives each build's end-to-end time (import and
first call; best and median over rounds), its best warm call, and the ratio
of the first build's times to each other's (> 1: faster than the first).

Before the rounds, each build runs once untimed: that run writes its
modules' bytecode (``__pycache__``) as installing with pip does, even where
``PYTHONDONTWRITEBYTECODE`` is set, so that no round times compiling
vosim's sources, which a user's installed copy never does.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_builds import parse_build  # noqa: E402
from bench_orca import machine  # noqa: E402

CHILD = r"""
import json, time
started = time.perf_counter()
import vosim
imported = time.perf_counter()
def call():
    return vosim.compare({{"ORCA": vosim.ORCA(), "RVO": vosim.RVO()}}, ["crossing"], seeds=4)
table = call()
first = time.perf_counter()
warm = []
for _ in range({warm}):
    began = time.perf_counter()
    call()
    warm.append(time.perf_counter() - began)
print(json.dumps({{"import": imported - started, "end_to_end": first - started, "warm": warm,
                  "rows": len(table), "threads": vosim.get_num_threads(), "version": vosim.__version__}}))
"""


def run_once(directory: Path, warm: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(directory))
    env.pop("OMP_NUM_THREADS", None)  # the default thread count, as a user gets it
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # bytecode kept, as an installed copy has it
    out = subprocess.run([sys.executable, "-c", CHILD.format(warm=warm)], env=env, check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", action="append", type=parse_build, required=True, metavar="LABEL=DIR")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--warm", type=int, default=3, help="calls after the first, in the same process")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    if len(args.build) < 2:
        parser.error("--build: give two or more builds to compare")
    if args.rounds < 1 or args.warm < 1:
        parser.error("--rounds and --warm must be at least 1")
    results = {label: [] for label, _ in args.build}
    print(f"machine: {machine()}; load {'/'.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    for _, directory in args.build:
        run_once(directory, 1)  # untimed: writes the build's bytecode
    for r in range(args.rounds):
        order = args.build if r % 2 == 0 else args.build[::-1]
        cells = []
        for label, directory in order:
            run = run_once(directory, args.warm)
            results[label].append(run)
            cells.append(f"{label}: {run['end_to_end'] * 1e3:.0f} ms end to end, "
                         f"{min(run['warm']) * 1e3:.0f} ms warm")
        print(f"round {r + 1}: " + "; ".join(cells), flush=True)
    first_label = args.build[0][0]

    def summary(label: str) -> tuple[float, float, float]:
        runs = results[label]
        ends = [run["end_to_end"] for run in runs]
        return min(ends), statistics.median(ends), min(min(run["warm"]) for run in runs)

    base = summary(first_label)
    print()
    header = (f"| build | end to end, best (ms) | median (ms) | warm call, best (ms) | "
              f"speed-up end to end | speed-up warm |")
    print(header)
    print("|---|---|---|---|---|---|")
    for label, _ in args.build:
        best, median, warm = summary(label)
        print(f"| {label} | {best * 1e3:.0f} | {median * 1e3:.0f} | {warm * 1e3:.0f} | "
              f"{base[0] / best:.2f}x | {base[2] / warm:.2f}x |")
    threads = ", ".join(f"{label} {results[label][0]['threads']}" for label, _ in args.build)
    print(f"(threads: {threads}; load at the end {'/'.join(f'{x:.2f}' for x in os.getloadavg())})")
    if args.json:
        args.json.write_text(json.dumps({"machine": machine(), "rounds": args.rounds, "results": results},
                                        indent=1) + "\n")


if __name__ == "__main__":
    main()
