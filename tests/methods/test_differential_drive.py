"""Differential-drive and unicycle agents: the kinematic model every method shares
(cpp/core/kinematics.*) and ORCA-DD's realisable polygon."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import vosim

DT = 0.1
WHEEL_SPEED = 1.0
TRACK = 0.4


def realised_motion(traj):
    """Forward speed and turn rate of every agent over every recorded step, from
    positions and headings alone (exact for arcs): (T-1, N) each."""
    positions, headings, dt = traj.positions, traj.headings, traj.time_step
    turn = np.angle(np.exp(1j * (headings[1:] - headings[:-1])))  # wrapped to (-pi, pi]
    moved = positions[1:] - positions[:-1]
    middle = headings[:-1] + turn / 2
    along = moved[..., 0] * np.cos(middle) + moved[..., 1] * np.sin(middle)
    # The chord of an arc of turn phi is v dt sin(phi / 2) / (phi / 2).
    speed = along / np.sinc(turn / (2 * np.pi)) / dt
    return speed, turn / dt


def circle(n, radius=4.0, kinematics="differential_drive", **fields):
    angles = np.linspace(0, 2 * np.pi, n, endpoint=False)
    start = radius * np.column_stack([np.cos(angles), np.sin(angles)])
    # (Sidestep detours end the symmetric jam of a perfect circle.)
    sim = vosim.Simulator(time_step=DT, method=vosim.ORCA(deadlock="sidestep"))
    defaults = dict(goals=-start, radius=0.3, max_speed=WHEEL_SPEED, neighbor_dist=5.0, time_horizon=2.0,
                    kinematics=kinematics)
    if kinematics == "differential_drive":
        defaults.update(wheel_track=TRACK)
    if kinematics == "unicycle":
        defaults.update(max_angular_speed=2.0)
    sim.add_agents(start, **{**defaults, **fields})
    return sim


def assert_within_wheel_limits(traj, track=TRACK, wheel_speed=WHEEL_SPEED, mask=None):
    speed, turn = realised_motion(traj)
    wheel = np.abs(speed) + np.abs(turn) * track / 2
    if mask is not None:
        wheel = wheel[:, mask]
    assert wheel.max() <= wheel_speed * (1 + 1e-9) + 1e-9


# ------------------------------------------------------------------ fields
def test_defaults_are_derived_and_documented():
    sim = vosim.Simulator(time_step=DT)
    sim.add_agents([[0, 0], [5, 0], [0, 5], [9, 9]], velocities=[[0, 1], [0, 0], [0, 0], [0, 0]],
                   goals=[[3, 0], [5, -4], [np.nan, np.nan], [9, 9]], radius=0.5, max_speed=1.5,
                   kinematics="differential_drive")
    assert list(sim.kinematics) == ["differential_drive"] * 4
    # Heading: the velocity's direction, else the goal's, else 0.
    np.testing.assert_allclose(sim.headings, [np.pi / 2, -np.pi / 2, 0.0, 0.0])
    np.testing.assert_array_equal(sim.wheel_track, 0.5)             # the radius
    np.testing.assert_array_equal(sim.max_wheel_speed, 1.5)         # max_speed
    np.testing.assert_array_equal(sim.effective_center_distance, 0.25)  # wheel_track / 2
    assert np.all(np.isinf(sim.max_angular_speed))
    assert vosim.Simulator.add_agents.__signature__.parameters["kinematics"].default == "holonomic"


def test_headings_are_a_writable_zero_copy_view():
    sim = circle(4)
    view = sim.headings
    assert view.shape == (4,) and view.dtype == np.float64
    view[0] = 1.0
    assert sim.headings[0] == 1.0
    sim.kinematics = ["holonomic", "unicycle", "differential_drive", "holonomic"]
    assert list(sim.kinematics) == ["holonomic", "unicycle", "differential_drive", "holonomic"]


# ------------------------------------------------------------- behaviour
def test_antipodal_circle_keeps_wheel_limits_turns_continuously_and_never_collides():
    sim = circle(12, max_angular_speed=3.0)
    traj = sim.run(500, until_arrived=True)
    assert traj.all_arrived
    assert_within_wheel_limits(traj)
    _, turn = realised_motion(traj)
    assert np.abs(turn).max() <= 3.0 * (1 + 1e-9)
    assert traj.min_clearance_per_frame().min() >= -1e-6
    assert traj.metrics["peak_angular_speed"].max() <= 3.0 * (1 + 1e-9)
    # velocities are the robots' own: along their headings.
    heading = np.column_stack([np.cos(sim.headings), np.sin(sim.headings)])
    np.testing.assert_allclose(heading[:, 0] * sim.velocities[:, 1] - heading[:, 1] * sim.velocities[:, 0], 0.0, atol=1e-12)


def test_four_way_crossing_of_robots():
    lanes = np.array([-0.8, 0.0, 0.8])
    starts, goals = [], []
    for direction in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        d = np.array(direction, float)
        side = np.array([-d[1], d[0]])
        for offset in lanes:
            starts.append(-6 * d + offset * side)
            goals.append(6 * d + offset * side)
    sim = vosim.Simulator(time_step=DT, method=vosim.ORCA(deadlock="sidestep"))
    sim.add_agents(np.array(starts), goals=np.array(goals), radius=0.25, max_speed=1.0, wheel_track=0.35,
                   neighbor_dist=4.0, time_horizon=2.0, kinematics="differential_drive")
    traj = sim.run(800, until_arrived=True)
    assert traj.all_arrived
    assert_within_wheel_limits(traj, track=0.35)
    assert traj.min_clearance_per_frame().min() >= -1e-6


def test_mixed_holonomic_and_differential_drive_agents():
    sim = circle(10, kinematics=["differential_drive", "holonomic"] * 5, wheel_track=TRACK)
    traj = sim.run(500, until_arrived=True)
    assert traj.all_arrived
    # Robots take less than their share of a pair's avoidance when their
    # realisable polygon forbids it, and the jam in the centre sends some
    # agents to linear program 3: pairs may overlap by millimetres there
    # (as in dense holonomic crowds), never more.
    assert traj.min_clearance_per_frame().min() >= -0.01
    robots = np.arange(10) % 2 == 0
    assert_within_wheel_limits(traj, mask=robots)
    # Holonomic agents face where they go.
    moving = np.linalg.norm(traj.velocities[1:], axis=-1) > 1e-3
    facing = np.arctan2(traj.velocities[1:, ..., 1], traj.velocities[1:, ..., 0])
    gap = np.angle(np.exp(1j * (facing - traj.headings[1:])))
    assert np.abs(gap[moving & ~robots]).max() < 1e-9  # (a straight course skips tiny turns)


def test_unicycles_keep_speed_and_turn_rate():
    sim = circle(8, kinematics="unicycle", max_angular_speed=1.5)
    traj = sim.run(600, until_arrived=True)
    assert traj.all_arrived
    speed, turn = realised_motion(traj)
    assert np.abs(speed).max() <= WHEEL_SPEED * (1 + 1e-9)
    assert np.abs(turn).max() <= 1.5 * (1 + 1e-9)
    assert traj.min_clearance_per_frame().min() >= -1e-6


def test_saturation_keeps_the_curvature():
    # A robot asked to go sideways at full speed: the wheel limit scales the
    # motion down, keeping its ratio of turn to speed.
    sim = vosim.Simulator(time_step=DT)
    sim.add_agents([[0, 0]], pref_velocities=[[0, 1]], headings=0.0, max_speed=1.0, wheel_track=0.5,
                   effective_center_distance=0.25, kinematics="differential_drive")
    sim.step()
    turn = sim.angular_velocities[0]
    # u = (0, 1): v = 0, w = 1 / D = 4 rad/s; the faster wheel turns at w L / 2 = 1 m/s: just in.
    assert turn == pytest.approx(4.0)
    np.testing.assert_allclose(sim.positions[0], 0.0, atol=1e-15)
    assert sim.headings[0] == pytest.approx(0.4)


@pytest.mark.parametrize("method", [vosim.VO(), vosim.RVO(), vosim.HRVO(), "adaptive", "grid", vosim.ForceBased(),
                                    "avo", vosim.ORCA(acceleration="clamp")])
def test_other_methods_drive_robots_within_their_limits(method):
    sim = circle(6, max_acceleration=4.0)
    sim.method = method
    traj = sim.run(60)
    assert_within_wheel_limits(traj)
    assert np.all(np.isfinite(traj.positions))


def test_max_acceleration_limits_the_effective_centre_velocity():
    sim = circle(6, max_acceleration=2.0)
    sim.method = vosim.RVO()  # clamped after the method
    traj = sim.run(40)
    speed, turn = realised_motion(traj)
    # Each step's effective-centre velocity (v, w D) in the frame of the
    # heading it starts from; the previous one is seen in the same frame.
    distance = sim.effective_center_distance[0]
    change = np.hypot(np.diff(speed, axis=0), np.diff(turn, axis=0) * distance) / DT
    assert change.max() <= 2.0 * (1 + 1e-9)
    assert np.abs(speed[0]).max() <= 2.0 * DT * (1 + 1e-9)  # from rest


# ------------------------------------------------------- engine guarantees
def test_batch_matches_simulators_and_has_scene_axes():
    sim = circle(6)
    batch = vosim.Batch(scenes=2, time_step=DT, method=vosim.ORCA(deadlock="sidestep"))
    angles = np.linspace(0, 2 * np.pi, 6, endpoint=False)
    start = 4.0 * np.column_stack([np.cos(angles), np.sin(angles)])
    batch.add_agents(start, goals=-start, radius=0.3, max_speed=WHEEL_SPEED, neighbor_dist=5.0, time_horizon=2.0,
                     kinematics=[["differential_drive"] * 6, ["holonomic"] * 6], wheel_track=TRACK)
    assert batch.headings.shape == (2, 6)
    assert batch.kinematics.shape == (2, 6)
    traj = batch.run(30)
    assert traj.headings.shape == (31, 2, 6)
    reference = sim.run(30)
    np.testing.assert_array_equal(traj.positions[:, 0], reference.positions)
    np.testing.assert_array_equal(traj.headings[:, 0], reference.headings)


def test_bit_identical_across_thread_counts():
    results, previous = [], vosim.get_num_threads()
    for threads in (1, 3):
        vosim.set_num_threads(threads)
        try:
            sim = circle(16, kinematics=["differential_drive", "unicycle", "holonomic", "holonomic"] * 4,
                         max_angular_speed=2.0)
            traj = sim.run(40)
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
        assert list(other.kinematics) == ["differential_drive"] * 6
        traj = other.run(20)
        np.testing.assert_array_equal(traj.positions, expected.positions)
        np.testing.assert_array_equal(traj.headings, expected.headings)


def test_interrupted_run_keeps_headings_and_resumes_exactly():
    sim = circle(6)

    def stop(steps_done, steps):
        if steps_done > 0:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt) as raised:
        sim.run(100_000, progress=stop)
    partial = raised.value.trajectory
    done = partial.steps_run
    assert 0 < done == sim.step_count < 100_000
    assert partial.headings.shape == (len(partial.times), 6)
    sim.run(5)
    reference = circle(6)
    reference.run(done + 5)
    np.testing.assert_array_equal(sim.positions, reference.positions)
    np.testing.assert_array_equal(sim.headings, reference.headings)


def test_trajectory_files_and_tables_carry_headings(tmp_path):
    pytest.importorskip("pandas")
    traj = circle(4).run(5)
    path = traj.save(tmp_path / "run.npz")
    loaded = vosim.load(path)
    np.testing.assert_array_equal(loaded.headings, traj.headings)
    table = traj.to_dataframe()
    np.testing.assert_array_equal(table["heading"].to_numpy(), traj.headings.reshape(-1))
    assert traj.subsample(2).headings.shape == (4, 4)


def test_files_saved_before_headings_still_load(tmp_path):
    import json

    from _older_formats import as_older_file

    traj = vosim.Simulator(time_step=DT)
    traj.add_agents([[0, 0]], goals=[[1, 0]])
    recorded = traj.run(3)
    path = recorded.save(tmp_path / "run.npz")
    with np.load(path) as archive:
        arrays = {name: archive[name] for name in archive.files if name != "headings"}
    np.savez(tmp_path / "old.npz", **as_older_file(arrays))
    assert vosim.load(tmp_path / "old.npz").headings is None
    # A checkpoint without the kinematic columns: every agent holonomic.
    traj.save_state(tmp_path / "state.npz")
    with np.load(tmp_path / "state.npz") as archive:
        kept = {name: archive[name] for name in archive.files
                if not any(name.endswith("." + column) for column in
                           ("kinematics", "headings", "angular_velocities", "wheel_track", "max_wheel_speed",
                            "max_angular_speed", "effective_center_distance"))}
    assert len(kept) < len(np.load(tmp_path / "state.npz").files)
    np.savez(tmp_path / "old_state.npz", **as_older_file(kept))
    old = vosim.load_state(tmp_path / "old_state.npz")
    assert list(old.kinematics) == ["holonomic"]
    old.step()
    json.dumps(old.inspect(int(old.ids[0]))["kinematics"])


def test_inspect_shows_the_effective_centre_and_the_realised_velocity():
    sim = circle(6)
    agent = int(sim.ids[0])
    seen = sim.inspect(agent)
    assert seen["kinematics"] == "differential_drive"
    centre = seen["effective_center"]
    heading = sim.headings[0]
    distance = sim.effective_center_distance[0]
    np.testing.assert_allclose(centre["position"], sim.positions[0] + distance * np.array(
        [np.cos(heading), np.sin(heading)]))
    assert centre["radius"] == pytest.approx(0.3 + distance)
    sim.step()
    np.testing.assert_array_equal(seen["new_velocity"], sim.velocities[0])
    assert seen["new_angular_velocity"] == sim.angular_velocities[0]


def test_peak_angular_speed_is_undefined_for_holonomic_agents():
    """A holonomic agent's heading only follows its velocity: its turn rate is NaN, not a figure."""
    sim = circle(6, kinematics="holonomic")
    traj = sim.run(100)
    peak = traj.metrics["peak_angular_speed"]
    assert peak.shape == (6,) and np.all(np.isnan(peak))


