"""Animations of runs, saved through matplotlib's writers (pillow for GIF, ffmpeg for MP4)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .._checks import integer, scalar
from ..trajectory import Trajectory
from . import _style as style
from ._canvas import checked_dpi, checked_figsize
from ._common import in_scene, pyplot_module, frame_stride, obstacles, scene_of, show_present
from ._headings import HEADING_COLOR, heading_ticks, use_headings
from ._save_animation import save_frames

WRITERS = {".gif": "pillow", ".mp4": "ffmpeg", ".webm": "ffmpeg", ".mkv": "ffmpeg"}


def animation_writer(path, argument: str = "path") -> tuple[Path, str]:
    """``path`` and the name of the matplotlib writer its suffix needs, checked to be available.

    Raises
    ------
    ValueError
        An unknown suffix, or a writer matplotlib cannot find (naming ``argument``).
    """
    path = Path(path)
    writer = WRITERS.get(path.suffix.lower())
    if writer is None:
        raise ValueError(f"{argument}: cannot tell the format of {str(path)!r}; use one of {', '.join(WRITERS)}")
    pyplot_module()
    from matplotlib import animation

    if not animation.writers.is_available(writer):
        raise ValueError(f"{argument}: writing {path.suffix} needs {writer}, which matplotlib cannot find"
                         + ("; install ffmpeg, or write a .gif" if writer == "ffmpeg" else ""))
    return path, writer


def animate(traj: Trajectory, *, scene: int = 0, path=None, fps: float = 20.0, max_frames: int | None = 300,
            trail: int = 10, dpi: int = 100, figsize=None, title: str | None = None, headings: bool | None = None,
            progress=None):
    """Animate a run: agents as discs of their radius, with short trails, over the obstacles.

    Every agent that took part in the run is shown while it is in the scene:
    one that left through a sink or at its goal (``remove_at_goal``)
    disappears in the frame of the step it left in. Each disc carries a tick from its centre to its rim along its heading
    (where the trajectory recorded headings), and a legend under the axes
    explains the marks.

    Parameters
    ----------
    traj
        A Trajectory from ``run()``.
    scene
        Which scene of a Batch trajectory.
    path
        Save the animation there (``.gif`` with pillow, ``.mp4`` with ffmpeg
        when it is installed); None only returns it.
    fps
        Frames per second of the saved file.
    max_frames
        At most this many frames, evenly spaced over the run (None: every
        recorded frame).
    trail
        Frames of trail drawn behind each agent.
    dpi, figsize
        Resolution and size (inches) of the figure; by default the size
        follows the scene's shape, so that little canvas is left empty.
        ``dpi`` is at most 1200, and the canvas at most 24 x 24 inches at
        that resolution, so that a typo cannot allocate gigabytes.
    title
        Title; the simulated time is shown below it.
    headings
        Draw each agent's heading as a tick on its disc. None: when the
        trajectory recorded headings (``traj.headings``; a holonomic
        agent's is its direction of travel); True: always (an error when
        it recorded none); False: never.
    progress
        Report the saving frame by frame: True for a bar (tqdm when
        installed), a string for a bar with that label, a callable
        ``progress(done, total)``, or False. None (the default) shows a bar
        for saves of 50 frames or more when standard error is a terminal
        or in a notebook.

    Returns
    -------
    matplotlib.animation.FuncAnimation

    Raises
    ------
    ValueError
        ``path`` with an unknown suffix, or for MP4 when matplotlib finds no
        ffmpeg.
    """
    data = scene_of(traj, scene)
    fps = scalar(fps, "fps", minimum=0.0, strict=True, maximum=1000.0)
    trail = integer(trail, "trail", minimum=0)
    dpi = checked_dpi(dpi)
    figsize = checked_figsize(figsize, dpi)
    writer = None
    if path is not None:
        path, writer = animation_writer(path)
    plt = pyplot_module()
    from matplotlib import animation
    from matplotlib.collections import EllipseCollection, LineCollection

    stride = frame_stride(len(traj.times), max_frames)
    frames = np.unique(np.r_[np.arange(0, len(traj.times), stride), len(traj.times) - 1])
    present = in_scene(traj, data)
    live = present.any(axis=0)  # in the scene at some frame: it gets a disc, shown while it is there
    present = present[:, live]
    positions = data["positions"][:, live]
    radius = np.asarray(data["radius"])[live]
    n = positions.shape[1]

    every = positions.reshape(-1, 2)
    lo, hi = np.nanmin(every, axis=0) - radius.max(initial=0) - 1, np.nanmax(every, axis=0) + radius.max(initial=0) + 1
    for _, vertices, owner in traj.obstacles:
        if data["scene"] is None or owner is None or owner == data["scene"]:
            lo, hi = np.minimum(lo, vertices.min(axis=0)), np.maximum(hi, vertices.max(axis=0))
    if figsize is None:
        # The canvas takes the scene's shape (within limits), so that a long corridor is not a thin strip.
        aspect = float(np.clip((hi[1] - lo[1]) / max(hi[0] - lo[0], 1e-9), 0.3, 2.0))
        # At least 6 inches wide, so that the legend under a tall scene fits; 1.2 inches for title and legend.
        figsize = (7.0, 7.0 * aspect + 1.2) if aspect <= 1 else (max(7.0 / aspect, 6.0), 8.2)
    fig, ax = plt.subplots(figsize=figsize, dpi=dpi, layout="constrained")
    obstacles(traj.obstacles, ax=ax, scene=data["scene"])
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_aspect("equal")
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    colors = style.agent_colors(n)
    goals = data["goals"][live][data["has_goal"][live]]
    if len(goals):
        ax.scatter(goals[:, 0], goals[:, 1], s=16, marker="o", facecolors="none", edgecolors=style.GOAL_COLOR,
                   linewidths=0.6, zorder=2)
    discs = EllipseCollection(2 * radius, 2 * radius, np.zeros(n), units="xy", offsets=positions[0],
                              offset_transform=ax.transData, facecolors=colors, edgecolors="black",
                              linewidths=0.3, zorder=3)
    ax.add_collection(discs)
    trails = LineCollection([], colors=colors, linewidths=0.8, alpha=0.6, zorder=2)
    ax.add_collection(trails)
    # Unlike a still picture, an animation shows no path to read a direction from: every recorded heading
    # is drawn by default (a holonomic agent's is its direction of travel).
    draw_ticks = data["headings"] is not None if headings is None else use_headings(headings, data)
    angles = data["headings"][:, live] if draw_ticks else None
    ticks = None
    if angles is not None:
        ticks = LineCollection([], colors=HEADING_COLOR, linewidths=1.2, zorder=4)
        ax.add_collection(ticks)
    _legend(ax, colors, trail, len(goals) > 0, ticks is not None)
    label = ax.set_title("")
    heading = f"{title}\n" if title else ""

    def draw(k: int):
        t = frames[k]
        discs.set_offsets(positions[t])
        here = show_present(discs, trails, positions, present, colors, frames[max(0, k - trail)], t, trail)
        if ticks is not None:
            ticks.set_segments(heading_ticks(positions[t][here], angles[t][here], radius[here]))
        label.set_text(f"{heading}t = {traj.times[t]:.1f} s")
        return (discs, trails, label) if ticks is None else (discs, trails, ticks, label)

    result = animation.FuncAnimation(fig, draw, frames=len(frames), interval=1000.0 / fps, blit=False)
    if path is not None:
        # Its first draw starts `result`.
        save_frames(fig, draw, len(frames), path, writer, fps=fps, dpi=dpi, progress=progress)
    return result


def _legend(ax, colors, trail: int, goals: bool, ticks: bool) -> None:
    """The legend of an animation: a disc (what its colour means), its heading tick, the trail and the goals."""
    from matplotlib.lines import Line2D

    from ._style import legend_below

    middle = colors[len(colors) // 2]
    handles = [Line2D([], [], linestyle="", marker="o", markerfacecolor=middle, markeredgecolor="black",
                      markersize=9)]
    labels = [f"agent (disc of its radius; {style.agent_label(len(colors))})"]
    if ticks:
        handles.append(Line2D([], [], color=HEADING_COLOR, linewidth=1.2))
        labels.append("heading (tick from the centre)")
    if trail:
        handles.append(Line2D([], [], color=middle, linewidth=0.8, alpha=0.6))
        labels.append(f"trail ({trail} frames)")
    if goals:
        handles.append(Line2D([], [], linestyle="", marker="o", markerfacecolor="none",
                              markeredgecolor=style.GOAL_COLOR, markersize=5))
        labels.append("goal")
    legend_below(ax, handles, labels, columns=2)
