"""Record golden data from JuPedSim for vosim's pedestrian-model parity tests.

Runs JuPedSim's CollisionFreeSpeedModel and SocialForceModel on small
scenes with explicit start positions (no randomness): a corridor (a
following pair and a lone walker), a head-on pair in a corridor, a
bottleneck (56 agents leaving a room through a 1 m door), and the door
scenes: a 10 m x 10 m room with a 1 m door (60 agents), a room with two
exits (40) and an L-shaped corridor round a corner (20). Each run is
written to ``tests/data/jupedsim/<model>_<scene>.npz`` together with the
scene itself (walkable polygon, exits, starts, parameters), so the tests
rebuild the scene from the file alone. ``SCENES`` also holds scenes that
``tools/jupedsim_side_by_side.py`` compares without recording them.

It imports jupedsim, so run it with an interpreter that has JuPedSim
installed (never from the tests)::

    python tools/record_jupedsim_golden.py --out tests/data/jupedsim
"""

import argparse
import os
import tempfile

import jupedsim as jps
import numpy as np
import shapely

# Scene definitions: walkable polygon (counter-clockwise), exit polygons,
# agents' starts and the index of the exit each one walks to.
SCENES = {
    "corridor": {
        "walkable": [(0, 0), (30, 0), (30, 3), (0, 3)],
        "exits": [[(28, 0), (30, 0), (30, 3), (28, 3)]],
        # a leader, its follower 0.8 m behind (spacing 0.3 m for radius
        # 0.25) and a lone walker off the axis, heading diagonally.
        "starts": [(4.0, 1.5), (3.2, 1.5), (1.0, 0.8)],
        "exit_of": [0, 0, 0],
        "duration": 40.0,
    },
    "headon": {
        "walkable": [(0, 0), (20, 0), (20, 3), (0, 3)],
        "exits": [[(19, 0), (20, 0), (20, 3), (19, 3)], [(0, 0), (1, 0), (1, 3), (0, 3)]],
        "starts": [(2.0, 1.55), (18.0, 1.45)],
        "exit_of": [0, 1],
        "duration": 40.0,
    },
    "bottleneck": {
        # 8 m x 8 m room, a 1 m door at x = 8, a 1 m wide, 4 m long corridor.
        "walkable": [(0, 0), (8, 0), (8, 3.5), (12, 3.5), (12, 4.5), (8, 4.5), (8, 8), (0, 8)],
        # the exit is the door's first metre: exit times are door passages.
        "exits": [[(8, 3.5), (9, 3.5), (9, 4.5), (8, 4.5)]],
        # 8 columns x 7 rows at 0.6 m; every start sees the exit's centre
        # through the door (no routing round the door's posts needed).
        "starts": [(1.0 + 0.6 * i, 2.0 + 0.6 * j) for i in range(8) for j in range(7)],
        "exit_of": [0] * 56,
        "duration": 120.0,
    },
    # "free" is not recorded (RECORDED below): compared side by side only,
    # by tools/jupedsim_side_by_side.py.
    "free": {
        "walkable": [(0, 0), (25, 0), (25, 4), (0, 4)],
        "exits": [[(22, 0), (25, 0), (25, 4), (22, 4)]],
        "starts": [(2.0, 2.0)],  # 20 m from the exit
        "exit_of": [0],
        "duration": 30.0,
        "sfm": {"radius": 0.25, "desired_speed": 1.34},
    },
    "crowd_corridor": {
        # 50 m x 10 m, the exit its last 2 m; 100 agents on a 0.8 m grid.
        "walkable": [(0, 0), (50, 0), (50, 10), (0, 10)],
        "exits": [[(48, 0), (50, 0), (50, 10), (48, 10)]],
        "starts": [(1.0 + 0.8 * i, 1.4 + 0.8 * j) for i in range(10) for j in range(10)],
        "exit_of": [0] * 100,
        "duration": 120.0,
        "sfm": {"radius": 0.25, "desired_speed": 1.34},
    },
    "door": {
        # 10 m x 10 m room, a 1 m door in the middle of its right wall, a
        # 1 m wide, 4 m long corridor behind it; the exit is the door's
        # first metre. 60 agents on a 0.8 m grid (6 x 10), 0.1 m off the
        # door's axis (a grid symmetric about it can jam two agents abreast
        # in the door for good).
        "walkable": [(0, 0), (10, 0), (10, 4.5), (14, 4.5), (14, 5.5), (10, 5.5), (10, 10), (0, 10)],
        "exits": [[(10, 4.5), (11, 4.5), (11, 5.5), (10, 5.5)]],
        "starts": [(1.0 + 0.8 * i, 1.3 + 0.8 * j) for i in range(6) for j in range(10)],
        "exit_of": [0] * 60,
        "duration": 120.0,
        "sfm": {"radius": 0.25, "desired_speed": 1.34},
    },
    "two_exits": {
        # 10 m x 10 m room, two 1 m doors in its right wall (centred at
        # y = 2.5 and 7.5), a 2 m deep exit area behind each; 40 agents on a
        # 0.8 m grid (5 x 8), the lower four rows to the lower door.
        "walkable": [(0, 0), (10, 0), (10, 2), (12, 2), (12, 3), (10, 3), (10, 7), (12, 7), (12, 8),
                     (10, 8), (10, 10), (0, 10)],
        "exits": [[(10, 2), (11, 2), (11, 3), (10, 3)], [(10, 7), (11, 7), (11, 8), (10, 8)]],
        "starts": [(2.0 + 0.8 * i, 2.2 + 0.8 * j) for i in range(5) for j in range(8)],
        "exit_of": [0 if j < 4 else 1 for i in range(5) for j in range(8)],
        "duration": 80.0,
        "sfm": {"radius": 0.25, "desired_speed": 1.34},
    },
    "corner": {
        # an L-shaped corridor 2 m wide: 12 m along x, then 10 m up along
        # y round a 90 degree corner; the exit is its last 2 m. 20 agents
        # in the first leg, none of which sees the exit.
        "walkable": [(0, 0), (12, 0), (12, 12), (10, 12), (10, 2), (0, 2)],
        "exits": [[(10, 10), (12, 10), (12, 12), (10, 12)]],
        "starts": [(1.0 + 0.7 * i, 0.5 + 1.0 * j) for i in range(10) for j in range(2)],
        "exit_of": [0] * 20,
        "duration": 60.0,
        "sfm": {"radius": 0.25, "desired_speed": 1.34},
    },
}



