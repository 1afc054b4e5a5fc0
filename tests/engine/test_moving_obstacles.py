"""Moving obstacles (translating polygons, segments and walls that do not
yield) and the removal of obstacles."""

from __future__ import annotations

import numpy as np
import pytest

import vosim

SQUARE = np.array([[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]])
DIAMOND = np.array([[0.0, -1.0], [1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]])


def head_on(velocity=(0.5, 0.0), method=None, **agent):
    """An agent walking west into a diamond that slides east towards it, its tip slightly off the
    agent's line (ORCA, like RVO2, stops an agent against a face square to its way)."""
    sim = vosim.Simulator(time_step=0.1, method=method or vosim.ORCA())
    sim.add_obstacle(DIAMOND + (-8.0, 0.0), velocity=velocity)
    params = dict(goals=[[-20.0, 0.0]], radius=0.5, max_speed=2.0, pref_speed=1.5)
    params.update(agent)
    sim.add_agents([[0.0, 0.2]], **params)
    return sim


class TestMotion:
    def test_vertices_move_by_velocity_times_time_step(self):
        sim = vosim.Simulator(time_step=0.25)
        sim.add_obstacle(SQUARE, velocity=(1.0, -2.0))
        sim.add_wall([[5.0, 5.0], [6.0, 5.0], [6.0, 6.0]], velocity=(0.0, 0.0))
        for _ in range(8):
            sim.step()
        moving, standing = sim.moving_obstacles
        np.testing.assert_allclose(moving.vertices, SQUARE + (2.0, -4.0), atol=1e-12)
        assert (moving.id, moving.kind, moving.velocity, moving.scene) == (0, "polygon", (1.0, -2.0), None)
        np.testing.assert_array_equal(standing.vertices, [[5.0, 5.0], [6.0, 5.0], [6.0, 6.0]])
        assert sim.obstacles == ()  # the static list holds static obstacles only

    def test_set_velocity_changes_the_motion_from_the_next_step(self):
        sim = vosim.Simulator(time_step=0.5)
        i = sim.add_obstacle(SQUARE, velocity=(1.0, 0.0))
        sim.step()
        sim.set_obstacle_velocity(i, (0.0, 2.0))
        sim.step()
        np.testing.assert_allclose(sim.moving_obstacles[0].vertices, SQUARE + (0.5, 1.0), atol=1e-12)
        assert sim.moving_obstacles[0].velocity == (0.0, 2.0)

    def test_the_obstacle_does_not_yield_and_the_agent_dodges(self):
        # A slow diamond (0.5 m/s) heads for an agent that walks towards it:
        # the agent goes round it, and the diamond keeps its course exactly.
        sim = head_on()
        traj = sim.run(200)
        assert traj.metrics["obstacle_agent_steps"] == 0
        assert traj.metrics["max_obstacle_penetration"] == 0.0
        np.testing.assert_allclose(sim.moving_obstacles[0].vertices, DIAMOND + (-8.0 + 200 * 0.1 * 0.5, 0.0),
                                   atol=1e-9)
        # It passed the diamond: from the far side, with a lateral detour.
        assert sim.positions[0, 0] < -8.0
        assert np.abs(traj.positions[:, 0, 1]).max() > 1.0

    def test_an_agent_standing_in_the_way_steps_aside(self):
        sim = head_on(goals=None, velocity=(1.0, 0.0))
        sim.pref_velocities[:] = 0.0
        traj = sim.run(150)
        assert traj.metrics["obstacle_agent_steps"] == 0
        assert np.abs(traj.positions[-1, 0]).max() > 0.5  # it had to move

    def test_agents_that_cannot_move_are_counted_as_penetrated(self):
        # The metrics see moving obstacles where they are in every state.
        sim = head_on(goals=None, max_speed=0.0, velocity=(1.0, 0.0))
        traj = sim.run(100)
        assert traj.metrics["obstacle_agent_steps"] > 0
        assert traj.metrics["max_obstacle_penetration"] == pytest.approx(0.5, abs=0.11)

    def test_a_crowd_crossing_moving_obstacles_is_never_penetrated(self):
        rng = np.random.default_rng(4)
        sim = vosim.Simulator(time_step=0.1)
        for k in range(3):
            sim.add_obstacle(SQUARE * 1.5 + (-25.0 - 6 * k, -8.0 + 6 * k), velocity=(0.6, 0.0))
        starts = np.column_stack([rng.uniform(-6, 6, 30), np.linspace(-18, -12, 30)])
        starts[:, 0] = np.repeat(np.linspace(-6, 6, 10), 3)
        starts[:, 1] = np.tile([-18.0, -15.0, -12.0], 10)
        sim.add_agents(starts, goals=starts * (1, -1), radius=0.4, max_speed=1.5, pref_speed=1.0,
                       time_horizon_obst=3.0)
        traj = sim.run(400)
        assert traj.metrics["obstacle_agent_steps"] == 0
        assert traj.metrics["arrival_rate"] == 1.0

    @pytest.mark.parametrize("method", [vosim.HRVO(), vosim.AdaptiveSampling(), vosim.ForceBased()],
                             ids=lambda m: type(m).__name__)
    def test_every_method_runs_with_moving_obstacles(self, method):
        traj = head_on(method=method).run(100)
        assert np.isfinite(traj.positions).all()


