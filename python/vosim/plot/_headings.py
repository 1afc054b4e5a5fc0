"""Headings on pictures of runs: short arrows along the paths, and a tick on each animated disc."""

from __future__ import annotations

import numpy as np

from .._checks import integer

#: The colour of heading marks where they are not drawn in their agent's colour.
HEADING_COLOR = "0.1"


def heading_frames(frames: np.ndarray, marks: int) -> np.ndarray:
    """``marks`` of the drawn ``frames``, evenly spaced, always with the last; all of them when fewer."""
    marks = integer(marks, "heading_marks", minimum=1)
    if marks >= len(frames):
        return np.asarray(frames)
    picks = np.round(np.linspace(len(frames) - 1, 0, marks, endpoint=False)[::-1]).astype(int)
    return np.asarray(frames)[np.unique(picks)]


def draw_heading_arrows(ax, points: np.ndarray, angles: np.ndarray, length: np.ndarray, colors, *, zorder: float = 4.5):
    """Arrows of ``length`` (data units) from ``points`` ``(k, 2)`` along ``angles`` ``(k,)``; returns the quiver.

    The arrows scale with the axes' data (``scale_units="xy"``), so they keep
    their length in metres whatever the figure's size.
    """
    length = np.broadcast_to(np.asarray(length, dtype=np.float64), angles.shape)
    return ax.quiver(points[:, 0], points[:, 1], length * np.cos(angles), length * np.sin(angles),
                     angles="xy", scale_units="xy", scale=1.0, color=colors, width=0.004, headwidth=4.0,
                     headlength=4.0, headaxislength=3.5, zorder=zorder)


def heading_ticks(points: np.ndarray, angles: np.ndarray, radius: np.ndarray) -> np.ndarray:
    """Segments ``(n, 2, 2)`` from each disc's centre to its rim along its heading."""
    tips = points + np.asarray(radius)[:, None] * np.column_stack([np.cos(angles), np.sin(angles)])
    return np.stack([points, tips], axis=1)


def use_headings(headings, data: dict) -> bool:
    """Whether to draw headings: ``headings`` True, False, or None (when the scene ``data`` has them and
    a non-holonomic agent: a holonomic agent's heading is its direction of travel, which its path shows)."""
    if headings is None:
        kinematics = data.get("kinematics")
        return (data.get("headings") is not None and kinematics is not None
                and bool(np.any(np.asarray(kinematics) != "holonomic")))
    if not isinstance(headings, (bool, np.bool_)):
        raise TypeError(f"headings: expected True, False or None, got {headings!r}")
    if headings and data.get("headings") is None:
        raise ValueError("headings is True, but this trajectory recorded no headings (traj.headings is None)")
    return bool(headings)
