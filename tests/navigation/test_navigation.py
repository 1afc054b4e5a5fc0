"""Global planning: roadmaps, navigation meshes, set_goals(plan=), the funnel and the graph search."""

import numpy as np
import pytest

shapely = pytest.importorskip("shapely")
if not hasattr(shapely, "constrained_delaunay_triangles"):
    pytest.skip("vosim.navigation needs shapely >= 2.1", allow_module_level=True)
from shapely.geometry import LineString, Polygon  # noqa: E402
from shapely.geometry.polygon import orient  # noqa: E402

import vosim  # noqa: E402
from vosim import _core  # noqa: E402
from vosim.navigation import NavMesh, Roadmap  # noqa: E402
from vosim.navigation._geometry import obstacle_edges, visible  # noqa: E402

RADIUS = 0.3


def maze() -> vosim.Simulator:
    """A 20 x 10 room split by two staggered walls: the left side cannot see the right."""
    sim = vosim.Simulator(time_step=0.1)
    sim.add_boundary([[0, 0], [20, 0], [20, 10], [0, 10]])
    sim.add_obstacle([[6, 0.2], [7, 0.2], [7, 7], [6, 7]])
    sim.add_obstacle([[13, 3], [14, 3], [14, 9.8], [13, 9.8]])
    return sim


def maze_agents(sim):
    y = np.linspace(1.5, 8.5, 5)
    starts = np.column_stack([np.full(5, 2.0), y])
    goals = np.column_stack([np.full(5, 18.0), y[::-1]])
    ids = sim.add_agents(starts, radius=RADIUS, max_speed=1.5, neighbor_dist=3.0, time_horizon=2.0,
                         time_horizon_obst=1.0)
    return ids, starts, goals


@pytest.mark.parametrize("plan", ["roadmap", "navmesh"])
def test_agents_in_a_maze_arrive_with_planning_and_not_without(plan):
    sim = maze()
    ids, starts, goals = maze_agents(sim)
    edges = obstacle_edges([(kind, v) for kind, v, _ in sim.obstacles])
    assert not visible(starts, goals, edges, 0.0).any()  # no start sees its goal

    sim.set_goals(ids, goals, plan=plan)
    sim.run(3000, until_arrived=True)
    assert sim.arrived.all()
    assert sim.step_count < 3000

    without = maze()
    ids, _, _ = maze_agents(without)
    without.set_goals(ids, goals)
    without.run(3000, until_arrived=True)
    assert not without.arrived.any()  # all stuck at the first wall


def test_set_goals_without_a_plan_heads_straight_for_the_goals():
    sim = vosim.Simulator()
    ids = sim.add_agents([[0.0, 0.0], [5.0, 0.0], [9.0, 9.0]], radius=0.2)
    sim.set_goals(ids[[2, 0]], [[1.0, 2.0], [3.0, 4.0]])
    assert sim.goals[0].tolist() == [3.0, 4.0]
    assert sim.goals[2].tolist() == [1.0, 2.0]
    assert sim.has_goal.tolist() == [True, False, True]
    assert sim.waypoints_remaining.tolist() == [0, 0, 0]


def test_set_goals_sets_the_planned_waypoints():
    sim = maze()
    ids, starts, goals = maze_agents(sim)
    mesh = NavMesh.from_simulator(sim)
    sim.set_goals(ids, goals, plan=mesh, waypoint_radius=0.5)
    paths = mesh.plan(starts, goals)
    assert sim.waypoints_remaining.tolist() == [len(p) - 1 for p in paths]
    assert np.array_equal(sim.goals, np.array([p[0] for p in paths]))


def test_unreachable_goal_names_the_agent():
    sim = vosim.Simulator()
    sim.add_boundary([[0, 0], [10, 0], [10, 10], [0, 10]])
    sim.add_wall([[5, -1], [5, 11]])  # cuts the room in two
    ids = sim.add_agents([[1.0, 5.0], [2.0, 5.0], [8.0, 2.0]], radius=0.3)
    goals = [[2.0, 2.0], [8.0, 5.0], [9.0, 2.0]]
    for plan in ("roadmap", "navmesh"):
        with pytest.raises(ValueError, match=f"agent {ids[1]}: .*cannot be reached"):
            sim.set_goals(ids, goals, plan=plan)
    assert not sim.has_goal.any()  # nothing changed


def test_a_goal_inside_an_obstacle_names_the_agent():
    sim = maze()
    ids, starts, goals = maze_agents(sim)
    goals[3] = [6.5, 3.0]  # inside the first wall
    with pytest.raises(ValueError, match=f"agent {ids[3]}: its goal"):
        sim.set_goals(ids, goals, plan="navmesh")
    with pytest.raises(ValueError, match=f"agent {ids[3]}: .*cannot be reached"):
        sim.set_goals(ids, goals, plan="roadmap")


