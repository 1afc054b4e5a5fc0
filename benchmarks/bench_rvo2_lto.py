"""ORCA against RVO2 built with link-time optimisation, in the same rounds.

    python benchmarks/bench_rvo2_lto.py --rvo2 PEER [--sizes 10000 100000 1000000] [--threads 1]
                                        [--rounds 3] [--build LABEL=PYTHON ...] [--json out.json]

The peer is a program that runs RVO2's side of the grid crowd
(benchmarks/grid_crowd.py), such as ``../shared/tools/rvo2_grid.cc`` built against
RVO2's sources with ``-O3 -flto -fopenmp`` (that folder's README has the command).
``PEER CROWD THREADS`` reads the crowd file (a 64-bit count n, then n rows of
start x, start y, goal x, goal y, little-endian doubles), takes 10 warm-up steps
and prints ``n threads median_step_seconds M_agent_steps_per_s`` for the median
of 20 timed ``doStep`` calls. vosim runs the same protocol (``--worker``) in a
fresh process of each build's Python: ``--build before=/path/to/python`` (may be
repeated; default: this interpreter, labelled "vosim") compares builds in the
same rounds. vosim's step also moves the preferred velocities toward the
goals, which the peer sets outside its timing.

Every round runs each build and the peer once per size, in an order rotated
from round to round so that the slow phases of a shared machine fall on all of
them alike; the table gives the median of the rounds (best round in brackets)
and each build's speed over the peer's (medians). The load average is printed
with every round.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grid_crowd import grid_crowd  # noqa: E402

WARMUP_STEPS = 10
TIMED_STEPS = 20


def write_crowd(n: int, path: Path) -> None:
    """The grid crowd of n agents in the peer's format."""
    import numpy as np

    start, goals = grid_crowd(n)
    rows = np.ascontiguousarray(np.column_stack([start, goals]), dtype="<f8")
    with open(path, "wb") as f:
        f.write(struct.pack("<q", n))
        f.write(rows.tobytes())


def worker(n: int, threads: int) -> None:
    """vosim's side of the protocol: prints ``n threads median_step_seconds M_agent_steps_per_s``."""
    import vosim

    from grid_crowd import vosim_simulator

    vosim.set_num_threads(threads)
    sim = vosim_simulator(n)
    for _ in range(WARMUP_STEPS):
        sim.step()
    times = []
    for _ in range(TIMED_STEPS):
        start = time.perf_counter()
        sim.step()
        times.append(time.perf_counter() - start)
    median = statistics.median(times)
    print(f"{n} {threads} {median:.6f} {n / median / 1e6:.3f}")


def parse_line(output: str, n: int, threads: int, who: str) -> float:
    """The median step time in seconds from a protocol line; ValueError naming ``who`` when it is not one."""
    lines = [line for line in output.splitlines() if line.strip()]
    fields = lines[-1].split() if lines else []
    try:
        got_n, got_threads, seconds = int(fields[0]), int(fields[1]), float(fields[2])
        float(fields[3])
    except (IndexError, ValueError):
        raise ValueError(f"{who} printed {output.strip()!r}; expected 'n threads median_step_seconds "
                         "M_agent_steps_per_s'") from None
    if got_n != n or got_threads != threads:
        raise ValueError(f"{who} reported n={got_n}, threads={got_threads}; asked for n={n}, threads={threads}")
    if not seconds > 0.0:
        raise ValueError(f"{who} reported a step time of {seconds}; must be > 0")
    return seconds


def timed(command: list[str], n: int, threads: int, who: str, timeout: float) -> float:
    env = {**os.environ, "OMP_NUM_THREADS": str(threads)}
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        raise SystemExit(f"{who} took more than --timeout {timeout:g} s at n={n}") from None
    if done.returncode != 0:
        raise SystemExit(f"{who} failed (exit {done.returncode}) at n={n}: {done.stderr.strip()[-2000:]}")
    try:
        return parse_line(done.stdout, n, threads, who)
    except ValueError as error:
        raise SystemExit(str(error)) from None


