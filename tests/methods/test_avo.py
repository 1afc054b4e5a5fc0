"""AVO() (the paper's method, with the AVO2 library's defects repaired):
its acceleration model, speed limit, fallback, obstacles, inspection,
batches, threads and checkpoints. AVO2 parity is in test_avo2_parity.py."""

from __future__ import annotations

import contextlib
import os
import pickle
import signal

import numpy as np
import pytest

import vosim

threads = [1, 2] if vosim.have_threads() else [1]


@contextlib.contextmanager
def threads_set(count):
    before = vosim.get_num_threads()
    vosim.set_num_threads(count)
    try:
        yield
    finally:
        vosim.set_num_threads(before)


def circle(method, n=12, radius=6.0, dt=0.1, accel=2.0, interval=0.5, **kwargs):
    angles = 2 * np.pi * np.arange(n) / n
    starts = radius * np.c_[np.cos(angles), np.sin(angles)]
    sim = vosim.Simulator(time_step=dt, method=method)
    params = dict(radius=0.5, max_speed=1.5, pref_speed=1.2, neighbor_dist=8.0, max_neighbors=10, time_horizon=4.0,
                  max_acceleration=accel, acceleration_interval=interval)
    params.update(kwargs)
    sim.add_agents(starts, goals=-starts, **params)
    return sim


def run_recording(sim, steps):
    """Velocities before and after every step, and the smallest clearance."""
    before, after, clearance = [], [], np.inf
    r = sim.radius.copy()
    for _ in range(steps):
        before.append(sim.velocities.copy())
        sim.step()
        after.append(sim.velocities.copy())
        gaps = np.linalg.norm(sim.positions[:, None] - sim.positions[None], axis=2) - (r[:, None] + r[None])
        np.fill_diagonal(gaps, np.inf)
        clearance = min(clearance, gaps.min())
    return np.array(before), np.array(after), clearance


