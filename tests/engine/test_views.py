"""The per-agent views are the engine's memory: no copies, writes take effect."""

import gc

import numpy as np
import pytest

import vosim

FIELDS_2D = ["positions", "velocities", "pref_velocities", "goals"]
FIELDS_1D = ["radius", "max_speed", "pref_speed", "neighbor_dist", "max_neighbors", "time_horizon",
             "time_horizon_obst", "arrival_radius", "ids", "active", "has_goal"]


@pytest.fixture
def sim():
    s = vosim.Simulator(time_step=0.1)
    s.add_agents([[0.0, 0.0], [100.0, 0.0], [0.0, 100.0]], radius=0.5, max_speed=1.0)  # far apart
    return s


@pytest.mark.parametrize("name", FIELDS_2D + FIELDS_1D)
def test_repeated_accesses_share_memory(sim, name):
    a, b = getattr(sim, name), getattr(sim, name)
    assert np.shares_memory(a, b)
    assert a.shape == ((3, 2) if name in FIELDS_2D else (3,))


def test_dtypes(sim):
    for name in FIELDS_2D + ["radius", "max_speed", "time_horizon"]:
        assert getattr(sim, name).dtype == np.float64
    assert sim.ids.dtype == np.int64
    assert sim.max_neighbors.dtype == np.int32
    assert sim.active.dtype == np.bool_


def test_writes_through_a_view_reach_the_step(sim):
    prefs = sim.pref_velocities
    prefs[0] = (1.0, 0.0)
    sim.step()
    np.testing.assert_allclose(sim.positions[0], (0.1, 0.0))
    np.testing.assert_allclose(sim.velocities[0], (1.0, 0.0))


def test_view_taken_before_a_step_shows_the_step(sim):
    positions = sim.positions
    sim.pref_velocities[1] = (0.0, 1.0)
    sim.run(10)
    np.testing.assert_allclose(positions[1], (100.0, 1.0))


def test_parameter_views_are_writable(sim):
    sim.max_speed[:] = 0.5
    sim.pref_velocities[:] = (1.0, 0.0)
    sim.step()
    np.testing.assert_allclose(np.linalg.norm(sim.velocities, axis=1), 0.5)


def test_ids_view_is_read_only(sim):
    with pytest.raises(ValueError):
        sim.ids[0] = 7


def test_view_taken_before_adding_agents_stays_readable(sim):
    old = sim.positions
    before = old.copy()
    sim.add_agents(np.random.default_rng(0).uniform(20, 80, (500, 2)))  # forces a reallocation
    np.testing.assert_array_equal(old, before)  # stale but valid memory
    assert sim.positions.shape == (503, 2)
    assert not np.shares_memory(old, sim.positions)
    np.testing.assert_array_equal(sim.positions[:3], before)


def test_view_outlives_the_simulator():
    sim = vosim.Simulator()
    sim.add_agents([[1.0, 2.0]])
    positions = sim.positions
    del sim
    gc.collect()
    np.testing.assert_array_equal(positions, [[1.0, 2.0]])
    positions[0] = (3.0, 4.0)  # still owned memory, writes are harmless
    assert positions.sum() == 7.0


def test_view_of_an_empty_simulator():
    sim = vosim.Simulator()
    assert sim.positions.shape == (0, 2)
    assert sim.radius.shape == (0,)
    sim.step()  # nothing to do, but not an error
    assert sim.step_count == 1


def test_batch_views_have_a_scene_axis():
    batch = vosim.Batch(scenes=3, time_step=0.1)
    batch.add_agents(np.zeros((3, 4, 2)) + np.arange(4)[None, :, None] * 50)
    assert batch.positions.shape == (3, 4, 2)
    assert batch.radius.shape == (3, 4)
    assert np.shares_memory(batch.positions, batch.positions)
    batch.pref_velocities[1, 2] = (1.0, 0.0)
    batch.step()
    assert batch.positions[1, 2, 0] == pytest.approx(100.1)
    assert batch.positions[0, 2, 0] == pytest.approx(100.0)
