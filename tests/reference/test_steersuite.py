"""SteerSuite test cases read into Scenarios, and SteerBench's scores."""

import warnings
from pathlib import Path

import numpy as np
import pytest

import vosim
from vosim import scenarios

DATA = Path(__file__).resolve().parents[1] / "data" / "steersuite"


def test_a_test_case_with_every_obstacle_kind_reads_and_runs():
    scenario = scenarios.from_steersuite(DATA / "two_rooms.xml", seed=1)
    assert scenario.name == "two-rooms-test"
    assert scenario.num_agents == 8
    # SteerSuite's (x, z) is vosim's (x, y)
    assert scenario.positions[:2].tolist() == [[-15.0, 0.0], [15.0, 2.0]]
    assert scenario.goals[:2].tolist() == [[15.0, 0.0], [-15.0, 2.0]]
    assert scenario.agent_params["radius"].tolist() == [0.5, 0.4] + [0.3] * 6
    assert scenario.agent_params["pref_speed"].tolist() == [1.2, 1.4] + [1.3] * 6
    assert np.allclose(scenario.agent_params["max_speed"], 1.5 * scenario.agent_params["pref_speed"])
    # the region's agents lie in its bounds, apart from each other
    region = scenario.positions[2:]
    assert ((region >= [10, -18]) & (region <= [18, -10])).all()
    gaps = np.linalg.norm(region[:, None] - region[None], axis=2) + 10 * np.eye(6)
    assert gaps.min() >= 0.6
    kinds = [kind for kind, _ in scenario.obstacles]
    assert kinds == ["polygon"] * 4
    box, turned, circle, triangle = (v for _, v in scenario.obstacles)
    assert box.tolist() == [[-1, 4], [1, 4], [1, 6], [-1, 6]]
    # 4 x 1 turned by 90 degrees about y: 1 wide in x, 4 long in z
    assert np.allclose(turned.min(axis=0), [-0.5, -8.0]) and np.allclose(turned.max(axis=0), [0.5, -4.0])
    assert len(circle) == 16 and np.linalg.norm(circle - [8, 8], axis=1).min() >= 1.5
    assert len(triangle) == 3
    traj = scenario.build().run(scenario.max_steps, until_arrived=True)
    assert traj.all_arrived  # every agent reached its last goal (and left there, as in SteerSuite)


def test_random_placement_follows_the_seed():
    a = scenarios.from_steersuite(DATA / "two_rooms.xml", seed=3)
    b = scenarios.from_steersuite(DATA / "two_rooms.xml", seed=3)
    c = scenarios.from_steersuite(DATA / "two_rooms.xml", seed=4)
    assert a.to_json() == b.to_json()
    assert not np.array_equal(a.positions, c.positions)


def test_doors_regions_waypoints_and_lenient_reading():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scenario = scenarios.from_steersuite(DATA / "door_and_errands.xml", seed=0)
    assert any("<idle>" in str(w.message) and "idle[2]" in str(w.message) for w in caught)
    # two targets become waypoints; the random target lies in the (swapped) world bounds
    assert scenario.waypoints[0].tolist() == [[-2.0, 2.0], [8.0, 2.0]]
    assert np.all(np.abs(scenario.goals[1]) <= 15)
    wall = [v for _, v in scenario.obstacles[:2]]
    # the wall along z with a 3 m door from z = 0.5 to 3.5
    assert wall[0][:, 1].max() == pytest.approx(0.5) and wall[1][:, 1].min() == pytest.approx(3.5)
    boxes = [v for _, v in scenario.obstacles[2:]]
    assert len(boxes) == 3
    for b in boxes:
        assert np.allclose(b.max(axis=0) - b.min(axis=0), 1.0)
        assert (b.min(axis=0) >= [4.5, -12.5]).all() and (b.max(axis=0) <= [12.5, -3.5]).all()
    # the random target lies beyond the wall: agents reach it on a planned route through the door
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        planned = scenarios.from_steersuite(DATA / "door_and_errands.xml", seed=0, plan="navmesh")
    assert planned.goals.tolist() == scenario.goals.tolist()
    assert planned.build().run(planned.max_steps, until_arrived=True).all_arrived


