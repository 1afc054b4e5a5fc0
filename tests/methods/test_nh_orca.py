"""NH-ORCA (ORCA(nonholonomic="nh_orca")): differential-drive robots that
track ORCA's holonomic velocity within a tracking error (cpp/core/nh_orca.*)."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import vosim

DT = 0.1
WHEEL_SPEED = 1.0
TRACK = 0.4
RADIUS = 0.3
ERROR = 0.05
NH_ORCA = vosim.ORCA(nonholonomic="nh_orca", deadlock="sidestep")


def realised_motion(traj):
    """Forward speed and turn rate of every agent over every recorded step,
    from positions and headings alone (exact for arcs): (T-1, N) each."""
    positions, headings, dt = traj.positions, traj.headings, traj.time_step
    turn = np.angle(np.exp(1j * (headings[1:] - headings[:-1])))
    moved = positions[1:] - positions[:-1]
    middle = headings[:-1] + turn / 2
    along = moved[..., 0] * np.cos(middle) + moved[..., 1] * np.sin(middle)
    speed = along / np.sinc(turn / (2 * np.pi)) / dt
    return speed, turn / dt


def assert_within_wheel_limits(traj, mask=None, track=TRACK):
    speed, turn = realised_motion(traj)
    wheel = np.abs(speed) + np.abs(turn) * track / 2
    if mask is not None:
        wheel = wheel[:, mask]
    assert wheel.max() <= WHEEL_SPEED * (1 + 1e-9) + 1e-9


def circle(n, method=NH_ORCA, radius=4.0, **fields):
    angles = np.linspace(0, 2 * np.pi, n, endpoint=False)
    start = radius * np.column_stack([np.cos(angles), np.sin(angles)])
    sim = vosim.Simulator(time_step=DT, method=method)
    defaults = dict(goals=-start, radius=RADIUS, max_speed=WHEEL_SPEED, neighbor_dist=5.0, time_horizon=2.0,
                    kinematics="differential_drive", wheel_track=TRACK, tracking_error=ERROR,
                    tracking_time=0.3)
    sim.add_agents(start, **{**defaults, **fields})
    return sim


def crossing(method=NH_ORCA):
    lanes = np.array([-0.8, 0.0, 0.8])
    starts, goals = [], []
    for direction in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        d = np.array(direction, float)
        side = np.array([-d[1], d[0]])
        for offset in lanes:
            starts.append(-6 * d + offset * side)
            goals.append(6 * d + offset * side)
    sim = vosim.Simulator(time_step=DT, method=method)
    sim.add_agents(np.array(starts), goals=np.array(goals), radius=0.25, max_speed=WHEEL_SPEED, wheel_track=0.35,
                   neighbor_dist=4.0, time_horizon=2.0, kinematics="differential_drive", tracking_error=ERROR)
    return sim


# ------------------------------------------------------------------ the option
def test_the_option_and_its_fields_are_declared():
    assert vosim.ORCA().nonholonomic == "effective_center"
    assert NH_ORCA.nonholonomic == "nh_orca"
    assert "nonholonomic" in vosim.ORCA.__doc__
    sim = circle(2)
    np.testing.assert_array_equal(sim.tracking_error, ERROR)
    np.testing.assert_array_equal(sim.tracking_time, 0.3)
    defaults = vosim.Simulator.add_agents.__signature__.parameters
    assert defaults["tracking_error"].default > 0 and defaults["tracking_time"].default > 0


def test_bad_option_values_are_refused():
    with pytest.raises(ValueError, match=r"nonholonomic is 'tracking'.*'effective_center' or 'nh_orca'"):
        vosim.ORCA(nonholonomic="tracking")
    with pytest.raises(ValueError, match="nonholonomic is 1"):
        vosim.ORCA(nonholonomic=1)


@pytest.mark.parametrize("field", ["tracking_error", "tracking_time"])
@pytest.mark.parametrize("value", [0.0, -0.1, np.nan])
def test_tracking_error_and_time_must_be_positive(field, value):
    sim = vosim.Simulator(method=NH_ORCA)
    with pytest.raises(ValueError, match=rf"{field}\[1\] is {value}"):
        sim.add_agents([[0, 0], [3, 0]], kinematics="differential_drive", **{field: [0.1, value]})
    assert len(sim.ids) == 0
    sim = circle(3)
    getattr(sim, field)[2] = value
    with pytest.raises(ValueError, match=rf"slot 2\).*{field} is"):
        sim.step()
    assert sim.step_count == 0


# ------------------------------------------------------------------ behaviour
def test_antipodal_circle_keeps_wheel_limits_turns_continuously_and_never_collides():
    sim = circle(10)
    traj = sim.run(600, until_arrived=True)
    assert traj.all_arrived
    assert_within_wheel_limits(traj)
    _, turn = realised_motion(traj)
    # Headings change continuously: by at most the wheels' turn rate 2 v_w / L per second.
    assert np.abs(turn).max() <= 2 * WHEEL_SPEED / TRACK * (1 + 1e-9)
    assert traj.min_clearance_per_frame().min() >= -1e-6
    heading = np.column_stack([np.cos(sim.headings), np.sin(sim.headings)])
    np.testing.assert_allclose(heading[:, 0] * sim.velocities[:, 1] - heading[:, 1] * sim.velocities[:, 0], 0.0,
                               atol=1e-12)


def test_four_way_crossing_of_robots():
    traj = crossing().run(800, until_arrived=True)
    assert traj.all_arrived
    assert_within_wheel_limits(traj, track=0.35)
    assert traj.min_clearance_per_frame().min() >= -1e-6


def test_mixed_holonomic_and_nh_orca_agents():
    sim = circle(10, kinematics=["differential_drive", "holonomic"] * 5)
    traj = sim.run(600, until_arrived=True)
    assert traj.all_arrived
    assert traj.min_clearance_per_frame().min() >= -0.01
    robots = np.arange(10) % 2 == 0
    assert_within_wheel_limits(traj, mask=robots)


def test_robots_go_round_an_obstacle_without_touching_it():
    sim = vosim.Simulator(time_step=DT, method=NH_ORCA)
    sim.add_obstacle([[-1, -1], [1, -1], [1, 1], [-1, 1]])
    start = np.array([[-4, 0.1], [-4, -0.9], [-4, 1.2], [4, 0.3]])
    sim.add_agents(start, goals=start * [-1, 1], radius=RADIUS, max_speed=WHEEL_SPEED, wheel_track=TRACK,
                   kinematics="differential_drive", tracking_error=ERROR, tracking_time=0.3, time_horizon=2.0,
                   neighbor_dist=5.0)
    traj = sim.run(1000, until_arrived=True)
    assert traj.all_arrived
    assert traj.metrics["max_obstacle_penetration"] == 0.0
    assert traj.min_clearance_per_frame().min() >= -1e-6
    assert_within_wheel_limits(traj)


def test_unicycles_keep_speed_and_turn_rate():
    sim = circle(8, kinematics="unicycle", max_angular_speed=1.5)
    traj = sim.run(800, until_arrived=True)
    assert traj.all_arrived
    speed, turn = realised_motion(traj)
    assert np.abs(speed).max() <= WHEEL_SPEED * (1 + 1e-9)
    assert np.abs(turn).max() <= 1.5 * (1 + 1e-9)
    assert traj.min_clearance_per_frame().min() >= -1e-6


def test_inspect_shows_the_robot_enlarged_by_the_tracking_error_and_the_polygon():
    sim = circle(4)
    seen = sim.inspect(int(sim.ids[0]))
    presented = seen["effective_center"]  # what the method sees of the robot
    np.testing.assert_array_equal(presented["position"], sim.positions[0])
    assert presented["radius"] == pytest.approx(RADIUS + ERROR)
    # The polygon of trackable velocities is among the hard lines, and holds the plan.
    lines = seen["lines"]
    assert lines["obstacle"].sum() >= 8
    plan = seen["method_velocity"]
    hard = lines["obstacle"]
    direction, offset = lines["direction"][hard], plan - lines["point"][hard]
    assert (direction[:, 0] * offset[:, 1] - direction[:, 1] * offset[:, 0]).min() >= -1e-12
    sim.step()
    np.testing.assert_array_equal(seen["new_velocity"], sim.velocities[0])


def test_every_step_stays_within_the_tracking_error_of_the_plan():
    # Lone robots in every heading, each wanting to go in another direction
    # (straight ahead to straight behind). With tracking_time one step, a
    # robot ends each step within tracking_error of where the planned
    # holonomic velocity would take it, and the bound is nearly reached.
    n = 36
    headings = np.linspace(-np.pi, np.pi, n, endpoint=False)
    wanted = headings + np.linspace(0, 2 * np.pi, n, endpoint=False) * 7 % (2 * np.pi)

    def robots(tracking_time):
        sim = vosim.Simulator(time_step=DT, method=NH_ORCA)
        sim.add_agents(np.column_stack([np.arange(n) * 10.0, np.zeros(n)]), headings=headings,
                       pref_velocities=np.column_stack([np.cos(wanted), np.sin(wanted)]), radius=RADIUS,
                       max_speed=WHEEL_SPEED, wheel_track=TRACK, neighbor_dist=1.0,
                       kinematics="differential_drive", tracking_error=ERROR, tracking_time=tracking_time)
        return sim

    sim = robots(DT)
    worst = 0.0
    for _ in range(5):
        plans = np.array([sim.inspect(int(agent))["method_velocity"] for agent in sim.ids])
        assert np.linalg.norm(plans, axis=1).min() > 0  # every robot plans to move
        before = sim.positions.copy()
        sim.step()
        worst = max(worst, np.linalg.norm(sim.positions - (before + plans * DT), axis=1).max())
    assert 0.9 * ERROR < worst <= ERROR * (1 + 1e-9)
    # A tracking time shorter than a step counts as one step.
    shorter = robots(DT / 10)
    shorter.run(5)
    np.testing.assert_array_equal(shorter.positions, sim.positions)


def test_robot_facing_away_from_its_goal_turns_round_and_arrives():
    sim = vosim.Simulator(time_step=DT, method=NH_ORCA)
    sim.add_agents([[0, 0]], goals=[[-5, 0]], headings=0.0, max_speed=WHEEL_SPEED, wheel_track=TRACK,
                   kinematics="differential_drive", tracking_error=ERROR, tracking_time=0.3)
    traj = sim.run(300, until_arrived=True)
    assert traj.all_arrived
    assert np.abs(np.angle(np.exp(1j * (traj.headings[-1, 0] - np.pi)))) < 0.1
    assert_within_wheel_limits(traj)


# ----------------------------------------------------------- engine guarantees
@pytest.mark.skipif(not vosim.have_threads(), reason="built without threads")
def test_bit_identical_across_thread_counts():
    # 1200 agents (above the size that runs in parallel): robots of both
    # kinds among holonomic agents.
    rng = np.random.default_rng(7)
    n = 1200
    start = rng.uniform(-25, 25, (n, 2))
    kinds = np.array(["differential_drive", "unicycle", "holonomic"])[np.arange(n) % 3]
    errors = rng.uniform(0.02, 0.1, n)  # robots of different polygons side by side
    results, previous = [], vosim.get_num_threads()
    for threads in (1, 3):
        vosim.set_num_threads(threads)
        try:
            sim = vosim.Simulator(time_step=DT, method=NH_ORCA)
            sim.add_agents(start, goals=-start, radius=RADIUS, max_speed=WHEEL_SPEED, wheel_track=TRACK,
                           max_angular_speed=2.0, neighbor_dist=3.0, time_horizon=2.0, kinematics=kinds,
                           tracking_error=errors)
            traj = sim.run(15)
        finally:
            vosim.set_num_threads(previous)
        results.append((traj.positions, traj.headings, traj.velocities))
    for first, second in zip(*results):
        np.testing.assert_array_equal(first, second)


def test_checkpoints_and_pickles_resume_exactly(tmp_path):
    sim = circle(6)
    sim.run(15)
    copy = pickle.loads(pickle.dumps(sim))
    sim.save_state(tmp_path / "state.npz")
    loaded = vosim.load_state(tmp_path / "state.npz")
    expected = sim.run(20)
    for other in (copy, loaded):
        assert other.method.nonholonomic == "nh_orca"
        np.testing.assert_array_equal(other.tracking_error, ERROR)
        traj = other.run(20)
        np.testing.assert_array_equal(traj.positions, expected.positions)
        np.testing.assert_array_equal(traj.headings, expected.headings)


def test_checkpoints_saved_before_the_tracking_fields_load_with_their_defaults(tmp_path):
    from _older_formats import as_older_file

    sim = circle(3)
    sim.save_state(tmp_path / "state.npz")
    with np.load(tmp_path / "state.npz") as archive:
        kept = {name: archive[name] for name in archive.files
                if not name.endswith((".tracking_error", ".tracking_time"))}
    assert len(kept) == len(np.load(tmp_path / "state.npz").files) - 2
    np.savez(tmp_path / "old.npz", **as_older_file(kept))
    old = vosim.load_state(tmp_path / "old.npz")
    defaults = vosim.Simulator.add_agents.__signature__.parameters
    np.testing.assert_array_equal(old.tracking_error, defaults["tracking_error"].default)
    np.testing.assert_array_equal(old.tracking_time, defaults["tracking_time"].default)
    old.step()


# ----------------------------------------------------------- against ORCA-DD
def test_comparison_with_orca_dd_on_the_same_scenes():
    rows = []
    for scene in ("circle", "crossing"):
        for method in (NH_ORCA, vosim.ORCA(deadlock="sidestep")):
            sim = circle(10, method=method) if scene == "circle" else crossing(method)
            start = sim.positions.copy()
            goals = sim.goals.copy()
            traj = sim.run(800, until_arrived=True)
            steps = np.linalg.norm(np.diff(traj.positions, axis=0), axis=-1)
            length = steps.sum(axis=0)
            straight = np.linalg.norm(goals - start, axis=-1)
            rows.append((scene, method.nonholonomic, traj.metrics["makespan"], length.mean() / straight.mean(),
                         traj.min_clearance_per_frame().min()))
            assert traj.all_arrived
            assert np.all(length >= straight - 2 * RADIUS)
    for row in rows:
        print("%-8s %-16s makespan %5.1f s  path/straight %.3f  min clearance %+.3f m" % row)
