"""Damaged files: vosim.load and vosim.load_state raise ValueError naming the file.

Truncated at any point, overwritten in the middle, of the wrong format or
of a newer format version: never a zipfile, zlib or pickle error, never a
half-built simulator.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import vosim
from vosim import _checkpoint


def _state_file(tmp_path):
    sim = vosim.Batch(2, time_step=0.1)
    rng = np.random.default_rng(1)
    sim.add_obstacle([[0.0, 0.0], [2.0, 0.0], [1.0, 1.0]], scene=1, strict=False)
    sim.add_agents(rng.uniform(-20.0, 20.0, (2, 400, 2)), goals=rng.uniform(-20.0, 20.0, (2, 400, 2)),
                   strict=False)
    sim.run(3)
    return sim.save_state(tmp_path / "state.npz")


def _trajectory_file(tmp_path):
    sim = vosim.Simulator(time_step=0.1)
    rng = np.random.default_rng(2)
    sim.add_agents(rng.uniform(-20.0, 20.0, (300, 2)), goals=rng.uniform(-20.0, 20.0, (300, 2)))
    return sim.run(10).save(tmp_path / "run.npz")


LOADERS = {"state": (_state_file, vosim.load_state), "trajectory": (_trajectory_file, vosim.load)}


@pytest.mark.parametrize("fraction", [0.0, 0.1, 0.5, 0.9, 0.999])
@pytest.mark.parametrize("kind", LOADERS)
def test_a_truncated_file_is_refused_naming_it(kind, fraction, tmp_path):
    write, load = LOADERS[kind]
    path = write(tmp_path)
    data = path.read_bytes()
    cut = tmp_path / "cut.npz"
    cut.write_bytes(data[: int(len(data) * fraction)])
    with pytest.raises(ValueError, match=r"path: '.*cut\.npz'"):
        load(cut)


@pytest.mark.parametrize("kind", LOADERS)
def test_an_overwritten_file_is_refused_naming_it(kind, tmp_path):
    write, load = LOADERS[kind]
    path = write(tmp_path)
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle:middle + 64] = bytes(64)  # inside a compressed member: its checksum no longer matches
    damaged = tmp_path / "damaged.npz"
    damaged.write_bytes(bytes(data))
    with pytest.raises(ValueError, match=r"path: '.*damaged\.npz' is .*corrupt"):
        load(damaged)


def test_other_files_are_not_states(tmp_path):
    text = tmp_path / "notes.npz"
    text.write_text("hello")
    with pytest.raises(ValueError, match=r"path: '.*notes\.npz' is not a vosim simulator state"):
        vosim.load_state(text)
    plain = tmp_path / "array.npy"
    np.save(plain, np.arange(3))
    with pytest.raises(ValueError, match="a single array, not an archive"):
        vosim.load_state(plain)
    other = tmp_path / "other.npz"
    np.savez(other, x=np.arange(3))
    with pytest.raises(ValueError, match="no metadata"):
        vosim.load_state(other)
    trajectory = _trajectory_file(tmp_path)
    with pytest.raises(ValueError, match=r"'.*run\.npz' is not a vosim simulator state"):
        vosim.load_state(trajectory)
    with pytest.raises(FileNotFoundError, match="path: no file"):
        vosim.load_state(tmp_path / "missing.npz")


def _rewrite(path, target, change):
    with np.load(path) as archive:
        arrays = {name: archive[name] for name in archive.files}
    change(arrays)
    np.savez(target, **arrays)
    return target


def test_a_newer_format_version_is_refused(tmp_path):
    path = _state_file(tmp_path)

    def newer(arrays):
        metadata = json.loads(str(arrays["metadata"]))
        metadata["format_version"] = _checkpoint.FORMAT_VERSION + 1
        arrays["metadata"] = np.array(json.dumps(metadata))

    newer_version = _checkpoint.FORMAT_VERSION + 1
    with pytest.raises(ValueError, match=rf"'.*newer\.npz' has state format version {newer_version}, which this vosim"):
        vosim.load_state(_rewrite(path, tmp_path / "newer.npz", newer))


def test_a_state_missing_an_entry_or_inconsistent_is_refused(tmp_path):
    path = _state_file(tmp_path)
    missing = _rewrite(path, tmp_path / "missing.npz", lambda a: a.pop("column.radius"))
    with pytest.raises(ValueError, match=r"'.*missing\.npz' is not a usable vosim simulator state "
                                         r"\(saved state: no column 'radius'\)"):
        vosim.load_state(missing)
    short = _rewrite(path, tmp_path / "short.npz",
                     lambda a: a.__setitem__("column.positions", a["column.positions"][:, :5]))
    with pytest.raises(ValueError, match=r"'.*short\.npz' .*column 'positions' has the wrong type or size"):
        vosim.load_state(short)

    def unknown_method(arrays):
        metadata = json.loads(str(arrays["metadata"]))
        metadata["method"] = {"method": "Teleport"}
        arrays["metadata"] = np.array(json.dumps(metadata))

    with pytest.raises(ValueError, match=r"'.*teleport\.npz' .*method is 'Teleport'"):
        vosim.load_state(_rewrite(path, tmp_path / "teleport.npz", unknown_method))