def test_bad_arguments_are_refused():
    sim = maze()
    ids, starts, goals = maze_agents(sim)
    with pytest.raises(ValueError, match="plan is 'astar'"):
        sim.set_goals(ids, goals, plan="astar")
    with pytest.raises(TypeError, match="plan: expected"):
        sim.set_goals(ids, goals, plan=3)
    with pytest.raises(ValueError, match=r"ids\[1\]: no agent with id 99"):
        sim.set_goals([ids[0], 99], goals[:2])
    with pytest.raises(ValueError, match="goals: expected 5 goals"):
        sim.set_goals(ids, goals[:4])
    with pytest.raises(ValueError, match=r"goals\[2, 1\]"):
        bad = goals.copy()
        bad[2, 1] = np.nan
        sim.set_goals(ids, bad)
    with pytest.raises(ValueError, match="radius"):
        Roadmap.from_simulator(sim, radius=-1.0)
    with pytest.raises(ValueError, match=r"obstacles\[0\]: kind is 'hole'"):
        Roadmap([[0.0, 0.0]], [("hole", [[0, 0], [1, 0], [1, 1]])], radius=0.1)
    with pytest.raises(ValueError, match=r"points\[0, 1\]"):
        Roadmap([[0.0, np.inf]], radius=0.1)
    with pytest.raises(TypeError, match="walkable"):
        NavMesh.from_polygon(LineString([(0, 0), (1, 1)]))
    with pytest.raises(ValueError, match="no walkable area is left"):
        NavMesh.from_polygon(Polygon([(0, 0), (1, 0), (1, 1), (0, 1)]), radius=0.6)
    with pytest.raises(TypeError, match="sim: expected a vosim.Simulator"):
        NavMesh.from_simulator(vosim.Batch(scenes=2))


# ------------------------------------------------------------- the planners
FLOOR = Polygon(
    [(0, 0), (30, 0), (30, 20), (0, 20)],
    holes=[[(10, 0.0 + 1), (11, 1), (11, 14), (10, 14)], [(19, 6), (20, 6), (20, 19), (19, 19)]],
)


def test_navmesh_paths_stay_in_the_shrunk_area_and_are_shortest():
    mesh = NavMesh.from_polygon(FLOOR, radius=0.5)
    assert mesh.area.equals(FLOOR.buffer(-0.5, join_style="mitre", mitre_limit=4.0))
    corners = mesh.vertices[mesh.triangles]
    u, v = corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0]
    areas = (u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0]) / 2
    assert (areas > 0).all()  # counter-clockwise
    assert areas.sum() == pytest.approx(mesh.area.area)  # the triangles tile the shrunk area
    assert ((mesh.neighbors >= 0).sum()) % 2 == 0  # neighbours come in pairs
    starts = np.array([[2.0, 2.0], [2.0, 18.0], [25.0, 2.0]])
    goals = np.array([[28.0, 2.0], [28.0, 18.0], [26.0, 3.0]])
    paths = mesh.plan(starts, goals)
    for start, path, goal in zip(starts, paths, goals):
        assert path[-1].tolist() == goal.tolist()
        line = LineString(np.vstack([start, path]))
        assert mesh.area.buffer(1e-9).covers(line)
    assert len(paths[2]) == 1  # in sight: straight there
    # Round both walls: over the first (top at 14.5 after inflation), under the second (bottom 5.5).
    assert paths[0][:, 1].max() == pytest.approx(14.5, abs=0.05)
    assert paths[0][:, 1].min() < 5.6
    # The funnel pulls the path tight: it is no longer than a roadmap's over the same corners.
    floor = orient(FLOOR)  # exterior counter-clockwise, holes clockwise
    roadmap = Roadmap.from_obstacles([("boundary", np.array(floor.exterior.coords)[:-1])] + [
        ("polygon", np.array(h.coords)[:-1][::-1]) for h in floor.interiors], radius=0.5)
    [via_roadmap] = roadmap.plan(starts[:1], goals[:1])

    def length(start, path):
        return np.linalg.norm(np.diff(np.vstack([start, path]), axis=0), axis=1).sum()

    assert length(starts[0], paths[0]) <= length(starts[0], via_roadmap) + 0.01


