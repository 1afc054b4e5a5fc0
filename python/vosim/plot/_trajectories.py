"""Paths of a run, coloured by agent, speed or time, with collision markers."""

from __future__ import annotations

import numpy as np

from ..trajectory import Trajectory
from . import _style as style
from ._common import in_scene, pyplot_module, frame_stride, obstacles, scene_of
from ._headings import HEADING_COLOR, draw_heading_arrows, heading_frames, use_headings
from ._style import legend_below

COLOR_BY = ("agent", "speed", "time")
#: Most heading arrows drawn in one picture: a large crowd gets fewer per path.
MAX_HEADING_ARROWS = 200


def collisions(positions: np.ndarray, radius: np.ndarray, active=None, *, min_fraction: float = 0.01,
               with_depth: bool = False, periodic=None):
    """Where agents overlapped: one point per overlap episode of a pair, ``(k, 2)``.

    An episode is a run of consecutive frames in which the pair's discs
    overlap by more than ``min_fraction`` of their combined radius (contact
    jitter below that does not count); it is marked at the midpoint of the
    pair in its deepest frame. The search uses the engine's spatial grid.
    With ``with_depth``, also returns each episode's deepest overlap ``(k,)``.
    With ``periodic`` (a trajectory's ``periodic``: axis, low, high), pairs
    are taken at their nearest image, so overlaps across the seam count; the
    mark is at the first agent's side. ``active``: who counts, ``(N,)`` for
    every frame or ``(T, N)`` frame by frame (None: everyone).
    """
    from .. import _core
    from .._periodic import periodic_from

    periodic = periodic_from(periodic)

    positions = np.ascontiguousarray(positions, dtype=np.float64)
    radius = np.ascontiguousarray(radius, dtype=np.float64)
    live = np.ones(radius.shape, dtype=np.uint8) if active is None else np.asarray(active, dtype=np.uint8)
    seam = None if periodic is None else (periodic.index, periodic.low, periodic.high)
    table, depth = _core.overlaps(positions, radius, np.ascontiguousarray(live), float(min_fraction), seam)
    if not len(table):
        return (np.zeros((0, 2)), np.zeros(0)) if with_depth else np.zeros((0, 2))
    order = np.lexsort((table[:, 0], table[:, 2], table[:, 1]))  # by pair, then frame
    table, depth = table[order], depth[order]
    same_pair = (table[1:, 1] == table[:-1, 1]) & (table[1:, 2] == table[:-1, 2])
    starts = np.flatnonzero(np.r_[True, ~(same_pair & (table[1:, 0] == table[:-1, 0] + 1))])
    marks, depths = [], []
    for start, stop in zip(starts, np.r_[starts[1:], len(table)]):
        deepest = start + int(np.argmax(depth[start:stop]))
        frame, a, b = table[deepest]
        other = positions[frame, b].copy()
        if periodic is not None:  # b at its image nearest to a
            gap = positions[frame, a, periodic.index] - other[periodic.index]
            other[periodic.index] += periodic.period * np.round(gap / periodic.period)
        marks.append((positions[frame, a] + other) / 2)
        depths.append(depth[deepest])
    return (np.array(marks), np.array(depths)) if with_depth else np.array(marks)


def colorbar_beside(ax, mappable, label: str):
    """A colour bar just right of ``ax``, exactly as tall as the axes (a bar taken from the figure's space is as
    tall as the figure, far taller than a wide scene's axes)."""
    bar = ax.inset_axes([1.025, 0.0, 0.03, 1.0])
    return ax.figure.colorbar(mappable, cax=bar, label=label)


