"""Headings on pictures: arrows along the paths of plot.trajectories, ticks on plot.animate's discs."""

import dataclasses

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402
from matplotlib.quiver import Quiver  # noqa: E402

import vosim  # noqa: E402
from vosim import plot, scenarios  # noqa: E402
from vosim.plot._headings import heading_frames  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def robots():
    scene = scenarios.warehouse(8, aisles=2, seed=1)
    return scene.build().run(120)


def _quivers(figure):
    return [c for c in figure.axes[0].collections if isinstance(c, Quiver)]


def test_trajectories_draw_heading_arrows_along_each_path(robots, tmp_path):
    figure = plot.trajectories(robots, heading_marks=4)
    ax = figure.axes[0]
    (arrows,) = _quivers(figure)
    frames = heading_frames(np.arange(len(robots.times)), 4)
    assert frames[-1] == len(robots.times) - 1 and len(frames) == 4
    points = robots.positions[frames].reshape(-1, 2)
    angles = robots.headings[frames].reshape(-1)
    np.testing.assert_allclose(arrows.get_offsets(), points)
    length = 2 * np.tile(robots.radius, len(frames))                   # a diameter long, along the heading
    np.testing.assert_allclose(arrows.U, length * np.cos(angles))
    np.testing.assert_allclose(arrows.V, length * np.sin(angles))
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any(label.startswith("heading (about every") for label in labels)
    ax.figure.savefig(tmp_path / "headings.png", dpi=60)
    assert (tmp_path / "headings.png").stat().st_size > 5_000


def test_headings_can_be_left_out_and_are_refused_when_not_recorded(robots):
    assert not _quivers(plot.trajectories(robots, headings=False))
    unrecorded = dataclasses.replace(robots, headings=None)
    assert not _quivers(plot.trajectories(unrecorded))               # None: only when recorded
    with pytest.raises(ValueError, match="headings is True, but this trajectory recorded no headings"):
        plot.trajectories(unrecorded, headings=True)
    with pytest.raises(TypeError, match="headings: expected True, False or None, got 'yes'"):
        plot.trajectories(robots, headings="yes")
    with pytest.raises(ValueError, match="heading_marks is 0; must be >= 1"):
        plot.trajectories(robots, heading_marks=0)


def test_holonomic_scenes_draw_headings_only_when_asked():
    """A holonomic agent heads where its path goes: by default only scenes with a drive get arrows."""
    traj = scenarios.circle(12, radius=10.0).build().run(5)
    assert set(traj.kinematics) == {"holonomic"}
    assert not _quivers(plot.trajectories(traj))
    assert _quivers(plot.trajectories(traj, headings=True))
    assert not _quivers(plot.trajectories(dataclasses.replace(traj, kinematics=None)))  # older files
    mixed = scenarios.circle(12, radius=10.0)
    mixed = dataclasses.replace(mixed, agent_params={**mixed.agent_params, "kinematics": "differential_drive"})
    traj = mixed.build().run(5)  # (one name for every agent)
    assert set(traj.kinematics) == {"differential_drive"}
    assert _quivers(plot.trajectories(traj))


def test_trajectories_keep_the_agents_kinematics_in_files(robots, tmp_path):
    path = robots.save(tmp_path / "robots.npz")
    np.testing.assert_array_equal(vosim.load(path).kinematics, robots.kinematics)
    with np.load(path) as archive:
        arrays = dict(archive)
    arrays["kinematics"] = np.array(["hovercraft"] * len(robots.kinematics))
    np.savez(tmp_path / "bad.npz", **arrays)
    with pytest.raises(ValueError, match="corrupt vosim trajectory .kinematics"):
        vosim.load(tmp_path / "bad.npz")


def test_a_large_crowd_gets_fewer_arrows_the_last_frame_always():
    traj = scenarios.circle(400, radius=300.0).build().run(5)
    (arrows,) = _quivers(plot.trajectories(traj, show_collisions=False, headings=True))
    assert len(arrows.get_offsets()) == 400                         # 200 at most: one mark each, at the end
    np.testing.assert_allclose(arrows.get_offsets(), traj.positions[-1])


def test_a_batch_scene_draws_its_own_headings():
    batch = scenarios.batch(lambda seed: scenarios.warehouse(4, aisles=2, seed=seed), seeds=[0, 1])
    traj = batch.run(30)
    (arrows,) = _quivers(plot.trajectories(traj, scene=1, heading_marks=1))
    np.testing.assert_allclose(arrows.U, 0.6 * np.cos(traj.headings[-1, 1]))


def test_animation_discs_carry_heading_ticks(robots, tmp_path):
    animation = plot.animate(robots, path=tmp_path / "robots.gif", max_frames=8)
    ax = animation._fig.axes[0]
    ticks = next(c for c in ax.collections if isinstance(c, LineCollection) and len(c.get_segments()) == 8
                 and np.allclose([np.linalg.norm(s[1] - s[0]) for s in c.get_segments()], 0.3))
    last = ticks.get_segments()            # the saved file ends with the last frame
    np.testing.assert_allclose([s[0] for s in last], robots.positions[-1])
    direction = np.array([s[1] - s[0] for s in last]) / 0.3
    np.testing.assert_allclose(direction, np.column_stack([np.cos(robots.headings[-1]), np.sin(robots.headings[-1])]),
                               atol=1e-12)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "heading (tick from the centre)" in labels
    assert "agent (disc of its radius; colour: agent index, 0 to 7)" in labels
    assert (tmp_path / "robots.gif").stat().st_size > 10_000


def test_animation_without_headings_has_no_ticks(robots):
    animation = plot.animate(dataclasses.replace(robots, headings=None), max_frames=4)
    animation._draw_next_frame(0, blit=False)
    labels = [t.get_text() for t in animation._fig.axes[0].get_legend().get_texts()]
    assert labels[0].startswith("agent (disc of its radius") and not any("heading" in t for t in labels)
    lines = [c.get_zorder() for c in animation._fig.axes[0].collections if isinstance(c, LineCollection)]
    assert lines == [2]  # the trails only
    with pytest.raises(ValueError, match="recorded no headings"):
        plot.animate(dataclasses.replace(robots, headings=None), headings=True)


def test_heading_frames_are_evenly_spaced_and_end_with_the_last():
    assert heading_frames(np.arange(11), 3).tolist() == [3, 7, 10]
    assert heading_frames(np.arange(4), 9).tolist() == [0, 1, 2, 3]
    assert heading_frames(np.arange(50), 1).tolist() == [49]
