"""Deadlock resolution options measured: arrival rate, makespan and extra path length.

    python benchmarks/deadlock_options.py [--seeds 8] [--scenarios ring headon_pair circle250 crossing]

ORCA on four scenes, each run for --seeds seeds as the scenes of one Batch
(a seed changes the perturbation's draws, the detours' hold times and
random sides, and crossing's layout), with every option: none (ORCA as
published, without the scenario's own perturbation), a perturbation of 0.05
and of 0.5 m/s, and the deadlock rules sidestep and random_side. Per option:

- arrived: share of agents that arrived, over all seeds;
- makespan: mean over seeds of the seconds until the last arrival, shown
  only when every seed finished (otherwise how many did);
- extra path: mean over the arrived agents of path length / straight
  distance - 1;
- min clearance: the smallest over all seeds (negative: overlap).

Scenes: ring (30 agents evenly spaced on a circle of radius 15 m, radius
0.5 m, max and preferred speed 1 m/s, time step 0.1 s: the jam RVO2 also
freezes in), headon_pair (the exact pair of vosim.Simulator's example:
RVO2's default agents of radius 0.5 m, 10 m apart, time step 0.25 s),
circle250 (RVO2's Circle) and crossing (vosim.scenarios).
"""

from __future__ import annotations

import argparse

import numpy as np

OPTIONS = {
    "none": {},
    "perturbation 0.05": {"perturbation": 0.05},
    "perturbation 0.5": {"perturbation": 0.5},
    "sidestep": {"deadlock": "sidestep"},
    "random_side": {"deadlock": "random_side"},
}


# The horizons and neighbourhood of RVO2's Circle example, vosim's defaults when
# the user guide's table (docs/guide/methods.md) was measured (its ring and pair are built for them).
RVO2_HORIZONS = dict(neighbor_dist=15.0, time_horizon=10.0, time_horizon_obst=10.0)


def ring_batch(seeds: int):
    import vosim

    batch = vosim.Batch(scenes=seeds, time_step=0.1)
    angles = np.linspace(0, 2 * np.pi, 30, endpoint=False)
    start = 15 * np.column_stack([np.cos(angles), np.sin(angles)])
    batch.add_agents(start, goals=-start, radius=0.5, max_speed=1.0, pref_speed=1.0, **RVO2_HORIZONS)
    return batch, 3000


def pair_batch(seeds: int):
    """The head-on pair of vosim.Simulator's example, with RVO2's Circle values (as measured), which stalls."""
    import vosim

    batch = vosim.Batch(scenes=seeds, time_step=0.25)
    batch.add_agents([[-5.0, 0.0], [5.0, 0.0]], goals=[[5.0, 0.0], [-5.0, 0.0]], radius=0.5, max_speed=2.0,
                     **RVO2_HORIZONS)
    return batch, 400


def scenario_batch(name: str, seeds: int):
    from vosim import scenarios

    factory = {"crossing": scenarios.crossing,
               "circle250": lambda seed: scenarios.circle(250, seed=seed)}[name]
    scenes = [factory(seed=seed) for seed in range(seeds)]
    return scenarios.build_batch(scenes), max(scene.max_steps for scene in scenes)


def measure(name: str, option: dict, seeds: int) -> dict:
    import warnings

    import vosim

    makers = {"ring": ring_batch, "headon_pair": pair_batch}
    batch, steps = makers[name](seeds) if name in makers else scenario_batch(name, seeds)
    # Replaces the scenario's own perturbation: every option is measured alone.
    batch.method = vosim.ORCA(seed=1, **option)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        traj = batch.run(steps, until_arrived=True, record_every=steps)
    m = traj.metrics
    seeking = np.asarray(traj.has_goal)
    arrived = seeking & (m["arrival_step"] >= 0)
    finished = np.isfinite(m["makespan"])
    extra = 1.0 / m["agent_path_efficiency"][arrived] - 1.0
    return {
        "arrived": arrived.sum() / seeking.sum(),
        "finished": int(finished.sum()),
        "makespan": float(np.mean(m["makespan"])) if finished.all() else float("nan"),
        "extra_path": float(np.mean(extra)) if extra.size else float("nan"),
        "min_clearance": float(np.min(m["min_clearance"])),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument("--scenarios", nargs="+", default=["ring", "headon_pair", "circle250", "crossing"],
                        choices=["ring", "headon_pair", "circle250", "crossing"])
    args = parser.parse_args()
    print("| scene | option | arrived | makespan | extra path | min clearance |")
    print("|---|---|---|---|---|---|")
    for name in args.scenarios:
        for label, option in OPTIONS.items():
            r = measure(name, option, args.seeds)
            makespan = (f"{r['makespan']:.1f} s" if np.isfinite(r["makespan"])
                        else f"– ({r['finished']}/{args.seeds} finished)")
            print(f"| {name} | {label} | {100 * r['arrived']:.0f} % | {makespan} | "
                  f"{100 * r['extra_path']:.1f} % | {r['min_clearance']:+.3f} m |", flush=True)


if __name__ == "__main__":
    main()