class TestAccelerationModel:
    def test_realised_change_per_step_is_at_most_max_acceleration_times_dt(self):
        sim = circle(vosim.AVO(perturbation=0.1), accel=np.linspace(0.5, 3.0, 12), interval=0.4)
        before, after, _ = run_recording(sim, 300)
        change = np.linalg.norm(after - before, axis=2)
        assert np.all(change <= sim.max_acceleration * sim.time_step * (1 + 1e-12))
        assert change.max() > 0.5 * sim.max_acceleration.min() * sim.time_step  # the bound is used

    def test_velocity_follows_the_controller_towards_the_target(self):
        """Alone, the velocity approaches the target as 1 - exp(-t / interval)."""
        sim = vosim.Simulator(time_step=0.1, method=vosim.AVO())
        sim.add_agents([[0.0, 0.0]], pref_velocities=[[1.0, 0.0]], max_speed=2.0, max_acceleration=4.0,
                       acceleration_interval=0.5)
        seen = sim.inspect(0)
        np.testing.assert_allclose(seen["target_velocity"], [1.0, 0.0], atol=1e-12)
        for k in range(1, 6):
            sim.step()
            np.testing.assert_allclose(sim.velocities[0], [1.0 - np.exp(-0.1 * k / 0.5), 0.0], atol=1e-12)

    def test_target_stays_within_the_acceleration_disc(self):
        """A far preferred velocity: the target is max_acceleration * interval
        away (a polygon vertex points that way)."""
        sim = vosim.Simulator(time_step=0.1, method=vosim.AVO())
        sim.add_agents([[0.0, 0.0]], velocities=[[0.5, 0.0]], pref_velocities=[[0.0, 5.0]], max_speed=10.0,
                       max_acceleration=1.0, acceleration_interval=0.5)
        target = sim.inspect(0)["target_velocity"]
        assert np.linalg.norm(target - [0.5, 0.0]) == pytest.approx(0.5, rel=1e-9)

    def test_speed_never_exceeds_max_speed(self):
        sim = circle(vosim.AVO(perturbation=0.1), accel=5.0, interval=0.3, pref_speed=3.0)
        _, after, _ = run_recording(sim, 200)
        assert np.linalg.norm(after, axis=2).max() <= 1.5 * (1 + 1e-9)

    def test_zero_acceleration_keeps_the_velocity(self):
        sim = vosim.Simulator(time_step=0.1, method=vosim.AVO())
        sim.add_agents([[0.0, 0.0], [3.0, 0.0]], velocities=[[0.3, 0.1], [0.0, 0.0]], pref_velocities=[[1.0, 0.0]] * 2,
                       max_acceleration=[0.0, 1.0])
        sim.step()
        np.testing.assert_array_equal(sim.velocities[0], [0.3, 0.1])

    def test_infinite_max_acceleration_bounds_nothing_but_the_controller_still_lags(self):
        """The default max_acceleration (inf): the target is bounded by max_speed
        only, an unbounded agent takes all of the avoidance from a bounded one,
        and the velocity still approaches the target with acceleration_interval."""
        sim = vosim.Simulator(time_step=0.1, method=vosim.AVO())
        sim.add_agents([[0.0, 0.0]], pref_velocities=[[5.0, 0.0]], max_speed=2.0, acceleration_interval=0.5)
        np.testing.assert_allclose(sim.inspect(0)["target_velocity"], [2.0, 0.0], rtol=1e-12)
        sim.step()
        np.testing.assert_allclose(sim.velocities[0], [2.0 * (1 - np.exp(-0.2)), 0.0], rtol=1e-12)
        pair = vosim.Simulator(time_step=0.1, method=vosim.AVO())
        pair.add_agents([[-4.0, 0.0], [4.0, 0.0]], velocities=[[1.0, 0.0], [-1.0, 0.0]],
                        pref_velocities=[[1.0, 0.0], [-1.0, 0.0]], max_acceleration=[np.inf, 1.0],
                        acceleration_interval=0.5, time_horizon=6.0)
        free, bounded = (pair.inspect(i) for i in range(2))
        assert np.linalg.norm(free["target_velocity"] - free["velocity"]) > 0.05
        np.testing.assert_allclose(bounded["target_velocity"], bounded["velocity"], atol=1e-12)
        traj = circle(vosim.AVO(perturbation=0.1), accel=np.inf).run(300)
        assert np.isfinite(traj.velocities).all()

    def test_avo2_refuses_infinite_max_acceleration_naming_the_agent(self):
        sim = vosim.Simulator(method=vosim.AVO(variant="avo2"))
        sim.add_agents([[0.0, 0.0], [5.0, 0.0]], max_acceleration=[1.0, np.inf])
        with pytest.raises(ValueError, match=r"needs a finite max_acceleration; agent id 1 .* inf"):
            sim.step()
        np.testing.assert_array_equal(sim.positions, [[0.0, 0.0], [5.0, 0.0]])  # nothing advanced

    def test_bad_acceleration_interval_is_refused(self):
        sim = vosim.Simulator(method=vosim.AVO())
        with pytest.raises(ValueError, match="acceleration_interval"):
            sim.add_agents([[0.0, 0.0]], max_acceleration=1.0, acceleration_interval=0.0)
        with pytest.raises(ValueError, match="acceleration_interval"):
            sim.add_agents([[0.0, 0.0]], max_acceleration=1.0, acceleration_interval=np.nan)

    def test_unknown_variant_is_refused(self):
        with pytest.raises(ValueError, match="variant is 'avo3'"):
            vosim.AVO(variant="avo3")