CASE = """<SteerBenchTestCase><header><name>x</name>
<worldBounds><xmin>-5</xmin><xmax>5</xmax><ymin>0</ymin><ymax>0</ymax><zmin>-5</zmin><zmax>5</zmax></worldBounds>
</header>{body}</SteerBenchTestCase>"""
AGENT = ("<agent><initialConditions><radius>{radius}</radius><position><x>0</x><y>0</y><z>0</z></position>"
         "</initialConditions><goalSequence><seekStaticTarget><targetLocation><x>3</x><y>0</y><z>1</z>"
         "</targetLocation></seekStaticTarget></goalSequence></agent>")


@pytest.mark.parametrize("text, message", [
    (CASE.format(body=AGENT.format(radius="half")), r"<agent\[0\]/initialConditions/radius> is 'half'"),
    (CASE.format(body=AGENT.format(radius="-1")), r"<agent\[0\]/initialConditions/radius> is -1"),
    (CASE.format(body="<agent><goalSequence/></agent>"), r"<agent\[0\]> has no <initialConditions>"),
    (CASE.format(body="<obstacle><xmin>0</xmin><xmax>1</xmax></obstacle>"), r"<obstacle\[0\]> has no <zmin>"),
    (CASE.format(body="<circleObstacle><position><x>0</x><y>0</y><z>0</z></position><radius>0</radius>"
                 "</circleObstacle>"), r"<circleObstacle\[0\]/radius> is 0"),
    (CASE.format(body="<polygonObstacle><vertex><x>0</x><y>0</y><z>0</z></vertex></polygonObstacle>"),
     r"<polygonObstacle\[0\]> has 1 vertices"),
    (CASE.format(body="<agentRegion><numAgents>2.5</numAgents></agentRegion>"), r"<agentRegion\[0\]/numAgents>"),
    (CASE.format(body="<agentRegion><numAgents>400</numAgents><regionBounds><xmin>0</xmin><xmax>1</xmax>"
                 "<ymin>0</ymin><ymax>0</ymax><zmin>0</zmin><zmax>1</zmax></regionBounds><initialConditions>"
                 "<radius>0.5</radius></initialConditions></agentRegion>"), r"<agentRegion\[0\]>: found no free spot"),
    ("<SteerBenchTestCase><header>", r"not well-formed XML \(line 1"),
    ("<scene/>", r"<scene> is the root element"),
])
def test_malformed_files_name_the_file_and_the_element(tmp_path, text, message):
    path = tmp_path / "case.xml"
    path.write_text(text)
    with pytest.raises(ValueError, match=message) as error:
        scenarios.from_steersuite(path)
    assert str(path) in str(error.value)


def test_steerbench_scores_follow_their_definitions():
    sim = vosim.Simulator(time_step=1.0)
    ids = sim.add_agents([[0.0, 0.0], [0.0, 5.0]], radius=0.5, max_speed=1.0, pref_speed=1.0, arrival_radius=0.01)
    sim.goals = [[2.0, 0.0], [np.nan, np.nan]]  # agent 1 stays put
    traj = sim.run(10)
    scores = vosim.metrics.steerbench(traj)
    # agent 0 walks 1 m/s for 2 s: arrives at frame 2 (t = 2 s); agent 1 is scored for the whole run
    assert scores["time"].tolist() == [2.0, 10.0]
    assert scores["kinetic_energy"][0] == pytest.approx(2 * 0.5)  # two frames at 1 m/s
    assert scores["kinetic_energy"][1] == 0.0
    assert scores["acceleration"][0] == pytest.approx(1.0)  # from rest to 1 m/s in one 1 s step
    assert scores["collisions"].tolist() == [0.0, 0.0]
    assert scores["composite01"] == pytest.approx(np.mean([2.0, 10.0]) + np.mean(scores["kinetic_energy"]))
    assert scores["composite02"] == pytest.approx(scores["composite01"] + np.mean(scores["acceleration"]))
    assert ids.tolist() == [0, 1]


def test_steerbench_counts_each_collision_once():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_boundary([[-10, -10], [10, -10], [10, 10], [-10, 10]])
    sim.add_agents([[0.0, 0.0], [0.6, 0.0], [5.0, 5.0]], radius=0.5, max_speed=0.0, strict=False)
    sim.positions[2] = [9.8, 5.0]  # its disc reaches past the boundary
    traj = sim.run(5)
    scores = vosim.metrics.steerbench(traj)
    assert scores["collisions"].tolist() == [1.0, 1.0, 1.0]  # one long overlap each, one long penetration
    assert scores["composite01"] == pytest.approx(50.0 + 0.5)
    with pytest.raises(TypeError, match="traj"):
        vosim.metrics.steerbench(sim)