# Models: JuPedSim's defaults except the agents' radius and preferred speed
# where noted; dt is JuPedSim's default (0.01 s, also its SFM examples').
MODELS = {
    "csm": {"dt": 0.01, "radius": 0.25, "desired_speed": 1.34, "time_gap": 1.0,
            "strength_neighbor_repulsion": 8.0, "range_neighbor_repulsion": 0.1,
            "strength_geometry_repulsion": 5.0, "range_geometry_repulsion": 0.02},
    "sfm": {"dt": 0.01, "radius": 0.3, "desired_speed": 0.8, "mass": 80.0, "reaction_time": 0.5,
            "agent_scale": 2000.0, "obstacle_scale": 2000.0, "force_distance": 0.08,
            "body_force": 120000.0, "friction": 240000.0},
}

RECORDED = ["corridor", "headon", "bottleneck", "door", "two_exits", "corner", "crowd_corridor"]
# Crowds at a door are chaotic, so JuPedSim runs each of these ENSEMBLE_RUNS
# times: from the recorded starts, then from copies moved by up to
# ENSEMBLE_JITTER_M (seeded: copy k uses numpy's default_rng(k)); the tests
# run vosim from the same starts and compare the medians.
ENSEMBLE_SCENES = ["bottleneck", "door", "two_exits", "corner"]
ENSEMBLE_RUNS, ENSEMBLE_JITTER_M = 12, 1e-3
# Points where the routing is probed (JuPedSim's own waypoint recorded for
# each), so the tests can check their copy of it.
ROUTE_PROBES = 400
FRAME_STRIDE = {"corridor": 10, "headon": 10, "bottleneck": 50, "door": 50, "two_exits": 50,
                "corner": 50, "crowd_corridor": 50}  # steps between stored frames


def parameters(model_name, scene):
    """The model's parameters for `scene`: MODELS[model_name] with the scene's overrides."""
    return {**MODELS[model_name], **scene.get(model_name, {})}


def build(model_name, scene, p=None):
    p = p or parameters(model_name, scene)
    if model_name == "csm":
        model = jps.CollisionFreeSpeedModel(
            strength_neighbor_repulsion=p["strength_neighbor_repulsion"],
            range_neighbor_repulsion=p["range_neighbor_repulsion"],
            strength_geometry_repulsion=p["strength_geometry_repulsion"],
            range_geometry_repulsion=p["range_geometry_repulsion"])
    else:
        model = jps.SocialForceModel(body_force=p["body_force"], friction=p["friction"])
    sim = jps.Simulation(model=model, geometry=shapely.Polygon(scene["walkable"]), dt=p["dt"])
    exits = [sim.add_exit_stage(shapely.Polygon(e)) for e in scene["exits"]]
    journeys = [sim.add_journey(jps.JourneyDescription([e])) for e in exits]
    ids = []
    for start, k in zip(scene["starts"], scene["exit_of"]):
        if model_name == "csm":
            params = jps.CollisionFreeSpeedModelAgentParameters(
                position=start, journey_id=journeys[k], stage_id=exits[k], time_gap=p["time_gap"],
                desired_speed=p["desired_speed"], radius=p["radius"])
        else:
            params = jps.SocialForceModelAgentParameters(
                position=start, journey_id=journeys[k], stage_id=exits[k], mass=p["mass"],
                desired_speed=p["desired_speed"], reaction_time=p["reaction_time"],
                agent_scale=p["agent_scale"], obstacle_scale=p["obstacle_scale"],
                force_distance=p["force_distance"], radius=p["radius"])
        ids.append(sim.add_agent(params))
    return sim, ids