# ------------------------------------------------------------- bad input
def test_unknown_kinematics_names_the_index_and_value():
    sim = vosim.Simulator()
    with pytest.raises(ValueError, match=r"kinematics\[1\] is 'tank'"):
        sim.add_agents([[0, 0], [3, 0]], kinematics=["holonomic", "tank"])
    with pytest.raises(TypeError, match=r"kinematics\[0\] is 1"):
        sim.add_agents([[0, 0]], kinematics=[1])
    assert len(sim.ids) == 0


@pytest.mark.parametrize("fields, message", [
    (dict(wheel_track=0.0), r"wheel_track\[0\] is 0.0; a 'differential_drive' agent needs it > 0"),
    (dict(radius=0.0), r"wheel_track\[0\] is 0.0"),
    (dict(effective_center_distance=0.0), r"effective_center_distance\[0\] is 0.0"),
    (dict(max_angular_speed=0.0), r"max_angular_speed\[0\] is 0.0"),
    (dict(kinematics="unicycle"), r"max_angular_speed\[0\] is inf; a 'unicycle' agent needs it finite"),
])
def test_drives_that_cannot_work_are_refused(fields, message):
    sim = vosim.Simulator()
    with pytest.raises(ValueError, match=message):
        sim.add_agents([[0, 0]], **{"kinematics": "differential_drive", **fields})


