"""JuPedSim's golden runs (tests/data/jupedsim) and the same scenes in vosim.

Each golden file carries its scene (walkable polygon, exits, starts, the
exit each agent walks to) and the model's parameters, as
``tools/record_jupedsim_golden.py`` wrote them; ``run_vosim`` rebuilds the
scene from the file alone and records the same quantities.

JuPedSim's agents are steered in two levels: its routing (the tactical
level) gives each agent, every step, the first corner of its funnel from
where the agent stands to its exit's centroid through its navigation mesh,
each portal pulled 0.2 m in from its ends (the centroid itself once the
funnel sees it), and its models walk at the desired speed towards that
point. ``JupedsimRouting`` gives vosim's agents the same point every step,
and ``run_vosim`` removes agents at their exit when JuPedSim does, so the
comparison is of the models (the operational level) alone.
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


# JuPedSim pulls each portal's ends this far in before it straightens a path
# (RoutingEngine::straightenPath): its waypoint round a corner lies 0.2 m
# from the corner, along the portal of its navigation mesh.
PORTAL_SHRINK_M = 0.2


def _triarea(apex: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """JuPedSim's ``triarea2d``, in single precision as it computes it."""
    ax, ay = (a[:, 0] - apex[:, 0]).astype(np.float32), (a[:, 1] - apex[:, 1]).astype(np.float32)
    bx, by = (b[:, 0] - apex[:, 0]).astype(np.float32), (b[:, 1] - apex[:, 1]).astype(np.float32)
    return bx * ay - ax * by


class JupedsimRouting:
    """JuPedSim's routing on its own navigation mesh: the first waypoint from a point to a target.

    The mesh is JuPedSim's (its constrained Delaunay triangulation of the
    walkable polygon, recorded in the golden file). Inside a simple polygon
    the triangles' adjacency is a tree, so the channel of triangles from a
    point to the target is unique; the waypoint is the first corner of
    JuPedSim's funnel through that channel, with each portal's ends pulled
    in by ``PORTAL_SHRINK_M`` and its side tests in single precision, or the
    target itself when the point is in the target's triangle or the funnel
    sees it. Vectorised over agents.
    """

    def __init__(self, vertices: np.ndarray, triangles: np.ndarray, targets: np.ndarray):
        v = np.asarray(vertices, dtype=float)
        tri = np.array(triangles, dtype=int)
        a, b, c = v[tri[:, 0]], v[tri[:, 1]], v[tri[:, 2]]
        clockwise = _cross(b - a, c - a) < 0
        tri[clockwise] = tri[clockwise][:, ::-1]
        self.corners = v[tri]  # (faces, 3, 2), counter-clockwise
        self.targets = np.asarray(targets, dtype=float)
        edges: dict = {}
        for face, (i, j, k) in enumerate(tri):
            for s, e in ((i, j), (j, k), (k, i)):
                edges.setdefault(frozenset((s, e)), []).append((face, s, e))
        neighbours: dict = {face: [] for face in range(len(tri))}
        for shared in edges.values():
            if len(shared) == 2:
                (f1, s1, e1), (f2, s2, e2) = shared
                neighbours[f1].append((f2, s1, e1))  # f1 lies left of s1 -> e1
                neighbours[f2].append((f1, s2, e2))
        self.target_face = self.locate(self.targets)
        chains = []
        for target, target_face in zip(self.targets, self.target_face):
            towards = {target_face: None}  # face -> (next face, the portal's right and left corners)
            order = [target_face]
            for face in order:
                for other, s, e in neighbours[face]:
                    if other not in towards:
                        towards[other] = (face, v[e], v[s])  # seen from `other`, e is on the right
                        order.append(other)
            faces = []
            for face in range(len(tri)):
                portals = []
                while towards.get(face) is not None:
                    face, right, left = towards[face]
                    along = (right - left) / np.linalg.norm(right - left)
                    portals.append((left + along * PORTAL_SHRINK_M, right - along * PORTAL_SHRINK_M))
                faces.append(portals + [(target, target)])
            chains.append(faces)
        longest = max(len(portals) for faces in chains for portals in faces)
        # (targets, faces, portals, left/right, 2), padded with the target
        self.portals = np.empty((len(self.targets), len(tri), longest, 2, 2))
        for t, faces in enumerate(chains):
            for face, portals in enumerate(faces):
                self.portals[t, face] = self.targets[t]
                self.portals[t, face, :len(portals)] = portals

    def locate(self, points: np.ndarray) -> np.ndarray:
        """The triangle each point lies in (on an edge: the first that holds it)."""
        p = np.asarray(points, dtype=float)[:, None, :]
        a, b, c = (self.corners[None, :, k] for k in range(3))
        inside = (_cross(b - a, p - a) >= 0) & (_cross(c - b, p - b) >= 0) & (_cross(a - c, p - c) >= 0)
        face = np.argmax(inside, axis=1)
        if not inside[np.arange(len(face)), face].all():
            raise ValueError("a point outside JuPedSim's navigation mesh")
        return face

    def waypoints(self, positions: np.ndarray, target_index: np.ndarray) -> np.ndarray:
        """The point each agent steers to now."""
        apex = np.asarray(positions, dtype=float)
        target_index = np.asarray(target_index)
        face = self.locate(apex)
        out = self.targets[target_index].copy()
        chain = self.portals[target_index, face]
        left, right = apex.copy(), apex.copy()
        left_set, right_set = np.zeros(len(apex), bool), np.zeros(len(apex), bool)
        done = face == self.target_face[target_index]
        for k in range(chain.shape[1]):
            if done.all():
                break
            candidate_left, candidate_right = chain[:, k, 0], chain[:, k, 1]
            narrows = ~done & (_triarea(apex, right, candidate_right) <= 0)
            take = narrows & (~right_set | (_triarea(apex, left, candidate_right) > 0))
            crossed = narrows & ~take  # the right side crossed the left: the left corner is the waypoint
            out[crossed], done = left[crossed], done | crossed
            right, right_set = np.where(take[:, None], candidate_right, right), right_set | take
            narrows = ~done & (_triarea(apex, left, candidate_left) >= 0)
            take = narrows & (~left_set | (_triarea(apex, right, candidate_left) < 0))
            crossed = narrows & ~take
            out[crossed], done = right[crossed], done | crossed
            left, left_set = np.where(take[:, None], candidate_left, left), left_set | take
        return out


