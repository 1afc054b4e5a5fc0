"""JuPedSim's golden runs (tests/data/jupedsim) and the same scenes in vosim.

Each golden file carries its scene (walkable polygon, exits, starts, the
exit each agent walks to) and the model's parameters, as
``tools/record_jupedsim_golden.py`` wrote them; ``run_vosim`` rebuilds the
scene from the file alone and records the same quantities.

JuPedSim's agents are steered in two levels: its routing (the tactical
level) gives each agent, every step, the first corner of the shortest path
of a point from where the agent stands to its exit's centroid (a funnel on
its navigation mesh; the centroid itself when it is in sight), and its
models walk at the desired speed towards that point. ``JupedsimRouting``
gives vosim's agents the same point every step, so the comparison is of the
models (the operational level) alone.
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


def _cross(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]


def _blocked(p: np.ndarray, q: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Whether segment p-q (arrays (..., 2)) properly crosses any edge a-b ((edges, 2)): (...,) bools."""
    p, q = p[..., None, :], q[..., None, :]
    d = q - p
    o1, o2 = _cross(d, a - p), _cross(d, b - p)
    e = b - a
    o3, o4 = _cross(e, p - a), _cross(e, q - a)
    return ((o1 * o2 < 0) & (o3 * o4 < 0)).any(axis=-1)


class JupedsimRouting:
    """The first corner of the shortest path of a point inside a simple polygon to a target.

    Inside a simple polygon the shortest path bends only at reflex corners,
    so the point steered to is the target when it is in sight, else the
    reflex corner in sight that minimises the distance to it plus the
    corner's own shortest distance to the target (Dijkstra over the corners'
    visibility graph).
    """

    def __init__(self, walkable: np.ndarray, targets: np.ndarray):
        walkable = np.asarray(walkable, dtype=float)
        if _cross(walkable, np.roll(walkable, -1, axis=0)).sum() < 0:
            walkable = walkable[::-1]  # counter-clockwise: the interior on the left
        self.a, self.b = walkable, np.roll(walkable, -1, axis=0)
        before, after = np.roll(walkable, 1, axis=0), np.roll(walkable, -1, axis=0)
        self.corners = walkable[_cross(walkable - before, after - walkable) < 0]
        self.targets = np.asarray(targets, dtype=float)
        self.to_target = np.array([self._corner_distances(t) for t in self.targets])  # (targets, corners)

    def _corner_distances(self, target: np.ndarray) -> np.ndarray:
        c = self.corners
        n = len(c)
        distance = np.full(n, np.inf)
        sees_target = ~_blocked(c, np.broadcast_to(target, c.shape), self.a, self.b)
        distance[sees_target] = np.linalg.norm(c[sees_target] - target, axis=1)
        sees = ~_blocked(np.repeat(c, n, 0), np.tile(c, (n, 1)), self.a, self.b).reshape(n, n)
        hop = np.where(sees, np.linalg.norm(c[:, None] - c[None], axis=2), np.inf)
        done = np.zeros(n, dtype=bool)
        for _ in range(n):
            k = int(np.argmin(np.where(done, np.inf, distance)))
            if done[k] or not np.isfinite(distance[k]):
                break
            done[k] = True
            distance = np.minimum(distance, distance[k] + hop[k])
        return distance

    def waypoints(self, positions: np.ndarray, target_index: np.ndarray) -> np.ndarray:
        """The point each agent steers to now (its target, or the path's first corner)."""
        target = self.targets[target_index]
        out = target.copy()
        hidden = _blocked(positions, target, self.a, self.b)
        if hidden.any() and len(self.corners):
            p = positions[hidden]
            c = np.broadcast_to(self.corners, (len(p),) + self.corners.shape)
            sees = ~_blocked(np.broadcast_to(p[:, None], c.shape), c, self.a, self.b)
            cost = np.where(sees, np.linalg.norm(c - p[:, None], axis=2) + self.to_target[target_index[hidden]], np.inf)
            best = np.argmin(cost, axis=1)
            found = np.isfinite(cost[np.arange(len(p)), best])
            chosen = np.where(found[:, None], self.corners[best], target[hidden])
            out[hidden] = chosen
        return out


