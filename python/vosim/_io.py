"""Saving and loading trajectories, and tidy tables of them.

A saved trajectory is a NumPy ``.npz`` archive: the arrays of the
Trajectory plus one ``metadata`` entry holding JSON (vosim version, method
settings, time step, obstacles, the scenario when known, metrics). Files are
written to a temporary name in the same folder and renamed into place, so a
crash never leaves a half-written file under the real name.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from . import _archive
from ._atomic import atomic_path

FORMAT = "vosim-trajectory"
# 2: a checksum of the arrays and the metadata (_archive.digest), checked on
# load; files of version 1 have none and still load.
FORMAT_VERSION = 2

ARRAYS = ("positions", "velocities", "times", "steps", "ids", "radius", "goals", "has_goal")
# Arrays a trajectory may lack (None): saved when present.
OPTIONAL_ARRAYS = ("active", "arrival_radius", "headings", "kinematics")
# Metric arrays are stored under this prefix, next to the frames (exact, unlike JSON).
METRIC_PREFIX = "metrics."



def _jsonable(value):
    """Metadata as plain JSON types (arrays become lists)."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


def check_trajectory_path(path, argument: str = "path") -> Path:
    """Where a trajectory is saved: ``path``, with ``.npz`` appended when it has no suffix.

    Raises
    ------
    ValueError
        A path with another suffix (``run.csv``): a trajectory file is an
        ``.npz`` archive, and writing ``run.csv.npz`` would surprise.
    """
    path = Path(path)
    if path.suffix == "":
        return path.with_name(path.name + ".npz")
    if path.suffix.lower() != ".npz":
        raise ValueError(f"{argument}: trajectories are saved as .npz archives, got {str(path)!r}; "
                         "for a table use traj.to_dataframe().to_csv(...)")
    return path


def save(traj, path, *, scenario=None, compress: bool = True) -> Path:
    """Write ``traj`` to ``path`` (``.npz`` is appended when it has no suffix); returns the path written."""
    from ._version import __version__

    path = check_trajectory_path(path)
    metadata = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "vosim_version": __version__,
        "time_step": traj.time_step,
        "steps_run": traj.steps_run,
        "all_arrived": traj.all_arrived,
        "wall_time": traj.wall_time,
        "method": traj.method,
        "obstacles": [{"kind": kind, "vertices": vertices, "scene": scene}
                      for kind, vertices, scene in traj.obstacles],
        "scenario": None if scenario is None else json.loads(scenario.to_json()),
        # Positions are recorded wrapped: readers unwrap with this (Trajectory.unwrapped_positions).
        "periodic": None if traj.periodic is None else list(traj.periodic),
    }
    arrays = {name: np.asarray(getattr(traj, name)) for name in ARRAYS}
    for name in OPTIONAL_ARRAYS:
        if getattr(traj, name, None) is not None:
            arrays[name] = np.asarray(getattr(traj, name))
    metrics = getattr(traj, "metrics", None)
    if isinstance(metrics, dict):
        for name, value in metrics.items():
            arrays[METRIC_PREFIX + str(name)] = np.asarray(value)
    metadata = _jsonable(metadata)
    metadata["checksum"] = _archive.digest(arrays, metadata)
    arrays["metadata"] = np.array(json.dumps(metadata))
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as temporary, open(temporary, "xb") as stream:
        (np.savez_compressed if compress else np.savez)(stream, **arrays)
    return path


def to_dataframe(traj, *, frames=None, ids=None):
    """One row per (scene, frame, agent): ``scene, frame, time, id, x, y, vx, vy``
    (3D: ``x, y, z, vx, vy, vz``), then ``heading`` when the trajectory has headings.

    ``frame`` is the simulator's step count at that frame; together with
    ``id``, ``x``, ``y`` the columns are what PedPy reads. Slots of removed
    agents (id -1) are left out.
    """
    try:
        import pandas as pd
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError('to_dataframe needs pandas: pip install "vosim[pandas]"') from error
    from ._checks import ids_array

    chosen = _frame_selection(frames, len(traj.times))
    positions = (traj.positions if traj.is_batch else traj.positions[:, None])[chosen]
    velocities = (traj.velocities if traj.is_batch else traj.velocities[:, None])[chosen]
    agent_ids = np.asarray(traj.ids) if traj.is_batch else np.asarray(traj.ids)[None]
    count, scenes, agents = positions.shape[:3]
    scene = np.broadcast_to(np.arange(scenes)[None, :, None], (count, scenes, agents))
    frame = np.broadcast_to(np.asarray(traj.steps)[chosen][:, None, None], (count, scenes, agents))
    time = np.broadcast_to(np.asarray(traj.times)[chosen][:, None, None], (count, scenes, agents))
    agent = np.broadcast_to(agent_ids[None], (count, scenes, agents))
    wanted = agent_ids >= 0
    if ids is not None:
        ids = ids_array(ids)
        unknown = ~np.isin(ids, agent_ids[wanted])
        if unknown.any():
            k = int(np.argmax(unknown))
            raise ValueError(f"ids[{k}]: no agent with id {ids[k]} in this trajectory")
        wanted &= np.isin(agent_ids, ids)
    keep = np.broadcast_to(wanted[None], agent.shape).reshape(-1)
    axes = "xyz"[:positions.shape[-1]]
    table = pd.DataFrame({
        "scene": scene.reshape(-1),
        "frame": frame.reshape(-1),
        "time": time.reshape(-1),
        "id": agent.reshape(-1),
        **{axis: positions[..., d].reshape(-1) for d, axis in enumerate(axes)},
        **{"v" + axis: velocities[..., d].reshape(-1) for d, axis in enumerate(axes)},
    })
    if getattr(traj, "headings", None) is not None:
        table["heading"] = (traj.headings if traj.is_batch else traj.headings[:, None])[chosen].reshape(-1)
    return table[keep].reset_index(drop=True)


def _frame_selection(frames, count: int):
    """Frame indices (an array, or a slice) from to_dataframe's ``frames``, checked."""
    if frames is None:
        return slice(None)
    if isinstance(frames, slice):
        return frames
    from ._checks import as_array

    chosen = as_array(frames, "frames")
    if chosen.ndim == 0:
        chosen = chosen.reshape(1)
    if chosen.ndim != 1 or (chosen.size and (chosen.dtype == np.bool_ or not np.issubdtype(chosen.dtype, np.integer))):
        raise TypeError(f"frames: expected a slice or a 1-D array of frame indices, got {chosen.dtype} "
                        f"of shape {chosen.shape}")
    bad = (chosen < -count) | (chosen >= count)
    if bad.any():
        k = int(np.argmax(bad))
        raise ValueError(f"frames[{k}] is {chosen[k]}; the trajectory has {count} frames")
    return chosen.astype(np.int64)


def to_pedpy(traj, *, scene: int = 0):
    """A ``pedpy.TrajectoryData`` of one scene (needs ``pip install pedpy``).

    Frames are numbered by step, so the frame rate is ``1 / time_step``.
    """
    try:
        import pedpy
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError("to_pedpy needs pedpy: pip install pedpy") from error
    table = to_dataframe(traj)
    table = table[table["scene"] == scene][["id", "frame", "x", "y"]]
    return pedpy.TrajectoryData(data=table.reset_index(drop=True), frame_rate=1.0 / traj.time_step)