def routing_of(golden: dict) -> JupedsimRouting:
    return JupedsimRouting(golden["mesh_vertices"], golden["mesh_triangles"], golden["exit_targets"])


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

    As in JuPedSim, an agent found inside its exit area at the start of a
    step still takes that step (its neighbours see it) and is removed at the
    start of the next, which is its exit time: two steps after it entered.
    ``method`` replaces the model built from the file's parameters (to try
    variants); ``routed=False`` steers at the exit's centroid throughout,
    ``far_goals=False`` puts the goal on the routed point itself (vosim's
    goals phase then slows agents near it).
    """
    p = golden["parameters"]
    dt = p["dt"]
    sim = vosim.Simulator(time_step=dt, method=method or vosim_method(golden["model"], p))
    sim.add_boundary(golden["walkable"])
    targets = np.asarray(golden["exit_targets"], dtype=float)
    if routed:
        waypoints = routing_of(golden).waypoints
    else:
        def waypoints(positions, exit_index):
            return targets[exit_index]
    reach = GOAL_REACH if far_goals else None
    exit_of = np.asarray(golden["exit_of"])
    exits = [_counter_clockwise(np.asarray(e, dtype=float)) for e in golden["exits"]]
    starts = golden["starts"].astype(float)
    n = len(starts)
    ids = np.asarray(sim.add_agents(starts, goals=_goals(starts, waypoints(starts, exit_of), reach),
                                    radius=p["radius"], pref_speed=p["desired_speed"],
                                    max_speed=2.0 * p["desired_speed"], neighbor_dist=3.0, max_neighbors=100,
                                    arrival_radius=0.0))
    stride = int(round(float(golden["frame_dt"]) / dt))
    steps = int(round(float(golden["duration"]) / dt))
    position = starts.copy()
    present = np.ones(n, dtype=bool)
    leaving = np.zeros(n, dtype=bool)
    exit_time = np.full(n, np.nan)
    path_length = np.zeros(n)
    frames = [position.copy()]
    for step in range(1, steps + 1):
        if leaving.any():
            sim.remove_agents(ids[leaving])
            exit_time[leaving] = step * dt
            present &= ~leaving
        if not present.any():
            break
        live = np.flatnonzero(present)
        leaving = np.zeros(n, dtype=bool)
        for k, area in enumerate(exits):
            mine = live[exit_of[live] == k]
            leaving[mine[_inside_convex(area, position[mine])]] = True
        goals = _goals(position[live], waypoints(position[live], exit_of[live]), reach)
        sim.goals[:] = goals  # the simulator's slots hold the present agents in id order
        sim.step()
        new = np.asarray(sim.positions, dtype=float)
        path_length[live] += np.linalg.norm(new - position[live], axis=1)
        position[live] = new
        if step % stride == 0:
            frames.append(np.where(present[:, None], position, np.nan))
    return {"positions": np.array(frames), "exit_time": exit_time, "path_length": path_length}


def _counter_clockwise(polygon: np.ndarray) -> np.ndarray:
    return polygon if _cross(polygon, np.roll(polygon, -1, axis=0)).sum() > 0 else polygon[::-1]


def _inside_convex(polygon: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Whether each point lies inside a counter-clockwise convex polygon (its edges included)."""
    a, b = polygon[None], np.roll(polygon, -1, axis=0)[None]
    return (_cross(b - a, points[:, None, :] - a) >= 0).all(axis=1)


def _goals(positions: np.ndarray, waypoints: np.ndarray, reach) -> np.ndarray:
    if reach is None:
        return waypoints
    way = waypoints - positions
    length = np.linalg.norm(way, axis=1, keepdims=True)
    return positions + np.where(length > 0, way / np.where(length > 0, length, 1.0) * reach, 0.0)


def door_aggregates(exit_time: np.ndarray) -> dict:
    """Agents out, the last exit (s) and the door flow (agents/s) from the 10 % to the 90 % of the agents out.

    A run that jams (fewer agents out than the 90 % mark by the end) has an
    infinite last exit and a flow of 0, so that medians over runs rank it
    below every run that empties the room. With too few agents for the two
    marks to be different agents (one or two), the flow is undefined: NaN.
    """
    exit_time = np.asarray(exit_time, dtype=float)
    n = len(exit_time)
    t = np.sort(exit_time[np.isfinite(exit_time)])
    k10, k90 = round(0.1 * (n - 1)), round(0.9 * (n - 1))
    if k90 == k10:
        flow = float("nan")
    else:
        flow = (k90 - k10) / (t[k90] - t[k10]) if len(t) > k90 and t[k90] > t[k10] else 0.0
    last = float(t[-1]) if len(t) == n else float("inf")
    return {"agents": n, "exited": len(t), "last_exit": last, "flow": float(flow)}