def jittered_starts(scene, run):
    """The starts of ensemble run `run`: the scene's own for run 0, else moved by up to ENSEMBLE_JITTER_M."""
    starts = np.array(scene["starts"], dtype=float)
    if run == 0:
        return starts
    return starts + np.random.default_rng(run).uniform(-ENSEMBLE_JITTER_M, ENSEMBLE_JITTER_M, starts.shape)


def exit_centroids(scene):
    return [tuple(shapely.Polygon(e).centroid.coords[0]) for e in scene["exits"]]


def routing(scene):
    """JuPedSim's navigation mesh of the scene and its waypoints at random points inside it."""
    polygon = shapely.Polygon(scene["walkable"])
    engine = jps.RoutingEngine(polygon)
    vertices, triangles = engine.mesh()
    rng = np.random.default_rng(0)
    x0, y0, x1, y1 = polygon.bounds
    points = rng.uniform([x0, y0], [x1, y1], (50 * ROUTE_PROBES, 2))
    points = points[shapely.contains_xy(polygon, points[:, 0], points[:, 1])][:ROUTE_PROBES]
    waypoints = np.array([[engine.compute_waypoints(tuple(q), target)[1] for q in points]
                          for target in exit_centroids(scene)])
    return {"exit_targets": np.array(exit_centroids(scene)), "mesh_vertices": np.array(vertices, dtype=float), "mesh_triangles": np.array(triangles, dtype=np.int64),
            "route_probes": points, "route_waypoints": waypoints}


def record(model_name, scene_name, p=None, stride=None):
    scene = SCENES[scene_name]
    p = p or parameters(model_name, scene)
    data = run(model_name, scene, p, stride or FRAME_STRIDE[scene_name])
    data.update(routing(scene))
    if scene_name in ENSEMBLE_SCENES:
        runs = [data["exit_time"]]
        for k in range(1, ENSEMBLE_RUNS):
            moved = {**scene, "starts": [tuple(q) for q in jittered_starts(scene, k)]}
            runs.append(run(model_name, moved, p, stride or FRAME_STRIDE[scene_name])["exit_time"])
        data["ensemble_exit_time"] = np.array(runs)
        data["ensemble_jitter_m"] = np.float64(ENSEMBLE_JITTER_M)
    return data


def run(model_name, scene, p, stride):
    """One JuPedSim run of `scene`: frames, exit times, path lengths and the scene itself."""
    sim, ids = build(model_name, scene, p)
    n = len(ids)
    index = {agent_id: i for i, agent_id in enumerate(ids)}
    steps = int(round(scene["duration"] / p["dt"]))
    position = np.array(scene["starts"], dtype=float)
    exit_time = np.full(n, np.nan)
    path_length = np.zeros(n)
    frames = [position.copy()]
    for step in range(1, steps + 1):
        sim.iterate()
        new = np.full((n, 2), np.nan)
        for agent in sim.agents():
            new[index[agent.id]] = agent.position
        gone = np.isnan(new[:, 0]) & np.isnan(exit_time)
        exit_time[gone] = step * p["dt"]
        moved = ~np.isnan(new[:, 0])
        path_length[moved] += np.linalg.norm(new[moved] - position[moved], axis=1)
        position = np.where(np.isnan(new), position, new)
        if step % stride == 0:
            frames.append(new)
        if sim.agent_count() == 0:
            break
    return {
        "positions": np.array(frames, dtype=np.float32),   # (frames, agents, 2); NaN after exit
        "frame_dt": np.float64(stride * p["dt"]),
        "exit_time": exit_time,
        "path_length": path_length,
        "walkable": np.array(scene["walkable"], dtype=float),
        "exits": np.array([np.array(e, dtype=float) for e in scene["exits"]]),
        "starts": np.array(scene["starts"], dtype=float),
        "exit_of": np.array(scene["exit_of"]),
        "duration": np.float64(scene["duration"]),
        "parameter_names": np.array(sorted(p)),
        "parameter_values": np.array([float(p[k]) for k in sorted(p)]),
        "jupedsim_version": np.array(jps.__version__),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="folder for the .npz files")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for model_name in MODELS:
        for scene_name in RECORDED:
            data = record(model_name, scene_name)
            path = os.path.join(args.out, f"{model_name}_{scene_name}.npz")
            fd, tmp = tempfile.mkstemp(dir=args.out, suffix=".npz")
            os.close(fd)
            np.savez_compressed(tmp, **data)
            os.replace(tmp, path)
            t = data["exit_time"]
            print(f"{model_name} {scene_name}: {np.isfinite(t).sum()}/{len(t)} exited, "
                  f"last {np.nanmax(t) if np.isfinite(t).any() else float('nan'):.2f} s -> {path}")


if __name__ == "__main__":
    main()
