"""The crowd-navigation environments: CrowdNav's rules, Gymnasium's and PettingZoo's APIs, the vector version."""

import subprocess
import sys
import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

import vosim  # noqa: E402
import vosim.envs  # noqa: E402
from vosim.envs import CrowdConfig, CrowdNavigation, CrowdNavigationVector  # noqa: E402
from vosim.envs._layout import HumanGenerator, robot_layout  # noqa: E402

SQUARE = [[-1.0, 1.0], [1.0, 1.0], [1.0, 2.0], [-1.0, 2.0]]  # counter-clockwise, across the robot's path


def _check_env(env):
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*infinity.*")  # positions have no natural bound
        check_env(env, skip_render_check=True)


@pytest.mark.parametrize("settings", [
    {}, {"kinematics": "unicycle", "scenario": "square_crossing", "humans": 3},
    {"obstacles": [SQUARE], "method": vosim.HRVO(), "robot_visible": True, "randomize_attributes": True},
])
def test_passes_gymnasiums_env_checker(settings):
    _check_env(CrowdNavigation(**settings))


def test_registered_with_a_vector_entry_point():
    env = gymnasium.make("vosim/CrowdNavigation-v0", humans=3)
    assert isinstance(env.unwrapped, CrowdNavigation) and env.observation_space.shape == (9 + 5 * 3,)
    envs = gymnasium.make_vec("vosim/CrowdNavigation-v0", num_envs=4, vectorization_mode="vector_entry_point",
                              humans=3)
    assert isinstance(envs, CrowdNavigationVector)
    assert envs.observation_space.shape == (4, 24) and envs.action_space.shape == (4, 2)


def _quiet(env, robot=(0.0, -4.0)):
    """Move every human far away, standing still at its goal; the robot to ``robot``."""
    b = env.unwrapped.batch
    humans = b.num_agents - 1
    b.positions[0, 1:] = np.column_stack([100.0 + 3 * np.arange(humans), np.full(humans, 100.0)])
    b.goals[0, 1:] = b.positions[0, 1:]
    b.velocities[0] = 0.0
    b.positions[0, 0] = robot


def test_reward_success():
    env = CrowdNavigation(humans=2)
    env.reset(seed=0)
    _quiet(env, robot=(0.0, 3.6))
    _, reward, terminated, truncated, info = env.step(np.array([0.0, 1.0]))
    assert (reward, terminated, truncated) == (1.0, True, False)
    assert info["outcome"] == "success" and info["is_success"] and info["navigation_time"] == 0.25


def test_reward_collision_with_a_human_during_the_step():
    env = CrowdNavigation(humans=2)
    env.reset(seed=0)
    _quiet(env)
    b = env.batch
    b.positions[0, 1] = b.goals[0, 1] = (0.0, -3.0)  # 1 m ahead: a gap of 0.4 m now
    b.max_speed[0, 1] = 0.0
    _, reward, terminated, _, info = env.step(np.array([0.0, 1.0]))  # 0.25 m closer: no contact yet
    assert reward == pytest.approx((0.15 - 0.2) * 0.5 * 0.25) and not terminated
    assert info["outcome"] == "discomfort" and info["min_distance"] == pytest.approx(0.15)
    b.positions[0, 0] = (-0.7, -3.0)  # passes through the human within the step, ends clear of it
    _, reward, terminated, _, info = env.step(np.array([1.0, 0.0]))
    assert (reward, terminated, info["outcome"]) == (-0.25, True, "collision")
    assert np.isnan(info["navigation_time"]) and info["discomfort_frequency"] == 0.5


def test_collision_with_an_obstacle_and_timeout():
    env = CrowdNavigation(humans=1, obstacles=[SQUARE])
    env.reset(seed=0)
    _quiet(env, robot=(0.0, 0.6))
    _, reward, terminated, _, info = env.step(np.array([0.0, 1.0]))
    assert (reward, terminated, info["outcome"]) == (-0.25, True, "collision")
    env = CrowdNavigation(humans=1, time_limit=0.5)
    env.reset(seed=0)
    _quiet(env)
    results = [env.step(np.zeros(2))[1:4] for _ in range(2)]
    assert results == [(0.0, False, False), (0.0, False, True)]
    assert env.statistics()["timeout_rate"] == 1.0


def test_actions_holonomic_and_unicycle():
    env = CrowdNavigation(humans=1)
    env.reset(seed=0)
    _quiet(env)
    observation, *_ = env.step(np.array([1.0, 1.0]))  # shortened to the robot's speed
    np.testing.assert_allclose(observation[2:4], [np.sqrt(0.5)] * 2, rtol=1e-6)
    np.testing.assert_allclose(observation[:2], [0.25 * np.sqrt(0.5), -4 + 0.25 * np.sqrt(0.5)], rtol=1e-6)
    env = CrowdNavigation(humans=1, kinematics="unicycle")
    env.reset(seed=0)
    _quiet(env)
    observation, *_ = env.step(np.array([1.0, 2.0]))  # turns by at most pi/4
    heading = np.pi / 2 + np.pi / 4
    assert observation[8] == pytest.approx(heading)
    np.testing.assert_allclose(observation[2:4], [np.cos(heading), np.sin(heading)], atol=1e-6)


