"""Metrics computed by the engine during run(), checked against values worked
out by hand on tiny cases."""

import numpy as np
import pytest

import vosim


def still_pair(distance=1.5, radius=1.0, steps=10):
    """Two agents that cannot move (max_speed 0), overlapping by 2r - d."""
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0], [distance, 0.0]], radius=radius, max_speed=0.0)
    return sim.run(steps)


def test_known_overlap():
    m = still_pair().metrics
    # 11 states (start and 10 steps) x 2 agents overlapping by 0.5
    assert m["collision_agent_steps"] == 22
    assert m["collision_pairs"] == 1
    assert m["max_penetration"] == pytest.approx(0.5)
    assert m["min_clearance"] == pytest.approx(-0.5)
    np.testing.assert_allclose(m["min_clearance_series"], -0.5)
    np.testing.assert_array_equal(m["collisions_series"], 1)
    assert m["path_length"].tolist() == [0.0, 0.0]
    assert m["sum_abs_dv"] == 0.0


def test_no_overlap_no_collisions():
    m = still_pair(distance=2.5).metrics
    assert m["collision_agent_steps"] == 0 and m["collision_pairs"] == 0 and m["max_penetration"] == 0.0
    assert m["min_clearance"] == pytest.approx(0.5)


def test_known_straight_path():
    """Preferred velocity (1, 0) from rest, max speed 1, dt 0.1, 10 steps:
    path 1 m; |dv| = 1 at the first step only; accelerations 10 then 0, so
    sum |da| = 10; mean speed = 1 m / 1 s."""
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0]], pref_velocities=[[1.0, 0.0]], max_speed=1.0)
    m = sim.run(10).metrics
    assert m["path_length"][0] == pytest.approx(1.0)
    assert m["mean_path_length"] == pytest.approx(1.0)
    assert m["sum_abs_dv"] == pytest.approx(1.0)
    assert m["sum_abs_da"] == pytest.approx(10.0)
    assert m["mean_speed"] == pytest.approx(1.0)
    assert np.isnan(m["arrival_rate"])  # no goal-seeking agent
    assert m["min_clearance"] == np.inf


def test_known_arrival():
    """Goal 1 m ahead, preferred speed 1, dt 0.1: the preferred velocity is
    goal - position once within 1 m, so the distance shrinks by 0.9 each
    step: 0.9^k <= 0.05 first at k = 29."""
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0]], goals=[[1.0, 0.0]], max_speed=1.0, pref_speed=1.0, arrival_radius=0.05)
    traj = sim.run(100, until_arrived=True)
    m = traj.metrics
    assert traj.steps_run == 29
    assert m["arrival_step"].tolist() == [29]
    assert m["arrival_rate"] == 1.0
    assert m["makespan"] == pytest.approx(2.9)
    assert m["mean_travel_time"] == pytest.approx(2.9)
    assert m["path_length"][0] == pytest.approx(1 - 0.9**29)
    assert m["path_efficiency"] == pytest.approx(1.0)
    assert m["stalled_agents"] == 0


def test_detour_lowers_path_efficiency():
    """Start (0, 0), waypoint (1, 1), goal (2, 0): an L of length 2 sqrt(2)
    for a straight distance of 2."""
    sim = vosim.Simulator(time_step=0.05)
    sim.add_agents([[0.0, 0.0]], waypoints=[np.array([[1.0, 1.0], [2.0, 0.0]])], max_speed=1.0, pref_speed=1.0,
                   arrival_radius=1e-3, waypoint_radius=1e-3)
    m = sim.run(2000, until_arrived=True).metrics
    assert m["path_efficiency"] == pytest.approx(2.0 / (2.0 * np.sqrt(2.0)), rel=1e-2)


def test_known_obstacle_penetration():
    """A still agent of radius 0.5 whose centre is 0.3 from a wall: 0.2 in every state."""
    sim = vosim.Simulator(time_step=0.1)
    sim.add_wall([[-5.0, 0.3], [5.0, 0.3]])
    sim.add_agents([[0.0, 0.0]], radius=0.5, max_speed=0.0)
    m = sim.run(7).metrics
    assert m["obstacle_agent_steps"] == 8
    assert m["max_obstacle_penetration"] == pytest.approx(0.2)


