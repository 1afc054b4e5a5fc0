"""JuPedSim's golden runs (tests/data/jupedsim) and the same scenes in vosim.

Each golden file carries its scene (walkable polygon, exits, starts, the
exit each agent walks to) and the model's parameters, as
``tools/record_jupedsim_golden.py`` wrote them; ``run_vosim`` rebuilds the
scene from the file alone and records the same quantities.
"""

from pathlib import Path

import numpy as np

import vosim

DATA = Path(__file__).parent / "data" / "jupedsim"


def load_golden(model: str, scene: str) -> dict:
    with np.load(DATA / f"{model}_{scene}.npz") as data:
        golden = {key: data[key] for key in data.files}
    golden["model"] = model
    golden["parameters"] = dict(zip(golden["parameter_names"].tolist(), golden["parameter_values"].tolist()))
    return golden


def vosim_method(model: str, p: dict):
    if model == "csm":
        return vosim.CollisionFreeSpeed(
            time_gap=p["time_gap"], neighbor_strength=p["strength_neighbor_repulsion"],
            neighbor_range=p["range_neighbor_repulsion"], wall_strength=p["strength_geometry_repulsion"],
            wall_range=p["range_geometry_repulsion"])
    return vosim.SocialForce(mass=p["mass"], reaction_time=p["reaction_time"], agent_scale=p["agent_scale"],
                             obstacle_scale=p["obstacle_scale"], force_distance=p["force_distance"],
                             body_force=p["body_force"], friction=p["friction"])


def run_vosim(golden: dict) -> dict:
    """Run the golden file's scene in vosim; frames, exit times and path lengths as the recorder stores them."""
    p = golden["parameters"]
    dt = p["dt"]
    sim = vosim.Simulator(time_step=dt, method=vosim_method(golden["model"], p))
    sim.add_boundary(golden["walkable"])
    for exit_area in golden["exits"]:
        sim.add_sink(exit_area)
    # JuPedSim steers to an exit's centre (each start sees it: no routing needed).
    centres = np.array([e.mean(axis=0) for e in golden["exits"]])
    starts = golden["starts"]
    sim.add_agents(starts, goals=centres[golden["exit_of"]], radius=p["radius"], pref_speed=p["desired_speed"],
                   max_speed=2.0 * p["desired_speed"], neighbor_dist=3.0, max_neighbors=100)
    stride = int(round(float(golden["frame_dt"]) / dt))
    steps = int(round(float(golden["duration"]) / dt))
    position = starts.astype(float).copy()
    path_length = np.zeros(len(starts))
    frames = [position.copy()]
    for step in range(1, steps + 1):
        sim.step()
        active = np.asarray(sim.active)
        new = np.asarray(sim.positions, dtype=float)
        path_length += np.where(active | (np.asarray(sim.exit_time) == step * dt),
                                np.linalg.norm(new - position, axis=1), 0.0)
        position = new.copy()
        if step % stride == 0:
            frames.append(np.where(active[:, None], new, np.nan))
        if not active.any():
            break
    exit_time = np.asarray(sim.exit_time, dtype=float)
    return {"positions": np.array(frames), "exit_time": exit_time, "path_length": path_length}
