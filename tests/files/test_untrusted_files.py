"""State files, pickles and trajectory files from someone else: crafted ones are refused, never trusted.

Every case here once crashed the process, allocated for counts the file did
not carry, raised something other than a ValueError naming the file, or
loaded with data silently lost. Cases that crashed run in a fresh
interpreter, so that a regression fails its test rather than the suite.
"""

from __future__ import annotations

import io
import json
import pickle
import subprocess
import sys
import textwrap
import zipfile

import numpy as np
import pytest

import vosim
from vosim import _checkpoint, _io


def _state_arrays(tmp_path, obstacles=1):
    sim = vosim.Simulator(0.1)
    sim.add_agents([[0.0, 0.0]], waypoints=[[[1.0, 0.0], [2.0, 0.0], [3.0, 0.0]]])
    for k in range(obstacles):
        sim.add_obstacle([[5.0 + 3 * k, 5.0], [6.0 + 3 * k, 5.0], [6.0 + 3 * k, 6.0]])
    path = sim.save_state(tmp_path / "s.npz")
    with np.load(path) as archive:
        return {name: archive[name] for name in archive.files}


def _metadata(arrays) -> dict:
    return json.loads(str(arrays["metadata"]))


def _with_metadata(arrays, change) -> dict:
    metadata = _metadata(arrays)
    change(metadata)
    return {**arrays, "metadata": np.array(json.dumps(metadata))}


def _refused(path, *match):
    with pytest.raises(ValueError, match=r"path: '.*" + path.name + r"'") as error:
        vosim.load_state(path)
    for text in match:
        assert text in str(error.value)