def vosim_method(model: str, p: dict):
    if model == "csm":
        return vosim.CollisionFreeSpeed(
            time_gap=p["time_gap"], neighbor_strength=p["strength_neighbor_repulsion"],
            neighbor_range=p["range_neighbor_repulsion"], wall_strength=p["strength_geometry_repulsion"],
            wall_range=p["range_geometry_repulsion"])
    return vosim.SocialForce(mass=p["mass"], reaction_time=p["reaction_time"], agent_scale=p["agent_scale"],
                             obstacle_scale=p["obstacle_scale"], force_distance=p["force_distance"],
                             body_force=p["body_force"], friction=p["friction"])


# How far beyond the routed point an agent's goal is put: JuPedSim's agents
# walk at their desired speed right up to it (vosim's goals phase slows an
# agent within pref_speed metres of its goal).
GOAL_REACH = 1000.0


def run_vosim(golden: dict, method=None, *, routed: bool = True, far_goals: bool = True) -> dict:
    """Run the golden file's scene in vosim; frames, exit times and path lengths as the recorder stores them.

    ``method`` replaces the model built from the file's parameters (to try
    variants); ``routed=False`` steers at the exit's centroid throughout,
    ``far_goals=False`` puts the goal on the routed point itself (vosim's
    goals phase then slows agents near it).
    """
    p = golden["parameters"]
    dt = p["dt"]
    sim = vosim.Simulator(time_step=dt, method=method or vosim_method(golden["model"], p))
    sim.add_boundary(golden["walkable"])
    for exit_area in golden["exits"]:
        sim.add_sink(exit_area)
    centroids = np.array([_centroid(e) for e in golden["exits"]])
    if routed:
        waypoints = JupedsimRouting(golden["walkable"], centroids).waypoints
    else:
        def waypoints(positions, exit_index):
            return centroids[exit_index]
    reach = GOAL_REACH if far_goals else None
    exit_of = np.asarray(golden["exit_of"])
    starts = golden["starts"].astype(float)
    sim.add_agents(starts, goals=_goals(starts, waypoints(starts, exit_of), reach), radius=p["radius"],
                   pref_speed=p["desired_speed"], max_speed=2.0 * p["desired_speed"], neighbor_dist=3.0,
                   max_neighbors=100, arrival_radius=0.0)
    stride = int(round(float(golden["frame_dt"]) / dt))
    steps = int(round(float(golden["duration"]) / dt))
    position = starts.copy()
    path_length = np.zeros(len(starts))
    frames = [position.copy()]
    for step in range(1, steps + 1):
        active = np.asarray(sim.active)
        goals = np.asarray(sim.goals)
        goals[active] = _goals(position[active], waypoints(position[active], exit_of[active]), reach)
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


def _goals(positions: np.ndarray, waypoints: np.ndarray, reach) -> np.ndarray:
    if reach is None:
        return waypoints
    way = waypoints - positions
    length = np.linalg.norm(way, axis=1, keepdims=True)
    return positions + np.where(length > 0, way / np.where(length > 0, length, 1.0) * reach, 0.0)


def _centroid(polygon: np.ndarray) -> np.ndarray:
    """The area centroid of a simple polygon (JuPedSim's exit target)."""
    x, y = polygon[:, 0], polygon[:, 1]
    xn, yn = np.roll(x, -1), np.roll(y, -1)
    w = x * yn - xn * y
    area = w.sum() / 2
    return np.array([((x + xn) * w).sum(), ((y + yn) * w).sum()]) / (6 * area)


def door_aggregates(run: dict) -> dict:
    """Agents out, last exit (s), and the door flow (agents/s) between the 10 % and the 90 % exit."""
    exit_time = np.asarray(run["exit_time"], dtype=float)
    t = np.sort(exit_time[np.isfinite(exit_time)])
    k10, k90 = round(0.1 * (len(t) - 1)), round(0.9 * (len(t) - 1))
    flow = (k90 - k10) / (t[k90] - t[k10]) if len(t) > 1 and t[k90] > t[k10] else float("nan")
    return {"agents": len(exit_time), "exited": len(t), "last_exit": float(t[-1]) if len(t) else float("nan"),
            "flow": float(flow)}
