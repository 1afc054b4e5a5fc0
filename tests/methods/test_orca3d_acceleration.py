"""ORCA-3D's acceleration limit: the reachable polyhedron inside the linear
programs (the default, acceleration="constraint") and the clamp afterwards
(acceleration="clamp")."""

from __future__ import annotations

import numpy as np
import pytest

import vosim
from vosim import scenarios

FACETS = 80  # the geodesic icosahedron of frequency 2
INRADIUS = 0.93417  # its worst-case share of the radius (a lower bound)


def layers(method=None, accel=1.0, **options):
    """A dense 3D scene: two layers of drones crossing, 18 agents per layer."""
    scene = scenarios.layers_crossing(layers=2, n=9, **options)
    scene.agent_params["max_acceleration"] = accel
    return scene.build(method=method or vosim.ORCA())


def realised_change(traj):
    """|v(t+1) - v(t)| per step and agent, from a trajectory recorded every step."""
    return np.linalg.norm(np.diff(traj.velocities, axis=0), axis=-1)


def violations(seen):
    """Signed distances of the new velocity to the wrong side of each plane."""
    planes = seen["planes"]
    return np.einsum("ij,ij->i", planes["point"] - seen["new_velocity"], planes["normal"])


def lone_agent(velocity, pref_velocity, accel=2.0, max_speed=4.0, dt=0.1):
    sim = vosim.Simulator(time_step=dt, method=vosim.ORCA(), dimensions=3)
    sim.add_agents([[0.0, 0.0, 0.0]], velocities=[velocity], pref_velocities=[pref_velocity], max_speed=max_speed,
                   max_acceleration=accel)
    return sim


class TestPolyhedron:
    def test_facet_planes_lie_between_the_inscribed_and_the_reachable_sphere(self):
        sim = lone_agent([0.3, -0.2, 0.1], [1.0, 2.0, -1.0])
        seen = sim.inspect(0)
        planes = seen["planes"]
        assert len(planes["point"]) == FACETS and planes["obstacle"].all()
        np.testing.assert_allclose(np.linalg.norm(planes["normal"], axis=1), 1.0, rtol=1e-12)
        reach = 2.0 * 0.1
        share = np.einsum("ij,ij->i", planes["point"] - seen["velocity"], -planes["normal"]) / reach
        # The worst-case share of the radius, as documented.
        assert INRADIUS <= share.min() <= INRADIUS + 1e-5
        assert share.max() <= 1.0

    def test_a_vertex_points_towards_the_preference(self):
        sim = lone_agent([0.3, -0.2, 0.1], [1.3, 1.8, -0.9])
        seen = sim.inspect(0)
        wanted = np.array([1.0, 2.0, -1.0])
        np.testing.assert_allclose(seen["new_velocity"], [0.3, -0.2, 0.1] + 0.2 * wanted / np.linalg.norm(wanted),
                                   atol=1e-9 * 0.2)  # facets moved in by at most 1e-9 of the radius
        assert not seen["used_fallback"]

    def test_any_far_preference_gets_between_the_inradius_and_the_full_reach(self):
        rng = np.random.default_rng(5)
        sim = lone_agent([0.5, 0.0, 0.0], [0.0, 0.0, 0.0])
        shares = []
        for direction in rng.normal(size=(300, 3)):
            sim.pref_velocities[0] = [0.5, 0.0, 0.0] + 2.0 * direction / np.linalg.norm(direction)
            seen = sim.inspect(0)
            shares.append(np.linalg.norm(seen["new_velocity"] - [0.5, 0.0, 0.0]) / 0.2)
        assert min(shares) >= INRADIUS
        assert max(shares) <= 1 + 1e-12

    def test_a_preference_within_reach_is_taken(self):
        sim = lone_agent([0.5, 0.0, 0.0], [0.55, 0.05, -0.05])
        sim.step()
        np.testing.assert_allclose(sim.velocities[0], [0.55, 0.05, -0.05], atol=1e-15)