def trajectories(traj: Trajectory, *, ax=None, scene: int = 0, color_by: str = "speed", title: str | None = None,
                 show_collisions: bool = True, max_frames: int | None = 1000, colorbar: bool = True,
                 linewidth: float = 0.7, headings: bool | None = None, heading_marks: int = 4, legend: bool = True,
                 clim: tuple[float, float] | None = None):
    """Draw the obstacles, then every agent's path, its start (dot) and its goal (ring).

    Agents that did not arrive are marked where they ended (squares), and
    overlaps where they were deepest (small crosses, at most the 150
    deepest); where the scene has differential-drive or unicycle agents,
    short arrows show the headings along each path. The legend, under the axes, explains every mark.

    Parameters
    ----------
    traj
        A Trajectory from ``run()``.
    ax
        Matplotlib axes to draw into; a new figure when None.
    scene
        Which scene of a Batch trajectory to draw.
    color_by
        ``"speed"`` (the default): each piece of path coloured by the speed
        there; ``"time"``: by the time (both with a colour bar);
        ``"agent"``: one colour per agent, to tell paths apart in a small
        scene (an index says nothing about the run).
    title
        Axes title; by default the method, agents, steps and time.
    show_collisions
        Mark with a small x each overlap episode of two agents (deeper than
        1 % of their combined radius), where it was deepest.
    max_frames
        Draw at most this many frames, evenly spaced (None: all); long
        recordings otherwise make slow pictures.
    colorbar
        Add a colour bar for ``"speed"`` and ``"time"``.
    linewidth
        Width of the paths.
    headings
        Draw each agent's heading as an arrow as long as its diameter, at
        ``heading_marks`` frames evenly spaced along its path, the last
        one where it ended. None: when the trajectory recorded headings
        (``traj.headings``) and the scene has a non-holonomic agent (a
        holonomic agent heads where its path goes); True: always (an error
        when it recorded none).
        Large crowds get fewer marks per agent (at most 200 arrows; the
        last frame's always), and an agent none after it arrived (but the
        last: it turns on its goal).
    heading_marks
        How many frames of each path carry a heading arrow.
    legend
        Draw the legend under the axes (False: leave it out, e.g. in all
        but one of several panels that show the same marks).
    clim
        ``(low, high)``: the colour limits of ``"speed"`` or ``"time"``, so
        that several panels can share one scale (and one colour bar); by
        default the drawn values' range.

    Returns
    -------
    matplotlib.figure.Figure
        The figure drawn on (``ax``'s when given; ``fig.axes[0]`` is the
        drawing when not).
    """
    if color_by not in COLOR_BY:
        raise ValueError(f"color_by is {color_by!r}; must be one of {', '.join(map(repr, COLOR_BY))}")
    data = scene_of(traj, scene)
    plt = pyplot_module()
    from matplotlib.collections import LineCollection
    from matplotlib.lines import Line2D

    stride = frame_stride(len(traj.times), max_frames)
    frames = np.unique(np.r_[np.arange(0, len(traj.times), stride), len(traj.times) - 1])
    positions = data["positions"][frames]
    live = data["ids"] >= 0
    live &= data["took_part"]  # agents that left through a sink or at their goal keep their paths
    n = positions.shape[1]
    lo, hi = scene_limits(traj, data, live)
    if ax is None:
        # As tall as the scene needs (within limits), with room for the legend below.
        aspect = float(np.clip((hi[1] - lo[1]) / (hi[0] - lo[0]), MIN_ASPECT, 1.6))
        _, ax = plt.subplots(figsize=(7, 7 * aspect + 1.8), layout="constrained")  # room for the colour bar
    obstacles(traj.obstacles, ax=ax, scene=data["scene"])  # first: everything else is drawn over them
    colors = style.agent_colors(n)
    handles, labels = [], []
    if color_by == "agent":
        segments = [positions[:, k] for k in range(n) if live[k]]
        ax.add_collection(LineCollection(segments, colors=colors[live], linewidths=linewidth, alpha=0.8, zorder=2))
        shown = colors[live] if live.any() else colors
        handles.append(Line2D([], [], color=shown[len(shown) // 2], linewidth=1.5))
        labels.append(f"path ({style.agent_label(n)})")
        if colorbar and style.agents_by_index(n):
            from matplotlib.cm import ScalarMappable
            from matplotlib.colors import Normalize

            colorbar_beside(ax, ScalarMappable(Normalize(0, n - 1), style.agent_cmap()), "agent index")
    else:
        # one segment per agent and pair of drawn frames, coloured at its end
        starts, ends = positions[:-1, live], positions[1:, live]
        segments = np.stack([starts, ends], axis=2).reshape(-1, 2, 2)
        if color_by == "speed":
            values = np.linalg.norm(data["velocities"][frames[1:]][:, live], axis=-1).reshape(-1)
            label, cmap = "speed [m/s]", style.SPEED_CMAP
        else:
            values = np.repeat(np.asarray(traj.times)[frames[1:]], int(live.sum()))
            label, cmap = "time [s]", style.TIME_CMAP
        lines = LineCollection(segments, array=values, cmap=cmap, linewidths=linewidth, zorder=2)
        if clim is not None:
            lines.set_clim(*clim)
        ax.add_collection(lines)
        if colorbar:
            colorbar_beside(ax, lines, label)
        handles.append(Line2D([], [], color=plt.get_cmap(cmap)(0.6), linewidth=1.5))
        labels.append(f"path (colour: {label.split(' [')[0]})")
    has_goal = data["has_goal"] & live
    if has_goal.any():
        # Hollow rings: a start on the same spot (an antipode's) stays visible inside.
        ax.scatter(data["goals"][has_goal, 0], data["goals"][has_goal, 1], s=28, marker="o", facecolors="none",
                   edgecolors=style.GOAL_COLOR, linewidths=0.7, zorder=3)
        handles.append(Line2D([], [], linestyle="", marker="o", markerfacecolor="none",
                              markeredgecolor=style.GOAL_COLOR, markersize=6))
        labels.append("goal")
    ax.scatter(positions[0, live, 0], positions[0, live, 1], s=7,
               color=colors[live] if color_by == "agent" else style.START_COLOR, zorder=4)
    handles.append(Line2D([], [], linestyle="", marker="o", color=style.START_COLOR, markersize=3.5))
    labels.append("start" + (" (agent's colour)" if color_by == "agent" else ""))
    arrived = arrived_mask(traj, data)
    missed = has_goal & ~arrived
    if missed.any():
        final = data["positions"][-1, missed]
        ax.scatter(final[:, 0], final[:, 1], s=30, marker="s", facecolors="none", edgecolors=style.NOT_ARRIVED_COLOR,
                   linewidths=1.2, zorder=5)
        handles.append(Line2D([], [], linestyle="", marker="s", markerfacecolor="none",
                              markeredgecolor=style.NOT_ARRIVED_COLOR, markersize=6, markeredgewidth=1.2))
        labels.append(f"did not arrive ({int(missed.sum())}), at its end")
    if use_headings(headings, data):
        arrows = heading_frames(frames, min(heading_marks, max(1, MAX_HEADING_ARROWS // max(int(live.sum()), 1))))
        # An agent that arrived turns on its goal: its marks after arriving (but the last) would pile up there.
        keep = _moving(traj, data, arrows)[:, live].reshape(-1)
        points = data["positions"][arrows][:, live].reshape(-1, 2)[keep]
        angles = data["headings"][arrows][:, live].reshape(-1)[keep]
        length = np.tile(2 * np.asarray(data["radius"], dtype=np.float64)[live], len(arrows))[keep]
        arrow_colors = np.tile(colors[live], (len(arrows), 1))[keep] if color_by == "agent" else HEADING_COLOR
        draw_heading_arrows(ax, points, angles, length, arrow_colors)
        handles.append(Line2D([], [], linestyle="", marker=r"$\rightarrow$", color=HEADING_COLOR, markersize=9))
        every = traj.times[arrows[1]] - traj.times[arrows[0]] if len(arrows) > 1 else None
        labels.append("heading" + (f" (about every {every:.3g} s, and at the end)" if every else " at the end"))
    if show_collisions:
        # Agents that left stay recorded where they left: nobody overlaps them after that.
        present = in_scene(traj, data)
        present = present & live[None, :] if present.shape[0] == data["positions"].shape[0] else live
        marks, depth = collisions(data["positions"], data["radius"], present, with_depth=True,
                                  periodic=traj.periodic)
        if len(marks):
            shown = np.argsort(-depth, kind="stable")[:style.MAX_OVERLAP_MARKS]
            ax.scatter(marks[shown, 0], marks[shown, 1], s=10, marker="x", color=style.OVERLAP_COLOR,
                       linewidths=0.6, alpha=0.45, zorder=6)
            handles.append(Line2D([], [], linestyle="", marker="x", color=style.OVERLAP_COLOR, markersize=5))
            labels.append(f"overlap ({len(marks)}" + (f"; the {len(shown)} deepest shown)" if len(shown) < len(marks)
                                                     else ")"))
    ax._vosim_legend = (handles, labels)  # what side_by_side gathers into one legend
    if legend:
        legend_below(ax, handles, labels)
    # Limits that fit the paths, goals and obstacles; the box takes their shape (the limits do not take the box's).
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_aspect("equal", adjustable="box")
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    ax.set_title(default_title(traj, data) if title is None else title)
    return ax.figure


#: The least height of a drawn scene as a share of its width: a run along a line keeps a visible height.
MIN_ASPECT = 0.25


def scene_limits(traj: Trajectory, data: dict, live: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper corners of what a picture of the scene shows: every recorded position of the live agents,
    their goals and the scene's obstacles, padded by the largest radius and 4 % of the larger side, and
    widened (about the middle) so that neither side is under MIN_ASPECT of the other."""
    points = [data["positions"][:, live].reshape(-1, 2)]
    goals = data["has_goal"] & live
    if goals.any():
        points.append(np.asarray(data["goals"])[goals])
    for _, vertices, owner in traj.obstacles:
        if data["scene"] is None or owner is None or owner == data["scene"]:
            points.append(np.asarray(vertices, dtype=np.float64).reshape(-1, 2))
    every = np.concatenate(points)
    every = every[np.isfinite(every).all(axis=1)]
    if not len(every):
        return np.array([-1.0, -1.0]), np.array([1.0, 1.0])
    lo, hi = every.min(axis=0), every.max(axis=0)
    radius = float(np.max(np.asarray(data["radius"], dtype=np.float64)[live], initial=0.0))
    pad = radius + 0.04 * float(np.max(hi - lo)) + 1e-3
    lo, hi = lo - pad, hi + pad
    span = hi - lo
    least = MIN_ASPECT * span.max()
    grow = np.maximum(least - span, 0.0) / 2
    return lo - grow, hi + grow


def _moving(traj: Trajectory, data: dict, frames: np.ndarray) -> np.ndarray:
    """``(len(frames), N)``: whether each agent had not yet arrived at each frame (the last frame: always)."""
    steps = (traj.metrics or {}).get("arrival_step")
    count = np.asarray(data["ids"]).shape[0]
    if steps is None or getattr(traj, "steps", None) is None:
        return np.ones((len(frames), count), dtype=bool)
    steps = np.asarray(steps)
    steps = steps[data["scene"]] if data["scene"] is not None else steps
    ran = np.asarray(traj.steps)[frames] - np.asarray(traj.steps)[0]  # steps of the run at each frame
    moving = (steps < 0)[None, :] | (ran[:, None] <= steps[None, :])
    moving[np.asarray(frames) == len(traj.times) - 1] = True
    return moving


def arrived_mask(traj: Trajectory, data: dict) -> np.ndarray:
    """Whether each agent of the scene arrived during the run (or, without metrics, is at its goal at the end)."""
    steps = (traj.metrics or {}).get("arrival_step")
    if steps is not None:
        steps = np.asarray(steps)
        return (steps[data["scene"]] if data["scene"] is not None else steps) >= 0
    reach = traj.radius if traj.arrival_radius is None else traj.arrival_radius
    reach = np.asarray(reach)[data["scene"]] if data["scene"] is not None else np.asarray(reach)
    with np.errstate(invalid="ignore"):
        return np.linalg.norm(data["positions"][-1] - data["goals"], axis=-1) <= reach


def default_title(traj: Trajectory, data: dict) -> str:
    """``ORCA, 250 agents, 3137 steps (784 s)`` (and the scene of a batch); agents that are not holonomic are
    named by their kinematics: ``ORCA, 40 differential-drive agents, ...``."""
    method = traj.method.get("method", "") if isinstance(traj.method, dict) else ""
    slots = np.asarray(data["ids"]) >= 0
    live = int(np.sum(slots))
    where = f", scene {data['scene']}" if data["scene"] is not None else ""
    return (f"{method}{', ' if method else ''}{_agents(data['kinematics'], slots, live)}, {traj.steps_run} steps "
            f"({traj.steps_run * traj.time_step:.4g} s){where}")


def _agents(kinematics, slots: np.ndarray, live: int) -> str:
    """``250 agents``, ``40 differential-drive agents`` or ``40 agents (30 differential-drive, 10 holonomic)``."""
    noun = "agent" if live == 1 else "agents"
    if kinematics is None:
        return f"{live} {noun}"
    names, counts = np.unique(np.asarray(kinematics)[slots].astype(str), return_counts=True)
    names = [name.replace("_", "-") for name in names]  # differential_drive -> differential-drive
    if len(names) == 1:
        return f"{live} {noun}" if names[0] == "holonomic" else f"{live} {names[0]} {noun}"
    order = np.argsort(-counts, kind="stable")
    return f"{live} {noun} (" + ", ".join(f"{counts[k]} {names[k]}" for k in order) + ")"
