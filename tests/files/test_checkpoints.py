"""Checkpoints: pickling, save_state and load_state resume bit-identically.

Every test of resumption runs for every method in METHODS, with obstacles
(shared and per scene), waypoints, removed agents, a perturbation and
agent options, on 1 and 2 threads: N steps, a checkpoint, M more steps must
equal N + M steps without one, compared with np.array_equal.
"""

from __future__ import annotations

import copy
import pickle

import numpy as np
import pytest

import vosim
from vosim import _checkpoint

METHODS = {
    "ORCA": lambda: vosim.ORCA(perturbation=0.01, seed=5),
    "VO": lambda: vosim.VO(samples=40, seed=2),
    "RVO": lambda: vosim.RVO(samples=40, perturbation=0.01, seed=3),
    "HRVO": lambda: vosim.HRVO(),
    "AdaptiveSampling": lambda: vosim.AdaptiveSampling(perturbation=0.01, seed=4),
    "GridSampling": lambda: vosim.GridSampling(grid_size=9),
    "ForceBased": lambda: vosim.ForceBased(perturbation=0.05, seed=8),
}

# Every per-agent field a Simulator shows.
FIELDS = ("positions", "velocities", "pref_velocities", "goals", "radius", "max_speed", "pref_speed",
          "neighbor_dist", "max_neighbors", "time_horizon", "time_horizon_obst", "arrival_radius", "priority",
          "max_acceleration", "uncertainty_offset", "has_goal", "active", "ids")

FIRST_STEPS = 12  # before the checkpoint
MORE_STEPS = 14  # after it

threads = [1, 2] if vosim.have_threads() else [1]


def _scene(method_name: str, scenes: int | None = None, agents: int = 24, seed: int = 0):
    """A seeded Simulator (scenes=None) or Batch with everything a step reads."""
    rng = np.random.default_rng(seed)
    shape = (agents, 2) if scenes is None else (scenes, agents, 2)
    extent = 9.0 * max(1.0, np.sqrt(agents / 24))  # the same density for larger crowds
    starts = rng.uniform(-extent, extent, shape)
    goals = -starts
    goals[..., ::6, :] = np.nan  # these walk as their preferred velocity says
    method = METHODS[method_name]()
    sim = vosim.Simulator(time_step=0.1, method=method) if scenes is None else vosim.Batch(
        scenes, time_step=0.1, method=method)
    sim.add_obstacle([[1.0, 1.0], [3.0, 1.0], [3.0, 2.5], [1.0, 2.5]], strict=False)
    sim.add_wall([[-6.0, -4.0], [-2.0, -5.0], [0.0, -3.5]])
    wall = extent + 3.0
    sim.add_boundary([[-wall, -wall], [wall, -wall], [wall, wall], [-wall, wall]], strict=False)
    if scenes is not None:
        sim.add_obstacle([[-2.0, -1.0], [0.0, -1.0], [-1.0, 0.5]], scene=scenes - 1, strict=False)
    ids = sim.add_agents(starts, goals=goals, radius=0.3, neighbor_dist=4.0, max_neighbors=8,
                         time_horizon=2.0, time_horizon_obst=1.0, priority=rng.uniform(0.5, 2.0, agents),
                         max_acceleration=np.where(np.arange(agents) % 3 == 0, 4.0, np.inf),
                         uncertainty_offset=0.02, pref_velocities=rng.uniform(-1.0, 1.0, shape), strict=False)
    flat = ids.reshape(-1)
    # Tracks of waypoints 1.5 m apart: agents pass some before the checkpoint and some after.
    tracked = flat[1::5]
    starts_of = starts.reshape(-1, 2)[1::5]
    track = np.array([[1.5, 0.0], [3.0, 0.5], [4.5, 0.0], [6.0, 0.5]])
    sim.set_waypoints(tracked, [p + track for p in starts_of], waypoint_radius=0.5)
    sim.remove_agents(flat[4::9])
    return sim


def _state(sim) -> dict:
    out = {name: np.array(getattr(sim, name)) for name in FIELDS}
    out["waypoints_remaining"] = np.array(sim.waypoints_remaining)
    out["time"] = sim.time
    out["step_count"] = sim.step_count
    return out


