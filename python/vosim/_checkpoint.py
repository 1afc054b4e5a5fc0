"""Checkpoints: a Simulator's or Batch's complete state, pickled or in a file.

The engine hands over everything the next step depends on as one snapshot
(a dict of NumPy arrays and numbers, ``Engine.snapshot()``); the method is
configuration and travels as its ``to_dict()``. Pickling and
:func:`save_state` both carry this same payload, so resuming from either
gives bit-identical results to never having stopped.

A state file is a NumPy ``.npz`` archive (no pickled objects in it): the
engine's arrays, plus a ``metadata`` entry holding JSON (format name and
version, vosim version, Simulator or Batch, method, the engine's numbers).
It is written to a temporary name in the same folder and renamed into place.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from . import _archive, _core
from ._atomic import atomic_path
from ._obstacles import Obstacles

FORMAT = "vosim-state"
# 2: obstacles keep their ids, removed ones stay removed, moving ones keep
# their velocity and how far they have moved.
# 3: a checksum of everything else (_archive.digest), checked on load.
# 4: navigation state (set_exits' choice, the planners), written only when a
#    simulator has some, so that older vosims refuse only the files they
#    would misread.
# 5: parts of the engine's units ("feature.<name>.<array>" entries: waiting
#    stages, sinks, speed zones, waypoints, the periodic axis; states saved
#    before a unit had its part hold it under entries of its own, such as
#    "waypoint_*" and "periodic_*"), written only when a simulator has some,
#    for the same reason.
FORMAT_VERSION = 5
# Versions this vosim reads (2 without a checksum).
READABLE_VERSIONS = (2, 3, 4, 5)
_FEATURE_PREFIX = "feature."
_NAVIGATION_PREFIX = "navigation."

# The engine's plain numbers (kept in the metadata JSON, exactly: JSON
# floats round-trip through Python's shortest repr); "periodic_*" are those
# of states saved before the periodic axis was a part of its own.
_NUMBERS = ("scenes", "dimensions", "count", "next_id", "time_step", "time", "step_count", "periodic_axis",
            "periodic_low", "periodic_high")
_COLUMN_PREFIX = "column."


def _kind(sim) -> str:
    return "Batch" if sim._scene_axis else "Simulator"


def payload(sim) -> dict:
    """What pickling and save_state carry for ``sim``: plain data only."""
    from ._version import __version__

    navigation = sim._navigation_state()
    engine = sim._snapshot()
    if any(name.startswith(_FEATURE_PREFIX) for name in engine):
        version = 5
    else:
        version = 4 if navigation is not None else 3
    state = {
        "format": FORMAT,
        "format_version": version,
        "vosim_version": __version__,
        "kind": _kind(sim),
        "method": sim.method.to_dict(),
        "engine": engine,
        "shapes3d": sim._part(Obstacles).shapes.payload(),
    }
    if navigation is not None:
        state["navigation"] = navigation
    state["checksum"] = checksum(state)
    return state


def checksum(state: dict) -> str:
    """The checksum of a payload: its arrays and everything else, as a state file stores them."""
    arrays = {}

    def plain(value, where: str):
        if isinstance(value, np.ndarray):
            arrays[where] = value
            return None
        if isinstance(value, dict):
            return {str(key): plain(item, f"{where}.{key}") for key, item in value.items()}
        if isinstance(value, (list, tuple)):
            return [plain(item, f"{where}.{k}") for k, item in enumerate(value)]
        return value

    return _archive.digest(arrays, plain({k: v for k, v in state.items() if k != "checksum"}, ""))


def restore_into(sim, state: dict, source: str = "state") -> None:
    """Give ``sim`` (freshly allocated, not initialised) the state of ``payload()``.

    Raises ValueError naming ``source`` when the state is not a vosim state
    of a version this vosim reads.
    """
    from .methods import method_from_dict

    if not isinstance(state, dict) or state.get("format") != FORMAT:
        raise ValueError(f"{source} is not a vosim simulator state")
    version = state.get("format_version")
    if type(version) is not int or version not in READABLE_VERSIONS:
        # Older formats lack state the engine now needs (see FORMAT_VERSION).
        raise ValueError(f"{source} has state format version {version!r}, which this vosim "
                         f"({FORMAT_VERSION}) cannot read; it was written by vosim "
                         f"{state.get('vosim_version')}")
    stored = state.get("checksum")
    if version >= 3 and not isinstance(stored, str):
        raise ValueError(f"{source} is corrupt: a state of format version {version} has a checksum, this one none")
    try:
        engine_state = state["engine"]
        method = method_from_dict(state["method"])
        engine = _core.Engine(int(engine_state["scenes"]), float(engine_state["time_step"]),
                              int(engine_state.get("dimensions", 2)))
        engine.restore(engine_state)
        method._install(engine)
        # After the checks above, which say what is wrong with a state made badly on purpose.
        matches = stored is None or checksum(state) == stored
    except (KeyError, TypeError, ValueError, RuntimeError, AttributeError, IndexError, OverflowError) as error:
        raise ValueError(f"{source} is not a usable vosim simulator state ({error})") from None
    if not matches:
        raise ValueError(f"{source} is corrupt: its contents do not match its checksum")
    # Set through object.__setattr__: the classes may refuse unknown attributes.
    object.__setattr__(sim, "_engine", engine)
    object.__setattr__(sim, "_parts", {})  # parts over the old engine go with it
    object.__setattr__(sim, "_method", method)
    periodic = sim.periodic if int(engine_state.get("dimensions", 2)) == 2 else None
    if periodic is not None:  # obstacles are not wrapped: set_periodic's rule (the engine leaves it to it)
        from ._periodic import check_obstacle

        try:
            for obstacle in sim.obstacles:
                check_obstacle(obstacle.vertices, periodic, f"obstacle {obstacle.kind}")
            if sim.moving_obstacles:
                raise ValueError("it has moving obstacles and a periodic axis")
        except ValueError as error:
            raise ValueError(f"{source} is not a usable vosim simulator state ({error})") from None
    try:
        sim._part(Obstacles).shapes.restore(state.get("shapes3d", []))
    except (KeyError, TypeError, ValueError, RuntimeError, AttributeError, IndexError, OverflowError) as error:
        raise ValueError(f"{source} is not a usable vosim simulator state (3D obstacles: {error})") from None
    if state.get("navigation") is not None:
        try:
            sim._restore_navigation(state["navigation"])
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError) as error:
            raise ValueError(f"{source} is not a usable vosim simulator state (navigation: {error})") from None


def save_state(sim, path) -> Path:
    """Write ``sim``'s state to ``path`` (``.npz`` appended when missing), atomically."""
    path = Path(path)
    if path.suffix != ".npz":
        path = path.with_name(path.name + ".npz")
    return write_state(payload(sim), path)


