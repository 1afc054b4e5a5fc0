"""Saving and loading trajectories, and tidy tables of them.

A saved trajectory is a NumPy ``.npz`` archive: the arrays of the
Trajectory plus one ``metadata`` entry holding JSON (vosim version, method
settings, time step, obstacles, the scenario when known, metrics). Files are
written to a temporary name in the same folder and renamed into place, so a
crash never leaves a half-written file under the real name.
"""

from __future__ import annotations

import json
import os
import tempfile
import zipfile
import zlib
from pathlib import Path

import numpy as np

FORMAT = "vosim-trajectory"
FORMAT_VERSION = 1

ARRAYS = ("positions", "velocities", "times", "steps", "ids", "radius", "goals", "has_goal")
# Arrays a trajectory may lack (None): saved when present.
OPTIONAL_ARRAYS = ("active", "arrival_radius")
# Metric arrays are stored under this prefix, next to the frames (exact, unlike JSON).
METRIC_PREFIX = "metrics."


# What reading a damaged archive raises: a truncated or overwritten zip, a
# member whose checksum or compressed stream is wrong, bytes that are no array.
_UNREADABLE = (ValueError, OSError, EOFError, zipfile.BadZipFile, zlib.error)


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


def save(traj, path, *, scenario=None) -> Path:
    """Write ``traj`` to ``path`` (``.npz`` is appended when missing); returns the path written."""
    from . import __version__

    path = Path(path)
    if path.suffix != ".npz":
        path = path.with_name(path.name + ".npz")
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
    }
    arrays = {name: np.asarray(getattr(traj, name)) for name in ARRAYS}
    for name in OPTIONAL_ARRAYS:
        if getattr(traj, name, None) is not None:
            arrays[name] = np.asarray(getattr(traj, name))
    metrics = getattr(traj, "metrics", None)
    if isinstance(metrics, dict):
        for name, value in metrics.items():
            arrays[METRIC_PREFIX + str(name)] = np.asarray(value)
    arrays["metadata"] = np.array(json.dumps(_jsonable(metadata)))
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            np.savez_compressed(stream, **arrays)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def load(path):
    """Read a trajectory written by :meth:`Trajectory.save`.

    Returns
    -------
    Trajectory
        With ``metadata`` (a dict: vosim version, scenario, ...) attached.
    """
    from ._obstacles import Obstacle
    from .trajectory import Trajectory

    path = Path(path)
    try:
        archive = np.load(path, allow_pickle=False)
    except FileNotFoundError:
        raise FileNotFoundError(f"path: no file {str(path)!r}") from None
    except _UNREADABLE as error:
        raise ValueError(f"path: {str(path)!r} is not a vosim trajectory, or it is corrupt or truncated "
                         f"({type(error).__name__}: {error})") from None
    if not hasattr(archive, "files"):  # a plain .npy array
        raise ValueError(f"path: {str(path)!r} is not a vosim trajectory (a single array, not an archive)")
    with archive:
        if "metadata" not in archive.files:
            raise ValueError(f"path: {str(path)!r} is not a vosim trajectory (no metadata)")
        try:
            metadata = json.loads(str(archive["metadata"]))
        except _UNREADABLE:
            raise ValueError(f"path: {str(path)!r} is not a vosim trajectory (unreadable metadata)") from None
        if not isinstance(metadata, dict) or metadata.get("format") != FORMAT:
            raise ValueError(f"path: {str(path)!r} is not a vosim trajectory")
        if metadata.get("format_version", 0) > FORMAT_VERSION:
            raise ValueError(f"path: {str(path)!r} was written by a newer vosim "
                             f"({metadata.get('vosim_version')}); upgrade to read it")
        missing = [name for name in ARRAYS if name not in archive.files]
        if missing:
            raise ValueError(f"path: {str(path)!r} is not a complete vosim trajectory "
                             f"(no {', '.join(missing)})")
        try:
            arrays = {name: archive[name] for name in ARRAYS + OPTIONAL_ARRAYS if name in archive.files}
            metrics = {name[len(METRIC_PREFIX):]: archive[name] for name in archive.files
                       if name.startswith(METRIC_PREFIX)}
        except _UNREADABLE as error:
            raise ValueError(f"path: {str(path)!r} is a corrupt vosim trajectory "
                             f"({type(error).__name__}: {error})") from None
    obstacles = tuple(Obstacle(o["kind"], np.array(o["vertices"], dtype=np.float64), o["scene"])
                      for o in metadata["obstacles"])
    for obstacle in obstacles:
        obstacle.vertices.flags.writeable = False
    traj = Trajectory(**arrays, time_step=metadata["time_step"], steps_run=metadata["steps_run"],
                      all_arrived=metadata["all_arrived"], wall_time=metadata["wall_time"],
                      method=metadata["method"], obstacles=obstacles)
    if metrics:
        traj.metrics = metrics
    traj.metadata = metadata
    return traj


def to_dataframe(traj):
    """One row per (scene, frame, agent): ``scene, frame, time, id, x, y, vx, vy``.

    ``frame`` is the simulator's step count at that frame; together with
    ``id``, ``x``, ``y`` the columns are what PedPy reads. Slots of removed
    agents (id -1) are left out.
    """
    try:
        import pandas as pd
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError('to_dataframe needs pandas: pip install "vosim[pandas]"') from error
    positions = traj.positions if traj.is_batch else traj.positions[:, None]
    velocities = traj.velocities if traj.is_batch else traj.velocities[:, None]
    ids = np.asarray(traj.ids) if traj.is_batch else np.asarray(traj.ids)[None]
    frames, scenes, agents = positions.shape[:3]
    scene = np.broadcast_to(np.arange(scenes)[None, :, None], (frames, scenes, agents))
    frame = np.broadcast_to(np.asarray(traj.steps)[:, None, None], (frames, scenes, agents))
    time = np.broadcast_to(np.asarray(traj.times)[:, None, None], (frames, scenes, agents))
    agent = np.broadcast_to(ids[None], (frames, scenes, agents))
    keep = (agent >= 0).reshape(-1)
    table = pd.DataFrame({
        "scene": scene.reshape(-1),
        "frame": frame.reshape(-1),
        "time": time.reshape(-1),
        "id": agent.reshape(-1),
        "x": positions[..., 0].reshape(-1),
        "y": positions[..., 1].reshape(-1),
        "vx": velocities[..., 0].reshape(-1),
        "vy": velocities[..., 1].reshape(-1),
    })
    return table[keep].reset_index(drop=True)


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
