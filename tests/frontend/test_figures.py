"""The figures explain every mark, hide nothing and use one colour-blind-safe style."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.colors import to_hex  # noqa: E402

import vosim  # noqa: E402
from vosim import plot, scenarios  # noqa: E402
from vosim.plot import _style as style  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def stalled_pair() -> vosim.Trajectory:
    sim = vosim.Simulator(time_step=0.25)
    sim.add_agents([[-5.0, 0.0], [5.0, 0.0]], goals=[[5.0, 0.0], [-5.0, 0.0]], radius=0.5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return sim.run(200, until_arrived=True)


def legend_texts(figure) -> list[str]:
    return [t.get_text() for t in figure.axes[0].get_legend().get_texts()]


def test_agents_that_did_not_arrive_are_marked_and_the_title_says_what_ran():
    figure = plot.trajectories(stalled_pair())
    assert "did not arrive (2), at its end" in legend_texts(figure)
    assert figure.axes[0].get_title() == "ORCA, 2 agents, 200 steps (50 s)"
    assert plot.trajectories(stalled_pair(), title="mine").axes[0].get_title() == "mine"


def test_every_mark_is_in_a_legend_below_the_axes():
    ax = plot.trajectories(stalled_pair(), color_by="agent").axes[0]
    assert legend_texts(ax.figure)[:3] == ["path (colour: agent)", "goal", "start (agent's colour)"]
    ax.figure.canvas.draw()
    legend_box = ax.get_legend().get_window_extent()
    assert legend_box.y1 <= ax.get_window_extent().y0  # under the axes: it covers no path


def test_overlaps_are_capped_small_and_translucent():
    scenario = scenarios.circle(60, radius=30.0)
    traj = scenario.build(vosim.ForceBased(avoidance_stiffness=0.0)).run(400)
    ax = plot.trajectories(traj).axes[0]
    label = next(text for text in legend_texts(ax.figure) if text.startswith("overlap"))
    total = int(label.split("(")[1].split(";")[0].rstrip(")"))
    assert total > style.MAX_OVERLAP_MARKS and f"the {style.MAX_OVERLAP_MARKS} deepest shown" in label
    marks = [c for c in ax.collections if c.get_zorder() == 6]
    assert len(marks) == 1 and len(marks[0].get_offsets()) == style.MAX_OVERLAP_MARKS
    assert marks[0].get_alpha() < 0.6


def test_starts_stay_visible_inside_hollow_goal_rings_and_obstacles_come_first():
    scenario = scenarios.bottleneck(10, seed=0)
    traj = scenario.build().run(50)
    ax = plot.trajectories(traj).axes[0]
    goal_rings = [c for c in ax.collections if c.get_zorder() == 3]
    assert goal_rings and np.all(goal_rings[0].get_facecolors()[:, 3] == 0)  # hollow
    obstacle_z = max(artist.get_zorder() for artist in ax.patches + ax.lines)
    assert ax.lines and obstacle_z < min(c.get_zorder() for c in ax.collections)


def test_agent_colours_are_the_colour_blind_safe_palette():
    ax = plot.trajectories(stalled_pair(), color_by="agent").axes[0]
    paths = ax.collections[0]
    assert {to_hex(c) for c in paths.get_colors()} <= {c.lower() for c in style.SERIES_COLORS}


def test_compare_lists_runs_without_a_value_instead_of_drawing_labels_over_the_bars():
    pd = pytest.importorskip("pandas")
    table = vosim.compare([vosim.ORCA(), vosim.HRVO()], ["headon_pair"], seeds=2, steps=20)
    figures = {"metrics": plot.compare(table)}
    makespan = next(ax for ax in figures["metrics"].axes if ax.get_title() == "makespan [s]")
    assert makespan.get_xlabel() == "no value: ORCA 2/2, HRVO 2/2"
    assert not any("×" in t.get_text() for ax in figures["metrics"].axes for t in ax.texts)
    assert isinstance(pd.DataFrame, type)


def test_arrival_curves_run_to_the_end_of_the_run():
    table = vosim.compare([vosim.ORCA()], ["headon_pair"], seeds=1, steps=20)
    ax = plot.compare(table, figure="arrivals").axes[0]
    line = ax.get_lines()[0]
    assert line.get_xdata()[-1] == pytest.approx(20 * scenarios.headon_pair().time_step)
    assert "range over seeds (line: mean)" in [t.get_text() for t in ax.figure.legends[0].get_texts()]


def test_velocity_space_explains_the_colours_of_cones_and_half_planes():
    sim = scenarios.crossing(8, seed=1).build()
    sim.run(40)
    orca = legend_texts(plot.velocity_space(sim, 3))
    assert "forbidden by a neighbour (ORCA half-plane)" in orca
    sim.method = vosim.HRVO()
    hrvo = legend_texts(plot.velocity_space(sim, 3))
    assert "velocity obstacle of a neighbour" in hrvo


def test_animation_canvas_follows_the_scene():
    traj = scenarios.corridor(10, seed=1).build().run(5)
    anim = plot.animate(traj, max_frames=2)
    width, height = anim._fig.get_size_inches()
    assert width > 2 * height  # a corridor: wide, not square
    anim._draw_was_started = True  # nothing to render in a test