def test_bad_values_written_into_views_stop_the_step():
    sim = circle(3)
    sim.wheel_track[1] = 0.0
    with pytest.raises(ValueError, match=r"slot 1\).*wheel_track is 0; it must be > 0"):
        sim.step()
    sim.wheel_track[1] = TRACK
    sim.headings[2] = np.nan
    with pytest.raises(ValueError, match="headings is nan"):
        sim.step()
    assert sim.step_count == 0


def test_three_dimensional_simulators_refuse_non_holonomic_agents():
    sim = vosim.Simulator(dimensions=3)
    with pytest.raises(ValueError, match=r"kinematics\[0\] is 'differential_drive'.*dimensions=3"):
        sim.add_agents([[0, 0, 0]], kinematics="differential_drive")
    sim.add_agents([[0, 0, 0], [2, 0, 0]], velocities=[[1, 0, 0], [0, 0, 0]])
    assert sim.headings[0] == 0.0
    sim.kinematics = ["holonomic", "unicycle"]
    with pytest.raises(ValueError, match="plane only"):
        sim.step()


def test_robots_keep_out_of_obstacles():
    sim = vosim.Simulator(time_step=DT, method=vosim.ORCA(deadlock="sidestep"))
    sim.add_obstacle([[-0.5, -1.0], [0.5, -1.0], [0.5, 1.0], [-0.5, 1.0]])
    starts = np.array([[-4.0, 0.1], [-4.0, -0.6], [4.0, 0.3]])
    sim.add_agents(starts, goals=-starts, radius=0.3, max_speed=1.0, wheel_track=TRACK, time_horizon=2.0,
                   time_horizon_obst=1.0, kinematics="differential_drive")
    traj = sim.run(600, until_arrived=True)
    assert traj.all_arrived
    assert traj.min_obstacle_clearance_per_frame().min() >= -1e-6
    assert_within_wheel_limits(traj)