def _assert_same(a, b) -> None:
    for name, value in _state(a).items():
        other = _state(b)[name]
        assert np.array_equal(value, other, equal_nan=True), name


def _round_trips(sim, tmp_path):
    yield "pickle", pickle.loads(pickle.dumps(sim))
    yield "file", vosim.load_state(sim.save_state(tmp_path / "state.npz"))


@pytest.mark.parametrize("threads_", threads, ids=lambda t: f"{t} threads")
@pytest.mark.parametrize("method_name", METHODS)
@pytest.mark.parametrize("scenes", [None, 3], ids=["simulator", "batch"])
def test_resuming_is_bit_identical(method_name, scenes, threads_, tmp_path):
    # Enough agents in all that steps run in parallel on 2 threads.
    agents = 600 if scenes is None else 200
    vosim.set_num_threads(1)
    reference = _scene(method_name, scenes, agents)
    reference.run(FIRST_STEPS + MORE_STEPS, record_every=FIRST_STEPS + MORE_STEPS)

    vosim.set_num_threads(threads_)
    sim = _scene(method_name, scenes, agents)
    sim.run(FIRST_STEPS)
    for how, resumed in _round_trips(sim, tmp_path):
        assert type(resumed) is type(sim), how
        assert resumed.method == sim.method, how
        assert resumed.obstacles.__repr__() == sim.obstacles.__repr__(), how
        _assert_same(resumed, sim)
        traj = resumed.run(MORE_STEPS)
        assert traj.steps[0] == FIRST_STEPS and traj.steps_run == MORE_STEPS, how
        _assert_same(resumed, reference)
    # The original, never interrupted, ends in the same state too.
    sim.run(MORE_STEPS)
    _assert_same(sim, reference)


def test_a_resumed_run_records_the_same_trajectory_and_metrics(tmp_path):
    sim = _scene("ORCA", 2)
    sim.run(FIRST_STEPS)
    resumed = vosim.load_state(sim.save_state(tmp_path / "state"))
    original, again = sim.run(MORE_STEPS), resumed.run(MORE_STEPS)
    assert np.array_equal(original.positions, again.positions)
    assert np.array_equal(original.velocities, again.velocities)
    for name, value in original.metrics.items():
        if name.startswith("time_") or name.endswith("_seconds"):
            continue  # wall times
        assert np.array_equal(np.asarray(value), np.asarray(again.metrics[name]), equal_nan=True), name


