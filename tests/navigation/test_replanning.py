"""run(replan_stalled=...): agents whose plan is blocked are planned again from where they stalled."""

import numpy as np
import pytest

shapely = pytest.importorskip("shapely")
if not hasattr(shapely, "constrained_delaunay_triangles"):
    pytest.skip("vosim.navigation needs shapely >= 2.1", allow_module_level=True)

import vosim  # noqa: E402
from vosim.navigation import NavMesh  # noqa: E402

GOAL = (17.0, 2.75)  # the middle of the goals
DOOR_A = [[9.5, 2.0], [10.5, 2.0], [10.5, 3.5], [9.5, 3.5]]


def two_doors(plan="navmesh", agents: int = 1, **method) -> tuple[vosim.Simulator, np.ndarray]:
    """A room split by a wall with two doors; the agents plan through the near one, which then closes."""
    sim = vosim.Simulator(time_step=0.1, method=vosim.ORCA(**method))
    sim.add_boundary([[0.0, 0.0], [20.0, 0.0], [20.0, 10.0], [0.0, 10.0]])
    for y0, y1 in [(0.0, 2.0), (3.5, 7.0), (8.5, 10.0)]:
        sim.add_obstacle([[9.5, y0], [10.5, y0], [10.5, y1], [9.5, y1]], strict=False)
    starts = np.column_stack([np.full(agents, 3.0), GOAL[1] + np.linspace(-1.2, 1.2, agents)])
    ids = sim.add_agents(starts, radius=0.3, max_speed=1.3, pref_speed=1.2, time_horizon=2.0, time_horizon_obst=1.0)
    sim.set_goals(ids, starts * (0.0, 1.0) + (GOAL[0], 0.0), plan=plan)
    sim.add_obstacle(DOOR_A)  # closed after planning: the plans run into it
    return sim, ids


def arrived(sim) -> np.ndarray:
    return np.linalg.norm(sim.positions - sim._engine.final_goals()[0], axis=1) <= sim.arrival_radius


@pytest.mark.parametrize("plan", ["navmesh", "roadmap"])
def test_a_stalled_agent_is_planned_round_the_closed_door(plan):
    blocked, _ = two_doors(plan)
    traj = blocked.run(600)
    assert not arrived(blocked).any()
    assert traj.metrics["stalled_agents"] == 1

    sim, _ = two_doors(plan)
    traj = sim.run(600, replan_stalled=2.0)
    assert arrived(sim).all()
    assert traj.positions[:, 0, 1].max() > 7.0  # through the far door
    assert traj.metrics["obstacle_agent_steps"] == 0


def test_the_run_is_one_run_and_the_same_on_any_number_of_threads():
    results = []
    for threads in [1, 2] if vosim.have_threads() else [1]:
        vosim.set_num_threads(threads)
        sim, _ = two_doors(agents=4)
        results.append(sim.run(500, replan_stalled=1.5, record_every=7))
    vosim.set_num_threads(1)
    traj = results[0]
    assert np.array_equal(traj.steps, np.r_[0:500:7, 500])  # one trajectory, no frame repeated
    assert traj.metrics["arrival_rate"] == 1.0
    for other in results[1:]:
        assert np.array_equal(other.positions, traj.positions)
        assert np.array_equal(other.velocities, traj.velocities)


def test_a_planner_object_is_used_as_given():
    """Re-planning with a planner built before the door closed keeps sending the agent to that door."""
    sim, ids = two_doors()
    sim.remove_obstacle(4)  # the near door
    mesh = NavMesh.from_simulator(sim)  # with the near door open
    sim.set_goals(ids, [[GOAL[0], sim.positions[0, 1]]], plan=mesh)
    sim.add_obstacle(DOOR_A)
    assert sim._part(vosim.navigation.Navigation).plan == (mesh, 0.0)
    traj = sim.run(600, replan_stalled=2.0)
    assert not arrived(sim).any()
    assert traj.positions[:, 0, 1].max() < 4.0  # never tried the far door


def test_bad_arguments():
    sim, _ = two_doors()
    for bad, error, message in [(0.0, ValueError, "replan_stalled is 0.0; must be > 0"),
                                (-1.0, ValueError, "replan_stalled is -1.0"),
                                (np.nan, ValueError, "replan_stalled is nan"),
                                ("soon", TypeError, "replan_stalled: expected a real number")]:
        with pytest.raises(error, match=message):
            sim.run(10, replan_stalled=bad)
    assert sim.step_count == 0
    fresh = vosim.Simulator()
    fresh.add_agents([[0.0, 0.0]], goals=[[1.0, 0.0]])
    with pytest.raises(ValueError, match=r"replan_stalled: there is no planner .*set_goals\(\.\.\., plan=\.\.\.\)"):
        fresh.run(10, replan_stalled=1.0)
    with pytest.raises(TypeError, match="replan_stalled: only a Simulator re-plans"):
        vosim.Batch(2).run(10, replan_stalled=1.0)