def test_comments_before_the_xml_declaration_are_accepted():
    scenario = scenarios.from_steersuite(DATA / "licence_comment.xml")
    assert scenario.name == "licence-comment"
    assert scenario.positions.tolist() == [[-5.0, 0.0]] and scenario.goals.tolist() == [[5.0, 0.0]]


def test_a_declaration_naming_an_unknown_encoding_is_refused(tmp_path):
    path = tmp_path / "case.xml"
    path.write_bytes(b"<!-- note --><?xml version='1.0' encoding='no-such-code'?><SteerBenchTestCase/>")
    with pytest.raises(ValueError, match="no-such-code"):
        scenarios.from_steersuite(path)


def test_other_goal_types_are_left_out_with_a_warning_and_never_become_the_start():
    with pytest.warns(UserWarning) as caught:
        scenario = scenarios.from_steersuite(DATA / "goal_types.xml")
    messages = " ".join(str(w.message) for w in caught)
    for tag in ("idle", "fleeStaticTarget", "flowStaticDirection"):
        assert f"<{tag}>" in messages
    assert scenario.goals.tolist() == [[6.0, 3.0]]
    assert scenario.agent_params["pref_speed"].tolist() == [1.1]
    # an agent with no goal vosim can follow is refused, not left standing "arrived" at its start
    with pytest.raises(ValueError, match=r"flowStaticDirection\[0\]> is a goal type vosim cannot follow"):
        scenarios.from_steersuite(DATA / "flow_only.xml")


def test_a_goal_box_is_reached_at_its_nearest_point_and_nobody_arrives_at_once():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a supported goal type: nothing left out
        scenario = scenarios.from_steersuite(DATA / "box_goal.xml")
    starts, goals = scenario.positions, scenario.goals
    radius = scenario.agent_params["radius"]
    # each agent heads straight for the box's nearest point, its radius inside the edges
    assert np.allclose(goals[:, 0], 10.5)
    assert np.allclose(goals[:, 1], starts[:, 1])  # starts within the box's width: straight lanes
    assert (np.linalg.norm(goals - starts, axis=1) > 10 * radius).all()  # never "goal = start"
    traj = scenario.build().run(400, until_arrived=True)
    assert not traj.arrived_per_frame()[0].any() and traj.all_arrived
    at_arrival = traj.positions[traj.metrics["arrival_step"], np.arange(len(starts))]  # every step recorded
    assert ((at_arrival[:, 0] >= 10) & (at_arrival[:, 0] <= 15) & (np.abs(at_arrival[:, 1]) <= 4)).all()


def test_routes_are_planned_when_asked():
    straight = scenarios.from_steersuite(DATA / "wall_detour.xml")
    planned = scenarios.from_steersuite(DATA / "wall_detour.xml", plan="navmesh")
    assert straight.waypoints[0].tolist() == [[5.0, 0.0]]
    # round the wall's nearer end (it spans y from -12 to 5), every leg of the round trip
    assert len(planned.waypoints[0]) > 1 and planned.waypoints[0][:-1, 1].min() > 5.0
    assert planned.waypoints[1][-1].tolist() == [-5.0, -4.0] and (planned.waypoints[1][:, 1] < -12.0).sum() >= 2
    assert planned.max_steps > straight.max_steps  # the suggested length follows the longer walk
    arrived = {}
    for name, scenario in (("straight", straight), ("planned", planned)):
        sim = scenario.build()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the straight run stalls at the wall
            traj = sim.run(scenario.max_steps, until_arrived=True)
        arrived[name] = (traj.metrics["arrival_step"] >= 0).tolist()
    assert arrived == {"straight": [False, False], "planned": [True, True]}
    with pytest.raises(ValueError, match="plan is 'astar'"):
        scenarios.from_steersuite(DATA / "wall_detour.xml", plan="astar")


@pytest.mark.parametrize("plan", ["navmesh", "roadmap"])
def test_planning_reaches_waypoints_far_beyond_the_obstacles(plan):
    scenario = scenarios.from_steersuite(DATA / "far_waypoints.xml", plan=plan)
    route = scenario.waypoints[0]
    assert route[-1].tolist() == [0.0, 1.0] and [-20.0, 30.0] in route.tolist()
    assert len(route) > 3 and (np.abs(route[0]) > [2.0, 0.0]).any()  # round the box first
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        traj = scenario.build().run(scenario.max_steps, until_arrived=True)
    assert traj.all_arrived