def write_state(state: dict, path: Path) -> Path:
    """Write a payload() to the state file ``path``, atomically."""
    state = dict(state)
    engine = dict(state.pop("engine"))
    metadata = dict(state, engine={name: engine.pop(name) for name in _NUMBERS if name in engine},
                    obstacle_kinds=list(engine.pop("obstacle_kinds")))
    arrays = {_COLUMN_PREFIX + name: column for name, column in engine.pop("columns").items()}
    arrays.update(engine)  # the remaining entries are arrays
    if "navigation" in metadata:  # its arrays beside the others, named in the JSON
        metadata["navigation"] = _arrays_out(metadata["navigation"], _NAVIGATION_PREFIX, arrays)
    arrays["metadata"] = np.array(json.dumps(metadata))
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path) as temporary, open(temporary, "xb") as stream:
        np.savez_compressed(stream, **arrays)
    return path


def read_state(path) -> dict:
    """The payload stored in a state file; ValueError naming the file when it is not one."""
    path = Path(path)
    source = f"path: {str(path)!r}"
    try:
        arrays = _archive.read_arrays(path)
        metadata = _archive.parse_metadata(arrays)
    except FileNotFoundError:
        raise FileNotFoundError(f"path: no file {str(path)!r}") from None
    except _archive.Foreign as error:
        raise ValueError(f"{source} is not a vosim simulator state ({error})") from None
    except _archive.Unreadable as error:
        raise ValueError(f"{source} is not a vosim simulator state, or it is corrupt or truncated "
                         f"({error})") from None
    del arrays["metadata"]
    state = assemble(arrays, metadata)
    if state is None:
        raise ValueError(f"{source} is not a vosim simulator state")
    return state


def assemble(arrays: dict, metadata: dict) -> dict | None:
    """The payload a state file's arrays and metadata hold (the inverse of write_state); None if they cannot."""
    metadata = dict(metadata)
    engine = metadata.pop("engine", None)
    kinds = metadata.pop("obstacle_kinds", None)
    if metadata.get("format") != FORMAT or not isinstance(engine, dict) or not isinstance(kinds, list):
        return None
    engine = dict(engine, obstacle_kinds=kinds)
    engine["columns"] = {name[len(_COLUMN_PREFIX):]: array for name, array in arrays.items()
                         if name.startswith(_COLUMN_PREFIX)}
    engine.update({name: array for name, array in arrays.items() if not name.startswith(_COLUMN_PREFIX)})
    metadata["engine"] = engine
    if "navigation" in metadata:
        navigation_arrays = {name: array for name, array in arrays.items() if name.startswith(_NAVIGATION_PREFIX)}
        for name in navigation_arrays:
            del engine[name]
        metadata["navigation"] = _arrays_in(metadata["navigation"], navigation_arrays)
    return metadata


def _arrays_out(value, prefix: str, arrays: dict):
    """``value`` with each array moved into ``arrays`` and replaced by ``{"array": its name}``."""
    if isinstance(value, np.ndarray):
        name = f"{prefix}{len([k for k in arrays if k.startswith(prefix)])}"
        arrays[name] = value
        return {"array": name}
    if isinstance(value, dict):
        return {key: _arrays_out(item, prefix, arrays) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_arrays_out(item, prefix, arrays) for item in value]
    return value


def _arrays_in(value, arrays: dict):
    """The inverse of _arrays_out; a name with no array stays a dict (and the restore refuses it)."""
    if isinstance(value, dict):
        if set(value) == {"array"} and isinstance(value["array"], str) and value["array"] in arrays:
            return arrays[value["array"]]
        return {key: _arrays_in(item, arrays) for key, item in value.items()}
    if isinstance(value, list):
        return [_arrays_in(item, arrays) for item in value]
    return value
