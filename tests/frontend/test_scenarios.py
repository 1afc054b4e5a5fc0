"""Ready-made scenarios: valid layouts, completion with ORCA, JSON round trips, batches."""

import functools
import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import vosim
from vosim import scenarios
from vosim.scenarios import Scenario

NAMES = list(scenarios.SCENARIOS)
# Scenarios whose start layout depends on the seed (the others vary only by
# their method's perturbation seed, or not at all).
RANDOM_LAYOUT = ["crossing", "mixed_acceleration_crossing", "bottleneck", "corridor", "random_crowd", "room_evacuation",
                 "warehouse"]


def _radius(scenario):
    return np.broadcast_to(scenario.agent_params.get("radius", 1.5), (scenario.num_agents,))


@pytest.mark.parametrize("name", NAMES)
def test_layout_lets_every_agent_arrive(name):
    """Starts do not overlap; goal slots are a diameter apart, or (a group sharing one goal) fit its arrival disc."""
    scenario = scenarios.SCENARIOS[name]()
    radius = _radius(scenario)
    n = scenario.num_agents
    gap = np.linalg.norm(scenario.positions[:, None] - scenario.positions[None], axis=2)
    contact = radius[:, None] + radius[None]
    off_diagonal = ~np.eye(n, dtype=bool)
    assert (gap[off_diagonal] >= contact[off_diagonal]).all()
    goals, groups = np.unique(scenario.goals, axis=0, return_inverse=True)
    groups = groups.reshape(-1)
    goal_gap = np.linalg.norm(goals[:, None] - goals[None], axis=2) + np.eye(len(goals)) * 1e9
    assert goal_gap.min() >= 2 * radius.max()
    arrival = np.broadcast_to(scenario.agent_params.get("arrival_radius", radius), (n,))
    for g in range(len(goals)):
        members = groups == g
        if members.sum() > 1:  # they must fit into half of the arrival disc
            assert (np.pi * radius[members] ** 2).sum() <= 0.5 * np.pi * arrival[members].min() ** 2
    if scenario.waypoints is not None:
        for goal, waypoints in zip(scenario.goals, scenario.waypoints):
            assert np.array_equal(waypoints[-1], goal)


@pytest.mark.parametrize("name", NAMES)
def test_starts_are_outside_obstacles(name):
    sim = vosim.Simulator()
    scenario = scenarios.SCENARIOS[name]()
    for kind, vertices in scenario.obstacles:
        {"polygon": sim.add_obstacle, "wall": sim.add_wall, "boundary": sim.add_boundary}[kind](vertices)
    sim.add_agents(scenario.positions, radius=_radius(scenario))  # strict: refuses agents in solids
    assert (sim.obstacle_clearance() >= 0).all()


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_completes_with_orca_within_its_steps(name, seed):
    factory = scenarios.SCENARIOS[name]
    scenario = factory(seed=seed)
    sim = scenario.build()
    traj = sim.run(scenario.max_steps, until_arrived=True)
    assert traj.all_arrived, f"{sim.arrived.sum()} of {scenario.num_agents} arrived in {scenario.max_steps} steps"
    # the limit is generous but not absurd: the run takes a fair part of it
    assert traj.steps_run >= scenario.max_steps / 40


@pytest.mark.parametrize("name", NAMES)
def test_json_round_trip_is_exact(name):
    scenario = scenarios.SCENARIOS[name](seed=5)
    text = scenario.to_json()
    again = Scenario.from_json(text)
    assert again.to_json() == text
    assert again.positions.tobytes() == scenario.positions.tobytes()
    assert again.goals.tobytes() == scenario.goals.tobytes()
    assert again.method == scenario.method
    for key, value in scenario.agent_params.items():
        assert np.asarray(again.agent_params[key]).tobytes() == np.asarray(value).tobytes()
    if scenario.waypoints is not None:
        assert all(a.tobytes() == b.tobytes() for a, b in zip(again.waypoints, scenario.waypoints))
    json.loads(scenario.to_json(indent=2))  # plain JSON