@pytest.mark.parametrize("visible", [False, True])
def test_humans_avoid_the_robot_only_when_it_is_visible(visible):
    env = CrowdNavigation(humans=1, robot_visible=visible)
    env.reset(seed=0)
    b = env.batch
    b.positions[0, 1], b.goals[0, 1] = (0.0, 0.0), (0.0, -8.0)  # straight at the robot, which stands still
    b.velocities[0] = 0.0
    outcomes = []
    for _ in range(30):
        *_, terminated, _, info = env.step(np.zeros(2))
        outcomes.append(info["outcome"])
        if terminated:
            break
    assert ("collision" in outcomes) != visible


def test_same_seed_same_episode_and_vector_scenes_are_single_environments():
    actions = np.random.default_rng(5).uniform(-1, 1, (40, 3, 2))
    envs = CrowdNavigationVector(num_envs=3, humans=4)
    first, _ = envs.reset(seed=11)
    again, _ = CrowdNavigationVector(num_envs=3, humans=4).reset(seed=11)
    np.testing.assert_array_equal(first, again)
    single = CrowdNavigation(humans=4)
    single.reset(seed=0)
    b, s = envs.batch, single.batch  # scene 1 of the vector env, replayed by the single env
    for name in ("positions", "goals", "radius", "max_speed", "pref_speed", "velocities"):
        getattr(s, name)[...] = getattr(b, name)[1]
    single._core.human_radius[...] = envs._core.human_radius[1]
    for step in range(40):
        vector = envs.step(actions[step])
        alone = single.step(actions[step, 1])
        if envs._restart[1] or vector[2][1] or vector[3][1]:
            break
        np.testing.assert_array_equal(vector[0][1], alone[0])
        assert vector[1][1] == alone[1] and vector[4]["outcome"][1] == alone[4]["outcome"]
    assert step > 5


def test_vector_env_resets_ended_episodes_at_the_next_step():
    envs = gymnasium.make_vec("vosim/CrowdNavigation-v0", num_envs=2, vectorization_mode="vector_entry_point",
                              humans=2, time_limit=0.75)
    start, _ = envs.reset(seed=1)
    for _ in range(2):
        _, reward, terminated, truncated, info = envs.step(np.zeros((2, 2)))
        assert not (terminated | truncated).any()
    _, reward, terminated, truncated, info = envs.step(np.zeros((2, 2)))
    assert truncated.all() and info["_navigation_time"].all() and np.isnan(info["navigation_time"]).all()
    restarted, reward, terminated, truncated, info = envs.step(np.ones((2, 2)))  # ignored: a reset step
    assert not (terminated | truncated).any() and (reward == 0).all() and (info["time"] == 0).all()
    np.testing.assert_array_equal(restarted[:, :2], [[0, -4], [0, -4]])  # robots back at their start
    assert not np.array_equal(restarted[:, 9:], start[:, 9:])  # new humans
    assert envs.statistics()["episodes"] == 2


def test_human_generation_keeps_clear():
    starts, goals, _ = robot_layout(1, 4.0)
    rng = np.random.default_rng(0)
    for scenario in ("circle_crossing", "square_crossing"):
        generate = HumanGenerator(scenario, circle_radius=4.0, square_width=10.0, discomfort_dist=0.2,
                                  polygons=[np.array(SQUARE)])
        radius = np.full((50, 8), 0.3)
        positions, targets = generate(rng, starts, goals, 0.3, radius, np.ones((50, 8)))
        everyone = np.concatenate([np.broadcast_to(starts, (50, 1, 2)), positions], axis=1)
        gaps = np.linalg.norm(everyone[:, :, None] - everyone[:, None], axis=-1) + np.eye(9) * 99
        assert gaps.min() >= 0.8 - 1e-12  # 0.3 + 0.3 + 0.2
        for points in (positions, targets):  # clear of the square by radius + discomfort distance
            dx = np.maximum(np.abs(points[..., 0]) - 1.0, 0.0)
            dy = np.maximum.reduce([1.0 - points[..., 1], points[..., 1] - 2.0, np.zeros(points.shape[:-1])])
            assert np.hypot(dx, dy).min() >= 0.5 - 1e-12
        if scenario == "circle_crossing":
            np.testing.assert_array_equal(targets, -positions)
            assert np.abs(np.linalg.norm(positions, axis=-1) - 4.0).max() <= np.sqrt(0.5) + 1e-12
        else:
            assert (np.sign(positions[..., 0]) == -np.sign(targets[..., 0])).all()
    crowded = HumanGenerator("circle_crossing", circle_radius=1.0, square_width=10.0, discomfort_dist=0.2,
                             polygons=[])
    with pytest.raises(RuntimeError, match="could not place human .* too many humans for the circle_crossing"):
        crowded(rng, starts, goals, 0.3, np.full((1, 40), 0.3), np.ones((1, 40)))


