"""3D scenarios as data: layouts, JSON round trips, clear starts and goals, argument checks."""

import json

import numpy as np
import pytest

import vosim
from vosim import scenarios
from vosim.shapes3d import ObstacleSet3D

from _reference import FULL

NAMES = list(scenarios.SCENARIOS_3D)


def min_spacing(points: np.ndarray) -> float:
    gaps = np.linalg.norm(points[:, None] - points[None], axis=-1)
    return float(np.min(gaps[np.triu_indices(len(points), 1)]))


@pytest.mark.parametrize("name", NAMES)
def test_round_trip_through_json_is_exact(name):
    scene = scenarios.SCENARIOS_3D[name]()
    assert scene.dimensions == 3
    again = scenarios.Scenario.from_json(scene.to_json())
    assert again.dimensions == 3
    np.testing.assert_array_equal(again.positions, scene.positions)
    np.testing.assert_array_equal(again.goals, scene.goals)
    assert again.obstacles == scene.obstacles
    assert again.to_dict() == scene.to_dict()
    assert json.loads(scene.to_json())["dimensions"] == 3


@pytest.mark.parametrize("name", ["swarm_gate", "layers_crossing", "random3d"])
def test_starts_and_goals_are_clear_of_obstacles_and_each_other(name):
    scene = scenarios.SCENARIOS_3D[name]()
    radius = scene.agent_params["radius"]
    field = ObstacleSet3D(scene.obstacles)
    for points in (scene.positions, scene.goals):
        assert np.all(field.penetrating(points, radius) == -1)
        assert min_spacing(points) >= 2 * radius + 0.3


def test_sphere_is_rvo2_3d_example():
    scene = scenarios.sphere()
    assert scene.num_agents == 812
    np.testing.assert_array_equal(scene.goals, -scene.positions)
    np.testing.assert_allclose(np.linalg.norm(scene.positions, axis=1), 100.0)
    # Two agents as RVO2-3D placed them (float32, so within 1e-3).
    np.testing.assert_allclose(scene.positions[0], (9.98334217, 0.0, 99.5004196), atol=1e-3)
    np.testing.assert_allclose(scene.positions[100], (-34.6162834, -54.3311806, 76.4842224), atol=1e-3)
    reference = FULL / "rvo2" / "sphere.json"
    if reference.exists():  # every agent, when the full reference data is at hand
        starts = np.array(json.loads(reference.read_text())["initial_positions"])
        np.testing.assert_allclose(scene.positions, starts, atol=1e-3)


def test_swarms_cross_the_wall_through_the_window():
    scene = scenarios.swarm_gate(10, window_size=3.0, seed=4)
    a, b = slice(0, 10), slice(10, 20)
    assert np.all(scene.positions[a, 0] < 0) and np.all(scene.goals[a, 0] > 0)
    assert np.all(scene.positions[b, 0] > 0) and np.all(scene.goals[b, 0] < 0)
    wall = ObstacleSet3D(scene.obstacles[1:])
    # The window's centre is free, its sides are wall.
    assert wall.penetrating([[0, 0, 6]], 1.4).tolist() == [-1]
    assert np.all(wall.penetrating([[0, 1.6, 6], [0, 0, 7.6], [0, 0, 4.4], [0, -5, 6]], 0.0) >= 0)


def test_layers_sit_at_their_altitudes():
    scene = scenarios.layers_crossing(layers=4, n=9, layer_gap=2.0)
    assert scene.num_agents == 4 * 2 * 9
    heights = np.round(scene.goals[:, 2], 6)
    assert sorted(set(heights.tolist())) == [4.0, 6.0, 8.0, 10.0]
    np.testing.assert_allclose(scene.positions[:, 2], np.repeat([4.0, 6.0, 8.0, 10.0], 18), atol=0.1)


def test_seeds_repeat_and_differ():
    for factory in (scenarios.swarm_gate, scenarios.layers_crossing, scenarios.random3d):
        assert factory(seed=3).to_dict() == factory(seed=3).to_dict()
        assert not np.array_equal(factory(seed=3).positions, factory(seed=4).positions)


@pytest.mark.parametrize("make, error, message", [
    (lambda: scenarios.swarm_gate(0), ValueError, "n"),
    (lambda: scenarios.swarm_gate(window_size=0.5), ValueError, "window_size"),
    (lambda: scenarios.layers_crossing(layer_gap=0.1), ValueError, "layer_gap"),
    (lambda: scenarios.random3d(size=(5, 5)), ValueError, "size"),
    (lambda: scenarios.random3d(200, size=(5, 5, 5)), ValueError, "found room for only"),
    (lambda: scenarios.Scenario("x", np.zeros((1, 3)), np.ones((1, 2))), ValueError, r"goals: expected shape \(1, 3\)"),
    (lambda: scenarios.Scenario("x", np.zeros((1, 3)), np.ones((1, 3)), obstacles=[("polygon", np.eye(3))]),
     TypeError, "3D shapes"),
])
def test_bad_arguments_raise_naming_them(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_a_3d_scenario_file_with_a_bad_shape_names_it():
    data = scenarios.random3d(5).to_dict()
    data["obstacles"][2]["shape"]["half_extents"] = [1.0, 0.0, 1.0]
    with pytest.raises(ValueError, match=r"half_extents\[1\] is 0"):
        scenarios.Scenario.from_dict(data)
    data["dimensions"] = 4
    with pytest.raises(ValueError, match="dimensions is 4"):
        scenarios.Scenario.from_dict(data)


def test_2d_scenarios_are_unchanged():
    scene = scenarios.crossing(8, seed=1)
    assert scene.dimensions == 2
    assert scenarios.Scenario.from_json(scene.to_json()).to_dict() == scene.to_dict()
    assert isinstance(vosim.scenarios.random3d(3).obstacles[0], vosim.HalfSpace)


@pytest.mark.parametrize("name, seed", [("swarm_gate", 0), ("swarm_gate", 1), ("layers_crossing", 0),
                                        ("random3d", 0), ("random3d", 1)])
def test_completes_with_orca_without_touching_obstacles(name, seed):
    scene = scenarios.SCENARIOS_3D[name](seed=seed)
    sim = scene.build()
    traj = sim.run(scene.max_steps, until_arrived=True)
    assert traj.all_arrived and traj.steps_run < scene.max_steps
    assert traj.min_clearance_per_frame().min() > -0.01 * scene.agent_params["radius"]   # agents: contact at most
    if scene.obstacles:
        distance = ObstacleSet3D(scene.obstacles).nearest(traj.positions.reshape(-1, 3)).distances
        assert distance.min() - scene.agent_params["radius"] >= -1e-9               # obstacles: never entered


def test_scenarios_fill_a_batch_with_shared_or_own_obstacles():
    shared = scenarios.build_batch([scenarios.swarm_gate(4, seed=s) for s in (0, 1)])
    assert shared.dimensions == 3 and len(shared.obstacle_shapes) == 5
    assert all(placed.scene is None for placed in shared.obstacle_shapes)
    own = scenarios.batch(lambda seed: scenarios.random3d(6, seed=seed), seeds=[0, 1])
    assert sorted({placed.scene for placed in own.obstacle_shapes}) == [0, 1]
    traj = own.run(3000, until_arrived=True)
    assert traj.all_arrived