@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=4, max_size=4))
@settings(max_examples=50)
def test_json_keeps_every_float_bit(values):
    positions = np.array(values).reshape(2, 2)
    scenario = Scenario("s", positions, positions[::-1] + 0.1, agent_params=dict(radius=np.array([0.1, 1 / 3])),
                        time_step=0.1 + 1e-17 * values[0])
    again = Scenario.from_json(scenario.to_json())
    assert again.positions.tobytes() == scenario.positions.tobytes()
    assert again.agent_params["radius"].tobytes() == scenario.agent_params["radius"].tobytes()
    assert again.time_step == scenario.time_step


@pytest.mark.parametrize("name", RANDOM_LAYOUT)
def test_seeds_give_different_layouts_and_the_same_seed_the_same(name):
    factory = scenarios.SCENARIOS[name]
    assert factory(seed=3).to_json() == factory(seed=3).to_json()
    assert not np.array_equal(factory(seed=3).positions, factory(seed=4).positions)


def test_circle_without_a_seed_is_rvo2s_example_and_with_one_is_nudged():
    exact = scenarios.circle(250)
    assert exact.positions[0].tolist() == [200.0, 0.0]
    nudged = scenarios.circle(250, seed=2)
    assert 0 < np.abs(nudged.positions - exact.positions).max() <= 1e-4
    assert np.array_equal(nudged.goals, exact.goals)


def test_roadmap_paths_keep_clear_of_the_blocks():
    from vosim.scenarios._roadmap import obstacle_edges, visible

    scenario = scenarios.roadmap()
    edges = obstacle_edges(scenario.obstacles)
    for start, waypoints in zip(scenario.positions, scenario.waypoints):
        legs = np.vstack([start, waypoints])
        assert visible(legs[:-1], legs[1:], edges, 2.0).all()
        assert len(waypoints) >= 2  # no straight line through the blocks
    # the straight line from a start through the blocks is refused
    assert not visible([[55.0, 55.0]], [[-75.0, -75.0]], edges, 2.0)[0]


@pytest.mark.parametrize("factory, kwargs, message", [
    (scenarios.circle, dict(n=0), "n is 0; must be >= 1"),
    (scenarios.circle, dict(n=100, radius=10.0), "radius is 10.0; 100 agents of radius 1.5 need a circle"),
    (scenarios.crossing, dict(n_per_group=-1), "n_per_group is -1; must be >= 1"),
    (scenarios.bottleneck, dict(door_width=0.5), "door_width is 0.5; must be > 0.6"),
    (scenarios.corridor, dict(width=0.5), "width is 0.5; must be >= 1"),
    (scenarios.corridor, dict(n=200, length=10.0), "length is 10.0; 200 agents in a corridor 4.0 m wide need"),
    (scenarios.random_crowd, dict(density=3.0), "density is 3.0; must be <= 2.04"),
    (scenarios.room_evacuation, dict(exits=5), "exits is 5; must be <= 4"),
    (scenarios.room_evacuation, dict(exits=["east", "up"]), "exits.1. is 'up'; must be one of east, west"),
    (scenarios.room_evacuation, dict(exits=["east", "east"]), "exits.1. is 'east' again"),
    (scenarios.room_evacuation, dict(n=500), "n is 500; a room of 10.0 m holds at most 81 agents"),
    (scenarios.headon_pair, dict(seed=-2), "seed is -2; must be >= 0"),
])
def test_bad_arguments_are_named(factory, kwargs, message):
    with pytest.raises(ValueError, match=message):
        factory(**kwargs)


def test_scenario_checks_its_data():
    with pytest.raises(ValueError, match=r"goals: expected shape \(2, 2\), got \(3, 2\)"):
        Scenario("x", np.zeros((2, 2)), np.zeros((3, 2)))
    with pytest.raises(ValueError, match="agent_params: unknown parameter 'radious'"):
        Scenario("x", np.zeros((1, 2)), np.ones((1, 2)), agent_params=dict(radious=1.0))
    with pytest.raises(ValueError, match=r"obstacles\[0\]: kind is 'circle'"):
        Scenario("x", np.zeros((1, 2)), np.ones((1, 2)), obstacles=[("circle", np.zeros((3, 2)))])
    with pytest.raises(ValueError, match=r"waypoints\[0\]: the last waypoint must be the goal"):
        Scenario("x", np.zeros((1, 2)), np.ones((1, 2)), waypoints=[np.array([[2.0, 2.0]])])
    with pytest.raises(ValueError, match="not a vosim scenario"):
        Scenario.from_json('{"name": "x"}')
    with pytest.raises(ValueError, match="text: not JSON"):
        Scenario.from_json("{")
    with pytest.raises(TypeError, match="method: expected a vosim method"):
        scenarios.crossing(4).build(method="ORCA")