def test_bad_settings_and_actions():
    with pytest.raises(ValueError, match="scenario is 'mixed'; must be one of circle_crossing, square_crossing"):
        CrowdNavigation(scenario="mixed")
    with pytest.raises(ValueError, match="humans is -1; must be >= 0"):
        CrowdNavigation(humans=-1)
    with pytest.raises(ValueError, match=r"time_step is 0.0; must be > 0"):
        CrowdConfig(time_step=0.0)
    with pytest.raises(TypeError, match="unexpected keyword argument 'humanz'"):
        CrowdNavigation(humanz=3)
    with pytest.raises(ValueError, match=r"obstacles: robot 0's start \[0.0, -4.0\] is 0.1 m from an obstacle"):
        CrowdNavigation(obstacles=[[[-1.0, -4.1], [1.0, -4.1]]])
    with pytest.raises(ValueError, match=r"num_envs is 0; must be >= 1"):
        CrowdNavigationVector(num_envs=0)
    env = CrowdNavigation(humans=1)
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"action: expected shape \(2,\), got \(3,\)"):
        env.step([1.0, 0.0, 0.0])
    with pytest.raises(ValueError, match=r"actions\[0, 0, 1\] is nan; must be finite"):
        env.step([0.0, np.nan])
    envs = CrowdNavigationVector(num_envs=2, humans=1)
    envs.reset(seed=0)
    with pytest.raises(ValueError, match=r"actions: expected shape \(2, 2\), got \(2,\)"):
        envs.step([0.0, 1.0])


def test_pettingzoo_parallel_api():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import parallel_api_test

    parallel_api_test(vosim.envs.MultiRobotCrowdNavigation(robots=3, humans=3), num_cycles=60)
    env = vosim.envs.MultiRobotCrowdNavigation(robots=2, humans=1, robot_visible=True)
    observations, _ = env.reset(seed=2)
    assert observations["robot_0"].shape == (9 + 5 * 2,)
    np.testing.assert_array_equal(observations["robot_1"][:2], [0.0, 4.0])
    # the robots head straight at each other: both collide, and leave
    toward = {"robot_0": np.array([0.0, 1.0]), "robot_1": np.array([0.0, -1.0])}
    env.batch.positions[0, 2] = env.batch.goals[0, 2] = (50.0, 50.0)
    for _ in range(40):
        _, rewards, terminations, _, infos = env.step({a: toward[a] for a in env.agents})
        if any(terminations.values()):
            break
    assert terminations == {"robot_0": True, "robot_1": True} and rewards["robot_0"] == -0.25
    assert infos["robot_1"]["outcome"] == "collision" and env.agents == []
    env.reset(seed=2)
    with pytest.raises(ValueError, match=r"actions: no action for 'robot_1'"):
        env.step({"robot_0": np.zeros(2)})
    with pytest.raises(ValueError, match=r"actions: 'robot_9' is not a robot in the episode"):
        env.step({"robot_9": np.zeros(2)})


def test_importing_vosim_imports_no_learning_library():
    code = "import sys, vosim; print(any(m.split('.')[0] in ('gymnasium', 'pettingzoo') for m in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "False"


def test_vector_env_is_the_same_whatever_the_thread_count():
    actions = np.random.default_rng(3).uniform(-1, 1, (25, 8, 2))
    runs = []
    before = vosim.get_num_threads()
    try:
        for threads in (1, 2):
            vosim.set_num_threads(threads)
            envs = CrowdNavigationVector(num_envs=8, humans=6, obstacles=[SQUARE], robot_visible=True)
            frames = [envs.reset(seed=4)[0]]
            frames += [np.concatenate([out[0].ravel(), out[1]]) for out in map(envs.step, actions)]
            runs.append(frames)
    finally:
        vosim.set_num_threads(before)
    for a, b in zip(*runs):
        np.testing.assert_array_equal(a, b)


def test_no_humans():
    env = CrowdNavigation(humans=0)
    observation, _ = env.reset(seed=0)
    assert observation.shape == (9,)
    for _ in range(40):
        _, reward, terminated, _, info = env.step(np.array([0.0, 1.0]))
        if terminated:
            break
    assert info["outcome"] == "success" and info["navigation_time"] == pytest.approx(7.75)