class TestConstraint:
    def test_realised_change_per_step_is_at_most_max_acceleration_times_dt(self):
        accel = np.linspace(0.3, 3.0, 36)
        sim = layers(accel=accel)
        traj = sim.run(300, record_every=1)
        change = realised_change(traj)
        assert np.all(change <= accel * sim.time_step * (1 + 1e-9))
        assert np.any(change >= 0.99 * accel * sim.time_step)  # the limit binds
        assert traj.metrics["peak_acceleration"].max() <= accel.max() * (1 + 1e-9)

    def test_mixed_finite_and_infinite_accelerations(self):
        accel = np.where(np.arange(36) % 3 == 0, np.inf, 0.5)
        sim = layers(accel=accel)
        change = realised_change(sim.run(200, record_every=1))
        limited = np.isfinite(accel)
        assert np.all(change[:, limited] <= 0.5 * sim.time_step * (1 + 1e-9))
        assert change[:, ~limited].max() > 0.5 * sim.time_step * 2  # the others turn at once
        seen = sim.inspect(0)
        assert not seen["planes"]["obstacle"].any()  # no polyhedron for an unlimited agent

    def test_feasible_agents_keep_every_plane_and_the_polyhedron(self):
        sim = layers(accel=0.8)
        checked = fell_back = 0
        for _ in range(25):
            sim.run(4)
            for agent_id in range(36):
                seen = sim.inspect(agent_id)
                hard = seen["planes"]["obstacle"]
                assert hard[:FACETS].all()
                if seen["used_fallback"]:
                    fell_back += 1
                    assert violations(seen)[hard].max() <= 1e-9
                else:
                    assert violations(seen).max() <= 1e-9
                    checked += 1
        assert checked > 500

    def test_the_fallback_violates_agent_planes_least(self):
        """Linear program 4 within the polyhedron: no reachable velocity (drawn
        inside its inscribed ball) violates the agent planes less."""
        sim = layers(accel=0.5)
        sim.run(85)  # the groups meet
        rng = np.random.default_rng(2)
        samples = rng.normal(size=(4000, 3))
        samples *= (rng.uniform(size=(4000, 1)) ** (1 / 3)) / np.linalg.norm(samples, axis=1, keepdims=True)
        checked = 0
        for _ in range(40):
            for agent_id in range(36):
                seen = sim.inspect(agent_id)
                if not seen["used_fallback"]:
                    continue
                planes, soft = seen["planes"], ~seen["planes"]["obstacle"]
                ours = violations(seen)[soft].max()
                drawn = seen["velocity"] + 0.05 * INRADIUS * samples
                theirs = np.einsum("kij,ij->ki", planes["point"][soft] - drawn[:, None], planes["normal"][soft])
                assert ours <= theirs.max(axis=1).min() + 1e-9
                checked += 1
            sim.step()
        assert checked > 100

    def test_the_fallback_keeps_the_polyhedron_and_relaxes_agent_planes(self):
        """Two agents rushing at each other: linear program 4 runs inside the
        reachable polyhedron (the first 80 planes, marked hard)."""
        sim = vosim.Simulator(time_step=0.1, method=vosim.ORCA(), dimensions=3)
        sim.add_agents([[-1.0, 0.0, 0.0], [1.0, 0.0, 0.0]], velocities=[[1.5, 0.0, 0.0], [-1.5, 0.0, 0.0]],
                       pref_velocities=[[1.5, 0.0, 0.0], [-1.5, 0.0, 0.0]], radius=0.5, max_speed=1.5,
                       time_horizon=2.0, max_acceleration=1.0)
        seen = sim.inspect(0)
        assert seen["used_fallback"]
        hard = seen["planes"]["obstacle"]
        assert hard.sum() == FACETS and hard[:FACETS].all()
        assert violations(seen)[:FACETS].max() <= 1e-9
        assert violations(seen)[FACETS:].max() > 0.0  # the agent plane is relaxed
        assert np.linalg.norm(seen["new_velocity"] - [1.5, 0.0, 0.0]) <= 0.1 * (1 + 1e-9)

    def test_zero_acceleration_keeps_the_velocity(self):
        sim = lone_agent([0.5, 0.5, -0.25], [1.0, 0.0, 0.0], accel=0.0)
        sim.step()
        np.testing.assert_array_equal(sim.velocities, [[0.5, 0.5, -0.25]])
        assert not sim.inspect(0)["used_fallback"]

    def test_no_limit_is_orca_3d_unchanged(self):
        """Infinite max_acceleration (the default): the same bits whatever the
        setting (tests/methods/test_orca3d.py holds them to RVO2-3D)."""
        a, b = (layers(vosim.ORCA(acceleration=mode), accel=np.inf) for mode in ("constraint", "clamp"))
        a.run(60)
        b.run(60)
        np.testing.assert_array_equal(a.positions, b.positions)
        np.testing.assert_array_equal(a.velocities, b.velocities)

    def test_inspect_reports_the_velocity_it_steers_towards(self):
        sim = lone_agent([0.3, 0.0, 0.0], [2.0, 0.0, 0.0])
        seen = sim.inspect(0)
        np.testing.assert_array_equal(seen["target_velocity"], seen["new_velocity"])


