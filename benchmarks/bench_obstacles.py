"""What obstacles cost: RVO2's Blocks with its four blocks, and mazes of up to 100,000 vertices,
each against the same agents without the obstacles.

    python benchmarks/bench_obstacles.py [--copies 1 16] [--advance 300] [--inner 20] [--threads 1]
        [--maze-vertices 1000 10000 100000] [--maze-agents 10000] [--json out.json]

``vosim.scenarios.blocks()`` (100 agents of radius 2 between four square
obstacles, ORCA as in the example) runs --advance steps, to a state in
which every agent has obstacle edges within range (at step 300 all 100 have;
at the start none has). From that state two simulators are made: one with
the obstacles, one without, with the same agents (positions, velocities,
goals, parameters, method). With ``--copies C`` both hold C copies of that
state side by side, 400 m apart (100 C agents, 4 C obstacles).

A sample restores the state (not timed) and times --inner calls of
``step()``; the step time is the median over 20 samples after 10 warm-up
samples, divided by --inner. The ratio is the time with obstacles over the
time without; target: at most 1.5.

Large maps: ``maze.maze(V)`` makes a maze (a random spanning tree of square
rooms, corridors 5 m wide) whose outline, one polygon of about V vertices,
is added as a boundary. Build time: adding it and building the obstacle
index (the median of 3). Then --maze-agents agents (radius 0.3, obstacle
range 3.3 m), 16 per room on a 1 m lattice in the rooms nearest one corner,
each heading for another's place, run --advance steps (at most 20) and the
step time is measured as above, with the maze and without it; targets: the
build under 1 s at 100,000 vertices, and a step time that does not grow
with the map (the crowd and its neighbourhood are the same in every maze).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_orca import machine, median_step_seconds  # noqa: E402

TARGET_RATIO = 1.5
TARGET_BUILD_SECONDS = 1.0
SPACING = 400.0  # between copies; the scenario spans about 190 m


def blocks_state(advance: int):
    """The Blocks scenario and its agents' positions and velocities after ``advance`` steps."""
    from vosim import scenarios

    scenario = scenarios.blocks()
    sim = scenario.build()
    if advance:
        sim.run(advance, record_every=advance, metrics=False)
    return scenario, np.array(sim.positions), np.array(sim.velocities)


