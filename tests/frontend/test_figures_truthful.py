"""Figures that tell the truth: limits that fit the scene, colours that say what they mean, marks that can be
seen, bars only where a mean is defined, and one kind of return value."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.quiver import Quiver  # noqa: E402

import vosim  # noqa: E402
from vosim import plot, scenarios  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def legend_texts(ax) -> list[str]:
    return [t.get_text() for t in ax.get_legend().get_texts()]


def test_trajectory_limits_fit_the_paths_and_obstacles_not_a_square_around_them():
    traj = scenarios.bottleneck(20, seed=3).build().run(60)
    ax = plot.trajectories(traj).axes[0]
    drawn = np.concatenate([traj.positions.reshape(-1, 2)] + [v for _, v, _ in traj.obstacles])
    lo, hi = drawn.min(axis=0), drawn.max(axis=0)
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    assert x0 <= lo[0] and x1 >= hi[0] and y0 <= lo[1] and y1 >= hi[1]  # everything in view
    assert (y1 - y0) < 1.5 * (hi[1] - lo[1])                              # and not a square's height of margin
    assert (x1 - x0) < 1.5 * (hi[0] - lo[0])


def test_a_run_along_a_line_keeps_a_visible_height():
    sim = vosim.Simulator(time_step=0.25)
    sim.add_agents([[-5.0, 0.0]], goals=[[5.0, 0.0]], radius=0.5)
    ax = plot.trajectories(sim.run(50)).axes[0]
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    assert (y1 - y0) >= 0.25 * (x1 - x0) - 1e-9


def test_many_agents_are_coloured_by_index_on_a_colour_map_never_a_repeating_cycle():
    traj = scenarios.circle(60, radius=40.0).build().run(5)
    figure = plot.trajectories(traj, color_by="agent")
    ax = figure.axes[0]
    colours = ax.collections[0].get_colors()
    assert len(np.unique(np.round(colours, 6), axis=0)) == 60
    assert legend_texts(ax)[0] == "path (colour: agent index, 0 to 59)"
    assert [a.get_ylabel() for a in ax.child_axes] == ["agent index"]  # the colour bar says what colour is
    few = scenarios.headon_pair().build().run(5)
    assert legend_texts(plot.trajectories(few, color_by="agent").axes[0])[0] == "path (colour: agent)"


def test_paths_are_coloured_by_speed_unless_asked_otherwise():
    # An agent's index says nothing about a run; its speed along the path does.
    traj = scenarios.crossing(4).build().run(60)
    figure = plot.trajectories(traj)
    ax = figure.axes[0]
    assert legend_texts(ax)[0] == "path (colour: speed)"
    bars = [a.get_ylabel() for a in ax.child_axes]
    assert len(bars) == 1 and bars[0].startswith("speed")
    # The bar is exactly as tall as the axes beside it, not as the figure.
    figure.canvas.draw()
    bar, box = ax.child_axes[0].get_window_extent(), ax.get_window_extent()
    assert bar.y0 == pytest.approx(box.y0, abs=1) and bar.y1 == pytest.approx(box.y1, abs=1)
    assert box.x1 < bar.x0 and ax.child_axes[0].yaxis.label.get_window_extent().x1 <= figure.bbox.x1
    speeds = ax.collections[0].get_array()
    assert speeds is not None and np.ptp(speeds) > 0.1  # one value a piece of path, read from the colour map


def test_differential_drive_robots_are_named_and_their_arrows_stop_at_arrival():
    scene = scenarios.warehouse(8, aisles=2, seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        traj = scene.build().run(scene.max_steps, until_arrived=True)
    figure = plot.trajectories(traj, show_collisions=False, heading_marks=8)
    assert figure.axes[0].get_title().startswith("ORCA, 8 differential-drive agents, ")
    (arrows,) = [c for c in figure.axes[0].collections if isinstance(c, Quiver)]
    arrival = traj.metrics["arrival_step"]
    assert (arrival >= 0).any()
    # marks at 8 frames for an agent still going, fewer for one that arrived early: the last frame's only after it
    assert len(arrows.get_offsets()) < 8 * 8
    end = traj.positions[-1]
    for k in np.flatnonzero(arrival >= 0):
        at_end = np.all(np.isclose(arrows.get_offsets(), end[k]), axis=1).sum()
        assert at_end == 1
    assert len(arrows.get_offsets()) <= 200


def test_every_drawing_function_returns_its_figure():
    pd = pytest.importorskip("pandas")
    flat = scenarios.crossing(6, seed=1).build()
    traj = flat.run(20)
    assert isinstance(plot.trajectories(traj), Figure)
    assert isinstance(plot.velocity_space(flat, 0), Figure)
    _, ax = plt.subplots()
    assert plot.trajectories(traj, ax=ax) is ax.figure and plot.obstacles(traj.obstacles, ax=ax) is ax.figure
    gate = scenarios.swarm_gate(3)
    sim = gate.build()
    traj3 = sim.run(20)
    assert isinstance(plot.trajectories3d(traj3, obstacles=sim), Figure)
    assert isinstance(plot.projections(traj3, obstacles=sim), Figure)
    assert isinstance(plot.velocity_space3d(sim, agent_id=0), Figure)
    table = pd.DataFrame({"method": ["A", "B"], "scenario": ["s", "s"], "seed": [0, 0], "makespan": [1.0, 2.0]})
    assert isinstance(plot.compare(table), Figure)
    with pytest.raises(ValueError, match="figure is 'curves'; must be one of 'metrics', 'collisions', 'arrivals'"):
        plot.compare(table, figure="curves")
    with pytest.raises(ValueError, match="no per-step data"):
        plot.compare(table, figure="arrivals")


def test_the_gate_is_seen_face_on_so_its_window_shows():
    gate = scenarios.swarm_gate(3)
    sim = gate.build()
    figure = plot.projections(sim.run(20), obstacles=sim)
    assert [ax.get_title() for ax in figure.axes] == ["top view (x-y)", "side view (x-z)", "side view (y-z)"]
    face = figure.axes[2]
    # The y-z view shows the wall's panels around the window: more than one panel, leaving a gap in the middle.
    panels = [p.get_path().get_extents() for p in face.patches if not p.get_hatch()]
    assert len(panels) >= 3


def test_3d_axis_labels_stay_inside_the_figure():
    gate = scenarios.swarm_gate(3)
    sim = gate.build()
    figure = plot.trajectories3d(sim.run(20), obstacles=sim)
    figure.canvas.draw()
    label = figure.axes[0].zaxis.label.get_window_extent()
    box = figure.bbox
    assert label.x1 <= box.x1 and label.x0 >= box.x0 and label.width > 0


def test_animations_have_a_legend_and_heading_ticks_for_every_recorded_heading():
    from matplotlib.collections import LineCollection

    traj = scenarios.crossing(6, seed=1).build().run(10)
    assert set(traj.kinematics) == {"holonomic"}
    animation = plot.animate(traj, max_frames=3)
    animation._draw_next_frame(2, blit=False)
    ax = animation._fig.axes[0]
    labels = legend_texts(ax)
    assert labels[0] == f"agent (disc of its radius; colour: agent index, 0 to {traj.positions.shape[1] - 1})"
    assert "heading (tick from the centre)" in labels
    ticks = [c for c in ax.collections if isinstance(c, LineCollection) and c.get_zorder() == 4]
    assert len(ticks) == 1 and len(ticks[0].get_segments()) == traj.positions.shape[1]
    quiet = plot.animate(traj, max_frames=3, headings=False)
    assert "heading (tick from the centre)" not in legend_texts(quiet._fig.axes[0])
    for anim in (animation, quiet):
        anim._draw_was_started = True  # nothing to render in a test


def test_velocity_space3d_draws_the_binding_planes_over_the_fill_and_the_current_velocity_on_top():
    from matplotlib.patches import Polygon

    info = dict(method="ORCA", velocity=(0.6, -0.4, 0.3), pref_velocity=(0.6, -0.4, 0.3),
                new_velocity=(0.6, -0.4, 0.3), max_speed=1.5,
                planes=dict(point=np.array([[0.6, -0.4, 0.3]]), normal=np.array([[-0.6, -0.6, 0.52]]),
                            obstacle=np.array([False])))
    figure = plot.velocity_space3d(info, agent_id=1)
    assert "agent 1, 1 plane" in figure._suptitle.get_text()
    for ax in figure.axes:
        fill = max(p.get_zorder() for p in ax.patches if isinstance(p, Polygon) and p.get_facecolor()[1] > 0.5)
        assert min(line.get_zorder() for line in ax.get_lines()) > fill
        marks = sorted(ax.collections, key=lambda c: c.get_zorder())
        current = marks[-1]
        assert np.allclose(current.get_facecolors()[:, 3], 0) if len(current.get_facecolors()) else True  # a ring
        assert current.get_sizes()[0] > max(c.get_sizes()[0] for c in marks[:-1])  # wider than the marks under it


def test_velocity_space_titles_count_in_the_right_number_and_hard_half_planes_shade_once():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[-3.0, 0.0], [3.0, 0.0]], goals=[[3.0, 0.0], [-3.0, 0.0]], radius=0.5, max_speed=1.0,
                   velocities=[[1.0, 0.0], [-1.0, 0.0]], time_horizon=5.0)
    assert plot.velocity_space(sim, 0).axes[0].get_title().endswith("\n1 agent half-plane")
    scene = scenarios.mixed_acceleration_crossing(16, seed=2)
    avo = scene.build(method=vosim.AVO())
    avo.run(85)
    ax = plot.velocity_space(avo, 14).axes[0]
    assert "16 hard half-planes" in ax.get_title()
    grey = [p for p in ax.patches if p.get_fill() and p.get_facecolor()[:3] == pytest.approx((0.3, 0.3, 0.3))]
    assert len(grey) == 1  # one shade outside the region every hard half-plane allows, not 16 piled up
    current = next(line for line in ax.get_lines() if line.get_label() == "current velocity")
    assert current.get_zorder() == max(line.get_zorder() for line in ax.get_lines())


def _table(pd):
    rows = []
    for seed in range(3):
        rows.append(dict(method="A", scenario="s", seed=seed, makespan=10.0 + seed, collision_agent_steps=seed,
                         sum_abs_da=3.0))
        rows.append(dict(method="B", scenario="s", seed=seed, makespan=20.0 if seed == 1 else np.nan,
                         collision_agent_steps=125_000 + seed, sum_abs_da=4.0))
        rows.append(dict(method="C", scenario="s", seed=seed, makespan=30.0, collision_agent_steps=40 + seed,
                         sum_abs_da=5.0))
    return pd.DataFrame(rows)


def test_compare_draws_no_mean_where_some_seeds_did_not_finish():
    pd = pytest.importorskip("pandas")
    figure = plot.compare(_table(pd))
    makespan = next(ax for ax in figure.axes if ax.get_title() == "makespan [s]")
    heights = sorted(round(bar.get_height(), 9) for bars in makespan.containers for bar in bars)
    assert heights == [11.0, 30.0]                        # A's and C's means; none for B (1 seed of 3 finished)
    assert [t.get_text() for t in makespan.texts] == ["not finished"]
    assert makespan.texts[0].get_fontsize() >= plt.rcParams["font.size"] * 0.8  # readable, not x-small
    hatched = [patch for patch in makespan.patches if patch.get_hatch()]
    assert len(hatched) == 1  # B's empty slot, hatched over the panel's height
    assert makespan.get_xlabel() == "no value: B 2/3"
    hollow = [c for c in makespan.collections if len(c.get_offsets()) == 1 and not c.get_facecolors().size]
    assert len(hollow) == 1 and hollow[0].get_offsets()[0][1] == 20.0  # the finished seed, drawn hollow


def test_compare_units_and_a_log_scale_where_one_method_dwarfs_the_others():
    pd = pytest.importorskip("pandas")
    figure = plot.compare(_table(pd))
    titles = [ax.get_title() for ax in figure.axes if ax.get_visible()]
    assert "sum |Δa| (jerkiness) [m/s²]" in titles
    collisions = next(ax for ax in figure.axes if ax.get_title().startswith("colliding agent-steps"))
    assert collisions.get_title() == "colliding agent-steps (log scale)" and collisions.get_yscale() == "symlog"
    makespan = next(ax for ax in figure.axes if ax.get_title() == "makespan [s]")
    assert makespan.get_yscale() == "linear"


def test_compare_log_axis_labels_zero_and_each_power_of_ten_apart_from_it():
    pd = pytest.importorskip("pandas")
    table = _table(pd)
    table.loc[table["method"] == "A", "collision_agent_steps"] = [0, 3, 5]  # smallest positive: 3
    figure = plot.compare(table)
    figure.canvas.draw()
    collisions = next(ax for ax in figure.axes if ax.get_title().startswith("colliding agent-steps"))
    ticks = collisions.get_yticks()
    assert ticks[0] == 0.0 and ticks[1] == 1.0  # the linear part ends at the power of ten below 3
    assert np.allclose(np.log10(ticks[1:]), np.arange(len(ticks) - 1))  # then one label a decade
    labels = [label.get_text() for label in collisions.get_yticklabels()]
    assert labels[0] == "0" and all("10^" in label for label in labels[1:])
    assert collisions.get_ylim()[0] == 0.0


def test_compare_draws_the_smallest_clearance_with_the_zero_line_of_overlap():
    pd = pytest.importorskip("pandas")
    table = _table(pd)
    table["min_clearance"] = np.where(table["method"] == "B", -0.12, 0.05)
    figure = plot.compare(table)
    clearance = next(ax for ax in figure.axes if ax.get_title().startswith("smallest clearance"))
    assert clearance.get_title() == "smallest clearance [m] (< 0: overlap)"
    assert any(np.allclose(line.get_ydata(), 0.0) for line in clearance.lines)
    assert "min_clearance" in vosim.comparison.SUMMARY_COLUMNS


def test_arrivals_end_after_the_last_arrival_and_say_which_runs_went_on():
    pd = pytest.importorskip("pandas")
    table = pd.DataFrame([dict(method="A", scenario="s", seed=seed) for seed in (0, 1)]
                         + [dict(method="B", scenario="s", seed=seed) for seed in (0, 1)])
    table.attrs["series"] = {
        ("A", "s", 0): dict(time_step=0.1, arrival_step=np.array([10, 20]), record_steps=np.arange(21)),
        ("A", "s", 1): dict(time_step=0.1, arrival_step=np.array([15, -1]), record_steps=np.arange(2250)),
        ("B", "s", 0): dict(time_step=0.1, arrival_step=np.array([12, 25]), record_steps=np.arange(26)),
        ("B", "s", 1): dict(time_step=0.1, arrival_step=np.array([11, 24]), record_steps=np.arange(25)),
    }
    ax = plot.compare(table, figure="arrivals").axes[0]
    assert ax.get_xlim()[1] == pytest.approx(2.5 * 1.08)  # B's last arrival, not A's unfinished 225 s
    assert [t.get_text() for t in ax.texts] == ["A: 1 of 2 runs\nunfinished, stopped at 225 s"]