class TestAvoidance:
    @pytest.mark.parametrize("case", ["head-on", "crossing", "oblique"])
    def test_two_agents_pass_without_collision(self, case):
        starts, goals = {
            "head-on": ([[-6, 0.05], [6, -0.05]], [[6, 0.05], [-6, -0.05]]),
            "crossing": ([[-6, 0], [0, -7]], [[6, 0], [0, 6]]),
            "oblique": ([[-5, -5], [5, -4]], [[5, 5], [-5, 4]]),
        }[case]
        sim = vosim.Simulator(time_step=0.1, method=vosim.AVO())
        sim.add_agents(starts, goals=goals, radius=0.5, max_speed=1.0, pref_speed=1.0, time_horizon=4.0,
                       max_acceleration=2.0, acceleration_interval=0.4)
        traj = sim.run(600, until_arrived=True)
        assert traj.all_arrived
        assert traj.min_clearance_per_frame().min() > -1e-3

    def test_circle_arrives_and_overlaps_far_less_than_avo2(self):
        paper = circle(vosim.AVO(perturbation=0.1), n=16, radius=8.0, accel=1.0, interval=1.0)
        library = circle(vosim.AVO(variant="avo2", perturbation=0.1), n=16, radius=8.0, accel=1.0, interval=1.0)
        _, _, paper_clearance = run_recording(paper, 500)
        _, _, library_clearance = run_recording(library, 500)
        assert np.all(np.linalg.norm(paper.positions - paper.goals, axis=1) <= paper.arrival_radius)
        assert paper_clearance > -0.05
        assert library_clearance < -0.5  # AVO2's agents drive through each other

    def test_infeasible_agent_falls_back_to_least_violation(self):
        """Two agents rushing at each other, too slow to turn: the half-planes
        leave nothing within reach, so linear program 3 runs, and the result
        stays within the acceleration bound."""
        sim = vosim.Simulator(time_step=0.1, method=vosim.AVO())
        sim.add_agents([[-1.2, 0.0], [1.2, 0.0]], velocities=[[2.0, 0.0], [-2.0, 0.0]],
                       pref_velocities=[[2.0, 0.0], [-2.0, 0.0]], radius=0.5, max_speed=2.0, time_horizon=3.0,
                       max_acceleration=0.5, acceleration_interval=0.5)
        seen = sim.inspect(0)
        assert seen["used_fallback"]
        assert np.isfinite(seen["target_velocity"]).all()
        assert np.linalg.norm(seen["target_velocity"] - [2.0, 0.0]) <= 0.25 * (1 + 1e-9)
        before = sim.velocities.copy()
        sim.step()
        assert np.all(np.linalg.norm(sim.velocities - before, axis=1) <= 0.05 * (1 + 1e-12))
        assert sim.velocities[0, 0] < 2.0  # it brakes

    def test_coincident_and_touching_agents_get_finite_velocities(self):
        sim = vosim.Simulator(time_step=0.1, method=vosim.AVO())
        sim.add_agents([[0.0, 0.0], [0.0, 0.0], [0.3, 0.0], [5.0, 5.0]], pref_velocities=[[1.0, 0.0]] * 4,
                       max_acceleration=1.0)
        for _ in range(20):
            sim.step()
        assert np.isfinite(sim.velocities).all()
        assert np.linalg.norm(sim.positions[0] - sim.positions[1]) > 0.0  # they separate

    def test_a_large_crowd_on_one_point_steps(self):
        """AVO2's neighbour tree puts one coincident agent aside per level; the
        build and the search must not recurse that deep."""
        sim = vosim.Simulator(time_step=0.1, method=vosim.AVO(variant="avo2"))
        sim.add_agents(np.zeros((5_000, 2)), pref_velocities=[1.0, 0.0], max_acceleration=1.0,
                       neighbor_dist=1.0, max_neighbors=10)
        sim.step()
        assert np.isfinite(sim.velocities).all()

    def test_obstacles_are_hard_constraints(self):
        """An agent heading for a wall it can stop in front of does not cross it."""
        sim = vosim.Simulator(time_step=0.1, method=vosim.AVO())
        sim.add_wall([[2.0, -5.0], [2.0, 5.0]])
        sim.add_agents([[0.0, 0.0]], goals=[[6.0, 0.0]], radius=0.4, max_speed=1.0, time_horizon_obst=2.0,
                       max_acceleration=2.0, acceleration_interval=0.3)
        for _ in range(300):
            sim.step()
            assert sim.positions[0, 0] < 2.0 - 0.4 + 1e-6

    def test_mixed_accelerations_share_the_avoidance(self):
        """The agent that can accelerate more takes the larger share."""
        sim = vosim.Simulator(time_step=0.1, method=vosim.AVO())
        sim.add_agents([[-4.0, 0.0], [4.0, 0.0]], velocities=[[1.0, 0.0], [-1.0, 0.0]],
                       pref_velocities=[[1.0, 0.0], [-1.0, 0.0]], max_acceleration=[3.0, 1.0],
                       acceleration_interval=0.5, time_horizon=6.0)
        agile, slow = (np.linalg.norm(sim.inspect(i)["target_velocity"] - sim.velocities[i]) for i in range(2))
        assert agile > 2.0 * slow > 0.0


