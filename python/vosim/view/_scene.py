"""What the viewer shows of a run: one scene's frames as typed arrays, its geometry as JSON-ready lists.

A scene is ``meta`` (a dict that JSON can hold: counts, times, obstacles,
sinks, speed zones, 3D shapes, bounds, the thinning chosen) and ``buffers``
(C-contiguous typed arrays: float32 positions, uint8 speeds, ...). The
front end (``viewer.js``) reads the same two parts from a page or a widget.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._checks import integer
from .._places import checked_places
from .._scene_frames import in_scene, scene_arrays

#: Ways to colour the agents, as the front end names them.
COLOR_BY = ("speed", "arrival", "density", "agent")
#: A frame index no run reaches: "never" for the frame an agent arrives or leaves.
NEVER = np.iinfo(np.int32).max


@dataclass
class ViewScene:
    """One scene for the viewer: ``meta`` (JSON-ready) and ``buffers`` (name -> typed array)."""

    meta: dict
    buffers: dict

    @property
    def data_bytes(self) -> int:
        """Bytes of the typed arrays (before any encoding)."""
        return sum(int(array.nbytes) for array in self.buffers.values())


def check_color_by(color_by) -> str:
    if color_by not in COLOR_BY:
        raise ValueError(f"color_by is {color_by!r}; expected one of {', '.join(map(repr, COLOR_BY))}")
    return color_by


def kept_agents(live: np.ndarray, max_agents) -> tuple[np.ndarray, int]:
    """The slots shown (every k-th live one, at most ``max_agents``) and k."""
    slots = np.flatnonzero(live)
    if max_agents is None or len(slots) <= max_agents:
        return slots, 1
    every = -(-len(slots) // max_agents)
    return slots[::every], every


def quantised_speeds(speed: np.ndarray, scale: float) -> np.ndarray:
    """Speeds as uint8, 255 meaning ``scale`` (the front end multiplies back)."""
    speed = np.nan_to_num(speed, nan=0.0, posinf=scale, neginf=0.0)
    return np.clip(np.rint(speed * (255.0 / scale)), 0, 255).astype(np.uint8)


def geometry(source, scene, dims: int) -> dict:
    """Obstacles, sinks, speed zones and waiting stages (plane) or obstacle shapes (space) of ``source`` for one scene.

    ``source`` is a Trajectory (obstacles only: it records no sinks, zones
    or stages), a Simulator or a Batch (all of them).
    """
    def mine(owner):
        return scene is None or owner is None or owner == scene

    found = {"obstacles": [], "sinks": [], "zones": [], "shapes": [], "places": [], "stages": []}
    if dims == 2:
        for kind, vertices, owner in getattr(source, "obstacles", ()) or ():
            if mine(owner):
                found["obstacles"].append({"kind": kind, "points": np.asarray(vertices, float).tolist()})
        for sink in getattr(source, "sinks", ()) if hasattr(source, "add_sink") else ():
            if mine(sink.scene):
                found["sinks"].append({"kind": sink.kind, "points": np.asarray(sink.points, float).tolist()})
        for zone in getattr(source, "speed_zones", ()) if hasattr(source, "add_speed_zone") else ():
            if mine(zone.scene):
                found["zones"].append({"factor": zone.factor, "points": np.asarray(zone.polygon, float).tolist()})
        for stage in getattr(source, "waiting_stages", ()) if hasattr(source, "add_queue") else ():
            if mine(stage.scene):
                found["stages"].append({"kind": stage.kind, "points": np.asarray(stage.slots, float).tolist()})
        return found
    from .._shape_list import shapes_of
    from ..shapes3d import Box, ConvexPolyhedron, HalfSpace, Sphere

    items = source if hasattr(source, "obstacle_shapes") else getattr(source, "obstacles", ())
    for shape in shapes_of(items, scene=scene):
        if isinstance(shape, Sphere):
            found["shapes"].append({"kind": "sphere", "center": shape.center.tolist(), "radius": shape.radius})
        elif isinstance(shape, Box):
            found["shapes"].append({"kind": "box", "corners": shape.corners().tolist()})
        elif isinstance(shape, ConvexPolyhedron):
            found["shapes"].append({"kind": "faces", "faces": polyhedron_faces(shape)})
        elif isinstance(shape, HalfSpace):
            # Its plane is drawn as a grid once the bounds of everything else are known (plane_grids).
            found["shapes"].append({"kind": "plane", "point": shape.point.tolist(), "normal": shape.normal.tolist()})
    return found


def polyhedron_faces(shape) -> list:
    """Each face of a convex polyhedron as the loop of its corners, in order round the face."""
    vertices = np.asarray(shape.vertices, float)
    scale = max(1.0, float(np.abs(vertices).max(initial=0.0)))
    faces = []
    for normal, offset in zip(np.asarray(shape.normals, float), np.asarray(shape.offsets, float)):
        on = vertices[np.abs(vertices @ normal - offset) <= 1e-9 * scale]
        if len(on) < 3:
            continue
        centre = on.mean(axis=0)
        u = on[0] - centre
        u /= np.linalg.norm(u)
        w = np.cross(normal, u)
        order = np.argsort(np.arctan2((on - centre) @ w, (on - centre) @ u))
        faces.append(on[order].tolist())
    return faces


def plane_grids(shapes: list, low, high) -> None:
    """Give each half-space's entry the lines of a grid on its plane, a square as wide as the bounds' box round
    the point of the plane nearest the box's centre (a plane has no edges of its own to draw)."""
    low, high = np.asarray(low, float), np.asarray(high, float)
    centre, size = (low + high) / 2, float(np.max(high - low))
    for shape in shapes:
        if shape["kind"] != "plane":
            continue
        normal, point = np.asarray(shape["normal"]), np.asarray(shape["point"])
        middle = centre - ((centre - point) @ normal) * normal
        u = np.cross(normal, [1.0, 0.0, 0.0] if abs(normal[0]) < 0.9 else [0.0, 1.0, 0.0])
        u /= np.linalg.norm(u)
        w = np.cross(normal, u)
        ticks = np.linspace(-size / 2, size / 2, 9)
        lines = [[(middle + a * u - size / 2 * w).tolist(), (middle + a * u + size / 2 * w).tolist()] for a in ticks]
        lines += [[(middle + a * w - size / 2 * u).tolist(), (middle + a * w + size / 2 * u).tolist()] for a in ticks]
        shape["lines"] = lines


