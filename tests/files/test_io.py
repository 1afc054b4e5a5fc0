"""Saving, loading and exporting trajectories."""

import json
import zipfile

import numpy as np
import pytest

import vosim
from vosim import _io


def _crossing_run(batch: bool):
    """A short run with obstacles, a removed agent and (for a batch) per-scene parameters."""
    start = np.array([[-4.0, 0.1], [4.0, -0.1], [0.0, -4.0], [0.3, 4.0]])
    goals = -start
    if batch:
        sim = vosim.Batch(scenes=3, time_step=0.1, method=vosim.ORCA(perturbation=1e-3, seed=3))
        sim.add_agents(start, goals=goals, radius=0.4, time_horizon=np.array([[1.0], [2.0], [3.0]]) * np.ones(4))
        sim.add_obstacle([[-0.5, 6.0], [0.5, 6.0], [0.5, 7.0], [-0.5, 7.0]], scene=1)
    else:
        sim = vosim.Simulator(time_step=0.1, method=vosim.RVO(samples=50, seed=2))
        sim.add_agents(start, goals=goals, radius=0.4)
        sim.add_wall([[6.0, -1.0], [6.0, 1.0]])
        sim.remove_agents([sim.ids[3]])
    return sim.run(60, record_every=7)


def _assert_same(a: vosim.Trajectory, b: vosim.Trajectory):
    for name in _io.ARRAYS + _io.OPTIONAL_ARRAYS:
        x, y = getattr(a, name), getattr(b, name)
        assert x.dtype == y.dtype and x.shape == y.shape, name
        assert x.tobytes() == y.tobytes(), name  # bit for bit, NaN goals included
    for name in ("time_step", "steps_run", "all_arrived", "wall_time", "method"):
        assert getattr(a, name) == getattr(b, name), name
    assert len(a.obstacles) == len(b.obstacles)
    for p, q in zip(a.obstacles, b.obstacles):
        assert p.kind == q.kind and p.scene == q.scene
        assert p.vertices.tobytes() == q.vertices.tobytes()
    metrics = getattr(a, "metrics", None) or {}
    assert set(metrics) == set(getattr(b, "metrics", None) or {})
    for name, value in metrics.items():
        assert np.asarray(value).tobytes() == np.asarray(b.metrics[name]).tobytes(), name


@pytest.mark.parametrize("batch", [False, True], ids=["simulator", "batch"])
def test_save_and_load_round_trip_bit_exact(tmp_path, batch):
    traj = _crossing_run(batch)
    written = traj.save(tmp_path / "run")
    assert written == tmp_path / "run.npz" and written.exists()
    loaded = vosim.load(written)
    _assert_same(traj, loaded)
    assert loaded.metadata["vosim_version"] == vosim.__version__
    assert loaded.metadata["format"] == "vosim-trajectory"
    # what the loaded trajectory computes is what the original computes
    assert np.array_equal(loaded.min_clearance_per_frame(), traj.min_clearance_per_frame())
    assert np.array_equal(loaded.arrived_per_frame(), traj.arrived_per_frame())
    # saving the loaded trajectory again gives the same arrays
    _assert_same(loaded, vosim.load(loaded.save(tmp_path / "again.npz")))


def test_a_failed_write_leaves_no_file(tmp_path, monkeypatch):
    traj = _crossing_run(False)

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(np, "savez_compressed", broken)
    with pytest.raises(OSError, match="disk full"):
        traj.save(tmp_path / "run.npz")
    assert list(tmp_path.iterdir()) == []