def test_random_placement_is_clear_of_obstacles_and_of_each_other():
    scenario = scenarios.from_steersuite(DATA / "crowd_5000.xml", seed=2)
    assert scenario.num_agents == 5000 and len(scenario.obstacles) == 2000
    traj = scenario.build().run(0)
    assert traj.min_obstacle_clearance_per_frame()[0] >= 0.0
    from scipy.spatial import cKDTree

    pairs = cKDTree(scenario.positions).query_pairs(1.0 - 1e-9)
    assert not pairs
    boxes = np.array([v.mean(axis=0) for _, v in scenario.obstacles])
    assert not cKDTree(boxes).query_pairs(1.0 - 1e-9)  # boxes of side 1 do not overlap
    assert ((np.abs(scenario.goals) <= 100).all())


def test_steerbench_counts_the_waypoints_still_ahead():
    # agents that stay at their goals (SteerSuite's leave), so that a second run scores them
    scenario = scenarios.from_steersuite(DATA / "wall_detour.xml", plan="navmesh", remove_at_goal=False)
    sim = scenario.build()
    traj = sim.run(scenario.max_steps, until_arrived=True)
    scores = vosim.metrics.steerbench(traj)
    arrival = traj.metrics["arrival_step"] * scenario.time_step
    # agent 1's round trip starts on its final goal: it is scored until it comes back
    assert scores["time"] == pytest.approx(arrival)
    assert scores["time"][1] > 20.0
    # without the run's metrics, an agent arrives where it stays on its goal to the end
    bare = sim.run(0)
    assert vosim.metrics.steerbench(bare)["time"].tolist() == [0.0, 0.0]


def test_steerbench_touching_is_not_a_collision():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_obstacle([[1.0, -1.0], [2.0, -1.0], [2.0, 1.0], [1.0, 1.0]])
    sim.add_agents([[0.5 + 1e-11, 0.0], [-0.5 + 2e-11, 0.0], [0.0, 3.0], [0.99999, 3.0]], radius=0.5,
                   max_speed=0.0, strict=False)
    traj = sim.run(3)
    scores = vosim.metrics.steerbench(traj)
    # agent 0 rests against the box by 1e-11 m and touches agent 1; agents 2 and 3 overlap by 1e-5 m
    assert scores["collisions"].tolist() == [0.0, 0.0, 1.0, 1.0]
    assert vosim.metrics.steerbench(traj, tolerance=0.0)["collisions"].tolist() == [2.0, 1.0, 1.0, 1.0]
    with pytest.raises(ValueError, match="tolerance"):
        vosim.metrics.steerbench(traj, tolerance=-1.0)


def test_the_edge_index_agrees_with_the_engine():
    from vosim._edge_index import EdgeIndex

    rng = np.random.default_rng(5)
    obstacles = [("polygon", np.array([[0, 0], [3, 0], [3, 1], [1, 1], [1, 3], [0, 3]], float)),
                 ("wall", np.array([[5, -2], [5, 4], [7, 4]], float)),
                 ("boundary", np.array([[-4, -4], [9, -4], [9, 8], [-4, 8]], float))]
    sim = vosim.Simulator()
    sim.add_obstacle(obstacles[0][1])
    sim.add_wall(obstacles[1][1])
    sim.add_boundary(obstacles[2][1])
    points = rng.uniform([-6, -6], [11, 10], size=(4000, 2))
    radius = rng.uniform(0.0, 0.6, size=4000)
    distance = sim._engine.obstacle_distances(points, 0)
    expected = distance < radius
    got = EdgeIndex(obstacles, 0.6).touching(points, radius)
    assert np.array_equal(got, expected)