class TestRemoval:
    def test_a_removed_obstacle_stops_blocking(self):
        sim = vosim.Simulator(time_step=0.25)
        wall = sim.add_obstacle([[-1.0, -5.0], [1.0, -5.0], [1.0, 5.0], [-1.0, 5.0]])
        other = sim.add_obstacle(SQUARE + (20.0, 20.0))
        sim.add_agents([[-5.0, 0.0]], goals=[[5.0, 0.0]], radius=0.5, max_speed=1.0, pref_speed=1.0)
        sim.run(8)
        assert sim.positions[0, 0] < -1.4  # held by the wall
        sim.remove_obstacle(wall)
        assert [o.vertices[0, 0] for o in sim.obstacles] == [20.0]
        traj = sim.run(40, until_arrived=True)
        assert traj.metrics["arrival_rate"] == 1.0
        assert np.abs(traj.positions[:, 0, 1]).max() < 1e-9  # straight through where the wall was
        sim.remove_obstacle(other)  # ids did not shift
        assert sim.obstacles == ()

    def test_removing_a_moving_obstacle(self):
        sim = vosim.Simulator()
        static = sim.add_obstacle(SQUARE)
        moving = sim.add_wall([[5.0, 0.0], [6.0, 0.0]], velocity=(1.0, 0.0))
        sim.remove_obstacle(moving)
        assert sim.moving_obstacles == () and len(sim.obstacles) == 1
        assert sim.add_obstacle(SQUARE + 10.0, velocity=(0.0, 1.0)) == 2
        sim.step()
        sim.remove_obstacle(static)
        assert sim.obstacles == () and [o.id for o in sim.moving_obstacles] == [2]

    def test_removing_everything_leaves_agents_free(self):
        sim = vosim.Simulator()
        sim.add_boundary([[-3.0, -3.0], [3.0, -3.0], [3.0, 3.0], [-3.0, 3.0]])
        sim.add_agents([[0.0, 0.0]], goals=[[10.0, 0.0]], radius=0.5, max_speed=2.0, pref_speed=2.0)
        sim.remove_obstacle(0)
        sim.run(50)
        assert sim.positions[0, 0] > 9.0
        sim.add_agents([[20.0, 0.0]])  # no boundary left to be outside of

    def test_bad_ids(self):
        sim = vosim.Simulator()
        sim.add_obstacle(SQUARE)
        sim.remove_obstacle(0)
        with pytest.raises(ValueError, match="obstacle is 0; that obstacle was removed"):
            sim.remove_obstacle(0)
        with pytest.raises(ValueError, match=r"obstacle is 3; no such obstacle \(ids 0 to 0\)"):
            sim.remove_obstacle(3)
        with pytest.raises(ValueError, match="obstacle is -1; must be >= 0"):
            sim.remove_obstacle(-1)
        with pytest.raises(TypeError, match="obstacle"):
            sim.remove_obstacle("0")
        with pytest.raises(ValueError, match=r"obstacle is 0; no such obstacle \(there are no obstacles\)"):
            vosim.Simulator().remove_obstacle(0)


