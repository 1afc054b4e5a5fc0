"""Fingerprints of vosim's behaviour: one SHA-256 per (scene, method) case.

    python benchmarks/trajectory_hashes.py [--steps 40] [--threads 1 2] > hashes.txt

Runs the grid crowd (benchmarks/grid_crowd.py, 2D and 3D) and every ready-made
scenario of ``vosim.scenarios`` for a few dozen steps with every method that
applies to its dimensions (each with its defaults, plus the variants that
take other code paths: ORCA's acceleration clamp and NH-ORCA, VO/RVO's
geometric selection, HRVO's sampling, AVO's AVO2 variant, a deadlock rule),
then prints a SHA-256 of every field of the engine's agent table and of the
run metrics. A refactoring that must not change behaviour leaves every line
identical: run it before and after and ``diff`` the outputs. Each case is
run at every ``--threads`` count and the hash must not depend on it (a line
says so when it does).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from grid_crowd import vosim_simulator  # noqa: E402


def methods_for(dimensions: int):
    """(label, method) for every method of ``dimensions`` and the variants with code paths of their own."""
    from vosim.methods import METHODS

    cases = [(name, cls()) for name, cls in METHODS.items() if dimensions in _dimensions(name)]
    extra = {
        "ORCA": [("acceleration=clamp", {"acceleration": "clamp"}), ("nonholonomic=nh_orca", {"nonholonomic": "nh_orca"}),
                 ("deadlock=sidestep", {"deadlock": "sidestep", "perturbation": 1e-3, "seed": 7})],
        "VO": [("selection=geometric", {"selection": "geometric"})],
        "RVO": [("selection=geometric", {"selection": "geometric"})],
        "HRVO": [("selection=sampling", {"selection": "sampling"})],
        "AVO": [("variant=avo2", {"variant": "avo2"})],
    }
    out = []
    for name, method in cases:
        out.append((name, method))
        for label, changes in extra.get(name, []):
            out.append((f"{name}({label})", replace(method, **changes)))
    return out


def _dimensions(name: str) -> tuple:
    from vosim import _core

    return next(tuple(spec["dimensions"]) for spec in _core.METHODS if spec["name"] == name)


def fingerprint(sim, trajectory) -> str:
    """SHA-256 over every public agent field, the recorded frames and every run metric but the timings."""
    from vosim._fields import FIELDS

    digest = hashlib.sha256()
    for name in FIELDS:
        if not hasattr(sim, name):
            continue  # internal fields (new_velocities) are not public views
        array = np.ascontiguousarray(getattr(sim, name))
        digest.update(name.encode())
        digest.update(array.tobytes())
    digest.update(np.ascontiguousarray(trajectory.positions).tobytes())
    digest.update(np.ascontiguousarray(trajectory.velocities).tobytes())
    for key, value in sorted((trajectory.metrics or {}).items()):
        if key.startswith("time_"):
            continue  # wall-clock time per phase differs from run to run
        digest.update(key.encode())
        digest.update(np.ascontiguousarray(value).tobytes())
    return digest.hexdigest()


def _mixed_drives(sim):
    """The grid crowd with bounded accelerations and a third differential drives, a sixth unicycles."""
    n = sim.num_agents
    kinds = np.array(["holonomic"] * n, dtype=object)
    kinds[::3] = "differential_drive"
    kinds[1::6] = "unicycle"
    sim.kinematics = kinds
    sim.max_angular_speed = 3.0
    sim.max_acceleration = 6.0
    return sim


def scenes(grid_size: int):
    """(label, dimensions, builder(method) -> Simulator) for every scene."""
    from vosim.scenarios import ALL_SCENARIOS

    yield "grid_crowd", 2, lambda method: vosim_simulator(grid_size, seed=0, method=method)
    yield "grid_crowd3d", 3, lambda method: vosim_simulator(grid_size, seed=0, method=method, dimensions=3)
    yield "grid_crowd_mixed_drives", 2, lambda method: _mixed_drives(vosim_simulator(grid_size, seed=1, method=method))
    small = {"circle": {"n": 40, "radius": 20.0}}
    for name, factory in ALL_SCENARIOS.items():
        scenario = factory(**small.get(name, {}))
        yield name, scenario.dimensions, scenario.build


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--steps", type=int, default=40, help="steps per case (default 40)")
    parser.add_argument("--grid-size", type=int, default=200, help="agents of the grid crowd (default 200)")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2], help="thread counts (default 1 2)")
    args = parser.parse_args()

    import vosim

    for scene, dimensions, build in scenes(args.grid_size):
        for label, method in methods_for(dimensions):
            hashes = set()
            for threads in args.threads:
                vosim.set_num_threads(threads)
                try:
                    sim = build(method)
                    trajectory = sim.run(args.steps)
                except ValueError as error:  # a method that refuses a scene (AVO2 without max_acceleration)
                    hashes.add(f"refused: {error}")
                    continue
                hashes.add(fingerprint(sim, trajectory))
            text = hashes.pop() if len(hashes) == 1 else "DIFFERS ACROSS THREAD COUNTS " + " ".join(sorted(hashes))
            print(f"{scene:>28} {label:>32} {text}", flush=True)


if __name__ == "__main__":
    main()
