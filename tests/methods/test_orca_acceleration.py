"""ORCA's acceleration limit: inside the linear programs (the default,
acceleration="constraint") and clamped afterwards (acceleration="clamp")."""

from __future__ import annotations

import numpy as np
import pytest

import vosim


def crowd(method, accel=1.0, n=30, seed=3, dt=0.1):
    rng = np.random.default_rng(seed)
    starts = rng.uniform(-6.0, 6.0, (n, 2))
    sim = vosim.Simulator(time_step=dt, method=method)
    sim.add_agents(starts, goals=-starts, radius=0.4, max_speed=1.5, pref_speed=1.3, neighbor_dist=5.0,
                   time_horizon=2.0, max_acceleration=accel, strict=False)
    return sim


def det(a, b):
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def violations(seen):
    """Signed distances of the new velocity to the wrong side of each half-plane."""
    lines = seen["lines"]
    return det(lines["direction"], lines["point"] - seen["new_velocity"])


class TestConstraint:
    def test_inspect_target_is_the_velocity_the_step_takes(self):
        sim = crowd(vosim.ORCA(), accel=1.0)
        seen = sim.inspect(4)
        np.testing.assert_array_equal(seen["target_velocity"], seen["new_velocity"])
        assert np.linalg.norm(seen["new_velocity"]) > 0  # the agent does start towards its goal
        sim.step()
        np.testing.assert_array_equal(sim.velocities[4], seen["new_velocity"])

    def test_realised_change_per_step_is_at_most_max_acceleration_times_dt(self):
        accel = np.linspace(0.3, 3.0, 30)
        sim = crowd(vosim.ORCA(), accel=accel)
        for _ in range(150):
            before = sim.velocities.copy()
            sim.step()
            change = np.linalg.norm(sim.velocities - before, axis=1)
            assert np.all(change <= accel * sim.time_step * (1 + 1e-9))

    def test_feasible_agents_keep_every_half_plane_and_the_polygon(self):
        sim = crowd(vosim.ORCA())
        checked = 0
        for _ in range(60):
            for i in range(30):
                seen = sim.inspect(i)
                if not seen["used_fallback"]:
                    assert violations(seen).max() <= 1e-9
                    checked += 1
            sim.step()
        assert checked > 1000

    def test_the_fallback_keeps_the_polygon_and_relaxes_agent_lines(self):
        """Two agents rushing at each other: linear program 3 runs, inside the
        reachable polygon (the first 16 lines, marked hard)."""
        sim = vosim.Simulator(time_step=0.1, method=vosim.ORCA())
        sim.add_agents([[-1.0, 0.0], [1.0, 0.0]], velocities=[[1.5, 0.0], [-1.5, 0.0]],
                       pref_velocities=[[1.5, 0.0], [-1.5, 0.0]], radius=0.5, max_speed=1.5, time_horizon=2.0,
                       max_acceleration=1.0)
        seen = sim.inspect(0)
        assert seen["used_fallback"]
        hard = seen["lines"]["obstacle"]
        assert hard.sum() == 16 and hard[:16].all()
        assert violations(seen)[:16].max() <= 1e-9
        assert np.linalg.norm(seen["new_velocity"] - [1.5, 0.0]) <= 0.1 * (1 + 1e-9)

    def test_polygon_vertices_lie_on_the_reachable_disc_one_towards_the_preference(self):
        sim = vosim.Simulator(time_step=0.1, method=vosim.ORCA())
        sim.add_agents([[0.0, 0.0]], velocities=[[0.2, 0.0]], pref_velocities=[[0.2, 3.0]], max_speed=4.0,
                       max_acceleration=2.0)
        seen = sim.inspect(0)
        points = seen["lines"]["point"]
        np.testing.assert_allclose(np.linalg.norm(points - [0.2, 0.0], axis=1), 0.2, rtol=1e-12)
        np.testing.assert_allclose(seen["new_velocity"], [0.2, 0.2], atol=1e-12)  # a vertex points up

    def test_obstacles_stay_hard_when_the_agent_can_stop(self):
        sim = vosim.Simulator(time_step=0.1, method=vosim.ORCA())
        sim.add_wall([[2.0, -5.0], [2.0, 5.0]])
        sim.add_agents([[0.0, 0.0]], goals=[[6.0, 0.0]], radius=0.4, max_speed=1.0, time_horizon_obst=3.0,
                       max_acceleration=1.0)
        for _ in range(300):
            sim.step()
            assert sim.positions[0, 0] < 2.0 - 0.4 + 1e-6

    def test_speed_limit_wins_over_the_acceleration_limit(self):
        """A velocity written far above max_speed: the polygon cannot reach the
        speed disc, so the agent brakes as hard as it may, and the engine's
        speed cap then brings it to max_speed (speeds never exceed it)."""
        sim = vosim.Simulator(time_step=0.1, method=vosim.ORCA())
        sim.add_agents([[0.0, 0.0]], velocities=[[5.0, 0.0]], pref_velocities=[[1.0, 0.0]], max_speed=1.0,
                       max_acceleration=2.0)
        seen = sim.inspect(0)
        assert seen["used_fallback"]
        sim.step()
        np.testing.assert_allclose(sim.velocities, [[1.0, 0.0]], rtol=1e-12)

    def test_zero_acceleration_keeps_the_velocity(self):
        sim = vosim.Simulator(time_step=0.1, method=vosim.ORCA())
        sim.add_agents([[0.0, 0.0]], velocities=[[0.5, 0.5]], pref_velocities=[[1.0, 0.0]], max_acceleration=0.0)
        sim.step()
        np.testing.assert_array_equal(sim.velocities, [[0.5, 0.5]])

    def test_no_limit_is_orca_unchanged(self):
        """Infinite max_acceleration (the default): the same bits whatever the setting."""
        a, b = (crowd(vosim.ORCA(acceleration=mode), accel=np.inf) for mode in ("constraint", "clamp"))
        a.run(50, record_every=50)
        b.run(50, record_every=50)
        np.testing.assert_array_equal(a.positions, b.positions)


