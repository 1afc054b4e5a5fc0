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
    ax = vosim.plot.trajectories3d(straight_run(), obstacles=SHAPES, title="demo")
    assert ax.name == "3d" and ax.get_title() == "demo"
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == ["path (colour: agent)", "goal", "start (agent's colour)", "obstacle (4)"]
    assert [ax.get_xlabel(), ax.get_ylabel(), ax.get_zlabel()] == ["x [m]", "y [m]", "z [m]"]
    lo, hi = ax.get_zlim()
    assert lo < 0 and hi > 8  # the ground and the highest path are in view


def test_agents_that_did_not_arrive_are_marked():
    run = straight_run()
    run.goals = run.goals + (0, 0, 5)  # nobody reached these
    ax = vosim.plot.trajectories3d(run)
    assert any("did not arrive (6)" in t.get_text() for t in ax.get_legend().get_texts())


def test_projections_show_the_ground_edge_on_only():
    axes = vosim.plot.projections(straight_run(), obstacles=SHAPES, planes=("xy", "xz"))
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
