"""Every method over every SteerSuite test case: completion, SteerBench scores, collisions, wall penetration.

    VOSIM_STEERSUITE_CASES=/path/to/testcases python benchmarks/steersuite_table.py \\
        [--methods orca,orca-sidestep,rvo,adaptive] [--max-steps 3000] [--case-seconds 120] \\
        [--plan navmesh] [--keep-arrived] [--processes 1] [--csv per_case.csv]

SteerSuite's test cases are not shipped with vosim (they carry SteerSuite's
licence): point ``VOSIM_STEERSUITE_CASES`` at a folder holding them (its
``testcases`` folder; subfolders are read too). Each case is loaded with
``scenarios.from_steersuite(path, seed=0, time_step=0.1, plan=--plan)`` and run with
each method until every agent has arrived, or for the case's own
``max_steps`` (three times the slowest agent's walk, plus 1,000 steps),
at most ``--max-steps`` and at most ``--agent-frames`` agents x frames
(each frame is recorded for SteerBench), or until ``--case-seconds`` of wall
time have passed (the run is then scored as far as it got and counted as
cut short). As in SteerSuite, an agent leaves the simulation when it
reaches its last goal (``from_steersuite``'s ``remove_at_goal=True``);
``--keep-arrived`` keeps arrived agents standing on their goals instead,
where crowds sharing a goal rarely finish.

Per method it prints, over the cases:

- loaded: cases read (of the files found); run: those with agents;
- all arrived: cases in which every agent arrived; arrived: mean share of
  agents that arrived;
- composite01 / composite02: SteerBench's scores (``vosim.metrics.steerbench``),
  mean over the cases run (lower is better);
- collisions: SteerBench's collisions per agent, mean over the cases;
- walls > 1 cm: cases in which some agent's disc reached more than 1 cm past
  an obstacle edge, and the deepest such penetration over all cases;
- cut short: runs stopped by ``--case-seconds``.
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np

ENVIRONMENT = "VOSIM_STEERSUITE_CASES"
# Penetration of an obstacle (metres) beyond which a case counts as walked into a wall.
WALL_DEPTH = 0.01
# Variants with settings of their own; any other name is a registered method's (``vosim.method_from_name``).
VARIANTS = {
    "orca-sidestep": lambda vosim: vosim.ORCA(deadlock="sidestep"),
}


def make_method(name: str):
    """The method called ``name``: a variant above or any registered method with its defaults."""
    import vosim
    from vosim.methods import method_from_name

    return VARIANTS[name](vosim) if name in VARIANTS else method_from_name(name)


def method_names() -> list[str]:
    """Every name ``--methods`` accepts."""
    from vosim.methods import METHOD_ALIASES, METHODS

    return sorted({*VARIANTS, *(key.lower() for key in METHODS), *METHOD_ALIASES})


class _OutOfTime(Exception):
    """Raised from the run's progress callback when the case's wall time is spent."""


def case_files(folder: str) -> list[Path]:
    root = Path(folder)
    if not root.is_dir():
        sys.exit(f"{ENVIRONMENT} is {folder!r}, which is not a folder")
    files = sorted(root.rglob("*.xml"))
    if not files:
        sys.exit(f"{ENVIRONMENT} is {folder!r}, which holds no .xml test cases")
    return files


def label_of(method: str, plan: str | None, keep_arrived: bool) -> str:
    """The table's name for a method run one way: e.g. ``orca+navmesh``, ``orca+kept``."""
    return method + ("" if plan is None else f"+{plan}") + ("+kept" if keep_arrived else "")