def test_stalled_agent_behind_a_wall():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_wall([[1.0, -5.0], [1.0, 5.0]])
    sim.add_agents([[0.0, 0.0], [0.0, 3.0]], goals=[[3.0, 0.0], [0.0, 4.0]], radius=0.4, max_speed=1.0)
    m = sim.run(300).metrics
    assert m["stalled_agents"] == 1  # the one facing the wall; the other arrives
    assert m["longest_stall"][0] > 200 and m["longest_stall"][1] == 0
    assert m["arrival_rate"] == 0.5 and np.isnan(m["makespan"])


def test_fallbacks_count_orca_linear_program_3():
    free = still_pair(distance=3.0).metrics["fallbacks"]
    sim = vosim.Simulator(time_step=0.1)
    ring = np.column_stack([np.cos(np.arange(6) * np.pi / 3), np.sin(np.arange(6) * np.pi / 3)]) * 0.9
    sim.add_agents(np.vstack([[0.0, 0.0], ring]), radius=0.5, max_speed=0.5, goals=np.vstack([[0, 0], -ring]))
    jammed = sim.run(5).metrics["fallbacks"]
    assert free == 0 and jammed > 0


def test_batch_shapes_and_time_per_phase():
    batch = vosim.Batch(scenes=3, time_step=0.1)
    rng = np.random.default_rng(0)
    batch.add_agents(rng.uniform(-5, 5, (3, 20, 2)), goals=rng.uniform(-5, 5, (3, 20, 2)), radius=0.3)
    traj = batch.run(50, record_every=7)
    m = traj.metrics
    assert m["collision_agent_steps"].shape == (3,) and m["arrival_step"].shape == (3, 20)
    assert m["min_clearance_series"].shape == (len(traj), 3)
    spent = m["time_neighbors"][0] + m["time_velocities"][0] + m["time_integration"][0]
    assert 0 < spent <= traj.step_time <= traj.wall_time
    table = traj.metrics_table()
    assert list(table["scene"]) == [0, 1, 2] and "makespan" in table.columns


@pytest.mark.skipif(not vosim.have_threads(), reason="built without threads")
def test_metrics_do_not_depend_on_threads():
    def run(threads):
        vosim.set_num_threads(threads)
        rng = np.random.default_rng(4)
        batch = vosim.Batch(scenes=2, time_step=0.1)
        batch.add_agents(rng.normal(0, 3, (2, 600, 2)), goals=rng.normal(0, 3, (2, 600, 2)), radius=0.2,
                         strict=False)
        return batch.run(40).metrics
    one, two = run(1), run(2)
    for name, value in one.items():
        if not name.startswith("time_"):
            np.testing.assert_array_equal(value, two[name], err_msg=name)


def test_metrics_can_be_skipped_and_empty_runs_have_none():
    sim = vosim.Simulator()
    assert sim.run(3).metrics == {}
    sim.add_agents([[0.0, 0.0]])
    assert sim.run(3, metrics=False).metrics == {}
    with pytest.raises(TypeError, match="metrics"):
        sim.run(3, metrics="yes")


def test_obstacle_agent_steps_counts_contacts_beyond_the_tolerance_only():
    # A disc resting against a wall at round-off distance is no contact; a millimetre past it is. The
    # deepest reach is reported either way.
    tolerance = vosim.metrics.OBSTACLE_CONTACT_TOLERANCE
    assert tolerance == 1e-9
    assert "1e-9 m" in next(row["doc"] for row in vosim.metrics.TABLE if row["name"] == "obstacle_agent_steps")
    counts = []
    for reach in (1e-12, 0.5 * tolerance, 2 * tolerance, 1e-3):
        sim = vosim.Simulator(time_step=0.1)
        sim.add_wall([[-5.0, 0.0], [5.0, 0.0]])
        sim.add_agents([[0.0, 0.25 - reach]], radius=0.25)
        traj = sim.run(3)
        counts.append(int(traj.metrics["obstacle_agent_steps"]))
        assert traj.metrics["max_obstacle_penetration"] == pytest.approx(reach, rel=1e-3, abs=1e-15)
    assert counts == [0, 0, 4, 4]  # the start and three steps
