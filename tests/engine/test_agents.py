"""Adding, identifying and removing agents."""

import numpy as np
import pytest

import vosim


def test_add_agents_returns_stable_int64_ids():
    sim = vosim.Simulator()
    first = sim.add_agents([[0.0, 0.0], [5.0, 0.0]])
    second = sim.add_agents([[10.0, 0.0]])
    assert first.dtype == np.int64
    np.testing.assert_array_equal(first, [0, 1])
    np.testing.assert_array_equal(second, [2])
    np.testing.assert_array_equal(sim.ids, [0, 1, 2])
    assert len(sim) == sim.num_agents == 3


def test_defaults_are_a_walking_adult():
    """User guide (docs/guide/simulators.md), "Default agent": a pedestrian, not RVO2's Circle example."""
    sim = vosim.Simulator()
    sim.add_agents([[0.0, 0.0]])
    assert sim.radius[0] == 0.25 and sim.max_speed[0] == 1.8 and sim.neighbor_dist[0] == 10.0
    assert sim.max_neighbors[0] == 10 and sim.time_horizon[0] == 3.0 and sim.time_horizon_obst[0] == 3.0
    assert sim.pref_speed[0] == 1.3  # below max_speed: room to speed up when avoiding
    assert sim.arrival_radius[0] == 0.25  # radius by default
    assert not sim.has_goal[0] and np.isnan(sim.goals[0]).all()


def test_per_agent_arrays_and_scalars():
    sim = vosim.Simulator()
    sim.add_agents(np.zeros((3, 2)) + [[0, 0], [5, 0], [10, 0]], radius=[0.1, 0.2, 0.3],
                   max_neighbors=np.array([1, 2, 3]), velocities=(1.0, 0.0), goals=[[1, 1], [np.nan, np.nan], [2, 2]])
    np.testing.assert_array_equal(sim.radius, [0.1, 0.2, 0.3])
    np.testing.assert_array_equal(sim.max_neighbors, [1, 2, 3])
    np.testing.assert_array_equal(sim.velocities, [[1, 0]] * 3)
    np.testing.assert_array_equal(sim.has_goal, [True, False, True])


def test_remove_agents_compacts_and_keeps_ids():
    sim = vosim.Simulator()
    sim.add_agents([[0.0, 0.0], [5.0, 0.0], [10.0, 0.0], [15.0, 0.0]], radius=[1, 2, 3, 4])
    sim.remove_agents([1, 3])
    np.testing.assert_array_equal(sim.ids, [0, 2])
    np.testing.assert_array_equal(sim.radius, [1, 3])
    np.testing.assert_array_equal(sim.positions[:, 0], [0, 10])
    new = sim.add_agents([[20.0, 0.0]])
    assert new[0] == 4  # ids are never reused
    sim.remove_agents(np.int64(0))
    np.testing.assert_array_equal(sim.ids, [2, 4])


def test_remove_unknown_or_repeated_ids_changes_nothing():
    sim = vosim.Simulator()
    sim.add_agents([[0.0, 0.0], [5.0, 0.0]])
    with pytest.raises(ValueError, match=r"ids\[1\]: no agent with id 9"):
        sim.remove_agents([0, 9])
    with pytest.raises(ValueError, match="given twice"):
        sim.remove_agents([1, 1])
    sim.remove_agents([1])
    with pytest.raises(ValueError, match="no agent with id 1"):
        sim.remove_agents([1])
    np.testing.assert_array_equal(sim.ids, [0])


def test_batch_removal_leaves_inactive_slots_until_free_everywhere():
    batch = vosim.Batch(scenes=2)
    ids = batch.add_agents(np.zeros((2, 3, 2)) + np.arange(3)[None, :, None] * 5)
    assert ids.shape == (2, 3)
    batch.remove_agents([ids[0, 1]])
    assert batch.num_agents == 3
    np.testing.assert_array_equal(batch.active, [[True, False, True], [True, True, True]])
    assert batch.ids[0, 1] == -1
    batch.remove_agents([ids[1, 1]])  # now slot 1 is free in every scene
    assert batch.num_agents == 2
    np.testing.assert_array_equal(batch.ids, ids[:, [0, 2]])


def test_inactive_agents_neither_move_nor_are_seen():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0], [1.0, 0.0]], radius=0.4, pref_velocities=[[1.0, 0.0], [0.0, 0.0]])
    sim.active[1] = False
    sim.run(5)
    np.testing.assert_allclose(sim.positions, [[0.5, 0.0], [1.0, 0.0]])  # agent 0 ignored agent 1
    assert sim.neighbors()[0, 0] == -1


def test_neighbors_are_nearest_first():
    sim = vosim.Simulator()
    sim.add_agents([[0.0, 0.0], [3.0, 0.0], [1.0, 0.0], [20.0, 0.0]], max_neighbors=2, neighbor_dist=10)
    table = sim.neighbors()
    np.testing.assert_array_equal(table[0], [2, 1])
    np.testing.assert_array_equal(table[3], [-1, -1])  # nobody within 10


FIELDS = ("positions", "velocities", "goals", "radius", "max_speed", "neighbor_dist", "max_neighbors",
          "time_horizon", "priority")


def state_of(sim):
    return {name: np.array(getattr(sim, name)) for name in FIELDS}


def test_strided_and_broadcast_inputs_are_read_as_given():
    """add_agents hands strided and broadcast arrays to the engine without
    copying them first: any memory layout gives the same agents."""
    rng = np.random.default_rng(3)
    positions = rng.uniform(-5, 5, (6, 2))
    goals = rng.uniform(-5, 5, (6, 2))
    radius = rng.uniform(0.1, 0.5, 6)
    plain = vosim.Simulator()
    plain.add_agents(positions, goals=goals, radius=radius, velocities=[0.5, -0.25], max_neighbors=7)
    strided = vosim.Simulator()
    strided.add_agents(np.asfortranarray(positions), goals=np.ascontiguousarray(goals[::-1])[::-1],
                       radius=np.repeat(radius, 2)[::2], velocities=np.array([0.5, -0.25]),
                       max_neighbors=np.int64(7))
    for name, value in state_of(plain).items():
        np.testing.assert_array_equal(state_of(strided)[name], value, err_msg=name)


def test_batch_reads_one_scene_layout_for_every_scene():
    rng = np.random.default_rng(4)
    positions = rng.uniform(-5, 5, (5, 2))
    batch = vosim.Batch(scenes=3)
    batch.add_agents(positions, radius=np.linspace(0.1, 0.5, 5), priority=2.0)
    for b in range(3):
        np.testing.assert_array_equal(batch.positions[b], positions)
        np.testing.assert_array_equal(batch.radius[b], np.linspace(0.1, 0.5, 5))
    assert (batch.priority == 2.0).all()


def test_inputs_are_copied_into_the_state():
    positions = np.zeros((3, 2))
    radius = np.full(3, 0.4)
    sim = vosim.Simulator()
    sim.add_agents(positions, radius=radius)
    positions[:] = 9.0
    radius[:] = 1.0
    assert (sim.positions == 0.0).all() and (sim.radius == 0.4).all()