class TestBadInput:
    @pytest.mark.parametrize("velocity, error, message", [
        ((np.nan, 0.0), ValueError, r"velocity\[0\] is nan; must be finite"),
        ((0.0, 2e15), ValueError, r"velocity\[1\] is 2000000000000000.0; must be between"),
        ((1.0, 2.0, 3.0), ValueError, r"velocity: expected \(vx, vy\), got shape \(3,\)"),
        (("a", "b"), TypeError, "velocity: expected real numbers"),
    ])
    def test_bad_velocities(self, velocity, error, message):
        sim = vosim.Simulator()
        with pytest.raises(error, match=message):
            sim.add_obstacle(SQUARE, velocity=velocity)
        i = sim.add_obstacle(SQUARE, velocity=(0.0, 0.0))
        with pytest.raises(error, match=message):
            sim.set_obstacle_velocity(i, velocity)
        assert sim.moving_obstacles[0].velocity == (0.0, 0.0)

    def test_static_obstacles_and_boundaries_do_not_move(self):
        sim = vosim.Simulator()
        i = sim.add_obstacle(SQUARE)
        with pytest.raises(ValueError, match="obstacle 0 is static; only obstacles added with a velocity can move"):
            sim.set_obstacle_velocity(i, (1.0, 0.0))
        with pytest.raises(TypeError):
            sim.add_boundary(SQUARE * 10, velocity=(1.0, 0.0))

    def test_a_moving_obstacle_may_not_start_on_an_agent(self):
        sim = vosim.Simulator()
        sim.add_agents([[1.0, 1.0]])
        with pytest.raises(ValueError, match="would be inside the obstacle"):
            sim.add_obstacle(SQUARE, velocity=(1.0, 0.0))
        assert sim.moving_obstacles == ()

    def test_leaving_the_working_range_stops_before_the_step(self):
        sim = vosim.Simulator(time_step=10.0)
        sim.add_obstacle(SQUARE, velocity=(1e15, 0.0))
        sim.step()
        with pytest.raises(ValueError, match="moving obstacle 0 has moved out of the working range"):
            sim.step()


class TestBatch:
    def make(self):
        batch = vosim.Batch(scenes=3, time_step=0.1)
        starts = np.array([[0.0, 0.0], [0.0, 3.0], [0.0, -3.0]])
        batch.add_agents(np.broadcast_to(starts, (3, 3, 2)), goals=np.broadcast_to(starts - (15.0, 0.0), (3, 3, 2)),
                         radius=0.5, max_speed=2.0, pref_speed=1.5)
        batch.add_obstacle(SQUARE + (-8.0, -1.0), velocity=(0.5, 0.0), scene=1)
        batch.add_wall([[-12.0, -6.0], [-12.0, 6.0]], velocity=(0.4, 0.0))
        return batch

    def test_scene_and_shared_moving_obstacles(self):
        batch = self.make()
        assert [(o.id, o.scene) for o in batch.moving_obstacles] == [(0, None), (0, 1)]
        traj = batch.run(150)
        assert (traj.metrics["obstacle_agent_steps"] == 0).all()
        # Scenes 0 and 2 are the same scene; scene 1 also has the square.
        np.testing.assert_array_equal(traj.positions[:, 0], traj.positions[:, 2])
        assert not np.array_equal(traj.positions[:, 0], traj.positions[:, 1])
        batch.remove_obstacle(0, scene=1)
        with pytest.raises(ValueError, match="scene 2 has no obstacles of its own"):
            batch.remove_obstacle(0, scene=2)
        assert [(o.id, o.scene) for o in batch.moving_obstacles] == [(0, None)]

    def test_same_result_for_any_thread_count(self):
        results = []
        for threads in (1, 2, 3):
            vosim.set_num_threads(threads)
            batch = self.make()
            batch.run(120, metrics=False)
            results.append((np.array(batch.positions), [o.vertices.copy() for o in batch.moving_obstacles]))
        for positions, vertices in results[1:]:
            np.testing.assert_array_equal(results[0][0], positions)
            for a, b in zip(results[0][1], vertices):
                np.testing.assert_array_equal(a, b)
