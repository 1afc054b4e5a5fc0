"""Every picture renders to a file; the drawn data are what the run recorded."""

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import vosim  # noqa: E402
from vosim import plot, scenarios  # noqa: E402

METHODS = [vosim.ORCA(), vosim.VO(), vosim.RVO(truncate=True), vosim.HRVO(), vosim.AdaptiveSampling(),
           vosim.GridSampling(grid_size=9), vosim.ForceBased()]


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def bottleneck_run():
    scenario = scenarios.crossing(9, seed=2)
    sim = scenario.build()
    sim.add_obstacle([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]], strict=False)
    return sim.run(300)


def _saved(fig, path):
    fig.savefig(path, dpi=60)
    assert path.stat().st_size > 5_000
    return path


@pytest.mark.parametrize("color_by", ["agent", "speed", "time"])
def test_trajectories_render(tmp_path, bottleneck_run, color_by):
    ax = plot.trajectories(bottleneck_run, color_by=color_by, title=color_by).axes[0]
    _saved(ax.figure, tmp_path / f"traj_{color_by}.png")
    lines = ax.collections[1] if color_by == "agent" else next(
        c for c in ax.collections if c.get_array() is not None)
    if color_by == "speed":
        assert np.nanmax(lines.get_array()) == pytest.approx(
            np.linalg.norm(bottleneck_run.velocities[1:], axis=-1).max())
    if color_by == "time":
        assert lines.get_array().max() == pytest.approx(bottleneck_run.times[-1])


def test_trajectories_of_a_batch_scene_and_bad_arguments(tmp_path):
    traj = scenarios.batch(scenarios.random_crowd, [0, 1]).run(50)
    _saved(plot.trajectories(traj, scene=1, color_by="speed"), tmp_path / "scene1.png")
    with pytest.raises(ValueError, match="scene is 2; must be <= 1"):
        plot.trajectories(traj, scene=2)
    with pytest.raises(ValueError, match="color_by is 'colour'; must be one of 'agent', 'speed', 'time'"):
        plot.trajectories(traj, color_by="colour")
    with pytest.raises(TypeError, match="traj: expected a vosim.Trajectory"):
        plot.trajectories(traj.positions)


def test_collision_markers_are_where_agents_overlap():
    from vosim.plot._trajectories import collisions

    positions = np.array([
        [[0.0, 0.0], [3.0, 0.0], [9.0, 9.0]],
        [[0.0, 0.0], [0.5, 0.0], [9.0, 9.0]],   # 0 and 1 start to overlap
        [[0.0, 0.0], [0.6, 0.0], [9.0, 9.0]],   # still overlapping: no new mark
        [[0.0, 0.0], [1.0, 0.0], [9.0, 9.0]],   # touching: not a collision
        [[0.0, 0.0], [0.995, 0.0], [9.0, 9.0]],  # within 1 % of contact: jitter, not a collision
        [[0.0, 0.0], [0.9, 0.0], [8.5, 9.0]],   # a new overlap of 0 and 1
    ])
    marks = collisions(positions, np.array([0.5, 0.5, 0.4]))
    # One mark per episode, where it was deepest.
    assert marks.tolist() == [[0.25, 0.0], [0.45, 0.0]]
    assert len(collisions(positions, np.array([0.5, 0.5, 0.4]), np.array([True, False, True]))) == 0


def test_trajectories_mark_the_collisions_of_a_force_based_crowd(tmp_path):
    scenario = scenarios.headon_pair(seed=0)
    sim = scenario.build(vosim.ForceBased(avoidance_stiffness=0.0, separation_stiffness=0.0))
    traj = sim.run(150)
    ax = plot.trajectories(traj).axes[0]
    assert "overlap (1)" in [t.get_text() for t in ax.get_legend().get_texts()]
    _saved(ax.figure, tmp_path / "collision.png")


@pytest.mark.parametrize("method", METHODS, ids=lambda m: m.name + ("_truncated" if getattr(m, "truncate", 0) else ""))
def test_velocity_space_renders_for_every_method(tmp_path, method):
    sim = scenarios.crossing(9, seed=1).build(method)
    sim.add_wall([[-4.0, 3.0], [4.0, 3.0]])
    sim.run(40)
    agent = int(sim.ids[4])
    ax = plot.velocity_space(sim, agent).axes[0]
    _saved(ax.figure, tmp_path / f"vs_{method.name}.png")
    info = sim.inspect(agent)
    # the new velocity drawn is the one the method chooses
    drawn = [line for line in ax.get_lines() if line.get_label() == "new velocity"][0]
    assert np.allclose(np.r_[drawn.get_xdata(), drawn.get_ydata()], info["new_velocity"])
    assert method.name in ax.get_title()