def test_a_method_without_perturbation_gets_the_scenarios():
    scenario = scenarios.headon_pair(seed=7)
    assert scenario.build(vosim.RVO()).method == vosim.RVO(perturbation=1e-3, seed=7)
    own = vosim.RVO(perturbation=0.5, seed=1)
    assert scenario.build(own).method == own
    # the perturbation is what lets reciprocal methods pass each other
    assert scenario.build(vosim.HRVO()).run(scenario.max_steps, until_arrived=True).all_arrived


def test_batch_fills_one_scene_per_seed():
    seeds = [3, 9, 4]
    batch = scenarios.batch(functools.partial(scenarios.crossing, 9), seeds)
    assert batch.scenes == 3 and batch.num_agents == 18
    for k, seed in enumerate(seeds):
        one = scenarios.crossing(9, seed=seed)
        assert np.array_equal(batch.positions[k], one.positions)
        assert np.array_equal(batch.goals[k], one.goals)
    traj = batch.run(scenarios.crossing(9).max_steps, until_arrived=True)
    assert traj.all_arrived


def test_batch_scenes_match_single_runs_without_randomness():
    """With a method that draws nothing, scene k of the batch is the Simulator run of seed k."""
    seeds = [0, 1]
    factory = functools.partial(scenarios.random_crowd, 20, 0.4)
    batch = scenarios.batch(factory, seeds, method=vosim.ORCA())
    together = batch.run(100)
    for k, seed in enumerate(seeds):
        alone = factory(seed=seed).build(vosim.ORCA()).run(100)
        assert np.array_equal(together.positions[:, k], alone.positions)


def test_batch_shares_identical_obstacles_and_keeps_different_ones_per_scene():
    shared = scenarios.batch(lambda seed: scenarios.corridor(10, seed=seed), [0, 1])
    assert all(o.scene is None for o in shared.obstacles)
    own = scenarios.build_batch([scenarios.corridor(10, width=3.0), scenarios.corridor(10, width=4.0)])
    assert sorted(o.scene for o in own.obstacles) == [0, 0, 1, 1]


def test_batch_refuses_mismatched_scenes():
    with pytest.raises(ValueError, match=r"scenes\[1\] has 20 agents; every scene needs 18"):
        scenarios.build_batch([scenarios.crossing(9), scenarios.crossing(10)])
    with pytest.raises(ValueError, match=r"scenes\[1\].time_step is 0.25; every scene needs 0.1"):
        scenarios.build_batch([scenarios.headon_pair(), scenarios.circle(2, radius=5.0)])
    with pytest.raises(ValueError, match="seeds: expected at least one seed"):
        scenarios.batch(scenarios.crossing, [])
    with pytest.raises(ValueError, match=r"seeds\[1\] is -1; must be >= 0"):
        scenarios.batch(scenarios.crossing, [0, -1])
    with pytest.raises(TypeError, match="factory: expected a function"):
        scenarios.batch(scenarios.crossing(4), [0])


@pytest.mark.parametrize("method", [vosim.ORCA(), vosim.VO(samples=30), vosim.RVO(samples=30), vosim.HRVO(),
                                    vosim.AdaptiveSampling(depth=2), vosim.GridSampling(grid_size=9),
                                    vosim.ForceBased()], ids=lambda m: m.name)
@pytest.mark.parametrize("name", NAMES)
def test_every_scenario_runs_with_every_method(name, method):
    """Every scenario with every method, a stretch of steps: finite, within
    max_speed, metrics measured (the circle and blocks at their full size)."""
    scenario = vosim.scenarios.SCENARIOS[name]()
    sim = scenario.build(method)
    traj = sim.run(40, record_every=40)
    assert np.isfinite(traj.positions).all()
    speeds = np.linalg.norm(sim.velocities, axis=1)
    limit = sim.max_speed * (1 + 1e-9)
    if method.name == "GridSampling":  # DetourCrowd's grid reaches half a cell beyond max_speed
        settings = method.to_dict()
        limit = limit * (1 + (1 - settings["vel_bias"]) / (settings["grid_size"] - 1))
    assert np.all(speeds <= limit)
    assert traj.metrics["mean_path_length"] > 0