def test_the_edge_index_copes_with_edges_spanning_a_large_map():
    from vosim._edge_index import EdgeIndex

    # a 20 km diagonal wall and a large diagonal polygon, asked about discs of 0.3 m
    obstacles = [("wall", np.array([[0.0, 0.0], [20_000.0, 20_000.0]])),
                 ("polygon", np.array([[100.0, 0.0], [20_000.0, 19_900.0], [20_000.0, 0.0]]))]
    index = EdgeIndex(obstacles, 0.3)
    assert len(index.edge_cells[0]) + len(index.polygon_cells[0]) <= 4_000_000
    points = np.array([[5_000.0, 5_000.2], [5_000.0, 5_000.5], [10_000.0, 2_000.0], [-1.0, 500.0]])
    assert index.touching(points, 0.3).tolist() == [True, False, True, False]


def test_agents_leave_at_their_last_goal_as_in_steersuite_and_are_still_scored():
    scenario = scenarios.from_steersuite(DATA / "box_goal.xml")
    assert scenario.agent_params["remove_at_goal"] is True
    traj = scenario.build().run(400, until_arrived=True)
    n = len(scenario.positions)
    assert traj.all_arrived and not traj.active.any()  # every agent left at its goal
    assert (traj.metrics["exit_step"] == traj.metrics["arrival_step"]).all()
    assert traj.took_part().all()
    assert "arrived            {0} of {0} goal-seeking".format(n) in traj.summary()
    scores = vosim.metrics.steerbench(traj)
    assert len(scores["time"]) == n
    assert np.allclose(scores["time"], traj.metrics["arrival_step"] * scenario.time_step)
    kept = scenarios.from_steersuite(DATA / "box_goal.xml", remove_at_goal=False).build().run(400, until_arrived=True)
    assert kept.active.all() and (kept.metrics["exit_step"] == -1).all()


def test_steerbench_stops_scoring_an_agent_where_it_left_through_a_sink():
    sim = vosim.Simulator(time_step=1.0)
    sim.add_agents([[0.0, 0.0], [0.0, 5.0]], radius=0.5, max_speed=1.0, pref_speed=1.0)
    sim.goals = [[10.0, 0.0], [np.nan, np.nan]]  # agent 1 stays put
    sim.add_sink([[2.5, -1.0], [2.5, 1.0]])  # agent 0 crosses it in its third step
    traj = sim.run(10)
    assert traj.metrics["exit_step"].tolist() == [3, -1] and not traj.active[0]
    scores = vosim.metrics.steerbench(traj)
    assert scores["time"].tolist() == [3.0, 10.0]
    assert scores["kinetic_energy"][0] == pytest.approx(3 * 0.5)
    assert "arrived            0 of 1 goal-seeking" in traj.summary()


def walk_over_where_one_left():
    """Agent 0 leaves through a sink and stays recorded where it left; agent 1 walks over that spot later."""
    sim = vosim.Simulator(time_step=0.5)
    sim.add_agents([[0.0, 0.0], [-6.0, 0.0]], radius=0.5, max_speed=1.0, pref_speed=1.0)
    sim.goals = [[10.0, 0.0], [10.0, 0.0]]
    sim.add_sink([[2.0, -1.0], [2.0, 1.0]])
    sim.add_sink([[9.0, -1.0], [9.0, 1.0]])
    return sim.run(40)


def test_steerbench_no_collision_with_an_agent_that_has_left():
    # Agent 0 leaves through the sink and stays recorded where it left; agent 1
    # walks over that spot later. SteerSuite has removed agent 0 by then: no collision.
    traj = walk_over_where_one_left()
    left = traj.metrics["exit_step"]
    assert (left >= 0).all() and left[0] < left[1]
    spot = traj.positions[-1, 0]
    passes = np.linalg.norm(traj.positions[:, 1] - spot, axis=1) < 1.0
    assert passes.any()  # agent 1 did walk over where agent 0 left
    assert vosim.metrics.steerbench(traj)["collisions"].tolist() == [0.0, 0.0]


def test_the_collision_marks_leave_out_agents_that_have_left():
    from vosim.plot._trajectories import collisions

    traj = walk_over_where_one_left()
    everyone = collisions(traj.positions, traj.radius)
    assert len(everyone) == 1  # agent 1 over the spot where agent 0 left
    import matplotlib

    matplotlib.use("Agg")
    figure = vosim.plot.trajectories(traj)
    overlap = np.array(matplotlib.colors.to_rgb(vosim.plot._style.OVERLAP_COLOR))
    marks = [c for ax in figure.axes for c in ax.collections
             if len(c.get_offsets()) and len(c.get_facecolor()) and np.allclose(c.get_facecolor()[0][:3], overlap)]
    assert marks == []