def bounds(points: list, radius: float) -> list:
    """``[low, high]`` around every finite point, padded by ``radius`` and 5 %."""
    finite = [p[np.isfinite(p).all(axis=1)] for p in points if len(p)]
    finite = [p for p in finite if len(p)]
    if not finite:
        return [[-1.0] * 2, [1.0] * 2]
    every = np.concatenate(finite)
    lo, hi = every.min(axis=0), every.max(axis=0)
    pad = 0.05 * float(np.max(hi - lo)) + radius + 0.5
    return [(lo - pad).tolist(), (hi + pad).tolist()]


def named_places(places, dims: int) -> list:
    """The named places to draw (``places=``: e.g. ``Scenario.geometry``), checked, as JSON-ready entries."""
    if places is None:
        return []
    if dims != 2:
        raise ValueError("places: named places are drawn on the plane; this run is 3D")
    return [{"name": name, "points": points.tolist()} for name, points in checked_places(places, "places").items()]


def geometry_points(found: dict) -> list:
    points = [np.asarray(item["points"], float).reshape(-1, 2)
              for key in ("obstacles", "sinks", "zones", "places", "stages") for item in found[key]]
    for shape in found["shapes"]:
        if shape["kind"] == "sphere":
            c, r = np.asarray(shape["center"]), shape["radius"]
            points.append(np.array([c - r, c + r]))
        elif shape["kind"] == "box":
            points.append(np.asarray(shape["corners"]))
        elif shape["kind"] == "faces":
            points.extend(np.asarray(face) for face in shape["faces"])
        # (a plane is endless: it is drawn within the bounds of the rest)
    return points


