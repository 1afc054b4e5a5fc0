"""Two or more builds of vosim side by side: every method's step time, interleaved.

    python benchmarks/bench_builds.py --build before=../old/python --build after=python \\
        [--methods VO RVO ...] [--sizes 1000 10000] [--rounds 5] [--steps 5] [--count]

Each ``--build LABEL=DIR`` names a directory that holds a ``vosim`` package
(a source tree's ``python/`` with its compiled ``_core`` copied in, or a
virtual environment's site-packages). For every size and method, each round
runs every build once, in turn, each in a fresh process on one thread: the
grid crowd (benchmarks/grid_crowd.py), --warmup steps, then --steps timed
steps. Interleaving spreads the load of a shared machine over all builds
alike. The table gives each build's best and median milliseconds per step
over the rounds and the ratio of the first build's best to each other's (> 1:
faster than the first).

With --count, each cell is also counted under valgrind (cachegrind):
instructions and mispredicted branches per agent-step, from the difference
between a run of --steps steps and a run of none, which do not depend on the
load. Counting is slow: use a few hundred to a few thousand agents.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

# One cell, run in a child process whose sys.path starts with the build.
CHILD = r"""
import json, sys, time
sys.path.insert(0, {here!r})
import vosim
from vosim.methods import METHODS
from grid_crowd import vosim_simulator
vosim.set_num_threads(1)
sim = vosim_simulator({n}, method=METHODS[{method!r}]())
for _ in range({warmup}):
    sim.step()
seconds = []
for _ in range({steps}):
    started = time.perf_counter()
    sim.step()
    seconds.append(time.perf_counter() - started)
print(json.dumps({{"seconds": seconds, "version": vosim.__version__}}))
"""


def parse_build(text: str) -> tuple[str, Path]:
    label, sep, path = text.partition("=")
    if not sep or not label or not path:
        raise argparse.ArgumentTypeError(f"--build: expected LABEL=DIR, got {text!r}")
    directory = Path(path).resolve()
    if not (directory / "vosim" / "__init__.py").is_file():
        raise argparse.ArgumentTypeError(f"--build {label}: {directory} holds no vosim package")
    return label, directory


def child_env(directory: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(directory)
    env["OMP_NUM_THREADS"] = "1"
    return env


def time_cell(directory: Path, method: str, n: int, steps: int, warmup: int) -> list[float]:
    code = CHILD.format(here=str(HERE), n=n, method=method, steps=steps, warmup=warmup)
    out = subprocess.run([sys.executable, "-c", code], env=child_env(directory), check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])["seconds"]


def count_cell(directory: Path, method: str, n: int, steps: int) -> tuple[float, float]:
    """Instructions and mispredicted branches per agent-step (cachegrind)."""
    totals = []
    for timed in (steps, 0):
        code = CHILD.format(here=str(HERE), n=n, method=method, steps=timed, warmup=1)
        with tempfile.TemporaryDirectory() as scratch:
            out = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--branch-sim=yes",
                                  f"--cachegrind-out-file={scratch}/out", sys.executable, "-c", code],
                                 env=child_env(directory), check=True, capture_output=True, text=True)
        refs = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
        missed = re.search(r"Mispredicts:\s+([\d,]+)", out.stderr)
        if refs is None or missed is None:
            raise RuntimeError(f"valgrind printed no counts:\n{out.stderr[-2000:]}")
        totals.append((int(refs.group(1).replace(",", "")), int(missed.group(1).replace(",", ""))))
    agent_steps = n * steps
    return ((totals[0][0] - totals[1][0]) / agent_steps, (totals[0][1] - totals[1][1]) / agent_steps)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", type=parse_build, action="append", required=True, metavar="LABEL=DIR",
                        help="a build to time (give two or more; the first is the reference)")
    parser.add_argument("--methods", nargs="+", default=["ORCA", "VO", "RVO", "HRVO", "AdaptiveSampling",
                                                          "GridSampling", "AVO"])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--count", action="store_true", help="also count instructions under valgrind")
    parser.add_argument("--json", type=Path, help="write every measurement here")
    args = parser.parse_args()
    if len(args.build) < 2:
        parser.error("--build: give at least two builds to compare")
    for name, value in (("--rounds", args.rounds), ("--steps", args.steps)):
        if value < 1:
            parser.error(f"{name} must be >= 1, got {value}")
    if args.warmup < 0:
        parser.error(f"--warmup must be >= 0, got {args.warmup}")
    if args.count and shutil.which("valgrind") is None:
        parser.error("--count needs valgrind (apt-get install valgrind)")

    labels = [label for label, _ in args.build]
    print(f"one thread, grid crowd, {args.rounds} interleaved rounds of {args.steps} steps; "
          f"load average {os.getloadavg()[0]:.1f} at the start")
    header = f"{'N':>7} | {'method':>16} | " + " | ".join(f"{label + ' ms (best/median)':>28}" for label in labels)
    header += " | " + " | ".join(f"{label + ' speed-up':>16}" for label in labels[1:])
    print(header)
    print("-" * len(header), flush=True)
    results = []
    for n in args.sizes:
        for method in args.methods:
            per_step = {label: [] for label in labels}
            for _ in range(args.rounds):
                for label, directory in args.build:
                    per_step[label] += time_cell(directory, method, n, args.steps, args.warmup)
            best = {label: min(values) for label, values in per_step.items()}
            median = {label: statistics.median(values) for label, values in per_step.items()}
            cells = " | ".join(f"{best[label] * 1e3:12.2f} / {median[label] * 1e3:12.2f}" for label in labels)
            ratios = " | ".join(f"{best[labels[0]] / best[label]:15.2f}x" for label in labels[1:])
            print(f"{n:>7} | {method:>16} | {cells} | {ratios}", flush=True)
            row = {"n": n, "method": method, "seconds": per_step}
            if args.count:
                counts = {label: count_cell(directory, method, n, args.steps) for label, directory in args.build}
                row["counts"] = counts
                text = " | ".join(f"{label}: {c[0]:,.0f} instructions, {c[1]:,.1f} mispredicted"
                                  for label, c in counts.items())
                print(f"{'':>7} | {'per agent-step':>16} | {text}", flush=True)
            results.append(row)
    if args.json is not None:
        args.json.write_text(json.dumps({"builds": {label: str(d) for label, d in args.build},
                                         "rounds": args.rounds, "steps": args.steps, "results": results},
                                        indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