class TestInfeasibleStarts:
    def test_a_velocity_beyond_max_speed_brakes_then_is_capped(self):
        """The polyhedron cannot reach the speed ball: the agent brakes as hard
        as it may, and the engine's speed cap then brings it to max_speed."""
        sim = lone_agent([5.0, 0.0, 0.0], [1.0, 0.0, 0.0], accel=2.0, max_speed=1.0)
        seen = sim.inspect(0)
        assert seen["used_fallback"]
        np.testing.assert_allclose(seen["new_velocity"], [1.0, 0.0, 0.0], rtol=1e-12)  # capped as the step does
        sim.step()
        np.testing.assert_allclose(sim.velocities, [[1.0, 0.0, 0.0]], rtol=1e-12)

    def test_a_velocity_just_beyond_max_speed_comes_back_within_reach(self):
        sim = lone_agent([0.0, 1.05, 0.0], [0.0, 1.0, 0.0], accel=2.0, max_speed=1.0)
        sim.step()
        assert np.linalg.norm(sim.velocities[0]) <= 1.0 * (1 + 1e-9)
        assert np.linalg.norm(sim.velocities[0] - [0.0, 1.05, 0.0]) <= 0.2 * (1 + 1e-9)

    @pytest.mark.parametrize("where", [(0.0, 0.0, 0.0), (1.0, 0.2, 0.0), (0.0, 0.0, 1.3)])
    def test_an_agent_moved_into_a_box_stays_finite_and_within_reach(self, where):
        sim = vosim.Simulator(time_step=0.1, method=vosim.ORCA(), dimensions=3)
        sim.add_obstacle(vosim.Box(center=(0.0, 0.0, 0.0), half_extents=(1.0, 1.0, 1.0)))
        sim.add_agents([[-3.0, 0.0, 0.0], [-3.0, 2.0, 0.0]], goals=[[3.0, 0.0, 0.0], [3.0, 2.0, 0.0]],
                       velocities=[[1.0, 0.0, 0.0], [1.0, 0.0, 0.0]], radius=0.4, max_speed=1.0,
                       max_acceleration=0.5)
        sim.positions[0] = where  # a teleport
        sim.positions[1] = [where[0] + 0.2, where[1], where[2]]  # overlapping the other agent too
        assert sim.inspect(0)["used_fallback"]  # the obstacle plane is out of reach
        traj = sim.run(30, record_every=1)
        assert np.isfinite(traj.velocities).all()
        assert np.all(realised_change(traj) <= 0.5 * 0.1 * (1 + 1e-9))


