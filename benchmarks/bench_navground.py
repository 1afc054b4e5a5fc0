"""vosim against navground on the same scenes, measured in the same run.

    pip install navground        # the peer (0.7.x); not a dependency of vosim
    python benchmarks/bench_navground.py [--sizes 100 1000 10000] [--json out.json]

Speed rows, for each of --sizes on the grid crowd (benchmarks/grid_crowd.py):

- ``ORCA``: vosim's ``ORCA()`` against navground's ORCA behaviour, both on
  holonomic agents (vosim's default kinematics, navground's ``Omni``);
- ``HRVO``: vosim's ``HRVO()`` against navground's HRVO behaviour;
- ``force-based``: vosim's ``ForceBased()`` against navground's
  ``SocialForce``. These are different force models (vosim's follows Unreal
  Engine's Mass avoidance, navground's Helbing's social force, written in
  Python in navground 0.7, so its step calls back into Python per agent):
  the row compares costs, not like for like; it is skipped above
  --max-social-force agents;
- ``ORCA, diff. drive``: vosim's ``ORCA()`` on ``kinematics="differential_drive"``
  robots against navground's ORCA with its effective centre on ``2WDiff``
  robots (wheel track = radius, wheel speed limit = max speed, so a turn rate
  of at most 6 rad/s in both; both put the effective centre half the wheel
  track ahead of the axle, after Snape et al. 2010).

Each cell is the median wall time of one step as agent-steps per second:
vosim's whole ``step()`` on one thread (state checks, preferred velocities
from goals, neighbour search, the method, integration), navground's whole
``World.run(1, time_step)`` in C++ (state estimation, tasks, behaviours,
kinematics, collision detection); navground steps a world on one thread.
Both sides are measured for one size before the next (interleaved, so a
change of load on a shared machine touches both); the ratio is vosim over
navground. navground's steps are fewer (--navground-steps, default 5 after 2
warm-up steps): at 10,000 agents one of its steps takes over a second.

Matched: time step 0.1 s, radius 0.5 m, max speed 1.5 m/s, preferred
(optimal) speed 1 m/s, goals 50 m away, neighbours within 3.5 m (vosim's
``neighbor_dist``; navground's ``Bounded`` state estimation range and the
behaviour's horizon), at most 10 neighbours, ORCA's time horizons 2 s, no
safety margin. What differs:

- navground computes in single precision (its published packages are
  built with ``float``), vosim in double;
- neighbours: vosim's engine gives each agent its 10 nearest from a shared
  grid; navground's state estimation hands each behaviour every agent within
  range and the behaviour keeps its own nearest ones;
- goals: vosim steers at ``goal - position`` shortened to the preferred
  speed and counts an agent arrived within ``arrival_radius``; navground's
  ``Waypoints`` task gives the behaviour a point target with a tolerance,
  and the behaviour stops once within it;
- HRVO: neither side limits the cones to a time horizon (vosim's
  ``truncate=False``, its default); vosim selects geometrically, as the
  HRVO library does;
- differential drive: navground's effective-centre ORCA drives straight
  ahead at most the optimal speed over sqrt(2) (0.71 m/s here), vosim's at
  the preferred speed (1 m/s);
- each navground step also detects collisions and updates every agent's task.

Quality rows (so that speed does not come from doing less): each method on
an antipodal circle of 32 agents (radius 15 m, starts jittered by up to
5 cm, seeded) for at most 90 s; the share of agents that came within 0.25 m
of their goal (navground's tolerance, vosim's ``arrival_radius``), the time
the last one did, and the smallest clearance
between two agents over the run (distance minus both radii; negative is an
overlap), all computed here from the positions of every step in the same
way for both libraries.

When navground is not installed the script says so once and prints vosim's
columns only (as it does with --no-navground).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_orca import add_timing_arguments, machine, median_step_seconds  # noqa: E402
from grid_crowd import (MAX_NEIGHBORS, MAX_SPEED, NEIGHBOR_DIST, PREF_SPEED, RADIUS, TIME_HORIZON,  # noqa: E402
                        TIME_STEP, grid_crowd)

WHEEL_TRACK = RADIUS           # vosim's default wheel track, given to both
CIRCLE_AGENTS = 32
CIRCLE_RADIUS = 15.0
CIRCLE_SECONDS = 90.0
ARRIVAL_TOLERANCE = 0.25
CIRCLE_JITTER = 0.05

# row label: (vosim method name, navground behaviour, kinematics)
ROWS = {
    "ORCA": ("ORCA", "ORCA", "holonomic"),
    "HRVO": ("HRVO", "HRVO", "holonomic"),
    "force-based": ("ForceBased", "SocialForce", "holonomic"),
    "ORCA, diff. drive": ("ORCA", "ORCA", "differential_drive"),
}
PYTHON_BEHAVIOURS = {"SocialForce"}  # navground 0.7 implements these in Python


def circle_scene(n: int = CIRCLE_AGENTS) -> tuple[np.ndarray, np.ndarray]:
    """Start positions on a circle and goals on the opposite side, both ``(n, 2)``."""
    angles = 2.0 * np.pi * np.arange(n) / n
    start = CIRCLE_RADIUS * np.column_stack([np.cos(angles), np.sin(angles)])
    # a seeded jitter of a few centimetres breaks the exact symmetry, in which ORCA agents meet head-on
    # at the centre and stop (in both libraries)
    start += np.random.default_rng(0).uniform(-CIRCLE_JITTER, CIRCLE_JITTER, start.shape)
    return start, -start


def vosim_simulator(start: np.ndarray, goals: np.ndarray, method: str, kinematics: str):
    import vosim
    from vosim.methods import METHODS

    sim = vosim.Simulator(time_step=TIME_STEP, method=METHODS[method]())
    drive = {} if kinematics == "holonomic" else {"kinematics": kinematics, "wheel_track": WHEEL_TRACK,
                                                  "max_wheel_speed": MAX_SPEED}
    sim.add_agents(start, goals=goals, pref_speed=PREF_SPEED, radius=RADIUS, max_speed=MAX_SPEED,
                   neighbor_dist=NEIGHBOR_DIST, max_neighbors=MAX_NEIGHBORS, time_horizon=TIME_HORIZON,
                   time_horizon_obst=TIME_HORIZON, arrival_radius=ARRIVAL_TOLERANCE, **drive)
    return sim


def navground_world(start: np.ndarray, goals: np.ndarray, behaviour: str, kinematics: str):
    """The same agents in a navground world: one behaviour, kinematics, task and state estimation each."""
    from navground import core, sim

    world = sim.World()
    for position, goal in zip(start, goals):
        if kinematics == "holonomic":
            drive = core.Kinematics.make_type("Omni")
        else:
            drive = core.Kinematics.make_type("2WDiff")
            drive.wheel_axis = WHEEL_TRACK
        drive.max_speed = MAX_SPEED
        behavior = core.Behavior.make_type(behaviour)
        behavior.optimal_speed = PREF_SPEED
        behavior.horizon = NEIGHBOR_DIST
        behavior.safety_margin = 0.0
        if behaviour in ("ORCA", "HRVO"):
            behavior.max_neighbors = MAX_NEIGHBORS
        if behaviour == "ORCA":
            behavior.time_horizon = TIME_HORIZON
            behavior.static_time_horizon = TIME_HORIZON
            behavior.is_using_effective_center = kinematics != "holonomic"
        estimation = sim.StateEstimation.make_type("Bounded")
        estimation.range = NEIGHBOR_DIST
        task = sim.Task.make_type("Waypoints")
        task.waypoints = [goal]
        task.tolerance = ARRIVAL_TOLERANCE
        agent = sim.Agent(radius=RADIUS, behavior=behavior, kinematics=drive, task=task,
                          state_estimations=[estimation])
        agent.position = position
        to_goal = goal - position
        agent.orientation = float(np.arctan2(to_goal[1], to_goal[0]))  # vosim's default heading
        world.add_agent(agent)
    return world


def navground_version() -> str | None:
    """navground's version, or None (said once) when it is not installed."""
    try:
        import navground.core  # noqa: F401
        import navground.sim  # noqa: F401
    except ImportError:
        print("navground is not installed (pip install navground): vosim's columns only")
        return None
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("navground")
    except PackageNotFoundError:
        return "unknown version"


