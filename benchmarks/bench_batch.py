"""Many small scenes stepped from NumPy, as in reinforcement learning: vosim.Batch against a loop over pyrvo.

    python benchmarks/bench_batch.py [--scenes 1024] [--agents 16] [--steps 100] [--no-pyrvo] [--json out.json]

Each scene is ``vosim.scenarios.random_crowd(agents, density=0.16, seed=k)``
for scene k: pedestrians (radius 0.3, max speed 1.5) at random places in a
10 m square (for 16 agents), each with a random target in the same square;
every scene differs. The agents have no goals in the simulator: before each
step the "policy" (NumPy, from the current positions, not timed) picks every
agent's preferred velocity, towards its target at 1.2 m/s, and the timed
part hands them over and steps, as an RL environment does:

- vosim: ``batch.pref_velocities[...] = actions; batch.step()``, one Batch
  of all scenes, on 1 thread and on all threads;
- pyrvo (RVO2): for each of the scenes' simulators, ``set_agent_pref_velocity``
  for each agent and ``do_step()`` (reading the positions back for the policy
  is not timed).

Reported: the median time of one step of all scenes over --steps steps after
--warmup steps, and pyrvo's time over vosim's. Target: at least 30x with
all threads.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_orca import add_timing_arguments, machine, median_step_seconds, pyrvo_wanted_and_installed  # noqa: E402

TARGET_RATIO = 30.0
DENSITY = 0.16  # one lattice cell per 2.5 m x 2.5 m: 16 agents in a 10 m square


def scenes(count: int, agents: int):
    """Start positions and targets ``(count, agents, 2)``, agent parameters and time step."""
    from vosim import scenarios

    made = [scenarios.random_crowd(agents, density=DENSITY, seed=k) for k in range(count)]
    params = dict(made[0].agent_params)
    return (np.stack([s.positions for s in made]), np.stack([s.goals for s in made]), params,
            made[0].time_step)


def policy(positions: np.ndarray, targets: np.ndarray, speed: float) -> np.ndarray:
    """Preferred velocities: towards the target, at most ``speed``."""
    to_target = targets - positions
    length = np.linalg.norm(to_target, axis=-1, keepdims=True)
    return np.where(length > speed, to_target * (speed / np.maximum(length, 1e-300)), to_target)


def bench_vosim(starts, targets, params, time_step, threads: int, steps: int, warmup: int) -> float:
    import vosim

    vosim.set_num_threads(threads)
    batch = vosim.Batch(scenes=len(starts), time_step=time_step)
    batch.add_agents(starts, **{k: v for k, v in params.items() if k != "pref_speed"})
    speed = params["pref_speed"]
    actions = np.empty_like(starts)

    def prepare():
        actions[...] = policy(batch.positions, targets, speed)

    def step():
        batch.pref_velocities[...] = actions
        batch.step()

    return median_step_seconds(step, prepare, steps=steps, warmup=warmup)


def bench_pyrvo(starts, targets, params, time_step, steps: int, warmup: int) -> float:
    import pyrvo

    sims = []
    for start in starts:
        sim = pyrvo.RVOSimulator()
        sim.set_time_step(time_step)
        sim.set_agent_defaults(params["neighbor_dist"], params["max_neighbors"], params["time_horizon"],
                               params["time_horizon_obst"], params["radius"], params["max_speed"])
        for x, y in start.tolist():
            sim.add_agent((x, y))
        sims.append(sim)
    agents = starts.shape[1]
    speed = params["pref_speed"]
    actions = np.empty_like(starts)

    def prepare():
        positions = np.array([[sim.get_agent_position(i).to_tuple() for i in range(agents)] for sim in sims])
        actions[...] = policy(positions, targets, speed)

    def step():
        for sim, scene in zip(sims, actions.tolist()):
            for i, (x, y) in enumerate(scene):
                sim.set_agent_pref_velocity(i, (x, y))
            sim.do_step()

    return median_step_seconds(step, prepare, steps=steps, warmup=warmup)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenes", type=int, default=1024)
    parser.add_argument("--agents", type=int, default=16, help="agents per scene")
    add_timing_arguments(parser, steps=100)
    args = parser.parse_args()

    import vosim

    all_threads = vosim.get_num_threads()
    description = machine()
    print(f"{args.scenes} random crowds of {args.agents} agents, ORCA, preferred velocities from NumPy every step; "
          f"{description}")
    have_pyrvo = pyrvo_wanted_and_installed(args)
    starts, targets, params, time_step = scenes(args.scenes, args.agents)
    agent_steps = args.scenes * args.agents
    results = {}
    for threads in sorted({1, all_threads}):
        results[f"vosim_{threads}_threads"] = bench_vosim(starts, targets, params, time_step, threads,
                                                          args.steps, args.warmup)
    vosim.set_num_threads(all_threads)
    if have_pyrvo:
        results["pyrvo_loop"] = bench_pyrvo(starts, targets, params, time_step, args.steps, args.warmup)
    reference = results.get("pyrvo_loop")
    header = f"{'':>26} | {'per batched step':>16} | {'agent-steps/s':>13} | {'pyrvo / this':>12}"
    print(header)
    print("-" * len(header))
    for name, seconds in results.items():
        label = name.replace("_", " ").replace("1 threads", "1 thread").replace("loop", f"loop ({args.scenes} sims)")
        ratio = f"{reference / seconds:11.1f}x" if reference else f"{'n/a':>12}"
        print(f"{label:>26} | {seconds * 1e3:13.2f} ms | {agent_steps / seconds / 1e6:11.2f} M | {ratio}")
    if reference:
        best = results[f"vosim_{all_threads}_threads"]
        print(f"pyrvo loop / vosim Batch ({all_threads} threads): {reference / best:.1f}x "
              f"(target >= {TARGET_RATIO:.0f}x: {reference / best / TARGET_RATIO:.2f}x the target)")
    if args.json:
        args.json.write_text(json.dumps({"machine": description, "scenes": args.scenes, "agents": args.agents,
                                         "seconds_per_step": results, "target_ratio": TARGET_RATIO},
                                        indent=1) + "\n")


if __name__ == "__main__":
    main()