def test_crafted_offsets_are_refused_in_a_fresh_process(tmp_path):
    """Waypoint and obstacle offsets out of range were read before they were checked (SIGSEGV)."""
    waypoints = {**_state_arrays(tmp_path), "feature.waypoints.ids": np.array([0, 0]), "feature.waypoints.next": np.array([0, 0]),
                 "feature.waypoints.radius": np.array([1.0, 1.0]), "feature.waypoints.offsets": np.array([0, 10**9, 3])}
    np.savez(tmp_path / "waypoints.npz", **waypoints)
    obstacles = {**_state_arrays(tmp_path, obstacles=2), "obstacle_offsets": np.array([0, 10**8, 6])}
    np.savez(tmp_path / "obstacles.npz", **obstacles)
    script = textwrap.dedent(f"""
        import vosim
        for name in ("waypoints", "obstacles"):
            try:
                vosim.load_state({str(tmp_path)!r} + "/" + name + ".npz")
            except ValueError as error:
                print(error)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2
    assert "waypoints.npz" in lines[0] and "waypoint offsets must ascend from 0 to the number of points" in lines[0]
    assert "obstacles.npz" in lines[1] and "obstacle offsets must ascend" in lines[1]


@pytest.mark.parametrize("name, value", [("count", 2**31 - 1), ("scenes", 10**9), ("count", 10**12)])
def test_crafted_counts_are_refused_before_allocating(tmp_path, name, value):
    """count and scenes come from the metadata: the columns must carry them (was std::bad_alloc or a hang)."""
    arrays = _with_metadata(_state_arrays(tmp_path), lambda m: m["engine"].__setitem__(name, value))
    np.savez(tmp_path / "counts.npz", **arrays)
    with pytest.raises(ValueError, match=r"counts\.npz' is not a usable vosim simulator state"):
        vosim.load_state(tmp_path / "counts.npz")


def test_huge_offsets_and_array_headers_are_refused(tmp_path):
    arrays = {**_state_arrays(tmp_path), "feature.waypoints.offsets": np.array([0, 10**12])}
    np.savez(tmp_path / "offsets.npz", **arrays)
    _refused(tmp_path / "offsets.npz", "waypoint offsets")
    # A member whose array header claims 10**12 values (8 TB) that it does not hold.
    arrays = _state_arrays(tmp_path)
    del arrays["column.positions"]
    np.savez(tmp_path / "header.npz", **arrays)
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": "<f8", "fortran_order": False, "shape": (10**12,)})
    with zipfile.ZipFile(tmp_path / "header.npz", "a") as archive:
        archive.writestr("column.positions.npy", header.getvalue() + bytes(16))
    _refused(tmp_path / "header.npz", "member 'column.positions': its header says 1000000000000 values of float64, "
                                      "but it holds 16 bytes")


def _patch_zip_headers(path, target, local_offset, central_offset, value):
    """Set a 2-byte field of every local and central zip header (compression method or flags)."""
    data = bytearray(path.read_bytes())
    for signature, offset in ((b"PK\x03\x04", local_offset), (b"PK\x01\x02", central_offset)):
        start = data.find(signature)
        while start >= 0:
            field = int.from_bytes(data[start + offset:start + offset + 2], "little")
            data[start + offset:start + offset + 2] = value(field).to_bytes(2, "little")
            start = data.find(signature, start + 4)
    target.write_bytes(bytes(data))
    return target


@pytest.mark.parametrize("kind", ["state", "trajectory"])
def test_unknown_compression_and_encryption_are_value_errors_naming_the_file(tmp_path, kind):
    """Were NotImplementedError ('compression method not supported') and RuntimeError ('encrypted')."""
    if kind == "state":
        path, load = vosim.Simulator(0.1).save_state(tmp_path / "s.npz"), vosim.load_state
    else:
        sim = vosim.Simulator(0.1)
        sim.add_agents([[0.0, 0.0]], goals=[[1.0, 0.0]])
        path, load = sim.run(2).save(tmp_path / "t.npz"), vosim.load
    method = _patch_zip_headers(path, tmp_path / "method.npz", 8, 10, lambda field: 99)
    with pytest.raises(ValueError, match=r"method\.npz' .*compression method 99"):
        load(method)
    encrypted = _patch_zip_headers(path, tmp_path / "encrypted.npz", 6, 8, lambda field: field | 1)
    with pytest.raises(ValueError, match=r"encrypted\.npz' .*encrypted"):
        load(encrypted)
    with zipfile.ZipFile(tmp_path / "lzma.npz", "w", zipfile.ZIP_LZMA) as archive:
        with zipfile.ZipFile(path) as original:
            for info in original.infolist():
                archive.writestr(info.filename, original.read(info))
    with pytest.raises(ValueError, match=r"lzma\.npz' .*compression method 14, not stored or deflated"):
        load(tmp_path / "lzma.npz")


def test_duplicate_waypoint_tracks_and_hidden_values_out_of_range_are_refused(tmp_path):
    arrays = _state_arrays(tmp_path)
    twice = {**arrays, "feature.waypoints.ids": np.array([0, 0]), "feature.waypoints.next": np.array([0, 0]),
             "feature.waypoints.radius": np.array([1.0, 1.0]), "feature.waypoints.offsets": np.array([0, 1, 3]),
             "feature.waypoints.advance": np.array([0, 0]), "feature.waypoints.origins": np.zeros((2, 2))}
    np.savez(tmp_path / "twice.npz", **twice)
    _refused(tmp_path / "twice.npz", "waypoint tracks must be listed by ascending agent id, one per agent")
    np.savez(tmp_path / "side.npz", **{**arrays, "column.detour_side": np.array([[7]], np.int8)})
    _refused(tmp_path / "side.npz", "detour_side[0, 0] is 7; it must be finite and within [-1, 1]")
    np.savez(tmp_path / "timer.npz", **{**arrays, "column.deadlock_timer": np.array([[np.nan]])})
    _refused(tmp_path / "timer.npz", "deadlock_timer[0, 0] is nan")
    np.savez(tmp_path / "turn.npz", **{**arrays, "column.angular_velocities": np.array([[np.inf]])})
    _refused(tmp_path / "turn.npz", "angular_velocities[0, 0] is inf")
    # Values of another type are not cast: float ids, wide flags.
    np.savez(tmp_path / "ids.npz", **{**arrays, "column.ids": np.array([[0.5]])})
    _refused(tmp_path / "ids.npz", "'ids' holds float64; expected int64")
    # Columns of another shape with as many values.
    np.savez(tmp_path / "shape.npz", **{**arrays, "column.positions": np.zeros((1, 2, 1))})
    _refused(tmp_path / "shape.npz", "column 'positions' has the wrong type or size")


def test_a_pickle_is_checked_like_a_file():
    sim = vosim.Simulator(0.1)
    sim.add_agents([[0.0, 0.0]], waypoints=[[[1.0, 0.0], [2.0, 0.0], [3.0, 0.0]]])
    state = sim.__getstate__()
    state["engine"].update({"feature.waypoints.ids": np.array([0, 0]), "feature.waypoints.next": np.array([0, 0]),
                            "feature.waypoints.radius": np.array([1.0, 1.0]),
                            "feature.waypoints.offsets": np.array([0, 10**9, 3])})
    with pytest.raises(ValueError, match="waypoint offsets must ascend"):
        vosim.Simulator().__setstate__(state)
    state = sim.__getstate__()
    state["engine"]["columns"]["positions"][0, 0, 0] = 1e-9  # a valid state, but not the one saved
    with pytest.raises(ValueError, match="state is corrupt: its contents do not match its checksum"):
        pickle.loads(pickle.dumps(sim)).__setstate__(state)
    state["checksum"] = None
    with pytest.raises(ValueError, match="has a checksum, this one none"):
        vosim.Simulator().__setstate__(state)


def test_a_state_file_with_edited_values_fails_its_checksum(tmp_path):
    arrays = _state_arrays(tmp_path)
    arrays["column.positions"] = arrays["column.positions"] + 1.0
    np.savez(tmp_path / "edited.npz", **arrays)
    _refused(tmp_path / "edited.npz", "is corrupt: its contents do not match its checksum")
    # Its waypoints are a part of their own ("feature.waypoints.*"): version 5, which older vosims refuse
    # rather than misread; without navigation state or such parts a file is version 3, which they read too.
    assert _metadata(arrays)["format_version"] == 5 == _checkpoint.FORMAT_VERSION
    plain = vosim.Simulator(0.1)
    plain.add_agents([[0.0, 0.0]], goals=[[1.0, 0.0]])
    with np.load(plain.save_state(tmp_path / "plain.npz")) as archive:
        assert _metadata(archive)["format_version"] == 3
    assert _metadata(arrays)["checksum"].startswith("sha256:")


# ------------------------------------------------- moving obstacles (item 6)
def _moving(start):
    sim = vosim.Simulator(0.1)
    sim.add_agents([[0.0, 0.0]], goals=[[1.0, 0.0]])
    sim.add_obstacle([[start, 0.0], [start + 1e13, 0.0], [start + 5e12, 1.0]], velocity=(1e15, 0.0))
    return sim


def test_an_obstacle_that_crossed_more_than_the_range_is_saved_and_resumed(tmp_path):
    """Its displacement exceeds 1e15 while its vertices stay in range: a step accepts it, so do the loaders."""
    sim = _moving(-9e14)
    sim.run(15)  # 1.5e15 further on, vertices near 6e14
    assert sim.moving_obstacles[0].vertices[0, 0] > 5e14
    resumed = vosim.load_state(sim.save_state(tmp_path / "s.npz"))
    np.testing.assert_array_equal(resumed.moving_obstacles[0].vertices, sim.moving_obstacles[0].vertices)
    again = pickle.loads(pickle.dumps(sim))
    np.testing.assert_array_equal(again.run(2).positions, sim.run(2).positions)


def test_a_state_that_could_not_be_resumed_is_not_saved(tmp_path):
    """After run() refused an obstacle out of the range, save_state and pickling refuse too (they used to
    write a checkpoint that both loaders then refused)."""
    sim = _moving(5e14)
    with pytest.raises(ValueError, match="moving obstacle 0 has moved out of the working range"):
        sim.run(20)
    for save in (lambda: sim.save_state(tmp_path / "s.npz"), lambda: pickle.dumps(sim)):
        with pytest.raises(ValueError, match=r"the state cannot be saved: moving obstacle 0 has moved out of the "
                                             r"working range.*remove the obstacle first"):
            save()
    assert not (tmp_path / "s.npz").exists()
    sim.remove_obstacle(0)
    assert vosim.load_state(sim.save_state(tmp_path / "s.npz")).moving_obstacles == ()


# ------------------------------------------------------- trajectories (item 7)
def _trajectory(tmp_path, batch=False):
    sim = vosim.Batch(2, 0.1) if batch else vosim.Simulator(0.1)
    shape = (2, 3, 2) if batch else (3, 2)
    sim.add_agents(np.arange(np.prod(shape), dtype=float).reshape(shape) * 3.0, goals=np.zeros(shape))
    sim.add_obstacle([[20.0, 20.0], [21.0, 20.0], [21.0, 21.0]])
    traj = sim.run(4)
    path = traj.save(tmp_path / "t.npz")
    with np.load(path) as archive:
        return traj, path, {name: archive[name] for name in archive.files}


def _load_refused(path, match):
    with pytest.raises(ValueError, match=r"path: '.*" + path.name + r"' .*" + match):
        vosim.load(path)


def test_a_renamed_member_is_caught_by_the_checksum(tmp_path):
    """A flipped member name dropped metrics.collision_pairs silently (summary() then failed elsewhere)."""
    traj, path, arrays = _trajectory(tmp_path)
    data = path.read_bytes()
    assert data.count(b"metrics.collision_pairs.npy") == 2  # local and central header
    flipped = tmp_path / "flipped.npz"
    flipped.write_bytes(data.replace(b"metrics.collision_pairs.npy", b"metrics.collision_pairz.npy"))
    _load_refused(flipped, "do not match its checksum")
    loaded = vosim.load(path)
    assert loaded.metrics.keys() == traj.metrics.keys()
    assert _metadata(arrays)["format_version"] == _io.FORMAT_VERSION


@pytest.mark.parametrize("change, match", [
    (lambda m: m.pop("steps_run"), "metadata 'steps_run' is None"),
    (lambda m: m.__setitem__("time_step", "0.1"), "metadata 'time_step' is '0.1'"),
    (lambda m: m.__setitem__("time_step", None), "metadata 'time_step' is None"),
    (lambda m: m.__setitem__("all_arrived", 1), "metadata 'all_arrived' is 1"),
    (lambda m: m.__setitem__("wall_time", [1]), "metadata 'wall_time' is"),
    (lambda m: m.__setitem__("method", 3), "metadata 'method' is 3"),
    (lambda m: m.__setitem__("obstacles", {"a": 1}), "metadata 'obstacles' is"),
    (lambda m: m.__setitem__("obstacles", [1]), r"metadata 'obstacles'\[0\] is not an obstacle"),
    (lambda m: m["obstacles"][0].__setitem__("vertices", [[1, 2, 3]]), r"'obstacles'\[0\] has vertices"),
    (lambda m: m["obstacles"][0].__setitem__("vertices", "abc"), r"'obstacles'\[0\] has vertices"),
    (lambda m: m["obstacles"][0].__setitem__("scene", 5), r"'obstacles'\[0\] has the scene 5"),
    (lambda m: m.__setitem__("format_version", "2"), "format version '2'"),
])
def test_crafted_metadata_is_a_value_error(tmp_path, change, match):
    """Were KeyError and TypeError."""
    _, _, arrays = _trajectory(tmp_path)
    np.savez(tmp_path / "crafted.npz", **_with_metadata(arrays, change))
    _load_refused(tmp_path / "crafted.npz", match)


@pytest.mark.parametrize("batch", [False, True])
@pytest.mark.parametrize("name, change", [
    ("velocities", lambda a: a[:-1]), ("times", lambda a: a[:2]), ("steps", lambda a: a.astype(float)),
    ("ids", lambda a: a[..., :1]), ("radius", lambda a: a[None]), ("goals", lambda a: a[..., :1]),
    ("has_goal", lambda a: a.astype(np.int8)), ("headings", lambda a: a[:, ..., :2]),
    ("kinematics", lambda a: a[..., :1]), ("positions", lambda a: a[..., :1]),
    ("metrics.min_clearance_series", lambda a: a[:1]), ("metrics.path_length", lambda a: a[..., :1]),
    ("metrics.collision_pairs", lambda a: np.array(["x"])),
])
def test_inconsistent_shapes_are_refused_on_load(tmp_path, batch, name, change):
    """They loaded and failed later (to_dataframe, summary)."""
    _, _, arrays = _trajectory(tmp_path, batch)
    arrays[name] = change(arrays[name])
    np.savez(tmp_path / "shapes.npz", **arrays)
    _load_refused(tmp_path / "shapes.npz", f"corrupt vosim trajectory .{name} ")


def test_trajectories_of_the_first_format_load_without_a_checksum(tmp_path):
    from _older_formats import as_older_file

    traj, path, arrays = _trajectory(tmp_path, batch=True)
    np.savez(tmp_path / "old.npz", **as_older_file(arrays))
    old = vosim.load(tmp_path / "old.npz")
    np.testing.assert_array_equal(old.positions, traj.positions)
    assert old.metadata["format_version"] == 1
    without = _with_metadata(arrays, lambda m: m.pop("checksum"))  # the current format has one
    np.savez(tmp_path / "stripped.npz", **without)
    _load_refused(tmp_path / "stripped.npz", "format version 2 has a checksum, this file none")


def test_a_forged_trajectory_without_some_metrics_still_summarises(tmp_path):
    """A file with a recomputed checksum may lack metrics: summary() shows "?" for them (was a TypeError)."""
    from vosim import _archive

    _, _, arrays = _trajectory(tmp_path)
    metadata = _metadata(arrays)
    del arrays["metadata"], arrays["metrics.collision_pairs"], metadata["checksum"]
    arrays["metrics.min_clearance"] = np.array(np.nan)
    metadata["checksum"] = _archive.digest(arrays, metadata)
    np.savez(tmp_path / "forged.npz", **arrays, metadata=np.array(json.dumps(metadata)))
    text = vosim.load(tmp_path / "forged.npz").summary()
    assert "collisions         ? pairs overlapped" in text and "min clearance      +nan m" in text


def test_a_state_of_an_unknown_kind_is_refused(tmp_path):
    arrays = _with_metadata(_state_arrays(tmp_path), lambda m: m.__setitem__("kind", {"a": 1}))
    np.savez(tmp_path / "kind.npz", **arrays)
    _refused(tmp_path / "kind.npz", "is not a vosim simulator state (kind {'a': 1})")


@pytest.mark.parametrize("load", [vosim.load, vosim.load_state])
def test_a_folder_or_a_pipe_is_refused_without_waiting(tmp_path, load):
    import os

    (tmp_path / "folder.npz").mkdir()
    os.mkfifo(tmp_path / "pipe.npz")  # opening it to read would wait for a writer
    for name in ("folder.npz", "pipe.npz"):
        with pytest.raises(ValueError, match=rf"{name}' is not a vosim .*not a regular file"):
            load(tmp_path / name)
