"""Soak: long runs with random changes, checkpointed and resumed every 100
steps, compared bit for bit with the same runs left uninterrupted.

    python benchmarks/soak.py [--agent-steps 1000000] [--agents 60] [--seed 0] [--methods ORCA HRVO ...]

For each method, two simulators live through the same script: every 10
steps some agents are added (anywhere, strict=False), some removed, some
sent to new goals, and the moving obstacles turn. One runs straight
through; the other is checkpointed every 100 steps (pickle and save_state
in turn) and a fresh simulator resumes from the checkpoint. Positions,
velocities, headings, ids and goals must be the same bytes at every
checkpoint and at the end. The agent-steps are shared evenly among the
methods; the script prints each method's agent-steps, checkpoints and
wall time, and exits with status 1 on the first difference.
"""

from __future__ import annotations

import argparse
import pickle
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import vosim

METHODS = {
    "ORCA": lambda: vosim.ORCA(perturbation=0.01, seed=3),
    "ORCA, acceleration limit": lambda: vosim.ORCA(),  # agents get max_acceleration below
    "VO": lambda: vosim.VO(samples=40),
    "RVO": lambda: vosim.RVO(selection="geometric"),
    "HRVO": lambda: vosim.HRVO(),
    "AVO": lambda: vosim.AVO(),
    "AdaptiveSampling": lambda: vosim.AdaptiveSampling(),
    "GridSampling": lambda: vosim.GridSampling(grid_size=9),
    "ForceBased": lambda: vosim.ForceBased(perturbation=0.05, seed=8),
}
CHUNK = 10        # steps between changes
CHECKPOINT = 100  # steps between checkpoints
FIELDS = ("positions", "velocities", "headings", "ids", "goals")


def start(method: str, agents: int, seed: int) -> vosim.Simulator:
    rng = np.random.default_rng(seed)
    sim = vosim.Simulator(0.1, method=METHODS[method]())
    # Two square obstacles that move (and turn back) and one that stays.
    sim.add_obstacle([[-2.0, -2.0], [2.0, -2.0], [2.0, 2.0], [-2.0, 2.0]], velocity=(0.3, 0.0))
    sim.add_obstacle([[8.0, 8.0], [10.0, 8.0], [10.0, 10.0], [8.0, 10.0]], velocity=(0.0, -0.2))
    sim.add_obstacle([[-10.0, 6.0], [-7.0, 6.0], [-7.0, 9.0], [-10.0, 9.0]])
    add(sim, rng, agents, method)
    return sim


def add(sim: vosim.Simulator, rng: np.random.Generator, n: int, method: str) -> None:
    positions = rng.uniform(-15.0, 15.0, (n, 2))
    extra = {"max_acceleration": 4.0} if method == "ORCA, acceleration limit" else {}
    sim.add_agents(positions, goals=rng.uniform(-15.0, 15.0, (n, 2)), radius=rng.uniform(0.2, 0.5, n),
                   max_speed=rng.uniform(0.8, 2.0, n), neighbor_dist=5.0, time_horizon=2.0,
                   time_horizon_obst=1.0, strict=False, **extra)


def change(sim: vosim.Simulator, chunk: int, seed: int, method: str, agents: int) -> None:
    """The script's changes before chunk `chunk`: a function of the seed, the
    chunk and the simulator's state only, so both simulators make the same."""
    rng = np.random.default_rng([seed, chunk])
    ids = np.asarray(sim.ids)
    if len(ids) > agents // 2 and rng.random() < 0.5:
        sim.remove_agents(rng.choice(ids, size=rng.integers(1, 4), replace=False))
    if len(sim.ids) < 2 * agents and rng.random() < 0.5:
        add(sim, rng, int(rng.integers(1, 4)), method)
    ids = np.asarray(sim.ids)
    if len(ids) and rng.random() < 0.7:
        chosen = rng.choice(ids, size=min(len(ids), int(rng.integers(1, 6))), replace=False)
        sim.set_goals(chosen, rng.uniform(-15.0, 15.0, (len(chosen), 2)))
    if chunk % 5 == 0:  # the moving obstacles turn back now and then
        sign = -1.0 if (chunk // 5) % 2 else 1.0
        sim.set_obstacle_velocity(0, (0.3 * sign, 0.0))
        sim.set_obstacle_velocity(1, (0.0, -0.2 * sign))


def fingerprint(sim: vosim.Simulator) -> list[bytes]:
    return [np.ascontiguousarray(getattr(sim, name)).tobytes() for name in FIELDS]


def resume(sim: vosim.Simulator, k: int, folder: Path) -> vosim.Simulator:
    """A fresh simulator from a checkpoint of `sim`: pickle and save_state in turn."""
    if k % 2 == 0:
        return pickle.loads(pickle.dumps(sim))
    path = sim.save_state(folder / "checkpoint.npz")
    return vosim.load_state(path)


def soak(method: str, steps: int, agents: int, seed: int) -> tuple[int, int]:
    """Runs one method for `steps` steps both ways; returns (agent-steps, checkpoints)."""
    straight = start(method, agents, seed)
    resumed = start(method, agents, seed)
    agent_steps = checkpoints = 0
    with tempfile.TemporaryDirectory() as folder:
        for chunk in range(steps // CHUNK):
            for sim in (straight, resumed):
                change(sim, chunk, seed, method, agents)
                sim.run(CHUNK, record_every=CHUNK, metrics=False)
            agent_steps += CHUNK * straight.num_agents
            if (chunk + 1) * CHUNK % CHECKPOINT == 0:
                resumed = resume(resumed, checkpoints, Path(folder))
                checkpoints += 1
                if fingerprint(resumed) != fingerprint(straight):
                    raise AssertionError(f"{method}: the resumed run differs after {(chunk + 1) * CHUNK} steps")
    if fingerprint(resumed) != fingerprint(straight):
        raise AssertionError(f"{method}: the resumed run differs at the end")
    return agent_steps, checkpoints


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agent-steps", type=int, default=1_000_000, help="in all, over the methods")
    parser.add_argument("--agents", type=int, default=60, help="agents at the start (between half and twice that)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--methods", nargs="+", default=list(METHODS), choices=list(METHODS), metavar="METHOD")
    args = parser.parse_args()
    per_method = args.agent_steps / len(args.methods)
    steps = max(CHECKPOINT, int(round(per_method / args.agents / CHECKPOINT)) * CHECKPOINT)
    total = 0
    print(f"{'method':<26} {'agent-steps':>12} {'checkpoints':>12} {'seconds':>8}")
    for method in args.methods:
        started = time.perf_counter()
        try:
            agent_steps, checkpoints = soak(method, steps, args.agents, args.seed)
        except AssertionError as error:
            print(f"FAILED: {error}")
            sys.exit(1)
        total += agent_steps
        print(f"{method:<26} {agent_steps:>12,} {checkpoints:>12} {time.perf_counter() - started:>8.1f}", flush=True)
    print(f"{total:,} agent-steps in all; every resumed run bit-identical to the uninterrupted one")


if __name__ == "__main__":
    main()
