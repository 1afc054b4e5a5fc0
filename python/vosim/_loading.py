"""Reading what vosim writes: trajectories (:func:`load`) and simulator
states (:func:`load_state`). Above the simulator, batch and trajectory
modules, which the files become, and the formats' modules (``_io``,
``_checkpoint``), so that none of these needs to import another back.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ._checkpoint import read_state, restore_into
from ._io import ARRAYS, FORMAT, FORMAT_VERSION, METRIC_PREFIX, OPTIONAL_ARRAYS, _UNREADABLE
from ._kinematics import KINEMATICS
from ._obstacles import Obstacle
from .batch import Batch
from .simulator import Simulator
from .trajectory import Trajectory


def load(path):
    """Read a trajectory written by :meth:`Trajectory.save`.

    Returns
    -------
    Trajectory
        With ``metadata`` (a dict: vosim version, scenario, ...) attached.
    """
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
    if "kinematics" in arrays:
        names = arrays["kinematics"]
        if names.dtype.kind != "U" or not np.isin(names, KINEMATICS).all():
            raise ValueError(f"path: {str(path)!r} is a corrupt vosim trajectory (kinematics holds other than "
                             f"{', '.join(KINEMATICS)})")
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


def load_state(path):
    """Read a Simulator or Batch written by :meth:`Simulator.save_state`.

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
    cls = {"Simulator": Simulator, "Batch": Batch}.get(state.get("kind"))
    if cls is None:
        raise ValueError(f"{source} is not a vosim simulator state (kind {state.get('kind')!r})")
    sim = cls.__new__(cls)
    restore_into(sim, state, source)
    return sim