def from_trajectory(traj, *, scene: int = 0, every: int = 1, max_agents: int | None = None,
                    title: str | None = None, color_by: str = "speed", geometry_of=None,
                    places=None) -> ViewScene:
    """One scene of a Trajectory for the viewer, thinned to every ``every``-th frame and at most ``max_agents``.

    ``geometry_of``: where sinks, speed zones and 3D shapes come from (the
    Simulator or Batch that ran; the trajectory records obstacles only).
    ``places``: named lines and polygons to draw (``Scenario.geometry``).
    """
    every = integer(every, "every", minimum=1)
    if max_agents is not None:
        max_agents = integer(max_agents, "max_agents", minimum=1)
    color_by = check_color_by(color_by)
    if title is not None and not isinstance(title, str):
        raise TypeError(f"title: expected a str, got {type(title).__name__}")
    total_frames = len(traj.times)
    if total_frames == 0:
        raise ValueError("traj: the trajectory has no frames")
    thinned = traj if every == 1 else traj.subsample(every)
    data = scene_arrays(thinned, scene)
    dims = data["positions"].shape[-1]
    present = in_scene(thinned, data)
    live = present.any(axis=0) if len(present) else np.zeros(len(data["ids"]), bool)
    kept, agent_every = kept_agents(live, max_agents)
    positions = np.ascontiguousarray(data["positions"][:, kept], dtype=np.float32)
    speeds = np.linalg.norm(data["velocities"][:, kept], axis=-1)
    finite = speeds[np.isfinite(speeds)]
    scale = float(finite.max()) if finite.size and finite.max() > 0 else 1.0
    arrived = thinned.arrived_per_frame()
    arrived = arrived[:, data["scene"]] if data["scene"] is not None else arrived
    arrived = arrived[:, kept]
    arrive = np.where(arrived.any(axis=0), arrived.argmax(axis=0), NEVER).astype(np.int32)
    leave = present[:, kept].sum(axis=0).astype(np.int32)
    leave[leave == len(present)] = NEVER
    source = traj if geometry_of is None else geometry_of
    found = geometry(source, data["scene"], dims)
    if geometry_of is not None and dims == 2:  # the trajectory's obstacles are the run's
        found["obstacles"] = geometry(traj, data["scene"], dims)["obstacles"]
    found["places"] = named_places(places, dims)
    radius = np.asarray(data["radius"], float)[kept]
    goals = np.asarray(data["goals"], float)[kept]
    has_goal = np.asarray(data["has_goal"], bool)[kept]
    shown = positions[present[:, kept]] if len(kept) else np.zeros((0, dims))
    meta = {
        "dims": int(dims), "frames": int(len(thinned.times)), "agents": int(len(kept)),
        "total_agents": int(live.sum()), "total_frames": int(total_frames),
        "frame_every": every, "agent_every": agent_every,
        "times": np.asarray(thinned.times, float).tolist(), "time_step": float(traj.time_step),
        "speed_scale": scale, "title": title or default_title(traj, len(kept), dims),
        "color_by": color_by, "live": False,
        "bounds": bounds([shown.reshape(-1, dims), goals[has_goal]] + geometry_points(found),
                         float(radius.max(initial=0.0))),
        **found,
    }
    if dims == 3:
        plane_grids(meta["shapes"], *meta["bounds"])
    buffers = {
        "positions": positions.reshape(-1),
        "speeds": quantised_speeds(speeds, scale).reshape(-1),
        "ids": np.asarray(data["ids"], np.int32)[kept],
        "radius": radius.astype(np.float32),
        "goals": goals.astype(np.float32).reshape(-1),
        "has_goal": has_goal.astype(np.uint8),
        "arrive": arrive,
        "leave": leave,
    }
    return ViewScene(meta, {name: np.ascontiguousarray(array) for name, array in buffers.items()})


def default_title(traj, agents: int, dims: int) -> str:
    name = traj.method.get("method") if isinstance(traj.method, dict) else None
    return f"{name or 'run'}: {agents} agents{' (3D)' if dims == 3 else ''}"


def simulator_scene(sim, scene) -> int | None:
    """The scene index of a Batch (checked), None for a Simulator."""
    if not hasattr(sim, "scenes"):  # a Simulator
        return None
    return integer(scene, "scene", minimum=0, maximum=sim.scenes - 1)


def pick(array, scene):
    array = np.asarray(array)
    return array if scene is None else array[scene]