def tiled(scenario, positions, velocities, copies: int, obstacles: bool):
    """A Simulator with ``copies`` copies of the state, with or without the obstacles."""
    import vosim

    side = int(np.ceil(np.sqrt(copies)))
    offsets = SPACING * np.array([(c % side, c // side) for c in range(copies)], dtype=float)
    sim = vosim.Simulator(time_step=scenario.time_step, method=scenario.method)
    if obstacles:
        for offset in offsets:
            for kind, vertices in scenario.obstacles:
                assert kind == "polygon"
                sim.add_obstacle(vertices + offset)
    shift = np.repeat(offsets, len(positions), axis=0)
    sim.add_agents(np.tile(positions, (copies, 1)) + shift, velocities=np.tile(velocities, (copies, 1)),
                   goals=np.tile(scenario.goals, (copies, 1)) + shift, **scenario.agent_params)
    return sim


def bench(sim, inner: int, steps: int, warmup: int) -> float:
    positions, velocities = np.array(sim.positions), np.array(sim.velocities)

    def restore():
        sim.positions[...] = positions
        sim.velocities[...] = velocities

    def sample():
        for _ in range(inner):
            sim.step()

    return median_step_seconds(sample, restore, steps=steps, warmup=warmup) / inner


def maze_agents(rooms: np.ndarray, count: int, seed: int = 1):
    """Positions and goals of ``count`` agents, 16 per room on a 1 m lattice, in the rooms nearest the corner.

    Every maze gets the same crowd in the same kind of neighbourhood (the
    corner region its agents fill), so that the step times of different map
    sizes compare what the map's size adds.
    """
    lattice = np.stack(np.meshgrid(np.arange(4) - 1.5, np.arange(4) - 1.5), axis=-1).reshape(-1, 2)
    needed = -(-count // len(lattice))
    if needed > len(rooms):
        raise SystemExit(f"--maze-agents {count}: this maze has room for {len(rooms) * len(lattice)}")
    nearest = rooms[np.argsort(np.max(rooms, axis=1), kind="stable")[:needed]]
    slots = (nearest[:, None, :] + lattice[None]).reshape(-1, 2)[:count]
    rng = np.random.default_rng(seed)
    return slots, slots[rng.permutation(count)]


def maze_row(vertices: int, agents: int, advance: int, inner: int, steps: int, warmup: int) -> dict:
    import time

    import vosim
    from maze import maze

    boundary, rooms = maze(vertices)
    builds = []
    for _ in range(3):
        sim = vosim.Simulator(time_step=0.25)
        started = time.perf_counter()
        sim.add_boundary(boundary)
        sim.step()  # builds the index (no agents yet)
        builds.append(time.perf_counter() - started)
    index = sim._engine.obstacle_table(-1)["index"]
    positions, goals = maze_agents(rooms, agents)
    params = dict(radius=0.3, max_speed=1.5, pref_speed=1.2, neighbor_dist=5.0, max_neighbors=10,
                  time_horizon=2.0, time_horizon_obst=2.0)
    timings = {}
    for with_maze in (True, False):
        sim = vosim.Simulator(time_step=0.25)
        if with_maze:
            sim.add_boundary(boundary)
        sim.add_agents(positions, goals=goals, strict=False, **params)  # the lattice lies inside the rooms
        sim.run(min(advance, 20), record_every=max(1, min(advance, 20)), metrics=False)
        timings[with_maze] = bench(sim, inner, steps, warmup)
    return {"vertices": len(boundary), "index": index, "build_s": float(np.median(builds)), "agents": agents,
            "with_maze_s": timings[True], "without_maze_s": timings[False], "ratio": timings[True] / timings[False]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--copies", type=int, nargs="+", default=[1, 16])
    parser.add_argument("--advance", type=int, default=300, help="steps of Blocks before the timed state")
    parser.add_argument("--inner", type=int, default=20, help="steps per timed sample")
    parser.add_argument("--steps", type=int, default=20, help="timed samples")
    parser.add_argument("--warmup", type=int, default=10, help="warm-up samples")
    parser.add_argument("--threads", type=int, default=1, help="threads to use (default 1)")
    parser.add_argument("--maze-vertices", type=int, nargs="*", default=[1000, 10000, 100000],
                        help="vertices of the maze outlines (none: skip the mazes)")
    parser.add_argument("--maze-agents", type=int, default=10000, help="agents in each maze")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()

    import vosim

    description = machine()
    vosim.set_num_threads(args.threads)
    scenario, positions, velocities = blocks_state(args.advance)
    print(f"Blocks after {args.advance} steps, ORCA, {vosim.get_num_threads()} thread(s), "
          f"{args.inner} steps per sample; {description}")
    header = (f"{'copies':>6} | {'agents':>7} | {'obstacles':>9} | {'with obstacles':>14} | "
              f"{'without':>10} | {'ratio':>6}")
    print(header)
    print("-" * len(header))
    rows = []
    for copies in args.copies:
        timings = {}
        for with_obstacles in (True, False):
            sim = tiled(scenario, positions, velocities, copies, with_obstacles)
            timings[with_obstacles] = bench(sim, args.inner, args.steps, args.warmup)
        ratio = timings[True] / timings[False]
        agents = copies * len(positions)
        print(f"{copies:>6} | {agents:>7} | {copies * len(scenario.obstacles):>9} | "
              f"{timings[True] * 1e6:11.1f} us | {timings[False] * 1e6:7.1f} us | {ratio:5.2f}x")
        rows.append({"copies": copies, "agents": agents, "with_obstacles_s": timings[True],
                     "without_obstacles_s": timings[False], "ratio": ratio})
    worst = max(row["ratio"] for row in rows)
    print(f"largest ratio {worst:.2f} (target <= {TARGET_RATIO}: {worst / TARGET_RATIO:.2f}x the target)")
    maze_rows = []
    if args.maze_vertices:
        print(f"\nMazes: one boundary outline, {args.maze_agents} agents, ORCA")
        header = (f"{'vertices':>8} | {'index':>5} | {'build':>9} | {'step with maze':>14} | "
                  f"{'without':>10} | {'ratio':>6}")
        print(header)
        print("-" * len(header))
        for vertices in args.maze_vertices:
            row = maze_row(vertices, args.maze_agents, args.advance, args.inner, args.steps, args.warmup)
            print(f"{row['vertices']:>8} | {row['index']:>5} | {row['build_s'] * 1e3:6.1f} ms | "
                  f"{row['with_maze_s'] * 1e3:11.2f} ms | {row['without_maze_s'] * 1e3:7.2f} ms | "
                  f"{row['ratio']:5.2f}x")
            maze_rows.append(row)
        slowest = max(maze_rows, key=lambda row: row["build_s"])
        print(f"slowest build {slowest['build_s']:.3f} s at {slowest['vertices']} vertices "
              f"(target < {TARGET_BUILD_SECONDS} s)")
    if args.json:
        args.json.write_text(json.dumps({"machine": description, "advance": args.advance, "inner": args.inner,
                                         "threads": args.threads, "rows": rows, "target_ratio": TARGET_RATIO,
                                         "maze_rows": maze_rows, "target_build_s": TARGET_BUILD_SECONDS},
                                        indent=1) + "\n")


if __name__ == "__main__":
    main()