def run_case(job: tuple) -> dict:
    """Loads, runs and scores one (method, case); never raises."""
    import vosim
    from vosim import scenarios

    method, plan, keep_arrived, path, max_steps, agent_frames, case_seconds = job
    vosim.set_num_threads(1)
    label = label_of(method, plan, keep_arrived)
    row = dict(method=label, case=str(path), loaded=False, agents=0, steps=0, all_arrived=False, arrived=np.nan,
               composite01=np.nan, composite02=np.nan, collisions=np.nan, obstacle_penetration=np.nan,
               cut_short=False, seconds=0.0, error="")
    started = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # left-out elements: the loader's own warnings
            scenario = scenarios.from_steersuite(path, seed=0, time_step=0.1, method=make_method(method),
                                                 plan=plan, remove_at_goal=not keep_arrived)
    except ValueError as error:
        row["error"] = str(error).replace(str(path), Path(path).name)
        return row
    row["loaded"] = True
    agents = len(scenario.positions)
    row["agents"] = agents
    if agents == 0:
        return row
    steps = max(1, min(scenario.max_steps, max_steps, agent_frames // agents))
    sim = scenario.build()

    def out_of_time(done, total):
        if time.perf_counter() - started > case_seconds:
            raise _OutOfTime

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "not every agent arrived": measured below
            traj = sim.run(steps, until_arrived=True, progress=out_of_time)
    except _OutOfTime as stop:
        traj = stop.trajectory
        row["cut_short"] = True
    metrics = traj.metrics
    score = vosim.metrics.steerbench(traj)
    row.update(steps=int(traj.steps_run), all_arrived=bool(traj.all_arrived), arrived=float(metrics["arrival_rate"]),
               composite01=score["composite01"], composite02=score["composite02"],
               collisions=float(score["collisions"].mean()),
               obstacle_penetration=float(metrics["max_obstacle_penetration"]),
               seconds=time.perf_counter() - started)
    return row


def summary(rows: list[dict], files: int, methods: list[str]) -> str:
    header = ("| method | loaded | run | all arrived | arrived | composite01 | composite02 | collisions "
              "| walls > 1 cm | deepest (m) | cut short |")
    lines = [header, "|" + "---|" * (header.count("|") - 1)]
    for method in methods:
        mine = [r for r in rows if r["method"] == method]
        ran = [r for r in mine if r["loaded"] and r["agents"] > 0]
        mean = lambda key: float(np.mean([r[key] for r in ran])) if ran else float("nan")  # noqa: E731
        depth = [r["obstacle_penetration"] for r in ran]
        lines.append(
            f"| {method} | {sum(r['loaded'] for r in mine)}/{files} | {len(ran)} | "
            f"{sum(r['all_arrived'] for r in ran)} | {mean('arrived'):.2f} | {mean('composite01'):.0f} | "
            f"{mean('composite02'):.0f} | {mean('collisions'):.2f} | {sum(d > WALL_DEPTH for d in depth)} | "
            f"{max(depth, default=0.0):.3f} | {sum(r['cut_short'] for r in ran)} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--methods", default="orca,orca-sidestep,rvo,adaptive",
                        help="comma-separated: orca-sidestep or any method's name (orca, rvo, hrvo, avo, csm, ...)")
    parser.add_argument("--max-steps", type=int, default=3000, help="most steps of a run (0.1 s each)")
    parser.add_argument("--agent-frames", type=int, default=10_000_000,
                        help="most agents x recorded frames of a run (memory: about 40 bytes each)")
    parser.add_argument("--case-seconds", type=float, default=120.0, help="wall time per run before it is cut")
    parser.add_argument("--plan", choices=["navmesh", "roadmap"],
                        help="plan every agent's route round the obstacles (from_steersuite's plan=)")
    parser.add_argument("--keep-arrived", action="store_true",
                        help="keep arrived agents standing on their goals (SteerSuite removes them)")
    parser.add_argument("--processes", type=int, default=1, help="runs at once (one thread each)")
    parser.add_argument("--csv", help="also write one row per (method, case) to this file")
    args = parser.parse_args()
    folder = os.environ.get(ENVIRONMENT)
    if not folder:
        sys.exit(f"set {ENVIRONMENT} to a folder of SteerSuite's XML test cases (its testcases folder); "
                 "vosim does not ship them")
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    known = method_names()
    unknown = [m for m in methods if m not in known]
    if unknown:
        sys.exit(f"--methods: unknown {', '.join(unknown)}; choose from {', '.join(known)}")
    files = case_files(folder)
    # The largest cases first, so that the pool is not left waiting on one at the end.
    files.sort(key=lambda p: -p.stat().st_size)
    jobs = [(m, args.plan, args.keep_arrived, p, args.max_steps, args.agent_frames, args.case_seconds) for m in methods for p in files]
    started = time.perf_counter()
    rows = []
    with multiprocessing.get_context("spawn").Pool(args.processes, maxtasksperchild=8) as pool:
        for row in pool.imap_unordered(run_case, jobs):
            rows.append(row)
            state = "not loaded: " + row["error"] if not row["loaded"] else (
                f"{row['agents']} agents, {row['steps']} steps, arrived {row['arrived']:.2f}"
                f"{' (cut short)' if row['cut_short'] else ''}")
            print(f"[{len(rows)}/{len(jobs)}] {row['method']} {Path(row['case']).name}: {state}, "
                  f"{row['seconds']:.1f} s", file=sys.stderr, flush=True)
    if args.csv:
        with open(args.csv, "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(sorted(rows, key=lambda r: (r["method"], r["case"])))
    print(summary(rows, len(files), [label_of(m, args.plan, args.keep_arrived) for m in methods]))
    print(f"\n{len(files)} files, {len(jobs)} runs in {time.perf_counter() - started:.0f} s "
          f"({args.processes} processes, dt 0.1, at most {args.max_steps} steps or {args.case_seconds:g} s a run)")


if __name__ == "__main__":
    main()