def test_a_failed_write_keeps_the_previous_file(tmp_path, monkeypatch):
    traj = _crossing_run(False)
    path = traj.save(tmp_path / "run.npz")
    before = path.read_bytes()

    def broken(stream, **arrays):
        stream.write(b"half a file")
        raise KeyboardInterrupt

    monkeypatch.setattr(np, "savez_compressed", broken)
    with pytest.raises(KeyboardInterrupt):
        traj.save(path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["run.npz"]


def test_loading_other_files_says_what_is_wrong(tmp_path):
    text = tmp_path / "notes.npz"
    text.write_text("hello")
    with pytest.raises(ValueError, match=r"path: '.*notes\.npz' is not a vosim trajectory"):
        vosim.load(text)
    plain = tmp_path / "array.npy"
    np.save(plain, np.arange(3))
    with pytest.raises(ValueError, match="not a vosim trajectory .a single array"):
        vosim.load(plain)
    other = tmp_path / "other.npz"
    np.savez(other, x=np.arange(3))
    with pytest.raises(ValueError, match="not a vosim trajectory .no metadata"):
        vosim.load(other)
    foreign = tmp_path / "foreign.npz"
    np.savez(foreign, metadata=np.array(json.dumps({"format": "something else"})))
    with pytest.raises(ValueError, match="is not a vosim trajectory$"):
        vosim.load(foreign)
    with pytest.raises(FileNotFoundError, match="path: no file"):
        vosim.load(tmp_path / "missing.npz")


def test_loading_a_newer_or_truncated_file_fails_clearly(tmp_path):
    path = _crossing_run(False).save(tmp_path / "run.npz")
    with np.load(path) as archive:
        arrays = {name: archive[name] for name in archive.files}
    metadata = json.loads(str(arrays["metadata"]))
    metadata["format_version"] = _io.FORMAT_VERSION + 1
    np.savez(tmp_path / "newer.npz", **{**arrays, "metadata": np.array(json.dumps(metadata))})
    with pytest.raises(ValueError, match="written by a newer vosim"):
        vosim.load(tmp_path / "newer.npz")
    del arrays["velocities"]
    np.savez(tmp_path / "partial.npz", **arrays)
    with pytest.raises(ValueError, match="not a complete vosim trajectory .no velocities"):
        vosim.load(tmp_path / "partial.npz")
    assert zipfile.is_zipfile(path)


@pytest.mark.parametrize("batch", [False, True], ids=["simulator", "batch"])
def test_dataframe_is_tidy(batch):
    pd = pytest.importorskip("pandas")
    traj = _crossing_run(batch)
    table = traj.to_dataframe()
    assert list(table.columns) == ["scene", "frame", "time", "id", "x", "y", "vx", "vy", "heading"]
    positions = traj.positions if batch else traj.positions[:, None]
    ids = traj.ids if batch else traj.ids[None]
    live = int((ids >= 0).sum())
    assert len(table) == len(traj) * live
    assert not table.duplicated(["scene", "frame", "id"]).any()
    # every row is the recorded value
    for (scene, frame), group in table.groupby(["scene", "frame"]):
        t = int(np.flatnonzero(traj.steps == frame)[0])
        slots = [int(np.flatnonzero(ids[scene] == i)[0]) for i in group["id"]]
        assert np.array_equal(group[["x", "y"]].to_numpy(), positions[t, scene, slots])
        assert np.allclose(group["time"], traj.times[t])
    assert pd.api.types.is_integer_dtype(table["frame"]) and pd.api.types.is_integer_dtype(table["id"])


def test_pedpy_export():
    pedpy = pytest.importorskip("pedpy", reason="pedpy is not installed (pip install pedpy)")
    traj = _crossing_run(True)
    data = traj.to_pedpy(scene=2)
    assert isinstance(data, pedpy.TrajectoryData)
    assert data.frame_rate == pytest.approx(10.0)
    with pytest.raises(ValueError, match="scene is 3; must be <= 2"):
        traj.to_pedpy(scene=3)


def test_save_stores_the_scenario(tmp_path):
    from vosim import scenarios

    scenario = scenarios.circle(6, radius=8.0)
    traj = scenario.build().run(5)
    loaded = vosim.load(traj.save(tmp_path / "c.npz", scenario=scenario))
    again = scenarios.Scenario.from_dict(loaded.metadata["scenario"])
    assert again.to_json() == scenario.to_json()