def test_velocity_space_shows_orca_infeasibility_and_the_admissible_region(tmp_path):
    # two agents head-on and far apart: feasible; surrounded: linear program 3
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[-3.0, 0.0], [3.0, 0.0]], goals=[[3.0, 0.0], [-3.0, 0.0]], radius=0.5, max_speed=1.0,
                   velocities=[[1.0, 0.0], [-1.0, 0.0]], time_horizon=5.0)
    ax = plot.velocity_space(sim, 0).axes[0]
    assert "linear program 3" not in ax.get_title()
    assert "admissible velocities" in [p.get_label() for p in ax.patches]
    _saved(ax.figure, tmp_path / "orca_feasible.png")
    ring = vosim.Simulator(time_step=0.1)
    angles = np.linspace(0, 2 * np.pi, 7, endpoint=False)[:6]
    ring.add_agents(np.vstack([[0.0, 0.0], 1.05 * np.column_stack([np.cos(angles), np.sin(angles)])]),
                    velocities=np.vstack([[0.0, 0.0], -0.9 * np.column_stack([np.cos(angles), np.sin(angles)])]),
                    radius=0.5, max_speed=1.0, pref_velocities=[0.0, 0.0])
    assert ring.inspect(0)["used_fallback"]
    ax = plot.velocity_space(ring, 0).axes[0]
    assert "linear program 3" in ax.get_title()
    _saved(ax.figure, tmp_path / "orca_lp3.png")


def test_truncated_cone_polygon_is_the_set_of_collision_velocities():
    from vosim.plot._velocity_space import cone_polygon

    rel, combined, horizon = np.array([4.0, 0.0]), 1.0, 2.0
    polygon = cone_polygon([0.0, 0.0], rel, rel, combined, 1.0, horizon, far=20.0)
    from matplotlib.path import Path

    path = Path(polygon)
    rng = np.random.default_rng(0)
    samples = rng.uniform(-6, 6, (4000, 2))
    # v collides within the horizon: the ray t * v meets the disc for some t <= horizon
    b = samples @ rel
    a = (samples**2).sum(1)
    disc = b**2 - a * (rel @ rel - combined**2)
    first = (b - np.sqrt(np.maximum(disc, 0))) / a
    inside = (disc > 0) & (first > 0) & (first <= horizon) & (np.linalg.norm(samples, axis=1) < 10)
    contained = path.contains_points(samples)
    wrong = inside != contained
    assert wrong.mean() < 0.01  # the polygon approximates the round cap with 48 points


def test_animation_saves_a_gif(tmp_path):
    pytest.importorskip("PIL")
    traj = scenarios.headon_pair(seed=1).build().run(60)
    path = tmp_path / "pair.gif"
    animation = plot.animate(traj, path=path, max_frames=12, fps=10)
    assert path.stat().st_size > 2_000
    from PIL import Image

    with Image.open(path) as image:
        assert 10 <= image.n_frames <= 12  # evenly spaced, at most max_frames
    assert animation is not None
    assert [p.name for p in tmp_path.iterdir()] == ["pair.gif"]


def test_an_animation_that_fails_midway_leaves_the_old_file_whole(tmp_path, monkeypatch):
    pytest.importorskip("PIL")
    from vosim.plot._save_animation import QuantizedGif

    traj = scenarios.headon_pair(seed=1).build().run(60)
    path = tmp_path / "pair.gif"
    path.write_bytes(b"the previous animation")
    grabbed = []

    def grab_then_fail(self, **kwargs):
        grabbed.append(1)
        if len(grabbed) == 3:
            raise RuntimeError("disk full")

    monkeypatch.setattr(QuantizedGif, "grab_frame", grab_then_fail)
    with pytest.raises(RuntimeError, match="disk full"):
        plot.animate(traj, path=path, max_frames=12)
    assert path.read_bytes() == b"the previous animation"
    assert [p.name for p in tmp_path.iterdir()] == ["pair.gif"]  # no half-written file left beside it