def test_roadmap_paths_keep_the_radius_from_every_edge():
    sim = maze()
    sim.add_wall([[9, 4], [10, 5], [9, 6]])
    ids, starts, goals = maze_agents(sim)
    roadmap = Roadmap.from_simulator(sim, clearance=0.1)
    assert roadmap.radius == RADIUS
    edges = obstacle_edges(roadmap.obstacles)
    for start, path in zip(starts, roadmap.plan(starts, goals)):
        legs = np.vstack([start, path])
        assert visible(legs[:-1], legs[1:], edges, RADIUS).all()
    # every roadmap point keeps radius + clearance from the edges
    assert visible(roadmap.points, roadmap.points, edges, RADIUS + 0.1).all()


def test_a_start_near_a_wall_may_leave_it():
    sim = maze()
    ids = sim.add_agents([[5.85, 3.0]], radius=RADIUS)  # 0.15 from the wall, less than the radius
    for plan in ("roadmap", "navmesh"):
        sim.set_goals(ids, [[18.0, 5.0]], plan=plan)
        assert sim.waypoints_remaining[0] >= 1


def test_planning_is_the_same_on_any_number_of_threads():
    rng = np.random.default_rng(4)
    sim = vosim.Simulator()
    sim.add_boundary([[-36, -36], [36, -36], [36, 36], [-36, 36]])
    for centre in rng.uniform(-30, 30, (25, 2)):
        sim.add_obstacle(centre + np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]), strict=False)
    points = rng.uniform(-35, 35, (1500, 2))
    points = points[~sim._engine.blocked_points(points, 0) & (sim._engine.obstacle_distances(points, 0) > 0.5)]
    starts, goals = points[: len(points) // 2], points[len(points) // 2: 2 * (len(points) // 2)]
    for planner in (Roadmap.from_simulator(sim, radius=0.4), NavMesh.from_simulator(sim, radius=0.4)):
        vosim.set_num_threads(1)
        one = np.concatenate(planner.plan(starts, goals))
        vosim.set_num_threads(2)
        two = np.concatenate(planner.plan(starts, goals))
        assert one.tobytes() == two.tobytes()


def test_the_graph_search_finds_the_cheapest_path_and_checks_its_input():
    # a square 0-1-2-3 with a long diagonal 0-2; from 0 to 2 the two-edge way ties, the diagonal wins
    nodes = np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]])
    pairs = [(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)]
    src = np.array([a for a, b in pairs] + [b for a, b in pairs])
    dst = np.array([b for a, b in pairs] + [a for a, b in pairs])
    order = np.lexsort((dst, src))
    src, dst = src[order], dst[order]
    row = np.concatenate([[0], np.cumsum(np.bincount(src, minlength=4))])
    cost = np.linalg.norm(nodes[src] - nodes[dst], axis=1)
    one = np.array([0, 1])
    found, offsets, path = _core.graph_paths(row, dst.astype(np.int32), cost, nodes, one, np.array([0], np.int32),
                                             np.zeros(1), one, np.array([2], np.int32), np.zeros(1), nodes[2:3])
    assert found.tolist() == [True] and path.tolist() == [0, 2]
    with pytest.raises(ValueError, match=r"entry_nodes\[0\] is 7"):
        _core.graph_paths(row, dst.astype(np.int32), cost, nodes, one, np.array([7], np.int32), np.zeros(1), one,
                          np.array([2], np.int32), np.zeros(1), nodes[2:3])


def test_the_funnel_bends_only_at_the_corners_it_must():
    # a corridor of portals that turns left around the corner (1, 1)
    left = np.array([[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]])
    right = np.array([[2.0, 0.0], [2.0, 2.0], [0.0, 2.0]])
    offsets, points = _core.pull_strings(np.array([[0.0, 0.0]]) + [0.5, -0.5], np.array([[0.5, 2.5]]),
                                         np.array([0, 3]), left, right)
    assert points.tolist() == [[1.0, 1.0], [0.5, 2.5]]
    # straight through: only the goal
    offsets, points = _core.pull_strings(np.array([[0.0, 0.0]]), np.array([[4.0, 0.0]]), np.array([0, 2]),
                                         np.array([[1.0, 1.0], [2.0, 1.0]]), np.array([[1.0, -1.0], [2.0, -1.0]]))
    assert points.tolist() == [[4.0, 0.0]]


def _two_way_floor_mesh() -> NavMesh:
    """RiMEA 14's floor: two rooms joined by a 2 m passage (y 4-6) and a 5 m corridor (y 15-20); exit at the bottom."""
    sim = vosim.Simulator()
    for wall in ([[5.0, 4.0], [5.0, 0.0], [0.0, 0.0], [0.0, 20.0], [5.0, 20.0]], [[5.0, 6.0], [5.0, 15.0]],
                 [[5.0, 15.0], [25.0, 15.0]], [[5.0, 20.0], [30.0, 20.0], [30.0, 0.0], [29.0, 0.0]],
                 [[27.0, 0.0], [25.0, 0.0], [25.0, 4.0]], [[25.0, 6.0], [25.0, 15.0]],
                 [[5.0, 4.0], [25.0, 4.0]], [[5.0, 6.0], [25.0, 6.0]]):
        sim.add_wall(wall)
    return NavMesh.from_simulator(sim, radius=0.25, points=[[28.0, -0.9]])