class TestInspection:
    def test_lines_are_the_polygon_then_obstacles_then_agents(self):
        sim = circle(vosim.AVO(), n=6, radius=2.0)
        sim.add_wall([[-10.0, -3.0], [10.0, -3.0]])
        seen = sim.inspect(0)
        hard = seen["lines"]["obstacle"]
        assert hard[:16].all() and not hard[-1]
        # The polygon's vertices lie on the disc of radius max_acceleration * interval.
        points = seen["lines"]["point"][:16]
        np.testing.assert_allclose(np.linalg.norm(points - seen["velocity"], axis=1), 2.0 * 0.5, rtol=1e-12)

    def test_new_velocity_is_what_the_step_does(self):
        sim = circle(vosim.AVO(perturbation=0.0), n=8, radius=3.0)
        for _ in range(15):
            sim.step()
        expected = np.array([sim.inspect(i)["new_velocity"] for i in range(8)])
        sim.step()
        np.testing.assert_array_equal(sim.velocities, expected)

    def test_avo2_lines_in_velocity_space_with_its_speed_lines(self):
        sim = circle(vosim.AVO(variant="avo2"), n=6, radius=2.0, velocities=[[0.5, 0.0]] * 6)
        seen = sim.inspect(0)
        assert seen["lines"]["obstacle"][:2].all() and not seen["lines"]["obstacle"][2:].any()
        # Line 0: d . (v' - v) <= max_speed - |v| along the heading d = +x.
        np.testing.assert_allclose(seen["lines"]["point"][0], [0.5 + 1.0, 0.0])


@pytest.mark.parametrize("variant", ["paper", "avo2"])
def test_results_do_not_depend_on_threads_or_batching(variant):
    rng = np.random.default_rng(4)
    starts = rng.uniform(-12, 12, (3, 150, 2))
    accel = rng.uniform(0.5, 3.0, 150)
    params = dict(radius=0.4, neighbor_dist=4.0, time_horizon=3.0, max_acceleration=accel, acceleration_interval=0.4)
    results = []
    for count in threads:
        with threads_set(count):
            batch = vosim.Batch(scenes=3, time_step=0.1, method=vosim.AVO(variant=variant, perturbation=0.05, seed=2))
            batch.add_agents(starts, goals=-starts, **params)
            batch.run(40, record_every=40)
            results.append(batch.positions.copy())
    for other in results[1:]:
        np.testing.assert_array_equal(results[0], other)
    # Without the perturbation (whose draws depend on agent ids), a scene of
    # a batch moves exactly as a simulator with the same agents.
    batch = vosim.Batch(scenes=3, time_step=0.1, method=vosim.AVO(variant=variant))
    batch.add_agents(starts, goals=-starts, **params)
    batch.run(40, record_every=40)
    single = vosim.Simulator(time_step=0.1, method=vosim.AVO(variant=variant))
    single.add_agents(starts[1], goals=-starts[1], **params)
    single.run(40, record_every=40)
    np.testing.assert_array_equal(single.positions, batch.positions[1])
    assert not np.array_equal(batch.positions[1], starts[1])


def test_checkpoint_resumes_bit_identically(tmp_path):
    sim = circle(vosim.AVO(perturbation=0.05, seed=1), accel=np.linspace(1.0, 2.0, 12), interval=0.7)
    sim.run(30, record_every=30)
    resumed = [pickle.loads(pickle.dumps(sim)), vosim.load_state(sim.save_state(tmp_path / "avo.npz"))]
    sim.run(30, record_every=30)
    for other in resumed:
        np.testing.assert_array_equal(other.acceleration_interval, sim.acceleration_interval)
        other.run(30, record_every=30)
        np.testing.assert_array_equal(other.positions, sim.positions)


@pytest.mark.skipif(os.name == "nt" or signal.getsignal(signal.SIGINT) is signal.SIG_IGN,
                    reason="sends SIGINT to itself (not on Windows, nor where SIGINT is ignored, e.g. a background job)")
@pytest.mark.parametrize("variant", ["paper", "avo2"])
def test_ctrl_c_stops_an_avo_run_and_it_resumes_exactly(variant):
    def make():
        rng = np.random.default_rng(5)
        starts = rng.uniform(-25.0, 25.0, (800, 2))
        sim = vosim.Simulator(time_step=0.1, method=vosim.AVO(variant=variant))
        sim.add_agents(starts, goals=-starts, radius=0.3, neighbor_dist=3.0, time_horizon=2.0, max_acceleration=2.0,
                       acceleration_interval=0.3, strict=False)
        return sim

    sim = make()

    def press_ctrl_c(steps_done, _total):
        # From inside the run (the engine's first progress tick), so that the
        # signal cannot arrive before the run has begun on a busy machine.
        if steps_done > 0:
            os.kill(os.getpid(), signal.SIGINT)

    with pytest.raises(KeyboardInterrupt) as raised:
        sim.run(100_000, record_every=10, progress=press_ctrl_c)
    done = raised.value.trajectory.steps_run
    assert 0 < done == sim.step_count < 100_000
    sim.run(5)
    reference = make()
    reference.run(done + 5, record_every=10**6)
    np.testing.assert_array_equal(sim.positions, reference.positions)