def from_simulator(sim, *, scene: int = 0, title: str | None = None, color_by: str = "speed",
                   places=None) -> ViewScene:
    """A Simulator's (or one scene of a Batch's) current state as the first frame of a live view.

    Every slot with an id is kept (agents added later are not shown); the
    speed colours are scaled to the agents' largest ``max_speed``.
    """
    color_by = check_color_by(color_by)
    scene = simulator_scene(sim, scene)
    ids = pick(sim.ids, scene)
    kept = np.flatnonzero(ids >= 0)
    dims = sim.dimensions
    max_speed = pick(sim.max_speed, scene)[kept]
    scale = float(max_speed.max()) if len(kept) and np.isfinite(max_speed).all() and max_speed.max() > 0 else 1.0
    found = geometry(sim, scene, dims)
    found["places"] = named_places(places, dims)
    radius = pick(sim.radius, scene)[kept].astype(np.float32)
    goals = pick(sim.goals, scene)[kept]
    has_goal = pick(sim.has_goal, scene)[kept].astype(bool)
    frame = live_frame(sim, scene, kept, scale)
    active = frame["flags"] & 1 > 0
    arrived = frame["flags"] & 2 > 0
    positions = pick(sim.positions, scene)[kept]
    meta = {
        "dims": int(dims), "frames": 1, "agents": int(len(kept)), "total_agents": int(len(kept)),
        "total_frames": 1, "frame_every": 1, "agent_every": 1, "times": [float(sim.time)],
        "time_step": float(sim.time_step), "speed_scale": scale,
        "title": title or f"{sim.method.name}: {len(kept)} agents{' (3D)' if dims == 3 else ''} (live)",
        "color_by": color_by, "live": True,
        "bounds": bounds([positions[active], goals[has_goal & active]] + geometry_points(found),
                         float(radius.max(initial=0.0))),
        **found,
    }
    if dims == 3:
        plane_grids(meta["shapes"], *meta["bounds"])
    buffers = {
        "positions": frame["positions"], "speeds": frame["speeds"],
        "ids": ids[kept].astype(np.int32), "radius": radius,
        "goals": goals.astype(np.float32).reshape(-1), "has_goal": has_goal.astype(np.uint8),
        "arrive": np.where(arrived, 0, NEVER).astype(np.int32),
        "leave": np.where(active, NEVER, 0).astype(np.int32),
    }
    return ViewScene(meta, buffers)


def live_frame(sim, scene, kept: np.ndarray, scale: float) -> dict:
    """The simulator's state now: float32 positions, uint8 speeds, flags (bit 0 active, bit 1 arrived)."""
    positions = np.ascontiguousarray(pick(sim.positions, scene)[kept], dtype=np.float32).reshape(-1)
    speeds = quantised_speeds(np.linalg.norm(pick(sim.velocities, scene)[kept], axis=-1), scale)
    flags = pick(sim.active, scene)[kept].astype(np.uint8) | (pick(sim.arrived, scene)[kept].astype(np.uint8) << 1)
    return {"positions": positions, "speeds": speeds, "flags": flags, "time": float(sim.time)}


def size_text(nbytes: int) -> str:
    """``4.2 MB``, ``830 kB``, ``512 B``: a size for people (powers of 1000)."""
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if nbytes >= scale:
            return f"{nbytes / scale:.{1 if nbytes < 100 * scale else 0}f} {unit}"
    return f"{nbytes} B"


__all__ = ["COLOR_BY", "NEVER", "ViewScene", "from_simulator", "from_trajectory", "live_frame", "size_text"]