class TestClamp:
    def test_clamp_breaks_half_planes_that_the_constraint_keeps(self):
        """The point of the seed's RVO2-3D experiment: clamping after ORCA leaves
        velocities outside the half-planes ORCA chose for."""
        sim = crowd(vosim.ORCA(acceleration="clamp"), accel=0.5)
        worst = 0.0
        for _ in range(40):
            before = sim.velocities.copy()
            seen = [sim.inspect(i) for i in range(30)]
            sim.step()
            for i, s in enumerate(seen):
                lines = s["lines"]
                if not s["used_fallback"] and len(lines["point"]):
                    worst = max(worst, det(lines["direction"], lines["point"] - sim.velocities[i]).max())
            assert np.all(np.linalg.norm(sim.velocities - before, axis=1) <= 0.05 * (1 + 1e-9))
        assert worst > 0.01

    def test_bad_setting_is_refused(self):
        with pytest.raises(ValueError, match="acceleration is 'before'"):
            vosim.ORCA(acceleration="before")


def test_peak_acceleration_metric_reports_the_largest_realised_acceleration():
    limited = crowd(vosim.ORCA(), accel=np.linspace(0.5, 2.0, 30))
    free = crowd(vosim.ORCA(), accel=np.inf)
    peak = limited.run(80).metrics["peak_acceleration"]
    assert peak.shape == (30,)
    assert np.all(peak <= limited.max_acceleration * (1 + 1e-9))
    assert np.all(peak > 0.5 * limited.max_acceleration)
    traj = free.run(80, record_every=1)
    expected = np.linalg.norm(np.diff(traj.velocities, axis=0), axis=-1).max(axis=0) / free.time_step
    np.testing.assert_allclose(traj.metrics["peak_acceleration"], expected, rtol=1e-12)
    assert traj.metrics["peak_acceleration"].max() > 2.0