class TestObstacles:
    def test_an_agent_that_can_stop_never_enters_a_box(self):
        sim = vosim.Simulator(time_step=0.1, method=vosim.ORCA(), dimensions=3)
        sim.add_obstacle(vosim.Box.from_bounds((2.0, -5.0, -5.0), (3.0, 5.0, 5.0)))
        sim.add_agents([[0.0, 0.0, 0.0]], goals=[[6.0, 0.0, 0.0]], radius=0.4, max_speed=1.0,
                       time_horizon_obst=3.0, max_acceleration=1.0)
        for _ in range(300):
            sim.step()
            assert sim.positions[0, 0] < 2.0 - 0.4 + 1e-6
        assert sim.positions[0, 0] > 2.0 - 0.4 - 0.1  # it came up to the box

    def test_a_swarm_through_a_window_keeps_out_of_the_wall(self):
        scene = scenarios.swarm_gate(n=8)
        scene.agent_params["max_acceleration"] = 2.0
        scene.agent_params["time_horizon_obst"] = 2.0
        sim = scene.build()
        traj = sim.run(400, record_every=1)
        assert traj.metrics["arrival_rate"].min() == 1.0  # through the window
        assert traj.metrics["obstacle_agent_steps"].sum() == 0
        assert np.all(realised_change(traj) <= 2.0 * sim.time_step * (1 + 1e-9))


class TestRuns:
    def test_thread_counts_give_the_same_bits(self):
        """RVO2-3D's sphere (812 agents, more than one block per thread; they
        start overlapping, so the fallback runs too) with mixed limits."""
        scene = scenarios.sphere()
        accel = np.linspace(0.2, 2.0, len(scene.positions))
        scene.agent_params["max_acceleration"] = accel
        results = []
        for threads in (1, 2, 3):
            vosim.set_num_threads(threads)
            sim = scene.build(method=vosim.ORCA())
            traj = sim.run(30, record_every=1)
            results.append((sim.positions.copy(), sim.velocities.copy()))
            assert traj.metrics["fallbacks"].sum() > 0
            assert np.all(realised_change(traj) <= accel * sim.time_step * (1 + 1e-9))
        for positions, velocities in results[1:]:
            np.testing.assert_array_equal(positions, results[0][0])
            np.testing.assert_array_equal(velocities, results[0][1])

    def test_a_batch_matches_its_simulators_and_keeps_the_limit(self):
        scenes = [scenarios.layers_crossing(layers=2, n=4, seed=seed) for seed in (0, 1)]
        for scene, accel in zip(scenes, (0.5, 1.5)):
            scene.agent_params["max_acceleration"] = accel
        batch = scenarios.build_batch(scenes, method=vosim.ORCA())
        traj = batch.run(150, record_every=1)
        change = realised_change(traj)  # (steps, B, N)
        assert np.all(change[:, 0] <= 0.5 * batch.time_step * (1 + 1e-9))
        assert np.all(change[:, 1] <= 1.5 * batch.time_step * (1 + 1e-9))
        for k, scene in enumerate(scenes):
            sim = scene.build(method=vosim.ORCA())
            sim.run(150)
            np.testing.assert_array_equal(batch.positions[k], sim.positions)


class TestClamp:
    def test_the_clamp_still_bounds_the_change_and_differs_from_the_constraint(self):
        clamp, constraint = (layers(vosim.ORCA(acceleration=mode), accel=0.5) for mode in ("clamp", "constraint"))
        change = realised_change(clamp.run(150, record_every=1))
        assert np.all(change <= 0.5 * clamp.time_step * (1 + 1e-9))
        constraint.run(150)
        assert not np.array_equal(clamp.positions, constraint.positions)

    def test_the_clamp_breaks_planes_that_the_constraint_keeps(self):
        sim = layers(vosim.ORCA(acceleration="clamp"), accel=0.3)
        worst = 0.0
        for _ in range(40):
            seen = [sim.inspect(i) for i in range(36)]
            sim.step()
            for i, s in enumerate(seen):
                planes = s["planes"]
                if not s["used_fallback"] and len(planes["point"]):
                    distance = np.einsum("ij,ij->i", planes["point"] - sim.velocities[i], planes["normal"])
                    worst = max(worst, distance.max())
        assert worst > 0.01