def test_save_state_appends_npz_and_writes_atomically(tmp_path, monkeypatch):
    sim = _scene("ORCA")
    path = sim.save_state(tmp_path / "state")
    assert path == tmp_path / "state.npz" and path.exists()
    before = path.read_bytes()

    def broken(stream, **arrays):
        stream.write(b"half a file")
        raise KeyboardInterrupt

    monkeypatch.setattr(np, "savez_compressed", broken)
    sim.step()
    with pytest.raises(KeyboardInterrupt):
        sim.save_state(path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["state.npz"]


def test_a_copy_is_independent_and_keeps_handing_out_new_ids():
    sim = _scene("HRVO")
    sim.run(5)
    twin = copy.deepcopy(sim)
    twin.positions[0] += 1.0
    twin.step()
    assert sim.step_count == 5 and twin.step_count == 6
    assert not np.array_equal(sim.positions, twin.positions)
    # The next agents get the ids the original would give them.
    new = sim.add_agents([[11.0, 11.0]], strict=False)
    assert np.array_equal(twin.add_agents([[11.0, 11.0]], strict=False), new)


@pytest.mark.parametrize("scenes", [None, 4], ids=["simulator", "batch"])
def test_empty_simulators_round_trip(scenes, tmp_path):
    sim = vosim.Simulator(time_step=0.3) if scenes is None else vosim.Batch(scenes, time_step=0.3)
    for resumed in (pickle.loads(pickle.dumps(sim)), vosim.load_state(sim.save_state(tmp_path / "s.npz"))):
        assert resumed.num_agents == 0 and resumed.time_step == 0.3 and resumed.obstacles == ()
        assert resumed.method == vosim.ORCA()
        resumed.step()
        assert resumed.step_count == 1


def test_the_time_and_time_step_come_back_exactly(tmp_path):
    sim = vosim.Simulator(time_step=0.1 + 1e-17)
    sim.add_agents([[0.0, 0.0]], goals=[[5.0, 0.0]])
    sim.run(7)
    sim.time_step = 1.0 / 3.0
    sim.run(3)
    resumed = vosim.load_state(sim.save_state(tmp_path / "s.npz"))
    assert resumed.time == sim.time and resumed.time_step == sim.time_step


def test_restoring_a_bad_snapshot_changes_nothing():
    sim = _scene("ORCA")
    engine = sim._engine
    good = engine.snapshot()
    before = _state(sim)

    def refused(change, match):
        state = copy.deepcopy(good)
        change(state)
        with pytest.raises(ValueError, match=match):
            engine.restore(state)
        assert all(np.array_equal(v, _state(sim)[k], equal_nan=True) for k, v in before.items())

    refused(lambda s: s.__setitem__("scenes", 2), "it has 2 scenes; this engine has 1")
    refused(lambda s: s["columns"].pop("radius"), "no column 'radius'")
    refused(lambda s: s["columns"].__setitem__("radius", s["columns"]["radius"][:, :3]),
            "column 'radius' has the wrong type or size")
    refused(lambda s: s["columns"].__setitem__("extra", np.zeros(3)), "columns this engine does not know")
    refused(lambda s: s["columns"]["ids"].__setitem__((0, 1), 0), r"ids\[0, 1\] is 0; ids must ascend")
    refused(lambda s: s["columns"]["active"].__setitem__((0, 0), 7), r"active\[0, 0\] is 7")
    refused(lambda s: s.__setitem__("time_step", -1.0), "time_step is -1")
    refused(lambda s: s.pop("obstacle_kinds"), "no entry 'obstacle_kinds'")
    refused(lambda s: s["obstacle_kinds"].__setitem__(0, "cloud"), "unknown obstacle kind 'cloud'")
    refused(lambda s: s["feature.waypoints.next"].__setitem__(0, 99), "waypoints: the waypoints of agent .* are inconsistent")
    refused(lambda s: s.__setitem__("feature.waypoints.offsets", np.array([0, 5])), "waypoints: waypoint offsets do not match")
    refused(lambda s: s.update(waypoint_ids=np.array([0])), "it has both 'waypoint_ids' and the entries of feature 'waypoints'")
    refused(lambda s: s["obstacle_offsets"].__setitem__(-1, 2), "obstacle offsets do not match")


def test_unpickling_something_else_says_what_is_wrong():
    sim = vosim.Simulator()
    with pytest.raises(ValueError, match="is not a vosim simulator state"):
        sim.__setstate__({"format": "other"})
    state = sim.__getstate__()
    state["format_version"] = 99
    current = _checkpoint.FORMAT_VERSION
    with pytest.raises(ValueError, match=rf"format version 99, which this vosim .{current}. cannot read"):
        sim.__setstate__(state)


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
def test_every_pickle_protocol(protocol):
    sim = _scene("ORCA", 2)
    sim.run(3)
    resumed = pickle.loads(pickle.dumps(sim, protocol=protocol))
    _assert_same(resumed, sim)


def test_a_running_simulator_is_not_checkpointed(tmp_path):
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents(np.random.default_rng(0).uniform(-30.0, 30.0, (400, 2)))
    attempts = []

    def progress(done, total):
        # Called from inside the run, while the engine is busy; then stops it.
        for attempt in (lambda: pickle.dumps(sim), lambda: sim.save_state(tmp_path / "s.npz")):
            with pytest.raises(RuntimeError, match="busy"):
                attempt()
        attempts.append(done)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        sim.run(100_000, progress=progress, metrics=False)
    assert attempts and not (tmp_path / "s.npz").exists()
    pickle.dumps(sim)  # after the run it can be
