"""Speed zones: polygons that scale the preferred speed of the agents inside
them, applied in the goals phase, composed where they overlap, kept by
checkpoints, the same on any thread count."""

import pickle

import numpy as np
import pytest

import vosim
from vosim import _checkpoint

STRIP = [[-1.0, -1.0], [50.0, -1.0], [50.0, 1.0], [-1.0, 1.0]]  # around the row y = 0


def _walkers(sim, **kwargs):
    """Agents at x = 0 on rows y = 0 and y = 5, walking +x at 1 m/s (they can do 2)."""
    starts = np.array([[0.0, 0.0], [0.0, 5.0]])
    return sim.add_agents(starts, goals=starts + [100.0, 0.0], pref_speed=1.0, max_speed=2.0, radius=0.25, **kwargs)


def test_an_agent_inside_a_zone_prefers_the_scaled_speed_and_one_outside_does_not():
    sim = vosim.Simulator(time_step=0.1)
    _walkers(sim)
    assert sim.add_speed_zone(STRIP, 0.5) == 0
    sim.step()
    np.testing.assert_allclose(sim.velocities, [[0.5, 0.0], [1.0, 0.0]], atol=1e-12)
    np.testing.assert_allclose(sim.pref_speed, [1.0, 1.0])  # the agent's own speed is kept
    sim.run(100)  # 0.5 m/s up to x = 50, then 1 m/s
    assert sim.positions[0, 0] == pytest.approx(5.05, abs=1e-9)


def test_inspect_shows_the_preferred_velocity_the_zone_gives():
    sim = vosim.Simulator(time_step=0.1)
    _walkers(sim)
    sim.add_speed_zone(STRIP, 0.5)
    np.testing.assert_allclose(sim.inspect(0)["pref_velocity"], [0.5, 0.0], atol=1e-12)
    np.testing.assert_allclose(sim.inspect(1)["pref_velocity"], [1.0, 0.0], atol=1e-12)
    sim.step()  # inspecting first changes nothing
    np.testing.assert_allclose(sim.velocities, [[0.5, 0.0], [1.0, 0.0]], atol=1e-12)


def test_a_factor_above_one_stays_capped_by_max_speed():
    sim = vosim.Simulator(time_step=0.1)
    _walkers(sim)
    sim.add_speed_zone(STRIP, 1.5)
    sim.add_speed_zone([[-1.0, 4.0], [50.0, 4.0], [50.0, 6.0], [-1.0, 6.0]], 4.0)
    sim.step()
    np.testing.assert_allclose(sim.velocities, [[1.5, 0.0], [2.0, 0.0]], atol=1e-12)


def test_overlapping_zones_multiply_and_removal_restores_the_speed():
    sim = vosim.Simulator(time_step=0.1)
    _walkers(sim)
    stairs = sim.add_speed_zone(STRIP, 0.5)
    slow = sim.add_speed_zone([[-2.0, -2.0], [2.0, -2.0], [2.0, 7.0], [-2.0, 7.0]], 0.8)
    sim.step()
    np.testing.assert_allclose(sim.velocities, [[0.4, 0.0], [0.8, 0.0]], atol=1e-12)
    sim.remove_speed_zone(stairs)
    assert [z.id for z in sim.speed_zones] == [slow]
    sim.step()
    np.testing.assert_allclose(sim.velocities, [[0.8, 0.0], [0.8, 0.0]], atol=1e-12)
    sim.remove_speed_zone(slow)
    assert sim.speed_zones == []
    sim.step()
    np.testing.assert_allclose(sim.velocities, [[1.0, 0.0], [1.0, 0.0]], atol=1e-12)
    with pytest.raises(ValueError, match="zone_id: no speed zone 0"):
        sim.remove_speed_zone(stairs)


def test_a_batch_zone_of_one_scene():
    batch = vosim.Batch(2, time_step=0.1)
    _walkers(batch)
    zone = batch.add_speed_zone(STRIP, 0.5, scene=1)
    assert batch.speed_zones[0].scene == 1 and batch.speed_zones[0].id == zone
    batch.step()
    np.testing.assert_allclose(batch.velocities[0, :, 0], [1.0, 1.0])
    np.testing.assert_allclose(batch.velocities[1, :, 0], [0.5, 1.0])