def speed_rows(args: argparse.Namespace, compare: bool) -> list[dict]:
    import vosim

    all_threads = vosim.get_num_threads()
    header = f"{'N':>7} | {'method':>17} | {'vosim 1 thread':>24} | {'navground':>24} | {'vosim / navground':>17}"
    print(header)
    print("-" * len(header), flush=True)
    cell = lambda n, s: f"{s * 1e3:9.2f} ms {n / s / 1e6:7.4f} M/s"  # noqa: E731
    rows = []
    for n in args.sizes:
        start, goals = grid_crowd(n)
        for label in args.methods:
            method, behaviour, kinematics = ROWS[label]
            vosim.set_num_threads(1)
            sim = vosim_simulator(start, goals, method, kinematics)
            ours = median_step_seconds(sim.step, steps=args.steps, warmup=args.warmup)
            vosim.set_num_threads(all_threads)
            del sim
            peer, note = None, ""
            if compare and behaviour in PYTHON_BEHAVIOURS and n > args.max_social_force:
                note = f"navground skipped above {args.max_social_force} agents (--max-social-force)"
            elif compare:
                world = navground_world(start, goals, behaviour, kinematics)
                peer = median_step_seconds(lambda: world.run(1, TIME_STEP), steps=args.navground_steps,
                                           warmup=args.navground_warmup)
                del world
            ratio = f"{peer / ours:16.1f}x" if peer else f"{'n/a':>17}"
            print(f"{n:>7} | {label:>17} | {cell(n, ours)} | {cell(n, peer) if peer else 'n/a':>24} | {ratio}"
                  + (f"  ({note})" if note else ""), flush=True)
            rows.append({"n": n, "method": label, "vosim_method": method, "navground_behavior": behaviour,
                         "kinematics": kinematics, "vosim_1_thread_s": ours, "navground_s": peer,
                         "vosim_agent_steps_per_s": n / ours,
                         "navground_agent_steps_per_s": (n / peer) if peer else None,
                         "ratio_vosim_vs_navground": (peer / ours) if peer else None})
    return rows