def parse_build(text: str) -> tuple[str, str]:
    label, sep, python = text.partition("=")
    if not sep or not label or not python:
        raise argparse.ArgumentTypeError(f"--build {text!r}: expected LABEL=PYTHON")
    if not Path(python).is_file():
        raise argparse.ArgumentTypeError(f"--build {text!r}: no file {python!r}")
    return label, python


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} must be >= 1")
    return value


def positive_seconds(text: str) -> float:
    value = float(text)
    if not value > 0.0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{value} must be a finite number of seconds > 0")
    return value


def median_and_best(seconds: list[float], n: int) -> tuple[float, float]:
    """M agent-steps/s of the median and of the best round."""
    return n / statistics.median(seconds) / 1e6, n / min(seconds) / 1e6


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--worker":
        worker(int(sys.argv[2]), int(sys.argv[3]))
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rvo2", type=Path, required=True, help="the peer program (see above)")
    parser.add_argument("--sizes", type=positive, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--threads", type=positive, default=1)
    parser.add_argument("--rounds", type=positive, default=3)
    parser.add_argument("--build", type=parse_build, action="append", metavar="LABEL=PYTHON",
                        help="a Python whose vosim to time (repeat to compare builds); default: this one")
    parser.add_argument("--timeout", type=positive_seconds, default=900.0, help="seconds allowed to one process")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    if not (args.rvo2.is_file() and os.access(args.rvo2, os.X_OK)):
        parser.error(f"--rvo2 {str(args.rvo2)!r} is not an executable file")
    builds = args.build or [("vosim", sys.executable)]
    if len({label for label, _ in builds}) != len(builds):
        parser.error("--build labels must differ")
    peer = str(args.rvo2.resolve())
    script = str(Path(__file__).resolve())

    from bench_orca import machine

    print(f"grid crowd, ORCA, {args.threads} thread(s); {machine()}")
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        for n in args.sizes:
            crowd = Path(scratch) / f"crowd_{n}.bin"
            write_crowd(n, crowd)
            runners = [(label, [python, script, "--worker", str(n), str(args.threads)]) for label, python in builds]
            runners.append(("RVO2 LTO", [peer, str(crowd), str(args.threads)]))
            seconds: dict[str, list[float]] = {label: [] for label, _ in runners}
            for r in range(args.rounds):
                turn = runners[r % len(runners):] + runners[:r % len(runners)]
                for label, command in turn:
                    seconds[label].append(timed(command, n, args.threads, label, args.timeout))
                load = "/".join(f"{x:.2f}" for x in os.getloadavg())
                print(f"  N = {n:,}, round {r + 1}: " +
                      ", ".join(f"{label} {n / seconds[label][-1] / 1e6:.2f}" for label, _ in runners) +
                      f" M agent-steps/s (load {load})", flush=True)
            peer_median = statistics.median(seconds["RVO2 LTO"])
            rows.append({"n": n, "threads": args.threads, "step_seconds": seconds,
                         "over_rvo2": {label: peer_median / statistics.median(seconds[label]) for label, _ in builds}})

    labels = [label for label, _ in builds] + ["RVO2 LTO"]
    print(f"\nM agent-steps/s, median of {args.rounds} rounds (best in brackets); last columns: speed over RVO2 LTO")
    print("| N | " + " | ".join(labels) + " | " + " | ".join(f"{label} / RVO2" for label, _ in builds) + " |")
    print("|---" * (len(labels) + len(builds) + 1) + "|")
    for row in rows:
        n = row["n"]
        cells = [f"{m:.2f} ({b:.2f})" for m, b in (median_and_best(row["step_seconds"][label], n) for label in labels)]
        ratios = [f"{row['over_rvo2'][label]:.2f}x" for label, _ in builds]
        print(f"| {n:,} | " + " | ".join(cells) + " | " + " | ".join(ratios) + " |")
    if args.json:
        result = {"machine": machine(), "threads": args.threads, "rounds": args.rounds, "peer": peer,
                  "builds": dict(builds), "rows": rows}
        partial = args.json.with_name(args.json.name + ".partial")
        partial.write_text(json.dumps(result, indent=1) + "\n")
        os.replace(partial, args.json)


if __name__ == "__main__":
    main()
