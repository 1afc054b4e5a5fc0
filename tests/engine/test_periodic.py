"""Periodic corridors (Simulator.set_periodic): agents wrap with their goals,
see their neighbours across the seam exactly as without one, stay
deterministic for any thread count; trajectories, measurement, files and
checkpoints keep the setting; bad input is refused by name."""

import copy
import pickle
import re

import numpy as np
import pytest

import vosim
from vosim import _checkpoint, measurement

METHODS = [vosim.ORCA(), vosim.VO(), vosim.RVO(), vosim.HRVO(), vosim.AdaptiveSampling(),
           vosim.GridSampling(grid_size=17), vosim.ForceBased(), vosim.AVO(), vosim.CollisionFreeSpeed(),
           vosim.SocialForce()]
PERIOD = 10.0


def label(method):
    return method.name


def head_on(method, shift, periodic):
    """Two agents head-on 0.8 m apart along x, slightly offset in y, translated by ``shift``."""
    sim = vosim.Simulator(time_step=0.1, method=method)
    if periodic:
        sim.set_periodic(x=(0.0, PERIOD))
    start = np.array([[-0.4, 0.05], [0.4, 0.0]]) + [shift, 0.0]
    if periodic:
        start[:, 0] %= PERIOD
    sim.add_agents(start, goals=start + [[100.0, 0.0], [-100.0, 0.0]], radius=0.25, max_speed=1.5,
                   pref_speed=1.2, neighbor_dist=3.0, time_horizon=2.0)
    return sim


@pytest.mark.parametrize("method", METHODS, ids=label)
def test_a_pair_across_the_seam_moves_as_the_same_pair_away_from_it(method):
    # Across the seam: at 9.6 and 0.4 of the period [0, 10); away from it: at 4.6 and 5.4.
    across, inside = head_on(method, 0.0, True), head_on(method, 5.0, False)
    assert across.neighbors()[0][0] == across.ids[1]
    for _ in range(30):
        across.step()
        inside.step()
        np.testing.assert_allclose(across.velocities, inside.velocities, atol=1e-9)
        gap = (across.positions[:, 0] - inside.positions[:, 0] + 5.0) % PERIOD
        np.testing.assert_allclose(np.minimum(gap, PERIOD - gap), 0.0, atol=1e-9)
        np.testing.assert_allclose(across.positions[:, 1], inside.positions[:, 1], atol=1e-9)
    assert np.all((across.positions[:, 0] >= 0.0) & (across.positions[:, 0] < PERIOD))
    # They met across the seam and passed: each is now beyond where the other started.
    moved = np.abs(across.velocities).sum()
    assert moved > 0.0


def test_an_agent_crossing_the_seam_keeps_its_speed_and_walks_on_for_ever():
    sim = vosim.Simulator(time_step=0.1)
    sim.set_periodic(x=(0.0, PERIOD))
    sim.add_agents([[9.0, 1.0]], goals=[[109.0, 1.0]], radius=0.25, max_speed=1.5, pref_speed=1.2)
    traj = sim.run(100)  # 10 s at 1.2 m/s: 12 m, across the seam twice
    assert traj.periodic == (("x", 0.0, PERIOD))
    np.testing.assert_allclose(np.linalg.norm(traj.velocities[1:, 0], axis=-1), 1.2, rtol=1e-9)
    assert np.all((traj.positions[..., 0] >= 0.0) & (traj.positions[..., 0] < PERIOD))
    # The goal moved with the agent: still 88 m ahead of it.
    assert sim.positions[0, 0] == pytest.approx(1.0, abs=1e-9)
    assert sim.goals[0, 0] == pytest.approx(89.0)
    unwrapped = traj.unwrapped_positions()
    steps = np.linalg.norm(np.diff(unwrapped[:, 0], axis=0), axis=-1)
    assert steps.max() < 0.13
    assert unwrapped[-1, 0, 0] == pytest.approx(21.0, abs=1e-6)
    assert traj.metrics["path_length"][0] == pytest.approx(12.0, abs=1e-6)
    speeds = measurement.individual_speeds(traj, frame_step=5)
    finite = speeds[np.isfinite(speeds)]
    assert finite.size > 50
    np.testing.assert_allclose(finite, 1.2, rtol=1e-6)