def arrival_and_clearance(positions: np.ndarray, goals: np.ndarray) -> dict:
    """From ``(frames, n, 2)`` positions (frame k after k steps): arrivals, last arrival time, smallest clearance."""
    reached = np.linalg.norm(positions - goals, axis=2) <= ARRIVAL_TOLERANCE
    arrived = reached.any(axis=0)
    first = np.where(arrived, reached.argmax(axis=0), -1)
    gaps = positions[:, :, None, :] - positions[:, None, :, :]
    distance = np.linalg.norm(gaps, axis=3)
    n = positions.shape[1]
    distance[:, np.arange(n), np.arange(n)] = np.inf
    return {"arrived": float(arrived.mean()),
            "last_arrival_s": float(first.max() * TIME_STEP) if arrived.all() else None,
            "min_clearance_m": float(distance.min() - 2 * RADIUS)}


def vosim_circle(method: str, kinematics: str) -> dict:
    start, goals = circle_scene()
    sim = vosim_simulator(start, goals, method, kinematics)
    frames = [sim.positions.copy()]
    for _ in range(round(CIRCLE_SECONDS / TIME_STEP)):
        sim.step()
        frames.append(sim.positions.copy())
    return arrival_and_clearance(np.array(frames), goals)


def navground_circle(behaviour: str, kinematics: str) -> dict:
    start, goals = circle_scene()
    world = navground_world(start, goals, behaviour, kinematics)
    agents = world.agents
    frames = [np.array([agent.position for agent in agents])]
    for _ in range(round(CIRCLE_SECONDS / TIME_STEP)):
        world.run(1, TIME_STEP)
        frames.append(np.array([agent.position for agent in agents]))  # 32 agents: a small loop
    return arrival_and_clearance(np.array(frames, dtype=float), goals)


def quality_rows(args: argparse.Namespace, compare: bool) -> list[dict]:
    print(f"\nantipodal circle, {CIRCLE_AGENTS} agents, radius {CIRCLE_RADIUS:g} m, at most {CIRCLE_SECONDS:g} s; "
          f"arrived = within {ARRIVAL_TOLERANCE} m of the goal; clearance = distance - both radii")
    header = f"{'method':>17} | {'library':>9} | {'arrived':>7} | {'last arrival':>12} | {'min clearance':>13}"
    print(header)
    print("-" * len(header), flush=True)
    rows = []
    for label in args.methods:
        method, behaviour, kinematics = ROWS[label]
        results = [("vosim", vosim_circle(method, kinematics))]
        if compare:
            results.append(("navground", navground_circle(behaviour, kinematics)))
        for library, result in results:
            last = f"{result['last_arrival_s']:10.1f} s" if result["last_arrival_s"] is not None else f"{'-':>12}"
            print(f"{label:>17} | {library:>9} | {result['arrived']:6.0%} | {last} | "
                  f"{result['min_clearance_m']:11.3f} m", flush=True)
            rows.append({"method": label, "library": library, **result})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1_000, 10_000])
    parser.add_argument("--methods", nargs="+", choices=list(ROWS), default=list(ROWS),
                        help="rows to measure (default: all)")
    parser.add_argument("--navground-steps", type=int, default=5, help="navground steps timed per cell")
    parser.add_argument("--navground-warmup", type=int, default=2)
    parser.add_argument("--max-social-force", type=int, default=1_000,
                        help="largest crowd for navground's social force (a Python behaviour)")
    parser.add_argument("--no-navground", action="store_true", help="skip the navground comparison")
    parser.add_argument("--no-quality", action="store_true", help="skip the antipodal-circle rows")
    add_timing_arguments(parser, pyrvo=False)
    args = parser.parse_args()
    for name in ("sizes", "navground_steps", "max_social_force", "steps"):
        values = getattr(args, name)
        for value in values if isinstance(values, list) else [values]:
            if value < 1:
                parser.error(f"--{name.replace('_', '-')} must be at least 1, got {value}")

    peer = None if args.no_navground else navground_version()
    print(f"grid crowd; {machine()}; navground {peer or 'not compared'}")
    if peer and "force-based" in args.methods:
        print("force-based: vosim's ForceBased and navground's SocialForce (Python) are different force models; "
              "the row compares costs, not like for like")
    report = {"machine": machine(), "navground": peer, "rows": speed_rows(args, peer is not None)}
    if not args.no_quality:
        report["quality"] = quality_rows(args, peer is not None)
    if args.json:  # written whole or not at all
        partial = args.json.with_name(args.json.name + ".partial")
        partial.write_text(json.dumps(report, indent=1) + "\n")
        os.replace(partial, args.json)


if __name__ == "__main__":
    main()
