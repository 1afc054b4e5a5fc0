"""Pictures of runs (needs matplotlib: ``pip install "vosim[plot]"``)."""

from __future__ import annotations

import numpy as np

from ._checks import integer
from .trajectory import Trajectory


def _pyplot():
    try:
        import matplotlib

        if matplotlib.get_backend().lower() not in ("agg", "module://matplotlib_inline.backend_inline"):
            import os

            if not os.environ.get("DISPLAY") and os.name != "nt":
                matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError('plotting needs matplotlib: pip install "vosim[plot]"') from error
    return plt


def obstacles(items, *, ax, scene: int | None = None):
    """Draw obstacles: polygons filled grey, walls as thick lines, boundaries
    as thick outlines with the outside shaded.

    Parameters
    ----------
    items
        ``Obstacle`` tuples (``sim.obstacles`` or ``traj.obstacles``).
    ax
        Matplotlib axes.
    scene
        Draw the obstacles every scene sees plus this scene's own; None: all.
    """
    from matplotlib.patches import PathPatch, Polygon
    from matplotlib.path import Path

    for kind, vertices, owner in items:
        if scene is not None and owner is not None and owner != scene:
            continue
        if kind == "polygon":
            ax.add_patch(Polygon(vertices, closed=True, facecolor="0.6", edgecolor="0.2", linewidth=0.8, zorder=2))
        elif kind == "boundary":
            # Shade the outside: a large square with the boundary as a hole.
            lo, hi = vertices.min(axis=0), vertices.max(axis=0)
            pad = 0.05 * float(np.max(hi - lo)) + 1.0
            frame = np.array([[lo[0] - pad, lo[1] - pad], [lo[0] - pad, hi[1] + pad],
                              [hi[0] + pad, hi[1] + pad], [hi[0] + pad, lo[1] - pad]])
            codes = [Path.MOVETO] + [Path.LINETO] * 3 + [Path.CLOSEPOLY]
            ring = [Path.MOVETO] + [Path.LINETO] * (len(vertices) - 1) + [Path.CLOSEPOLY]
            path = Path(np.vstack([frame, frame[:1], vertices, vertices[:1]]), codes + ring)
            ax.add_patch(PathPatch(path, facecolor="0.85", edgecolor="0.2", linewidth=1.2, zorder=1))
        else:
            ax.plot(vertices[:, 0], vertices[:, 1], color="0.2", linewidth=2.0, solid_capstyle="round", zorder=2)
    return ax


def trajectories(traj: Trajectory, *, ax=None, scene: int = 0, title: str | None = None):
    """Draw the obstacles and every agent's path, its start (dot) and its goal (cross).

    Parameters
    ----------
    traj
        A Trajectory from ``run()``.
    ax
        Matplotlib axes to draw into; a new figure when None.
    scene
        Which scene of a Batch trajectory to draw.
    title
        Axes title.

    Returns
    -------
    matplotlib.axes.Axes
    """
    if not isinstance(traj, Trajectory):
        raise TypeError(f"traj: expected a vosim.Trajectory, got {type(traj).__name__}")
    if traj.is_batch:
        scene = integer(scene, "scene", minimum=0, maximum=traj.positions.shape[1] - 1)
    plt = _pyplot()
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 7))
    positions = traj.positions[:, scene] if traj.is_batch else traj.positions
    goals = traj.goals[scene] if traj.is_batch else traj.goals
    has_goal = traj.has_goal[scene] if traj.is_batch else traj.has_goal
    n = positions.shape[1]
    obstacles(traj.obstacles, ax=ax, scene=scene if traj.is_batch else None)
    colors = plt.get_cmap("hsv")(np.linspace(0.0, 1.0, max(n, 1), endpoint=False))
    for k in range(n):
        ax.plot(positions[:, k, 0], positions[:, k, 1], color=colors[k], linewidth=0.6, alpha=0.8)
    ax.scatter(positions[0, :, 0], positions[0, :, 1], s=6, color=colors, zorder=3, label="start")
    if has_goal.any():
        ax.scatter(goals[has_goal, 0], goals[has_goal, 1], s=10, marker="x", color="black",
                   linewidths=0.6, zorder=3, label="goal")
    ax.set_aspect("equal")
    ax.set_xlabel("x")
    ax.set_ylabel("y")
    if title:
        ax.set_title(title)
    return ax
