"""JuPedSim and vosim side by side on the same scenes: exits, last exit, door flow.

Runs JuPedSim's CollisionFreeSpeedModel and SocialForceModel (in memory,
with the scenes and parameters of ``tools/record_jupedsim_golden.py``) and
vosim's CollisionFreeSpeed and SocialForce on the same scenes as the parity
tests build them (``tests/jupedsim_scenes.py``: JuPedSim's routing, every
step, and its exit timing). One run per row: the parity tests compare
medians over twelve, since a crowd at a door is chaotic. Needs JuPedSim installed (``pip install jupedsim==1.4.2``)::

    python tools/jupedsim_side_by_side.py            # the whole table
    python tools/jupedsim_side_by_side.py door       # rows whose label starts with "door"
    python tools/jupedsim_side_by_side.py --steer centroid   # vosim's agents steered at the exit's centroid

``--steer centroid`` gives vosim's agents the exit's centroid as their goal
throughout (the tests' steering before they followed JuPedSim's routing:
no routing round a door's post, and vosim's goals phase slows agents within
``pref_speed`` metres of the goal).
"""

import argparse
import math
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "tests"))

import record_jupedsim_golden as recorder  # noqa: E402
from jupedsim_scenes import door_aggregates, run_vosim  # noqa: E402
from vosim.validation._rimea_geometry import rimea_12_starts  # noqa: E402

# RiMEA 12's rooms as `vosim validate` builds them (two 10 m rooms joined by
# a 5 m x 1 m corridor, a 1 m exit opposite it) with the test's seed-0
# starts; the exit a 2 m bay behind the far door whose last 1.7 m remove
# agents.
recorder.SCENES["rimea12"] = {
    "walkable": [(0, -5), (10, -5), (10, -0.5), (15, -0.5), (15, -5), (25, -5), (25, -0.5), (27, -0.5),
                 (27, 0.5), (25, 0.5), (25, 5), (15, 5), (15, 0.5), (10, 0.5), (10, 5), (0, 5)],
    "exits": [[(25.3, -0.5), (27, -0.5), (27, 0.5), (25.3, 0.5)]],
    "starts": [tuple(q) for q in rimea_12_starts(150, np.random.default_rng(0))],
    "exit_of": [0] * 150,
    "duration": 400.0,
}

# (label, model, scene, parameter overrides)
ROWS = [
    ("free walk, 1 agent, 20 m", "csm", "free", {}),
    ("free walk, 1 agent, 20 m", "sfm", "free", {}),
    ("corridor 50 x 10 m, 100 agents", "csm", "crowd_corridor", {}),
    ("corridor 50 x 10 m, 100 agents", "sfm", "crowd_corridor", {}),
    ("door: room 10 x 10 m, 1 m door, 60 agents", "csm", "door", {}),
    ("door: room 10 x 10 m, 1 m door, 60 agents", "sfm", "door", {}),
    ("door, SFM friction 0", "sfm", "door", {"friction": 0.0}),
    ("bottleneck golden scene, r 0.25, v0 1.34", "sfm", "bottleneck", {"radius": 0.25, "desired_speed": 1.34}),
    ("bottleneck golden scene, r 0.25, v0 1.34", "csm", "bottleneck", {}),
    ("two exits, 40 agents", "csm", "two_exits", {}),
    ("two exits, 40 agents", "sfm", "two_exits", {}),
    ("corner, 20 agents", "csm", "corner", {}),
    ("corner, 20 agents", "sfm", "corner", {}),
    ("RiMEA 12 rooms, 150 agents (the test's seed 0 starts)", "csm", "rimea12", {}),
    ("RiMEA 12 rooms, 150 agents (the test's seed 0 starts), dt 0.1", "csm", "rimea12", {"dt": 0.1}),
]


def golden_in_memory(model, scene_name, overrides):
    """JuPedSim's run (one, from the scene's starts) as the recorder would store it, without writing it."""
    scene = recorder.SCENES[scene_name]
    p = {**recorder.parameters(model, scene), **overrides}
    data = recorder.run(model, scene, p, 50)
    data.update(recorder.routing(scene))
    data["model"] = model
    data["parameters"] = p
    return data


def describe(a):
    flow = "undefined (too few agents)" if math.isnan(a["flow"]) else f"{a['flow']:.3f} /s"
    return f"{a['exited']}/{a['agents']} out, last {a['last_exit']:.2f} s, flow {flow}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("only", nargs="?", default="", help="run only the rows whose label starts with this")
    parser.add_argument("--steer", choices=["routed", "centroid"], default="routed",
                        help="how vosim's agents are steered (default: as JuPedSim's routing)")
    args = parser.parse_args()
    routed = args.steer == "routed"
    print("| scene | model | JuPedSim | vosim |")
    print("|---|---|---|---|")
    for label, model, scene, overrides in ROWS:
        if not label.startswith(args.only):
            continue
        started = time.perf_counter()
        golden = golden_in_memory(model, scene, overrides)
        ours = run_vosim(golden, routed=routed, far_goals=routed)
        print(f"| {label} | {model} | {describe(door_aggregates(golden['exit_time']))} | {describe(door_aggregates(ours['exit_time']))} |"
              f" <!-- {time.perf_counter() - started:.0f} s -->", flush=True)


if __name__ == "__main__":
    main()