def test_a_saved_animation_is_laid_out_once_and_drawn_once_a_frame(tmp_path, monkeypatch):
    """matplotlib's own save draws each frame twice and lays the figure out each time; a GIF costs one draw a frame
    (and one for each of the few frames its palette is made from)."""
    pytest.importorskip("PIL")
    from matplotlib.figure import Figure

    from vosim.plot._save_animation import GIF_PALETTE_FRAMES, QuantizedGif

    traj = scenarios.headon_pair(seed=1).build().run(60)
    draws, grabs = [], []
    draw, grab = Figure.draw, QuantizedGif.grab_frame
    monkeypatch.setattr(Figure, "draw", lambda self, *a, **k: (draws.append(1), draw(self, *a, **k))[1])
    monkeypatch.setattr(QuantizedGif, "grab_frame", lambda self, **k: (grabs.append(1), grab(self, **k))[1])
    plot.animate(traj, path=tmp_path / "pair.gif", max_frames=12)
    assert 10 <= len(grabs) <= 12
    # The first frame's draw that settles the layout, the palette's frames, then one per frame.
    assert len(draws) <= len(grabs) + 1 + GIF_PALETTE_FRAMES


def test_animation_mp4_needs_ffmpeg(tmp_path):
    from matplotlib import animation

    traj = scenarios.headon_pair(seed=1).build().run(20)
    if not animation.writers.is_available("ffmpeg"):
        with pytest.raises(ValueError, match="path: writing .mp4 needs ffmpeg"):
            plot.animate(traj, path=tmp_path / "pair.mp4")
        pytest.skip("ffmpeg is not installed: only the clear error is checked")
    plot.animate(traj, path=tmp_path / "pair.mp4", max_frames=10)
    assert (tmp_path / "pair.mp4").stat().st_size > 1_000


def test_animation_refuses_unknown_formats(tmp_path):
    traj = scenarios.headon_pair().build().run(5)
    with pytest.raises(ValueError, match=r"path: cannot tell the format of '.*pair\.avi'"):
        plot.animate(traj, path=tmp_path / "pair.avi")


def test_trajectories_draw_agents_that_left_through_a_sink():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0], [0.0, 1.0]], goals=[[10.0, 0.0], [10.0, 1.0]], radius=0.25, max_speed=1.0)
    sim.add_sink([[4.0, -1.0], [4.0, 2.0]])
    traj = sim.run(80)
    assert not traj.active.any()
    fig = vosim.plot.trajectories(traj)
    from matplotlib.collections import LineCollection

    paths = [c for c in fig.axes[0].collections if isinstance(c, LineCollection)]
    assert sum(len(c.get_segments()) for c in paths) >= 2
    plt.close(fig)


def _sink_run():
    """Agent 0 leaves through the sink at step 40, agent 1 (starting 2 s later) at step 61."""
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0], [0.0, 1.0]], goals=[[10.0, 0.0], [10.0, 1.0]], radius=0.25, max_speed=1.0,
                   start_time=[0.0, 2.0])
    sim.add_sink([[4.0, -1.0], [4.0, 2.0]])
    traj = sim.run(80)
    assert not traj.active.any()
    assert traj.metrics["exit_step"].tolist() == [40, 61]
    return traj


def _shown_discs(animation, k):
    """The agents whose disc is visible in frame k of an animation (one disc per agent that took part)."""
    from matplotlib.collections import EllipseCollection

    animation._func(k)
    discs = [c for c in animation._fig.axes[0].collections if isinstance(c, EllipseCollection)][0]
    return discs.get_facecolor()[:, 3] > 0


def test_animation_shows_agents_that_left_while_they_are_in_the_scene():
    traj = _sink_run()
    animation = plot.animate(traj, max_frames=None, trail=5)
    assert _shown_discs(animation, 0).tolist() == [True, True]    # both there from the start (agent 1 waits)
    assert _shown_discs(animation, 39).tolist() == [True, True]
    assert _shown_discs(animation, 40).tolist() == [False, True]  # agent 0 left in step 40
    assert _shown_discs(animation, 60).tolist() == [False, True]
    assert _shown_discs(animation, 61).tolist() == [False, False]
    trails = [c for c in animation._fig.axes[0].collections if type(c).__name__ == "LineCollection"][0]
    animation._func(50)
    assert len(trails.get_segments()) == 1  # only the agent still there
    plt.close("all")


