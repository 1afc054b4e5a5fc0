"""Animations of 3D runs in 3D axes, saved through the same writers as 2D ones."""

from __future__ import annotations

import numpy as np

from .._checks import integer, scalar
from ..trajectory import Trajectory
from . import _style as style
from ._animate import animation_writer
from ._canvas import checked_dpi, checked_figsize
from ._common import in_scene, pyplot_module, show_present
from ._save_animation import save_frames
from ._shapes3d import draw_shapes_3d
from ._trajectories3d import frame_indices, frame_box, scene3d


def animate3d(traj: Trajectory, *, obstacles=None, scene: int = 0, path=None, fps: float = 20.0,
              max_frames: int | None = 200, trail: int = 10, dpi: int = 90, figsize=(6.5, 6.5),
              title: str | None = None, elev: float = 25.0, azim: float = -60.0, rotate: float = 0.0,
              progress=None):
    """Animate a 3D run: agents as dots with short trails, over the obstacles, in 3D axes.

    As in :func:`animate`, every agent that took part in the run is shown
    while it is in the scene: one that left at its goal (``remove_at_goal``)
    disappears in the frame of the step it left in.

    Parameters
    ----------
    traj
        A 3D Trajectory (positions ``(T, N, 3)``).
    obstacles
        3D shapes to draw, as for :func:`trajectories3d`.
    scene
        Which scene of a Batch trajectory.
    path
        Save the animation there (``.gif`` with pillow, ``.mp4`` with ffmpeg
        when installed); None only returns it.
    fps
        Frames per second of the saved file.
    max_frames
        At most this many frames, evenly spaced over the run (None: all).
    trail
        Frames of trail drawn behind each agent.
    dpi, figsize
        Resolution and size (inches) of the figure.
        ``dpi`` is at most 1200, and the canvas at most 24 x 24 inches at
        that resolution, so that a typo cannot allocate gigabytes.
    title
        Title; the simulated time is shown below it.
    elev, azim
        The view's elevation and azimuth in degrees at the start.
    rotate
        Degrees the view turns about the vertical axis over the whole
        animation (0: a fixed camera).
    progress
        Report the saving frame by frame: True for a bar (tqdm when
        installed), a string for a bar with that label, a callable
        ``progress(done, total)``, or False. None (the default) shows a bar
        for saves of 50 frames or more when standard error is a terminal
        or in a notebook.

    Returns
    -------
    matplotlib.animation.FuncAnimation
    """
    data = scene3d(traj, scene, obstacles)
    fps = scalar(fps, "fps", minimum=0.0, strict=True, maximum=1000.0)
    trail = integer(trail, "trail", minimum=0)
    dpi = checked_dpi(dpi)
    figsize = checked_figsize(figsize, dpi)
    rotate = scalar(rotate, "rotate", minimum=-3600.0, maximum=3600.0)
    writer = None
    if path is not None:
        path, writer = animation_writer(path)
    plt = pyplot_module()
    from matplotlib import animation
    from matplotlib.lines import Line2D
    from mpl_toolkits.mplot3d.art3d import Line3DCollection

    frames = frame_indices(traj, max_frames)
    live = data["live"]
    present = in_scene(traj, data)[:, live]
    positions = data["positions"][:, live]
    n = positions.shape[1]
    lo, hi = data["bounds"]
    fig = plt.figure(figsize=figsize, dpi=dpi, layout="constrained")
    ax = fig.add_subplot(projection="3d")
    drawn = draw_shapes_3d(ax, data["shapes"], bounds=(lo, hi), alpha=0.25)
    frame_box(ax, lo, hi)
    colors = style.agent_colors(n)
    middle = colors[len(colors) // 2]
    handles = [Line2D([], [], linestyle="", marker="o", color=middle, markersize=5),
               Line2D([], [], color=middle, linewidth=1.0)]
    labels = [f"agent ({style.agent_label(n)})", f"trail ({trail} frames)"]
    goals = data["goals"][live][data["has_goal"][live]]
    if len(goals):
        ax.scatter(*goals.T, s=14, marker="o", facecolors="none", edgecolors=style.GOAL_COLOR, linewidths=0.5)
        handles.append(Line2D([], [], linestyle="", marker="o", markerfacecolor="none",
                              markeredgecolor=style.GOAL_COLOR, markersize=5))
        labels.append("goal")
    if drawn:
        from matplotlib.patches import Patch

        handles.append(Patch(facecolor="0.6", edgecolor="0.25", alpha=0.6))
        labels.append(f"obstacle ({drawn})")
    ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.02), ncol=min(len(labels), 3),
              fontsize="small", frameon=False)
    dots = ax.scatter(*positions[0].T, s=18, color=colors, edgecolors="black", linewidths=0.3, depthshade=False)
    trails = Line3DCollection([positions[:1, a] for a in range(n)], colors=colors, linewidths=0.8, alpha=0.6)
    ax.add_collection3d(trails, autolim=False)
    label = ax.set_title("")
    heading = f"{title}\n" if title else ""

    def draw(k: int):
        t = frames[k]
        dots._offsets3d = tuple(positions[t].T)  # matplotlib's way to move 3D scatter points
        show_present(dots, trails, positions, present, colors, frames[max(0, k - trail)], t, trail)
        if rotate:
            ax.view_init(elev=elev, azim=azim + rotate * k / max(len(frames) - 1, 1))
        label.set_text(f"{heading}t = {traj.times[t]:.1f} s")
        return dots, trails, label

    ax.view_init(elev=elev, azim=azim)
    result = animation.FuncAnimation(fig, draw, frames=len(frames), interval=1000.0 / fps, blit=False)
    if path is not None:
        # Its first draw starts `result`.
        save_frames(fig, draw, len(frames), path, writer, fps=fps, dpi=dpi, progress=progress)
    return result
