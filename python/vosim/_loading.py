"""Reading what vosim writes: trajectories (:func:`load`) and simulator
states (:func:`load_state`). Above the simulator, batch and trajectory
modules, which the files become, and the formats' modules (``_io``,
``_checkpoint``), so that none of these needs to import another back.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np

from ._checkpoint import read_state, restore_into
from . import _archive
from ._io import ARRAYS, FORMAT, FORMAT_VERSION, METRIC_PREFIX, OPTIONAL_ARRAYS
from ._kinematics import KINEMATICS
from ._obstacles import Obstacle
from ._periodic import periodic_from
from .batch import Batch
from .simulator import Simulator
from .trajectory import Trajectory


def load(path):
    """Read a trajectory written by :meth:`Trajectory.save`.

    Returns
    -------
    Trajectory
        With ``metadata`` (a dict: vosim version, scenario, ...) attached.

    Raises
    ------
    ValueError
        Naming the file, when it is not a vosim trajectory, is corrupt,
        truncated or inconsistent (arrays of shapes that do not fit
        together, metadata of the wrong types, contents that do not match
        the checksum), or was written in a newer format.
    FileNotFoundError
        When there is no such file.
    """
    path = Path(path)
    source = f"path: {str(path)!r}"
    try:
        arrays = _archive.read_arrays(path)
        metadata = _archive.parse_metadata(arrays)
    except FileNotFoundError:
        raise FileNotFoundError(f"path: no file {str(path)!r}") from None
    except _archive.Foreign as error:
        raise ValueError(f"{source} is not a vosim trajectory ({error})") from None
    except _archive.Unreadable as error:
        raise ValueError(f"{source} is not a vosim trajectory, or it is corrupt or truncated ({error})") from None
    del arrays["metadata"]
    if metadata.get("format") != FORMAT:
        raise ValueError(f"{source} is not a vosim trajectory")
    version = metadata.get("format_version", 0)
    if type(version) is not int or version < 1:
        raise ValueError(f"{source} is a corrupt vosim trajectory (format version {version!r})")
    if version > FORMAT_VERSION:
        raise ValueError(f"{source} was written by a newer vosim ({metadata.get('vosim_version')}); "
                         "upgrade to read it")
    missing = [name for name in ARRAYS if name not in arrays]
    if missing:
        raise ValueError(f"{source} is not a complete vosim trajectory (no {', '.join(missing)})")
    try:
        fields = _checked_fields(arrays, metadata)
    except ValueError as error:
        raise ValueError(f"{source} is a corrupt vosim trajectory ({error})") from None
    checksum = metadata.pop("checksum", None)
    if checksum is None and version >= 2:
        raise ValueError(f"{source} is a corrupt vosim trajectory (format version {version} has a checksum, "
                         "this file none)")
    if checksum is not None and checksum != _archive.digest(arrays, metadata):
        raise ValueError(f"{source} is a corrupt vosim trajectory (its contents do not match its checksum)")
    metrics = fields.pop("metrics")
    traj = Trajectory(**fields)
    if metrics:
        traj.metrics = metrics
    traj.metadata = metadata
    return traj


def _checked_fields(arrays: dict, metadata: dict) -> dict:
    """Trajectory's arguments from a file's arrays and metadata; ValueError saying what does not fit."""
    from .metrics import PER_AGENT, PER_SCENE, SERIES, TIMES

    def kind_of(name, kinds):
        array = arrays[name]
        if array.dtype.kind not in kinds:
            raise ValueError(f"{name} holds {array.dtype}")
        return array

    positions = kind_of("positions", "f")
    if positions.ndim not in (3, 4) or positions.shape[-1] not in (2, 3):
        raise ValueError(f"positions has the shape {positions.shape}; expected (T, N, 2 or 3) or (T, B, N, 2 or 3)")
    frames, agents = positions.shape[0], positions.shape[:-1][1:]  # agents: (N,) or (B, N)
    scenes = agents[:-1]
    expected = {
        "velocities": ("f", positions.shape), "times": ("f", (frames,)), "steps": ("iu", (frames,)),
        "ids": ("iu", agents), "radius": ("f", agents), "goals": ("f", agents + positions.shape[-1:]),
        "has_goal": ("b", agents), "active": ("b", agents), "arrival_radius": ("f", agents),
        "headings": ("f", positions.shape[:-1]), "kinematics": ("U", agents),
    }
    for name, (kinds, shape) in expected.items():
        if name in arrays:
            kind_of(name, kinds)
            if arrays[name].shape != shape:
                raise ValueError(f"{name} has the shape {arrays[name].shape}; with positions of shape "
                                 f"{positions.shape} it must be {shape}")
    if "kinematics" in arrays and not np.isin(arrays["kinematics"], KINEMATICS).all():
        raise ValueError(f"kinematics holds other than {', '.join(KINEMATICS)}")

    metrics = {}
    per_scene = set(PER_SCENE) | set(TIMES)
    for name in [n for n in arrays if n.startswith(METRIC_PREFIX)]:
        metric, value = name[len(METRIC_PREFIX):], arrays[name]
        kind_of(name, "biuf")
        shape = (scenes if metric in per_scene else agents if metric in PER_AGENT
                 else (frames,) + scenes if metric in SERIES else value.shape)
        if value.shape != shape:
            raise ValueError(f"{name} has the shape {value.shape}; expected {shape}")
        metrics[metric] = value

    def number(name, kind, minimum=-math.inf):
        value = metadata.get(name)
        if type(value) not in kind or not value >= minimum:
            raise ValueError(f"metadata {name!r} is {value!r}")
        return value

    time_step = number("time_step", (float, int), minimum=0.0)
    steps_run = number("steps_run", (int,), minimum=0)
    wall_time = metadata.get("wall_time")
    if type(wall_time) not in (float, int):
        raise ValueError(f"metadata 'wall_time' is {wall_time!r}")
    if type(metadata.get("all_arrived")) is not bool:
        raise ValueError(f"metadata 'all_arrived' is {metadata.get('all_arrived')!r}")
    if not isinstance(metadata.get("method"), dict):
        raise ValueError(f"metadata 'method' is {metadata.get('method')!r}")
    obstacles = metadata.get("obstacles")
    if not isinstance(obstacles, list):
        raise ValueError(f"metadata 'obstacles' is {obstacles!r}")
    kept = []
    for k, o in enumerate(obstacles):
        if not isinstance(o, dict) or o.get("kind") not in ("polygon", "segment", "wall", "boundary"):
            raise ValueError(f"metadata 'obstacles'[{k}] is not an obstacle")
        scene = o.get("scene")
        if scene is not None and (type(scene) is not int or not 0 <= scene < max(math.prod(scenes), 1)):
            raise ValueError(f"metadata 'obstacles'[{k}] has the scene {scene!r}")
        try:
            vertices = np.array(o.get("vertices"), dtype=np.float64)
        except (TypeError, ValueError, OverflowError):
            raise ValueError(f"metadata 'obstacles'[{k}] has vertices that are not (x, y) points") from None
        if vertices.ndim != 2 or vertices.shape[1] != 2 or not np.isfinite(vertices).all():
            raise ValueError(f"metadata 'obstacles'[{k}] has vertices that are not (x, y) points")
        vertices.flags.writeable = False
        kept.append(Obstacle(o["kind"], vertices, scene))
    try:
        periodic = periodic_from(metadata.get("periodic"))
    except ValueError as error:
        raise ValueError(f"metadata 'periodic': {error}") from None
    optional = {name: arrays[name] for name in OPTIONAL_ARRAYS if name in arrays}
    return dict(periodic=periodic, **{name: arrays[name] for name in ARRAYS}, **optional, time_step=time_step, steps_run=steps_run,
                all_arrived=metadata["all_arrived"], wall_time=wall_time, method=metadata["method"],
                obstacles=tuple(kept), metrics=metrics)


def load_state(path):
    """Read a Simulator or Batch written by :meth:`vosim.Simulator.save_state`.

    Parameters
    ----------
    path
        The file (``.npz``).

    Returns
    -------
    Simulator or Batch
        In the state saved: stepping it gives bit-identical results to
        stepping the original on.

    Raises
    ------
    ValueError
        Naming the file, when it is not a vosim state, is corrupt or
        truncated, or was written in a newer format.
    FileNotFoundError
        When there is no such file.
    """
    state = read_state(path)
    source = f"path: {str(path)!r}"
    kind = state.get("kind")
    cls = {"Simulator": Simulator, "Batch": Batch}.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"{source} is not a vosim simulator state (kind {state.get('kind')!r})")
    sim = cls.__new__(cls)
    restore_into(sim, state, source)
    return sim