def test_waypoints_move_with_a_wrapped_agent():
    sim = vosim.Simulator(time_step=0.1)
    sim.set_periodic(y=(-5.0, 5.0))
    ids = sim.add_agents([[0.0, 4.0]], radius=0.25, max_speed=1.5, pref_speed=1.0)
    sim.set_waypoints(ids, [[[0.0, 6.0], [0.0, 7.0]]])
    sim.run(15)  # across y = 5, short of the first waypoint (y = 6, now -4)
    assert -5.0 <= sim.positions[0, 1] < -4.25
    np.testing.assert_allclose(sim.goals[0], [0.0, -4.0])
    sim.run(60)  # on to the last (y = 7, now -3), and there
    np.testing.assert_allclose(sim.goals[0], [0.0, -3.0])
    np.testing.assert_allclose(sim.positions[0], [0.0, -3.0], atol=0.3)


def corridor(seed=3, n=120, length=12.0):
    rng = np.random.default_rng(seed)
    sim = vosim.Simulator(time_step=0.1)
    sim.set_periodic(x=(0.0, length))
    sim.add_wall([[0.0, 0.0], [length, 0.0]])
    sim.add_wall([[length, 4.0], [0.0, 4.0]])
    start = np.column_stack([rng.uniform(0, length, n), rng.uniform(0.4, 3.6, n)])
    goals = start + np.array([[1000.0, 0.0]] * (n // 2) + [[-1000.0, 0.0]] * (n - n // 2))
    sim.add_agents(start, goals=goals, radius=0.15, max_speed=1.5, pref_speed=1.2)
    return sim


def test_results_are_the_same_bits_for_any_thread_count():
    # Enough agents that a step runs in several blocks on several threads.
    results = []
    before = vosim.get_num_threads()
    try:
        for threads in (1, 2, 3):
            vosim.set_num_threads(threads)
            results.append(corridor(n=3000, length=300.0).run(20).positions)
    finally:
        vosim.set_num_threads(before)
    for other in results[1:]:
        assert np.array_equal(results[0], other)
    assert np.all((results[0][..., 0] >= 0.0) & (results[0][..., 0] < 300.0))
    assert np.any(results[0][-1, :, 0] > 299.0) and np.any(results[0][-1, :, 0] < 1.0)


def test_bad_input_is_refused_by_name():
    sim = vosim.Simulator(time_step=0.1)
    with pytest.raises(ValueError, match="exactly one"):
        sim.set_periodic()
    with pytest.raises(ValueError, match="exactly one"):
        sim.set_periodic(x=(0, 1), y=(0, 1))
    with pytest.raises(ValueError, match=r"x is \(2.0, 2.0\); the period"):
        sim.set_periodic(x=(2, 2))
    with pytest.raises(ValueError, match="y: high is inf"):
        sim.set_periodic(y=(0, np.inf))
    with pytest.raises(ValueError, match="x: expected a pair"):
        sim.set_periodic(x=5.0)
    with pytest.raises(ValueError, match="2D"):
        vosim.Simulator(time_step=0.1, dimensions=3).set_periodic(x=(0, 1))
    sim.add_wall([[-1.0, 0.0], [5.0, 0.0]])
    with pytest.raises(ValueError, match=r"vertex 0 has x = -1.0, outside the periodic bounds"):
        sim.set_periodic(x=(0, 5))
    assert sim.periodic is None
    sim.set_periodic(x=(-1, 5))
    with pytest.raises(ValueError, match="vertex 1 has x = 7.0"):
        sim.add_obstacle([[0.0, 1.0], [7.0, 1.0], [0.0, 2.0]])
    with pytest.raises(ValueError, match="moving obstacles"):
        sim.add_obstacle([[0.0, 1.0], [1.0, 1.0], [0.0, 2.0]], velocity=(0.1, 0.0))
    with pytest.raises(ValueError, match="cannot see across a periodic seam"):
        sim.method = vosim.AVO(variant="avo2")
    sim.clear_periodic()
    assert sim.periodic is None
    sim.method = vosim.AVO(variant="avo2")
    with pytest.raises(ValueError, match="cannot see across a periodic seam"):
        sim.set_periodic(x=(-1, 5))


def test_files_pickles_copies_and_checkpoints_keep_the_axis(tmp_path):
    sim = corridor(n=20)
    sim.run(5)
    others = (pickle.loads(pickle.dumps(sim)), copy.deepcopy(sim),
              vosim.load_state(sim.save_state(tmp_path / "state.npz")))
    expected = sim.run(30).positions
    for other in others:
        assert other.periodic == sim.periodic
        assert np.array_equal(other.run(30).positions, expected)
    traj = sim.run(10)
    loaded = vosim.load(traj.save(tmp_path / "traj.npz"))
    assert loaded.periodic == traj.periodic == ("x", 0.0, 12.0)
    plain = vosim.Simulator(time_step=0.1)
    plain.add_agents([[0.0, 0.0]])
    assert vosim.load(plain.run(2).save(tmp_path / "plain.npz")).periodic is None


def test_a_line_is_crossed_once_per_pass_not_at_every_wrap():
    sim = vosim.Simulator(time_step=0.1)
    sim.set_periodic(x=(0.0, PERIOD))
    sim.add_agents([[8.0, 1.0]], goals=[[100.0, 1.0]], radius=0.25, max_speed=1.5, pref_speed=1.0)
    traj = sim.run(40)  # from 8 to 12 (= 2): across the seam, not across x = 5
    middle = measurement.MeasurementLine([5.0, 0.0], [5.0, 2.0])
    assert measurement.crossing_frames(traj, middle)[0] == -1
    near_seam = measurement.MeasurementLine([0.5, 0.0], [0.5, 2.0])
    assert measurement.crossing_frames(traj, near_seam)[0] in (25, 26)  # 2.5 m at 1 m/s, from rest


def test_a_batch_wraps_every_scene():
    batch = vosim.Batch(2, time_step=0.1)
    batch.set_periodic(x=(0.0, 5.0))
    batch.add_agents([[[4.9, 0.0]], [[0.1, 0.0]]], goals=[[[100.0, 0.0]], [[-100.0, 0.0]]], radius=0.25,
                     max_speed=1.0, pref_speed=1.0)
    batch.run(3)
    np.testing.assert_allclose(batch.positions[:, 0, 0], [0.2, 4.8], atol=0.05)
    assert batch.periodic == ("x", 0.0, 5.0)


@pytest.mark.parametrize("saved_as, axis, message", [
    ("part", np.array([7]), "saved state: periodic: axis is 7; it must be 0 (x), 1 (y) or -1 (none)"),
    ("part", np.array([0, 1]), "saved state: periodic: axis, low and high must hold one value each"),
    ("older entries", 7, "saved state: periodic: axis is 7; it must be"),
    ("older entries", 2**70, "saved state: 'periodic_axis' is 1180591620717411303424, which does not fit 64 bits"),
])
def test_a_state_with_a_bad_periodic_axis_is_refused(saved_as, axis, message):
    sim = vosim.Simulator(time_step=0.1)
    sim.set_periodic(x=(0.0, 5.0))
    state = sim.__getstate__()
    engine = dict(state["engine"])
    if saved_as == "part":
        engine["feature.periodic.axis"] = axis
    else:  # as states saved before the axis had a part of its own held it
        for name in ("axis", "low", "high"):
            del engine[f"feature.periodic.{name}"]
        engine.update(periodic_axis=axis, periodic_low=0.0, periodic_high=5.0)
    state["engine"] = engine
    state["checksum"] = _checkpoint.checksum(state)  # well formed, but for the axis
    with pytest.raises(ValueError, match=re.escape(message)):
        vosim.Simulator.__new__(vosim.Simulator).__setstate__(state)


def test_a_saved_axis_is_checked_against_the_engine_and_method_as_set_periodic_checks_it():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0]], goals=[[3.0, 0.0]])
    sim.set_periodic(x=(-1.0, 5.0))
    engine_state = sim._engine.snapshot()
    seamless = vosim._core.Engine(1, 0.1, 2)
    seamless.method = vosim.AVO(variant="avo2")._make_core()
    with pytest.raises(ValueError, match="saved state: periodic: method AVO.* cannot see across a periodic seam"):
        seamless.restore(engine_state)
    assert seamless.periodic() is None
    space = vosim.Simulator(time_step=0.1, dimensions=3)
    space.add_agents([[0.0, 0.0, 0.0]], goals=[[3.0, 0.0, 0.0]])
    crafted = dict(space._engine.snapshot(), **{"feature.periodic.axis": np.array([0]),
                                                  "feature.periodic.low": np.array([-1.0]),
                                                  "feature.periodic.high": np.array([5.0])})
    with pytest.raises(ValueError, match="saved state: periodic: a periodic axis needs a 2D simulator"):
        space._engine.restore(crafted)
