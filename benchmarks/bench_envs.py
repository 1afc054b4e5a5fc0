"""Environment steps per second: the vector environment (one Batch step) against Gymnasium's SyncVectorEnv.

    python benchmarks/bench_envs.py [--envs 256] [--humans 10] [--steps 200] [--sync-steps 20] [--threads 1]
                                    [--json out.json]

Both run ``vosim/CrowdNavigation-v0`` (circle crossing, ORCA humans,
holonomic robot) with the same random policy (uniform actions, drawn before
timing), autoresetting finished episodes:

- vector: ``gymnasium.make_vec(..., vectorization_mode="vector_entry_point")``,
  all environments advanced by one call into the engine;
- sync: ``gymnasium.make_vec(..., vectorization_mode="sync")``, Gymnasium's
  SyncVectorEnv stepping the single environment once per copy.

Reported: environment steps per second of each (``envs * steps / seconds``)
and their ratio. Target: the vector environment at least 10x the
SyncVectorEnv at 256 environments of 10 humans.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_orca import machine  # noqa: E402

TARGET_RATIO = 10.0


def env_steps_per_second(mode: str, envs: int, humans: int, steps: int, warmup: int) -> float:
    import gymnasium
    import vosim.envs  # noqa: F401 - registers the environment

    vector = gymnasium.make_vec("vosim/CrowdNavigation-v0", num_envs=envs, vectorization_mode=mode, humans=humans)
    vector.reset(seed=0)
    rng = np.random.default_rng(0)
    actions = rng.uniform(-1.0, 1.0, (warmup + steps, envs, 2)).astype(np.float32)
    for k in range(warmup):
        vector.step(actions[k])
    started = time.perf_counter()
    for k in range(warmup, warmup + steps):
        vector.step(actions[k])
    seconds = time.perf_counter() - started
    vector.close()
    return envs * steps / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--humans", type=int, default=10)
    parser.add_argument("--steps", type=int, default=200, help="timed steps of the vector environment")
    parser.add_argument("--sync-steps", type=int, default=20, help="timed steps of the SyncVectorEnv")
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--threads", type=int, default=1, help="vosim threads (both sides)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()

    import vosim

    description = machine()
    vosim.set_num_threads(args.threads)
    print(f"{args.envs} environments of {args.humans} humans, random actions, {args.threads} vosim thread(s); "
          f"{description}")
    vector = env_steps_per_second("vector_entry_point", args.envs, args.humans, args.steps, args.warmup)
    print(f"{'vector (one Batch)':>22} | {vector:12,.0f} env-steps/s")
    sync = env_steps_per_second("sync", args.envs, args.humans, args.sync_steps, args.warmup)
    print(f"{'SyncVectorEnv':>22} | {sync:12,.0f} env-steps/s")
    ratio = vector / sync
    print(f"vector / SyncVectorEnv: {ratio:.1f}x "
          f"(target >= {TARGET_RATIO:.0f}x: {ratio / TARGET_RATIO:.2f}x the target)")
    if args.json:
        args.json.write_text(json.dumps({"machine": description, "envs": args.envs, "humans": args.humans,
                                         "threads": args.threads, "env_steps_per_second":
                                         {"vector": vector, "sync": sync}, "ratio": ratio,
                                         "target_ratio": TARGET_RATIO}, indent=1) + "\n")


if __name__ == "__main__":
    main()
