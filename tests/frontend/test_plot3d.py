"""3D pictures: trajectories in 3D axes, top and side views, animations, obstacle shapes drawn."""

import numpy as np
import pytest

import vosim
from vosim.trajectory import Trajectory

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from vosim.plot._shapes3d import _clip_polygon, _hull_2d, _plane_in_box  # noqa: E402

SHAPES = [
    vosim.HalfSpace((0, 0, 0), (0, 0, 1)),
    vosim.Box((0, 0, 3), (0.5, 4, 3), euler=(0, 0, 0.3)),
    vosim.Sphere((5, 2, 5), 1.5),
    vosim.ConvexPolyhedron.from_halfspaces(
        [[-1, 0, 0], [0, -1, 0], [0, 0, -1], [1, 1, 1]], [5, 2, -3, 1]),
]


def straight_run(n=6, frames=40, width=3):
    """A synthetic run: agents flying straight along x and over a hump (no engine needed)."""
    rng = np.random.default_rng(0)
    start = np.column_stack([np.full(n, -10.0), rng.uniform(-3, 3, n), rng.uniform(2, 8, n)])[:, :width]
    goal = start * np.r_[-1, np.ones(width - 1)]
    s = np.linspace(0, 1, frames)[:, None, None]
    positions = start + s * (goal - start)
    return Trajectory(positions=positions, velocities=np.gradient(positions, axis=0) / 0.1,
                      times=np.arange(frames) * 0.1, steps=np.arange(frames), ids=np.arange(n),
                      radius=np.full(n, 0.3), goals=goal, has_goal=np.ones(n, bool), time_step=0.1,
                      steps_run=frames - 1, all_arrived=True, wall_time=0.0, method={"method": "ORCA"})


def teardown_function():
    plt.close("all")


def test_trajectories3d_draws_paths_and_every_shape():
    ax = vosim.plot.trajectories3d(straight_run(), obstacles=SHAPES, title="demo").axes[0]
    assert ax.name == "3d" and ax.get_title() == "demo"
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["path (colour: agent index, 0 to 5)", "goal", "start (agent's colour)", "obstacle (4)"]
    assert [ax.get_xlabel(), ax.get_ylabel(), ax.get_zlabel()] == ["x [m]", "y [m]", "z [m]"]
    lo, hi = ax.get_zlim()
    assert lo < 0 and hi > 8  # the ground and the highest path are in view


def test_agents_that_did_not_arrive_are_marked():
    run = straight_run()
    run.goals = run.goals + (0, 0, 5)  # nobody reached these
    ax = vosim.plot.trajectories3d(run).axes[0]
    assert any("did not arrive (6)" in t.get_text() for t in ax.get_legend().get_texts())


def test_projections_show_the_ground_edge_on_only():
    axes = vosim.plot.projections(straight_run(), obstacles=SHAPES, planes=("xy", "xz")).axes
    top, side = axes
    assert top.get_title() == "top view (x-y)" and side.get_title() == "side view (x-z)"
    assert (top.get_xlabel(), top.get_ylabel(), side.get_ylabel()) == ("x [m]", "y [m]", "z [m]")
    # Top: box, sphere, polyhedron; side: the ground too (hatched).
    assert len(top.patches) == 3 and len(side.patches) == 4
    assert any(p.get_hatch() for p in side.patches) and not any(p.get_hatch() for p in top.patches)
    legend = top.figure.legends[0]
    assert any("hatched: half-space" in t.get_text() for t in legend.get_texts())


def test_animate3d_writes_a_gif(tmp_path):
    path = tmp_path / "run.gif"
    vosim.plot.animate3d(straight_run(frames=12), obstacles=SHAPES, path=path, max_frames=6, rotate=20)
    assert path.stat().st_size > 1000
    with pytest.raises(ValueError, match="cannot tell the format"):
        vosim.plot.animate3d(straight_run(), path=tmp_path / "run.txt")


def test_2d_runs_and_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="expected a 3D trajectory"):
        vosim.plot.trajectories3d(straight_run(width=2))
    with pytest.raises(ValueError, match="planes"):
        vosim.plot.projections(straight_run(), planes=("xw",))
    _, flat = plt.subplots()
    with pytest.raises(ValueError, match="3D axes"):
        vosim.plot.trajectories3d(straight_run(), ax=flat)


def test_a_plane_is_cut_to_the_scene_box():
    lo, hi = np.array([-1.0, -2.0, 0.0]), np.array([1.0, 2.0, 3.0])
    ground = _plane_in_box(vosim.HalfSpace((0, 0, 1), (0, 0, 1)), lo, hi)
    assert np.allclose(ground[:, 2], 1.0)
    np.testing.assert_allclose(ground.min(axis=0)[:2], lo[:2])
    np.testing.assert_allclose(ground.max(axis=0)[:2], hi[:2])
    assert len(_plane_in_box(vosim.HalfSpace((0, 0, 10), (0, 0, 1)), lo, hi)) == 0  # above the box: nothing
    tilted = _plane_in_box(vosim.HalfSpace((0, 0, 1.5), (1, 0, 1)), lo, hi)
    np.testing.assert_allclose(tilted @ np.array([1, 0, 1]) / np.sqrt(2), 1.5 / np.sqrt(2))


def test_2d_helpers():
    square = np.array([[0, 0], [2, 0], [2, 2], [0, 2]], dtype=float)
    half = _clip_polygon(square, np.array([1.0, 0.0]), 1.0)
    np.testing.assert_allclose(sorted(half[:, 0]), [0, 0, 1, 1])
    hull = _hull_2d(np.vstack([square, [[1, 1], [0.5, 1.5]]]))
    assert len(hull) == 4