@pytest.mark.parametrize("polygon, factor, message", [
    ([[0, 0], [1, 0]], 0.5, "3 or more points, got 2"),
    ([[0, 0], [1, 0], [2, 0]], 0.5, "enclose no area"),
    ([[0, 0], [1, 0], [np.nan, 1]], 0.5, r"polygon\[2"),
    ([[0, 0], [1, 0], [1, 1]], 0.0, "factor is 0.0"),
    ([[0, 0], [1, 0], [1, 1]], -1.0, "factor is -1.0"),
    ([[0, 0], [1, 0], [1, 1]], 4.5, "at most 4"),
    ([[0, 0], [1, 0], [1, 1]], np.inf, "factor is inf"),
    ([0, 0, 1], 0.5, "expected shape"),
])
def test_bad_zones_are_refused_naming_what_is_wrong(polygon, factor, message):
    sim = vosim.Simulator(time_step=0.1)
    with pytest.raises(ValueError, match=message):
        sim.add_speed_zone(polygon, factor)
    assert sim.speed_zones == []


def test_zones_need_a_plane_and_a_known_scene():
    with pytest.raises(ValueError, match="speed zone needs a 2D simulator"):
        vosim.Simulator(time_step=0.1, dimensions=3).add_speed_zone([[0, 0], [1, 0], [1, 1]], 0.5)
    with pytest.raises(ValueError, match="scene"):
        vosim.Batch(2, time_step=0.1).add_speed_zone([[0, 0], [1, 0], [1, 1]], 0.5, scene=2)


def _crowd_in_zones():
    rng = np.random.default_rng(5)
    sim = vosim.Simulator(time_step=0.1)
    starts = np.column_stack([rng.uniform(0, 4, 60), rng.uniform(0, 8, 60)])
    sim.add_agents(starts, goals=np.column_stack([20 - starts[:, 0], 8 - starts[:, 1]]), max_speed=1.5)
    sim.add_speed_zone([[3.0, 0.0], [9.0, 0.0], [9.0, 8.0], [3.0, 8.0]], 0.6)
    sim.add_speed_zone([[6.0, 2.0], [14.0, 2.0], [14.0, 6.0]], 1.3)
    return sim


@pytest.mark.parametrize("threads", [2, 4])
def test_zones_give_the_same_bits_on_any_thread_count(threads):
    try:
        vosim.set_num_threads(1)
        t1 = _crowd_in_zones().run(100)
        vosim.set_num_threads(threads)
        tn = _crowd_in_zones().run(100)
    finally:
        vosim.set_num_threads(vosim.thread_limit())
    np.testing.assert_array_equal(t1.positions, tn.positions)
    np.testing.assert_array_equal(t1.velocities, tn.velocities)


def test_zones_survive_pickle_and_state_files(tmp_path):
    straight = _crowd_in_zones()
    straight.run(80)
    resumed = _crowd_in_zones()
    resumed.run(30)
    resumed.remove_speed_zone(resumed.add_speed_zone([[0, 0], [1, 0], [1, 1]], 2.0))  # a removed one travels too
    copy = pickle.loads(pickle.dumps(resumed))
    loaded = vosim.load_state(resumed.save_state(tmp_path / "zones"))
    for sim in (copy, loaded):
        assert [(z.id, z.factor) for z in sim.speed_zones] == [(0, 0.6), (1, 1.3)]
        assert sim.add_speed_zone([[5, 5], [6, 5], [6, 6]], 1.0) == 3  # 2 stays removed
        sim.remove_speed_zone(3)
        sim.run(50)
        np.testing.assert_array_equal(sim.positions, straight.positions)


def test_a_state_saved_before_speed_zones_restores_without_them():
    sim = vosim.Simulator(time_step=0.1)
    _walkers(sim)
    state = _checkpoint.payload(sim)
    assert not [k for k in state["engine"] if "zone" in k]  # nothing placed: nothing saved
    sim.add_speed_zone(STRIP, 0.5)
    assert [k for k in _checkpoint.payload(sim)["engine"] if "zone" in k]
    old = pickle.loads(pickle.dumps(sim))
    _checkpoint.restore_into(old, state)
    assert old.speed_zones == []
    old.step()
    np.testing.assert_allclose(old.velocities, [[1.0, 0.0], [1.0, 0.0]], atol=1e-12)


def test_a_damaged_saved_zone_is_refused():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_speed_zone(STRIP, 0.5)
    state = _checkpoint.payload(sim)
    state["engine"]["feature.speed_zones.factors"] = np.array([-2.0])
    state["checksum"] = _checkpoint.checksum(state)
    with pytest.raises(ValueError, match="speed zone 0.*factor is -2"):
        pickle.loads(pickle.dumps(sim)).__setstate__(state)
    state["engine"]["feature.speed_zones.factors"] = np.array([0.5])
    state["engine"]["feature.speed_zones.scenes"] = np.array([5], dtype=np.int64)
    state["checksum"] = _checkpoint.checksum(state)
    with pytest.raises(ValueError, match="scene is 5"):
        pickle.loads(pickle.dumps(sim)).__setstate__(state)