def test_an_error_while_re_planning_stops_the_run_with_what_was_recorded(monkeypatch):
    sim, _ = two_doors()

    def broken(*args, **kwargs):
        raise RuntimeError("the planner broke")

    monkeypatch.setattr(NavMesh, "from_simulator", broken)
    with pytest.raises(RuntimeError, match="the planner broke") as raised:
        sim.run(600, replan_stalled=2.0)
    assert 0 < raised.value.trajectory.steps_run < 600


def test_replan_stalled_carries_its_period_across_short_runs(monkeypatch):
    from vosim.navigation import _replanning

    checks = []
    original = _replanning._plan_those_that_can

    def counted(planner, starts, goals, ids):
        checks.append(len(ids))
        return original(planner, starts, goals, ids)

    monkeypatch.setattr(_replanning, "_plan_those_that_can", counted)
    sim = vosim.Simulator(time_step=0.1)
    sim.add_obstacle([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
    ids = sim.add_agents([[-3.0, 0.0]], radius=0.3, max_speed=0.0)  # never moves: stalled at every check
    sim.set_goals(ids, [[3.0, 0.0]], plan="navmesh")
    for _ in range(6):
        sim.run(20, replan_stalled=2.0)  # each run exactly one period long
    assert len(checks) == 5  # due after steps 20, 40, ..., 100 (the 120th falls due at the last step)
    sim.run(1, replan_stalled=2.0)
    assert len(checks) == 6  # made before the next run's first step
    checks.clear()
    for _ in range(10):
        sim.run(7, replan_stalled=2.0)  # 70 steps: due at 20, 40, 60 of them
    assert len(checks) == 3
    checks.clear()
    sim.run(30, replan_stalled=1.0)  # another period starts afresh
    assert len(checks) == 2


def test_an_agent_off_the_walkable_area_does_not_fail_the_others_plans():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_obstacle([[-1.0, -3.0], [1.0, -3.0], [1.0, 3.0], [-1.0, 3.0]])
    # RVO2's Circle horizons: with them, the crowded goals push agent 2 less than 0.1 m past its own.
    ids = sim.add_agents([[-4.0, 0.0], [-4.0, 1.5], [-0.713, 0.5]], radius=0.3, max_speed=1.3, strict=False,
                         neighbor_dist=15.0, time_horizon=10.0, time_horizon_obst=10.0)
    # agent 2 stands 0.287 m inside the box: 0.587 m from the walkable area (the box grown by the radius)
    with pytest.warns(UserWarning, match=r"agent 2 \(0\.587 m\)"):
        sim.set_goals(ids, [[4.0, 0.0], [4.0, 1.5], [4.0, 0.5]], plan="navmesh")
    traj = sim.run(400, until_arrived=True)
    # (arrived: each reached its goal at some step; goals 0.5 m apart for discs 0.6 m wide cannot all be held at once)
    assert traj.all_arrived and np.isfinite(traj.metrics["arrival_step"]).all()
    assert traj.min_obstacle_clearance_per_frame()[-1] >= 0.0 and traj.positions[:, 2, 0].max() < 4.1
    # a goal off the walkable area is still an error naming the agent
    with pytest.raises(ValueError, match="agent 1: its goal"):
        sim.set_goals(ids[1:2], [[0.0, 0.0]], plan="navmesh")


def test_an_agent_out_of_sight_of_the_roadmap_heads_straight_for_its_goal_and_the_others_are_planned():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_obstacle([[-1.0, -3.0], [1.0, -3.0], [1.0, 3.0], [-1.0, 3.0]])
    # agent 1 stands 0.287 m inside the box (0.587 m off the walkable area); 0 and 2 must go round it
    starts = [[-4.0, 0.0], [-0.713, 0.5], [-4.0, -1.0]]
    ids = sim.add_agents(starts, radius=0.3, max_speed=1.3, strict=False)
    goals = np.array([[4.0, 0.0], [4.0, 0.5], [4.0, -1.0]])
    with pytest.warns(UserWarning, match=r"agent 1 \(0\.587 m\); they head straight for their goals"):
        sim.set_goals(ids, goals, plan="roadmap")
    assert sim.waypoints_remaining.tolist()[1] == 0 and np.array_equal(sim.goals[1], goals[1])  # unplanned
    assert (sim.waypoints_remaining[[0, 2]] > 0).all()  # the others go round a corner of the box first
    assert (np.abs(sim.goals[[0, 2], 1]) > 3.0).all()
    traj = sim.run(400, until_arrived=True)
    assert traj.all_arrived
    assert traj.min_obstacle_clearance_per_frame()[-1] >= 0.0
    # a goal no start can reach is still an error naming its agent
    with pytest.raises(ValueError, match="agent 2: "):
        sim.set_goals(ids, np.vstack([goals[:2], [[0.0, -0.5]]]), plan="roadmap")


def test_a_simulator_with_navigation_goes_as_soon_as_it_is_dropped():
    """Its navigation part holds it weakly: no reference cycle keeps the engine alive until a collection."""
    import gc
    import weakref

    sim, ids = two_doors()
    sim.set_goals(ids, [GOAL], plan="navmesh")
    sim.run(5, replan_stalled=2.0)
    gone = weakref.ref(sim)
    gc.disable()
    try:
        del sim
        assert gone() is None
    finally:
        gc.enable()