def from_runs(runs, *, every: int = 1, max_agents: int | None = None, title: str | None = None,
              color_by: str = "method", places=None) -> ViewScene:
    """Several runs of one scene (one per method) in one picture, their agents coloured by run.

    ``runs``: ``{label: Trajectory}``, or a sequence of Trajectories labelled
    by their methods. Each run is thinned as :func:`from_trajectory` does
    (``max_agents`` per run); all are shown on the longest run's clock, so
    every run must have recorded its frames at the same times (the same
    time step and ``record_every``); a run that ended earlier holds its last
    frame. The obstacles drawn are the first run's.
    """
    labelled = _labelled_runs(runs)
    scenes = [from_trajectory(traj, every=every, max_agents=max_agents, color_by="speed", places=places)
              for traj in labelled.values()]
    dims = {scene.meta["dims"] for scene in scenes}
    if len(dims) > 1:
        raise ValueError("runs: some runs are 2D and some 3D; compare runs of one scene")
    longest = max(scenes, key=lambda scene: scene.meta["frames"])
    clock = np.asarray(longest.meta["times"])
    for (label, _), scene in zip(labelled.items(), scenes):
        times = np.asarray(scene.meta["times"])
        if not np.allclose(times, clock[:len(times)], rtol=0.0, atol=1e-9 * max(1.0, float(clock[-1]))):
            raise ValueError(f"runs[{label!r}]: its frames were recorded at other times than the longest run's; "
                             "record every run with the same time step and record_every")
    frames, d = len(clock), dims.pop()
    scale = max(scene.meta["speed_scale"] for scene in scenes)
    columns = {name: [] for name in ("positions", "speeds", "ids", "radius", "goals", "has_goal", "arrive", "leave")}
    groups = []
    for k, scene in enumerate(scenes):
        b, n, held = scene.buffers, scene.meta["agents"], scene.meta["frames"]
        hold = np.r_[np.arange(held), np.full(frames - held, held - 1)].astype(int)
        columns["positions"].append(b["positions"].reshape(held, n, d)[hold])
        # Speeds on one scale: each run's bytes were scaled to its own fastest agent.
        speeds = (b["speeds"].reshape(held, n).astype(float) * (scene.meta["speed_scale"] / scale))[hold]
        speeds[held:] = 0.0  # after its run ended: standing where it ended
        columns["speeds"].append(np.clip(np.rint(speeds), 0, 255).astype(np.uint8))
        for name in ("ids", "radius", "has_goal", "arrive"):
            columns[name].append(b[name])
        columns["goals"].append(b["goals"].reshape(n, d))
        columns["leave"].append(b["leave"])
        groups.append(np.full(n, k, np.uint8))
    counts = [scene.meta["agents"] for scene in scenes]
    buffers = {
        "positions": np.concatenate(columns["positions"], axis=1).astype(np.float32).reshape(-1),
        "speeds": np.concatenate(columns["speeds"], axis=1).reshape(-1),
        "ids": np.concatenate(columns["ids"]).astype(np.int32),
        "radius": np.concatenate(columns["radius"]).astype(np.float32),
        "goals": np.concatenate(columns["goals"]).astype(np.float32).reshape(-1),
        "has_goal": np.concatenate(columns["has_goal"]).astype(np.uint8),
        "arrive": np.concatenate(columns["arrive"]).astype(np.int32),
        "leave": np.concatenate(columns["leave"]).astype(np.int32),
        "group": np.concatenate(groups),
    }
    low = np.min([scene.meta["bounds"][0] for scene in scenes], axis=0).tolist()
    high = np.max([scene.meta["bounds"][1] for scene in scenes], axis=0).tolist()
    first = scenes[0].meta
    meta = {
        **first, "frames": frames, "agents": int(sum(counts)),
        "total_agents": int(sum(scene.meta["total_agents"] for scene in scenes)),
        "total_frames": int(max(scene.meta["total_frames"] for scene in scenes)),
        "times": clock.tolist(), "speed_scale": scale, "bounds": [low, high],
        "title": title or " vs ".join(f"{label} ({n} agents)" for label, n in zip(labelled, counts)),
        "color_by": check_run_color(color_by), "groups": list(labelled),
    }
    return ViewScene(meta, {name: np.ascontiguousarray(array) for name, array in buffers.items()})


def check_run_color(color_by) -> str:
    if color_by != "method":
        check_color_by(color_by)
    return color_by


def _labelled_runs(runs) -> dict:
    if isinstance(runs, dict):
        labelled = dict(runs)
    elif isinstance(runs, (list, tuple)):
        labelled = {}
        for k, traj in enumerate(runs):
            if not (hasattr(traj, "positions") and hasattr(traj, "subsample")):
                raise TypeError(f"runs[{k}]: expected a vosim.Trajectory, got {type(traj).__name__}")
            name = traj.method.get("method", "run") if isinstance(getattr(traj, "method", None), dict) else "run"
            label, k = name, 2
            while label in labelled:
                label, k = f"{name} {k}", k + 1
            labelled[label] = traj
    else:
        raise TypeError(f"runs: expected a dict of label to Trajectory or a list of them, got {type(runs).__name__}")
    if not 1 <= len(labelled) <= 255:
        raise ValueError(f"runs: give 1 to 255 runs, got {len(labelled)}")
    for label, traj in labelled.items():
        if not (hasattr(traj, "positions") and hasattr(traj, "subsample")):
            raise TypeError(f"runs[{label!r}]: expected a vosim.Trajectory, got {type(traj).__name__}")
        if traj.is_batch:
            raise ValueError(f"runs[{label!r}]: a Batch's trajectory; give one scene's runs")
    return labelled
