"""Paths of a run, coloured by agent, speed or time, with collision markers."""

from __future__ import annotations

import numpy as np

from ..trajectory import Trajectory
from ._common import _pyplot, frame_stride, obstacles, scene_of

COLOR_BY = ("agent", "speed", "time")


def collisions(positions: np.ndarray, radius: np.ndarray, active=None, *, min_fraction: float = 0.01) -> np.ndarray:
    """Where agents overlapped: one point per overlap episode of a pair, ``(k, 2)``.

    An episode is a run of consecutive frames in which the pair's discs
    overlap by more than ``min_fraction`` of their combined radius (contact
    jitter below that does not count); it is marked at the midpoint of the
    pair in its deepest frame. The search uses the engine's spatial grid.
    """
    from .. import _core

    positions = np.ascontiguousarray(positions, dtype=np.float64)
    radius = np.ascontiguousarray(radius, dtype=np.float64)
    live = np.ones(radius.shape, dtype=np.uint8) if active is None else np.asarray(active, dtype=np.uint8)
    table, depth = _core.overlaps(positions, radius, np.ascontiguousarray(live), float(min_fraction))
    if not len(table):
        return np.zeros((0, 2))
    order = np.lexsort((table[:, 0], table[:, 2], table[:, 1]))  # by pair, then frame
    table, depth = table[order], depth[order]
    same_pair = (table[1:, 1] == table[:-1, 1]) & (table[1:, 2] == table[:-1, 2])
    starts = np.flatnonzero(np.r_[True, ~(same_pair & (table[1:, 0] == table[:-1, 0] + 1))])
    marks = []
    for start, stop in zip(starts, np.r_[starts[1:], len(table)]):
        deepest = start + int(np.argmax(depth[start:stop]))
        frame, a, b = table[deepest]
        marks.append((positions[frame, a] + positions[frame, b]) / 2)
    return np.array(marks)


def trajectories(traj: Trajectory, *, ax=None, scene: int = 0, color_by: str = "agent", title: str | None = None,
                 show_collisions: bool = True, max_frames: int | None = 1000, colorbar: bool = True,
                 linewidth: float = 0.7):
    """Draw the obstacles and every agent's path, its start (dot) and its goal (cross).

    Parameters
    ----------
    traj
        A Trajectory from ``run()``.
    ax
        Matplotlib axes to draw into; a new figure when None.
    scene
        Which scene of a Batch trajectory to draw.
    color_by
        ``"agent"``: one colour per agent; ``"speed"``: each piece of path
        coloured by the speed there; ``"time"``: by the time (both with a
        colour bar).
    title
        Axes title.
    show_collisions
        Mark with a red x each overlap episode of two agents (deeper than 1 %
        of their combined radius), where it was deepest.
    max_frames
        Draw at most this many frames, evenly spaced (None: all); long
        recordings otherwise make slow pictures.
    colorbar
        Add a colour bar for ``"speed"`` and ``"time"``.
    linewidth
        Width of the paths.

    Returns
    -------
    matplotlib.axes.Axes
    """
    if color_by not in COLOR_BY:
        raise ValueError(f"color_by is {color_by!r}; must be one of {', '.join(map(repr, COLOR_BY))}")
    data = scene_of(traj, scene)
    plt = _pyplot()
    from matplotlib.collections import LineCollection

    if ax is None:
        _, ax = plt.subplots(figsize=(7, 7))
    stride = frame_stride(len(traj.times), max_frames)
    frames = np.unique(np.r_[np.arange(0, len(traj.times), stride), len(traj.times) - 1])
    positions = data["positions"][frames]
    live = data["ids"] >= 0
    if data["active"] is not None:
        live &= data["active"]
    n = positions.shape[1]
    obstacles(traj.obstacles, ax=ax, scene=data["scene"])
    colors = plt.get_cmap("hsv")(np.linspace(0.0, 1.0, max(n, 1), endpoint=False))
    if color_by == "agent":
        segments = [positions[:, k] for k in range(n) if live[k]]
        ax.add_collection(LineCollection(segments, colors=colors[live], linewidths=linewidth, alpha=0.8))
    else:
        # one segment per agent and pair of drawn frames, coloured at its end
        starts, ends = positions[:-1, live], positions[1:, live]
        segments = np.stack([starts, ends], axis=2).reshape(-1, 2, 2)
        if color_by == "speed":
            values = np.linalg.norm(data["velocities"][frames[1:]][:, live], axis=-1).reshape(-1)
            label, cmap = "speed [m/s]", "viridis"
        else:
            values = np.repeat(np.asarray(traj.times)[frames[1:]], int(live.sum()))
            label, cmap = "time [s]", "plasma"
        lines = LineCollection(segments, array=values, cmap=cmap, linewidths=linewidth)
        ax.add_collection(lines)
        if colorbar:
            ax.figure.colorbar(lines, ax=ax, label=label, shrink=0.8)
    ax.scatter(positions[0, live, 0], positions[0, live, 1], s=6, color=colors[live] if color_by == "agent" else "0.3",
               zorder=3, label="start")
    has_goal = data["has_goal"] & live
    if has_goal.any():
        ax.scatter(data["goals"][has_goal, 0], data["goals"][has_goal, 1], s=10, marker="x", color="black",
                   linewidths=0.6, zorder=3, label="goal")
    if show_collisions:
        marks = collisions(data["positions"], data["radius"], live)
        if len(marks):
            many = len(marks) > 50  # smaller, fainter markers when there are many, so that paths stay visible
            ax.scatter(marks[:, 0], marks[:, 1], s=12 if many else 40, marker="x", color="red",
                       linewidths=0.8 if many else 1.5, alpha=0.6 if many else 1.0, zorder=4,
                       label=f"overlaps ({len(marks)})")
            ax.legend(loc="upper right", fontsize="small")
    ax.autoscale_view()
    ax.set_aspect("equal", adjustable="datalim")  # a narrow run (two agents on a line) keeps a visible height
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    if title:
        ax.set_title(title)
    return ax