def _length(start, path) -> float:
    return float(np.linalg.norm(np.diff(np.vstack([start, path]), axis=0), axis=1).sum())


def test_a_start_or_goal_on_a_shared_edge_or_corner_takes_the_shortest_way():
    mesh = _two_way_floor_mesh()
    vertices, triangles = mesh.vertices, mesh.triangles
    # Every shared edge's middle and every corner of the passage's triangles (y 4.25-5.75), each
    # lying in two or more triangles.
    in_passage = np.flatnonzero(np.all(np.abs(vertices[triangles][..., 1] - 5.0) <= 0.75, axis=1))
    assert len(in_passage) >= 2
    points = [tuple(v) for v in vertices[np.unique(triangles[in_passage])]]
    points += [tuple((vertices[triangles[t, k]] + vertices[triangles[t, (k + 1) % 3]]) / 2)
               for t in in_passage for k in range(3) if mesh.neighbors[t, k] >= 0]
    others = [(28.0, -0.9), (2.5, 10.0), (15.0, 17.5), (27.5, 10.0)]
    hair = [(1e-7, 0.0), (-1e-7, 0.0), (0.0, 1e-7), (0.0, -1e-7)]
    for point in points:
        for other in others:
            for start, goal, moved in ((point, other, 0), (other, point, 1)):
                [path] = mesh.plan([start], [goal])
                nearby = []
                for step in hair:  # the same plan from a hair off the edge or corner, in each direction
                    ends = [np.add(start, step), goal] if moved == 0 else [start, np.add(goal, step)]
                    if mesh.distance_off([ends[moved]])[0] == 0.0:
                        [near] = mesh.plan([ends[0]], [ends[1]])
                        nearby.append(_length(ends[0], near))
                assert _length(start, path) <= min(nearby) + 1e-5, (start, goal, path.tolist(), nearby)
    # The middle of the passage (on an edge across it) to the exit and back: no step back west.
    for start, goal in (((15.0, 5.0), (28.0, -0.9)), ((28.0, -0.9), (15.0, 5.0))):
        [path] = mesh.plan([start], [goal])
        xs = np.concatenate([[start[0]], path[:, 0]])
        assert np.all(np.diff(xs) * np.sign(goal[0] - start[0]) >= 0.0), path.tolist()
        assert _length(start, path) < 16.2


def test_plot_draws_planners_and_paths(tmp_path):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from vosim import plot

    sim = maze()
    ids, starts, goals = maze_agents(sim)
    for planner in (Roadmap.from_simulator(sim), NavMesh.from_simulator(sim)):
        ax = plot.navigation(planner, paths=planner.plan(starts, goals), starts=starts, sim=sim).axes[0]
        labels = ax.get_legend_handles_labels()[1]
        assert "planned path" in labels and "start" in labels
        ax.figure.savefig(tmp_path / "nav.png", dpi=50)
        assert (tmp_path / "nav.png").stat().st_size > 5_000
        plt.close("all")
    with pytest.raises(TypeError, match="planner"):
        plot.navigation(sim)


def test_no_agents_change_nothing_and_a_wall_without_a_boundary_is_walked_round():
    sim = vosim.Simulator()
    sim.add_wall([[0.0, -5.0], [0.0, 5.0]])
    ids = sim.add_agents([[-3.0, 0.0]], radius=0.3)
    for plan in (None, "roadmap", "navmesh"):
        sim.set_goals(ids[:0], np.zeros((0, 2)), plan=plan)
    assert not sim.has_goal.any()
    for plan in ("roadmap", "navmesh"):
        sim.set_goals(ids, [[3.0, 0.0]], plan=plan)
        assert abs(sim.goals[0, 1]) > 5.0  # the first waypoint is past an end of the wall
        assert sim.waypoints_remaining[0] >= 1
    # a roadmap without points can only go straight
    lonely = Roadmap(np.zeros((0, 2)), [("wall", np.array([[0.0, -5.0], [0.0, 5.0]]))], radius=0.3)
    assert lonely.plan([[-3.0, 6.0]], [[3.0, 6.0]])[0].tolist() == [[3.0, 6.0]]
    with pytest.raises(ValueError, match="path 0: .*cannot be reached"):
        lonely.plan([[-3.0, 0.0]], [[3.0, 0.0]])
