"""Paths of a 3D run: in 3D axes, and as top and side projections, with the obstacles."""

from __future__ import annotations

import numpy as np

from ..trajectory import Trajectory
from . import _style as style
from ._common import pyplot_module, frame_stride, scene_of
from ._shapes3d import PLANES, draw_shapes_3d, draw_shapes_projected, shape_bounds, shapes_of
from ._trajectories import arrived_mask, default_title

AXIS_LABELS = ("x [m]", "y [m]", "z [m]")
VIEW_NAMES = {"xy": "top view (x-y)", "xz": "side view (x-z)", "yz": "side view (y-z)"}


def scene3d(traj: Trajectory, scene: int, obstacles) -> dict:
    """One scene of a 3D trajectory (as ``scene_of``) plus its live agents, shapes and bounds."""
    data = scene_of(traj, scene)
    if data["positions"].shape[-1] != 3:
        raise ValueError(f"traj: expected a 3D trajectory (positions (T, N, 3)), got positions of shape "
                         f"{data['positions'].shape}; use vosim.plot.trajectories for 2D runs")
    live = data["ids"] >= 0
    live &= data["took_part"]  # agents that left through a sink or at their goal keep their paths
    data["live"] = live
    data["shapes"] = shapes_of(traj.obstacles if obstacles is None else obstacles, scene=data["scene"])
    points = [data["positions"][:, live].reshape(-1, 3)]
    has_goal = data["has_goal"] & live
    if has_goal.any():
        points.append(data["goals"][has_goal])
    every = np.concatenate(points)
    lo, hi = np.nanmin(every, axis=0), np.nanmax(every, axis=0)
    box = shape_bounds(data["shapes"])
    if box is not None:
        lo, hi = np.minimum(lo, box[0]), np.maximum(hi, box[1])
    pad = 0.05 * float(np.max(hi - lo)) + float(np.max(data["radius"][live], initial=0.0))
    data["bounds"] = (lo - pad, hi + pad)
    return data


def frame_box(ax, lo, hi) -> None:
    """3D axes spanning the box [lo, hi] at true proportions, with labelled axes in metres."""
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_zlim(lo[2], hi[2])
    # Zoomed out a little: a flat box's z label otherwise falls outside the figure.
    ax.set_box_aspect(hi - lo, zoom=0.85)
    ax.zaxis.labelpad = 6
    ax.set_xlabel(AXIS_LABELS[0])
    ax.set_ylabel(AXIS_LABELS[1])
    ax.set_zlabel(AXIS_LABELS[2])


def frame_indices(traj: Trajectory, max_frames) -> np.ndarray:
    stride = frame_stride(len(traj.times), max_frames)
    return np.unique(np.r_[np.arange(0, len(traj.times), stride), len(traj.times) - 1])