def orca_inspection(planes_point, planes_normal, obstacle):
    return dict(method="ORCA", velocity=(0.8, 0.1, 0.0), pref_velocity=(1.0, 0.0, 0.0), new_velocity=(0.6, -0.4, 0.3),
                max_speed=1.5, planes=dict(point=np.array(planes_point, dtype=float),
                                           normal=np.array(planes_normal, dtype=float), obstacle=np.array(obstacle)))


def test_velocity_space3d_slices_through_the_new_velocity():
    from matplotlib.patches import Polygon

    info = orca_inspection([[0.6, -0.4, 0.3], [0.2, 0, 0.3]], [[-0.6, -0.6, 0.52], [0, 0, -1.0]], [False, True])
    axs = vosim.plot.velocity_space3d(info, agent_id=3).axes
    assert [ax.get_title() for ax in axs] == ["slice vz = 0.3 m/s", "slice vy = -0.4 m/s", "slice vx = 0.6 m/s"]
    assert [(ax.get_xlabel(), ax.get_ylabel()) for ax in axs] == [
        ("vx [m/s]", "vy [m/s]"), ("vx [m/s]", "vz [m/s]"), ("vy [m/s]", "vz [m/s]")]
    green = [p for p in axs[0].patches if isinstance(p, Polygon) and p.get_facecolor()[1] > 0.5]
    assert green  # an allowed region is left
    assert "agent 3, 2 planes" in axs[0].figure._suptitle.get_text()


def test_a_plane_parallel_to_a_slice_forbids_all_of_it_or_nothing():
    from vosim.plot._velocity_space3d import slice_allows_all, slice_half_plane

    assert slice_half_plane((0, 0, 1), (0, 0, 1), 2, 0.5, (0, 1)) is None
    assert not slice_allows_all((0, 0, 1), (0, 0, 1), 2, 0.5)  # needs vz >= 1
    assert slice_allows_all((0, 0, 1), (0, 0, 1), 2, 1.5)
    rng = np.random.default_rng(5)
    for _ in range(20):  # a point on the cut line, lifted back into 3D, lies on the plane
        point, normal, value = rng.normal(size=3), rng.normal(size=3), rng.normal()
        q, n2 = slice_half_plane(point, normal, 2, value, (0, 1))
        assert np.isclose(normal @ (np.r_[q, value] - point), 0.0)
        np.testing.assert_allclose(n2, normal[:2])


def test_velocity_space3d_refuses_2d_inspections():
    info = orca_inspection(np.zeros((0, 3)), np.zeros((0, 3)), np.zeros(0, bool))
    info["new_velocity"] = (0.1, 0.2)
    with pytest.raises(ValueError, match="3D simulator"):
        vosim.plot.velocity_space3d(info)


def test_pictures_take_the_shapes_of_the_simulator_a_run_came_from():
    scene = vosim.scenarios.swarm_gate(3)
    sim = scene.build()
    traj = sim.run(30)
    ax = vosim.plot.trajectories3d(traj, obstacles=sim).axes[0]
    assert "obstacle (5)" in [t.get_text() for t in ax.get_legend().get_texts()]
    top, side = vosim.plot.projections(traj, obstacles=sim.obstacle_shapes, planes=("xy", "xz")).axes
    assert len(top.patches) == 4 and len(side.patches) == 5   # the ground only edge-on
    axs = vosim.plot.velocity_space3d(sim, agent_id=0).axes
    assert len(axs) == 3


def test_animate3d_shows_agents_that_left_only_while_they_are_in_the_scene():
    sim = vosim.Simulator(time_step=0.1, dimensions=3)
    sim.add_agents([[0.0, 0.0, 1.0], [0.0, 1.0, 1.0]], goals=[[2.0, 0.0, 1.0], [8.0, 1.0, 1.0]], radius=0.25,
                   max_speed=1.0, remove_at_goal=True)
    traj = sim.run(100)
    from matplotlib.collections import Collection

    gone = traj.metrics["exit_step"].tolist()
    assert not traj.active.any() and 0 < gone[0] < gone[1] <= 100  # agent 0 leaves first, then agent 1
    animation = vosim.plot.animate3d(traj, max_frames=None, trail=5)
    ax = animation._fig.axes[0]
    dots, trails = ax.collections[-2], ax.collections[-1]

    def frame(k):
        animation._func(k)
        # The colours as set, in agent order (a 3D scatter's own getters sort them by depth once drawn).
        faces, edges = Collection.get_facecolor(dots), Collection.get_edgecolor(dots)
        return (faces[:, 3] > 0).tolist(), (edges[:, 3] > 0).tolist(), \
            [segment[-1].tolist() for segment in trails._segments3d]  # as set (get_segments: once drawn, in 2D)

    for k, shown in [(0, [True, True]), (gone[0] - 1, [True, True]), (gone[0], [False, True]),
                     (gone[1] - 1, [False, True]), (gone[1], [False, False]), (100, [False, False])]:
        faces, edges, trail_ends = frame(k)
        assert faces == shown and edges == shown, k
        # Only the agents still there trail, each ending where it is in this frame.
        expected = [traj.positions[k, a].tolist() for a in range(2) if shown[a]]
        assert len(trail_ends) == len(expected), k
        np.testing.assert_allclose(np.reshape(trail_ends, (-1, 3)), np.reshape(expected, (-1, 3)), atol=1e-9)
