"""What every plot shares: importing matplotlib lazily, drawing obstacles, picking a scene."""

from __future__ import annotations

import numpy as np

from .._checks import integer
from .._scene_frames import in_scene, scene_arrays
from .._pyplot import pyplot_module  # noqa: F401  (the plots' way to pyplot)
from ..trajectory import Trajectory


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``1 plane``, ``2 planes``: a number with its noun in the right number."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def obstacles(items, *, ax, scene: int | None = None):
    """Draw obstacles: polygons filled grey, walls as thick lines, boundaries
    as thick outlines with the outside shaded; below anything drawn at the
    default z-order 2 or higher (paths pass over them).

    Parameters
    ----------
    items
        ``Obstacle`` tuples (``sim.obstacles`` or ``traj.obstacles``).
    ax
        Matplotlib axes.
    scene
        Draw the obstacles every scene sees plus this scene's own; None: all.

    Returns
    -------
    matplotlib.figure.Figure
        ``ax``'s figure.
    """
    from matplotlib.patches import PathPatch, Polygon
    from matplotlib.path import Path

    for kind, vertices, owner in items:
        if scene is not None and owner is not None and owner != scene:
            continue
        if kind == "polygon":
            ax.add_patch(Polygon(vertices, closed=True, facecolor="0.6", edgecolor="0.2", linewidth=0.8, zorder=1.5))
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
            ax.plot(vertices[:, 0], vertices[:, 1], color="0.2", linewidth=2.0, solid_capstyle="round", zorder=1.5)
    return ax.figure


def scene_of(traj: Trajectory, scene: int) -> dict:
    """One scene of a trajectory (see :func:`vosim._scene_frames.scene_arrays`), after checking it is one."""
    if not isinstance(traj, Trajectory):
        raise TypeError(f"traj: expected a vosim.Trajectory, got {type(traj).__name__}")
    return scene_arrays(traj, scene)


def show_present(markers, trails, positions: np.ndarray, present: np.ndarray, colors: np.ndarray,
                 first: int, t: int, trail: int) -> np.ndarray:
    """Draw frame ``t`` of an animation's agents: only those in the scene now, their trails since ``first``.

    Every agent keeps its marker in ``markers`` (at whatever position the
    caller set); one not in the scene at ``t`` is drawn fully transparent,
    its face and edge alike. A trail is drawn while its agent is here, over
    the frames it was here. ``colors`` are the agents' RGBA colours,
    ``present`` comes from :func:`in_scene` (the animation's agents only).

    Returns
    -------
    numpy.ndarray
        Which agents are in the scene at ``t``, bool ``(N,)``.
    """
    here = present[t]
    black = np.tile([0.0, 0.0, 0.0, 1.0], (len(here), 1))
    markers.set_facecolor(np.where(here[:, None], colors[:len(here)], 0.0))
    markers.set_edgecolor(np.where(here[:, None], black, 0.0))
    trails.set_segments([positions[first:t + 1][present[first:t + 1, a], a] for a in range(len(here)) if here[a]]
                        if trail else [])
    trails.set_color(colors[:len(here)][here] if here.any() else colors[:1])
    return here


def frame_stride(frames: int, max_frames: int | None) -> int:
    """Every how many recorded frames to draw so that at most ``max_frames`` are drawn."""
    if max_frames is None:
        return 1
    max_frames = integer(max_frames, "max_frames", minimum=2)
    return max(1, -(-(frames - 1) // (max_frames - 1)))