def _draw(ax, traj, data, frames, axes, linewidth):
    """Paths, starts, goals and agents that did not arrive, in 2 or 3 coordinates; returns legend entries."""
    from matplotlib.lines import Line2D

    live = data["live"]
    positions = data["positions"][frames][:, live][..., axes]
    colors = style.agent_colors(int(live.sum()))
    handles, labels = [], []
    if len(axes) == 3:
        from mpl_toolkits.mplot3d.art3d import Line3DCollection

        ax.add_collection3d(Line3DCollection([positions[:, k] for k in range(positions.shape[1])], colors=colors,
                                             linewidths=linewidth, alpha=0.85))
    else:
        from matplotlib.collections import LineCollection

        ax.add_collection(LineCollection([positions[:, k] for k in range(positions.shape[1])], colors=colors,
                                         linewidths=linewidth, alpha=0.85, zorder=2))
    handles.append(Line2D([], [], color=colors[len(colors) // 2], linewidth=1.5))
    labels.append(f"path ({style.agent_label(len(colors))})")
    has_goal = (data["has_goal"] & live)
    if has_goal.any():
        goals = data["goals"][has_goal][:, axes]
        ax.scatter(*goals.T, s=24, marker="o", facecolors="none", edgecolors=style.GOAL_COLOR, linewidths=0.7,
                   zorder=3)
        handles.append(Line2D([], [], linestyle="", marker="o", markerfacecolor="none",
                              markeredgecolor=style.GOAL_COLOR, markersize=6))
        labels.append("goal")
    ax.scatter(*positions[0].T, s=7, color=colors, zorder=4)
    handles.append(Line2D([], [], linestyle="", marker="o", color=style.START_COLOR, markersize=3.5))
    labels.append("start (agent's colour)")
    missed = has_goal & ~arrived_mask(traj, data)
    if missed.any():
        final = data["positions"][-1, missed][:, axes]
        ax.scatter(*final.T, s=30, marker="s", facecolors="none", edgecolors=style.NOT_ARRIVED_COLOR,
                   linewidths=1.2, zorder=5)
        handles.append(Line2D([], [], linestyle="", marker="s", markerfacecolor="none",
                              markeredgecolor=style.NOT_ARRIVED_COLOR, markersize=6, markeredgewidth=1.2))
        labels.append(f"did not arrive ({int(missed.sum())}), at its end")
    return handles, labels


def _obstacle_entry(count: int):
    from matplotlib.patches import Patch

    return Patch(facecolor="0.6", edgecolor="0.25", alpha=0.6), f"obstacle ({count})"


def trajectories3d(traj: Trajectory, *, obstacles=None, ax=None, scene: int = 0, title: str | None = None,
                   max_frames: int | None = 1000, linewidth: float = 0.8, elev: float = 25.0,
                   azim: float = -60.0):
    """Draw a 3D run in 3D axes: obstacles, every agent's path, start (dot), goal (ring).

    Agents that did not arrive are marked where they ended (squares). The
    axes have equal scales in x, y and z, so shapes and distances look as
    they are.

    Parameters
    ----------
    traj
        A 3D Trajectory (positions ``(T, N, 3)``).
    obstacles
        3D shapes to draw: a list, an ObstacleSet3D, or the simulator the
        run came from (its ``obstacle_shapes``; a batch's shared shapes and
        those of ``scene``). Half-spaces show as the piece of their plane
        inside the scene's bounds.
    ax
        3D axes (``projection="3d"``) to draw into; a new figure when None.
    scene
        Which scene of a Batch trajectory.
    title
        Axes title; by default the method, agents, steps and time.
    max_frames
        Draw at most this many frames, evenly spaced (None: all).
    linewidth
        Width of the paths.
    elev, azim
        The view's elevation and azimuth in degrees.

    Returns
    -------
    matplotlib.figure.Figure
        The figure drawn on (``ax``'s when given; ``fig.axes[0]`` is the
        3D axes when not).
    """
    data = scene3d(traj, scene, obstacles)
    plt = pyplot_module()
    if ax is None:
        fig = plt.figure(figsize=(7.5, 7.5))
        ax = fig.add_subplot(projection="3d")
    if getattr(ax, "name", "") != "3d":
        raise ValueError("ax: expected 3D axes (fig.add_subplot(projection='3d'))")
    lo, hi = data["bounds"]
    drawn = draw_shapes_3d(ax, data["shapes"], bounds=(lo, hi))
    handles, labels = _draw(ax, traj, data, frame_indices(traj, max_frames), [0, 1, 2], linewidth)
    if drawn:
        handle, label = _obstacle_entry(drawn)
        handles.append(handle)
        labels.append(label)
    frame_box(ax, lo, hi)
    ax.view_init(elev=elev, azim=azim)
    ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.02), ncol=min(3, len(labels)),
              fontsize="small", frameon=False)
    ax.set_title(default_title(traj, data) if title is None else title)
    return ax.figure


def projections(traj: Trajectory, *, obstacles=None, planes=("xy", "xz", "yz"), scene: int = 0,
                title: str | None = None,
                max_frames: int | None = 1000, linewidth: float = 0.7):
    """Top and side views of a 3D run: the paths and obstacles projected on coordinate planes.

    By default the top view and both side views: a wall seen edge-on in two
    views (an opening in it invisible) shows its face in the third.

    Parameters
    ----------
    traj
        A 3D Trajectory (positions ``(T, N, 3)``).
    obstacles
        3D shapes to draw, as for :func:`trajectories3d`. Bounded shapes
        show as their shadows; a half-space only where its plane is seen
        edge-on (the ground in a side view, hatched).
    planes
        The views, among ``"xy"`` (top), ``"xz"`` and ``"yz"`` (sides); all
        three by default.
    scene, title, max_frames, linewidth
        As for :func:`trajectories3d`.

    Returns
    -------
    matplotlib.figure.Figure
        Its ``axes`` are the views, one per plane in the order given.
    """
    planes = tuple(planes)
    unknown = [p for p in planes if p not in PLANES]
    if not planes or unknown:
        raise ValueError(f"planes: expected some of {', '.join(map(repr, PLANES))}, got {planes!r}")
    data = scene3d(traj, scene, obstacles)
    plt = pyplot_module()
    lo, hi = data["bounds"]
    # Panels as tall as their contents need: no empty canvas above a flat top view.
    aspect = max((hi[PLANES[p][1]] - lo[PLANES[p][1]]) / (hi[PLANES[p][0]] - lo[PLANES[p][0]]) for p in planes)
    width = 5.2
    fig, axs = plt.subplots(1, len(planes), figsize=(width * len(planes), width * min(max(aspect, 0.3), 1.6) + 1.4),
                            layout="constrained", squeeze=False)
    frames = frame_indices(traj, max_frames)
    drawn_any = 0
    for ax, plane in zip(axs[0], planes):
        axes = list(PLANES[plane])
        drawn_any = max(drawn_any, draw_shapes_projected(ax, data["shapes"], plane=plane, bounds=(lo, hi)))
        handles, labels = _draw(ax, traj, data, frames, axes, linewidth)
        ax.set_xlim(lo[axes[0]], hi[axes[0]])
        ax.set_ylim(lo[axes[1]], hi[axes[1]])
        ax.set_aspect("equal")
        ax.set_xlabel(AXIS_LABELS[axes[0]])
        ax.set_ylabel(AXIS_LABELS[axes[1]])
        ax.set_title(VIEW_NAMES[plane])
    if drawn_any:
        handle, label = _obstacle_entry(len(data["shapes"]))
        handles.append(handle)
        half_spaces = any(type(s).__name__ == "HalfSpace" for s in data["shapes"])
        labels.append(label + ("; hatched: half-space seen edge-on" if half_spaces else ""))
    fig.legend(handles, labels, loc="outside lower center", ncol=min(len(labels), 3), fontsize="small",
               frameon=False)
    fig.suptitle(default_title(traj, data) if title is None else title)
    return fig