def test_animation_of_a_subsampled_batch_scene_with_a_sink():
    sims = vosim.Batch(scenes=2, time_step=0.1)
    sims.add_agents([[[0.0, 0.0]], [[0.0, 0.0]]], goals=[[[10.0, 0.0]], [[10.0, 0.0]]], radius=0.25, max_speed=1.0)
    sims.add_sink([[4.0, -1.0], [4.0, 1.0]], scene=1)
    traj = sims.run(60)
    assert traj.metrics["exit_step"].tolist() == [[-1], [40]]
    kept = plot.animate(traj, scene=0, max_frames=7)
    assert all(_shown_discs(kept, k).tolist() == [True] for k in range(7))
    left = plot.animate(traj, scene=1, max_frames=7)  # frames at steps 0, 10, ..., 60
    assert [bool(_shown_discs(left, k)[0]) for k in range(7)] == [True] * 4 + [False] * 3
    plt.close("all")


def test_in_scene_follows_exit_steps_and_without_metrics_only_the_agents_active_at_the_end():
    from vosim.plot._common import in_scene, scene_of

    traj = _sink_run()
    data = scene_of(traj, 0)
    assert in_scene(traj, data)[[0, 40, 61]].tolist() == [[True, True], [False, True], [False, False]]
    traj.metrics = None
    data = scene_of(traj, 0)
    assert not in_scene(traj, data).any()  # nothing says they took part: none is drawn, as before


def _side_by_side_runs():
    runs = {}
    for name, method in (("ORCA", vosim.ORCA()), ("SocialForce", vosim.SocialForce())):
        sim = vosim.Simulator(time_step=0.1, method=method)
        sim.add_agents([[0.0, 0.0], [6.0, 0.1]], goals=[[6.0, 0.0], [0.0, 0.1]], pref_speed=1.2 if name == "ORCA" else 0.6)
        runs[name] = sim.run(80, record_every=2)
    return runs


def test_side_by_side_shares_one_colour_scale_one_colour_bar_and_one_legend():
    import matplotlib.pyplot as plt

    runs = _side_by_side_runs()
    fig = vosim.plot.side_by_side(runs)
    panels = [ax for ax in fig.axes if ax.get_title()]
    bars = [ax for ax in fig.axes if not ax.get_title()]
    assert [ax.get_title().split("\n")[0] for ax in panels] == ["ORCA", "SocialForce"]
    assert len(bars) == 1 and bars[0].get_xlabel() == "speed [m/s]"  # one bar, under the panels
    paths = [c for ax in panels for c in ax.collections if c.get_array() is not None and c.get_array().size > 2]
    assert len({tuple(np.round(c.get_clim(), 9)) for c in paths}) == 1  # the slow run's speeds on the fast one's scale
    fastest = max(float(np.linalg.norm(t.velocities, axis=-1).max()) for t in runs.values())
    assert paths[0].get_clim()[1] == pytest.approx(fastest)
    assert len(fig.legends) == 1 and all(ax.get_legend() is None for ax in panels)
    labels = [text.get_text() for text in fig.legends[0].get_texts()]
    assert len(labels) == len(set(labels)) and "goal" in labels
    plt.close(fig)


def test_side_by_side_refuses_per_panel_settings_it_chooses():
    with pytest.raises(TypeError, match="clim= is chosen for every panel"):
        vosim.plot.side_by_side(_side_by_side_runs(), clim=(0, 1))
    with pytest.raises(ValueError, match="runs: give at least one trajectory"):
        vosim.plot.side_by_side({})


@pytest.mark.parametrize("columns, error", [(0, ValueError), (-2, ValueError), (2.5, TypeError), ("2", TypeError)])
def test_side_by_side_refuses_a_bad_column_count_by_name(columns, error):
    with pytest.raises(error, match="columns"):
        vosim.plot.side_by_side(_side_by_side_runs(), columns=columns)


def test_side_by_side_lays_the_panels_out_in_the_columns_asked():
    import matplotlib.pyplot as plt

    fig = vosim.plot.side_by_side(_side_by_side_runs(), columns=1)
    panels = [ax for ax in fig.axes if ax.get_title()]
    (x0, y0), (x1, y1) = (ax.get_position().p0 for ax in panels)
    assert x0 == pytest.approx(x1) and y0 > y1  # one column: the second run under the first
    plt.close(fig)
