"""One agent's 3D velocity space, as three slices through its new velocity."""

from __future__ import annotations

import numpy as np

from ._common import pyplot_module, count
from ._velocity_space import FEASIBLE, FORBIDDEN, clip_half_plane

#: The slices: which velocity components span them, and which one is held at the new velocity's value.
SLICES = (("vx", "vy", 0, 1, 2), ("vx", "vz", 0, 2, 1), ("vy", "vz", 1, 2, 0))
AGENT_PLANE = "#E69F00"   # Okabe-Ito orange
OBSTACLE_PLANE = "0.35"


def slice_half_plane(point, normal, held_axis: int, held_value: float, axes) -> tuple[np.ndarray, np.ndarray] | None:
    """The 2D half-plane ``n . (v - p) >= 0`` cut by the slice ``v[held_axis] = held_value``.

    Returns (point, normal) in the slice's two coordinates, or None when the
    plane is parallel to the slice (then it allows the whole slice or none
    of it: see :func:`slice_allows_all`).
    """
    point, normal = np.asarray(point, dtype=float), np.asarray(normal, dtype=float)
    n2 = normal[list(axes)]
    length = float(np.linalg.norm(n2))
    if length < 1e-12 * max(float(np.linalg.norm(normal)), 1e-300):
        return None
    # n2 . (u - p2) + n_h (h - p_h) >= 0  <=>  n2 . (u - q) >= 0 with q = p2 - n2 * n_h (h - p_h) / |n2|^2.
    shift = normal[held_axis] * (held_value - point[held_axis]) / length**2
    return point[list(axes)] - n2 * shift, n2


def slice_allows_all(point, normal, held_axis: int, held_value: float) -> bool:
    """For a plane parallel to the slice: whether the slice lies on its permitted side."""
    return float(normal[held_axis]) * (held_value - float(point[held_axis])) >= 0


def velocity_space3d(sim, agent_id: int | None = None, *, extent: float | None = None, title: str | None = None):
    """Draw one agent's 3D velocity space as three slices through its new velocity.

    ORCA-3D constrains the new velocity by half-spaces (one per neighbour,
    and per obstacle nearby) and the max-speed ball. A slice holds one
    component at the new velocity's value and shows the other two: each
    half-space cuts it along a line, its forbidden side shaded (obstacle
    planes grey, agent planes orange), the ball cuts it in a circle, and the
    region allowed by all of them is green. The new velocity lies in every
    slice; the current and preferred velocities are shown projected onto
    each slice (hollow marks).

    Parameters
    ----------
    sim
        A 3D Simulator or Batch, or the dict ``sim.inspect(agent_id)``
        returned.
    agent_id
        The agent's id (not needed with a dict).
    extent
        Half-width of each drawn square around the origin; 1.3 times the
        largest of max speed and the drawn velocities by default.
    title
        Figure title; the method and agent by default.

    Returns
    -------
    matplotlib.figure.Figure
        Its ``axes`` are the three slices: (vx, vy), (vx, vz), (vy, vz).
    """
    info = sim if isinstance(sim, dict) else sim.inspect(agent_id)
    new = np.asarray(info["new_velocity"], dtype=float)
    if new.shape != (3,):
        raise ValueError("sim: expected a 3D simulator (its inspect() gives 3D velocities); use "
                         "vosim.plot.velocity_space for 2D")
    current = np.asarray(info["velocity"], dtype=float)
    preferred = np.asarray(info["pref_velocity"], dtype=float)
    max_speed = float(info["max_speed"])
    planes = info.get("planes") or {"point": np.zeros((0, 3)), "normal": np.zeros((0, 3)),
                                    "obstacle": np.zeros(0, bool)}
    points, normals = np.asarray(planes["point"]).reshape(-1, 3), np.asarray(planes["normal"]).reshape(-1, 3)
    hard = np.asarray(planes["obstacle"], dtype=bool).reshape(-1)
    if extent is None:
        extent = 1.3 * max(max_speed, *(float(np.linalg.norm(v)) for v in (new, current, preferred)), 1e-3)
    plt = pyplot_module()
    from matplotlib.lines import Line2D
    from matplotlib.patches import Circle, Patch, Polygon

    fig, axs = plt.subplots(1, 3, figsize=(13.5, 5.3), layout="constrained")
    square = extent * np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
    circle = np.column_stack([np.cos(np.linspace(0, 2 * np.pi, 96, endpoint=False)),
                              np.sin(np.linspace(0, 2 * np.pi, 96, endpoint=False))])
    for ax, (name_a, name_b, a, b, held) in zip(axs, SLICES):
        axes, value = (a, b), float(new[held])
        allowed = square.copy()
        ball = max_speed**2 - value**2
        if ball > 0:  # the ball's slice, as a polygon for the allowed region, as a circle to draw
            allowed = circle * np.sqrt(ball)
            ax.add_patch(Circle((0, 0), np.sqrt(ball), fill=False, edgecolor="black", linewidth=1.0, zorder=3))
        else:
            allowed = np.zeros((0, 2))
        for k in range(len(points)):
            cut = slice_half_plane(points[k], normals[k], held, value, axes)
            color = OBSTACLE_PLANE if hard[k] else AGENT_PLANE
            if cut is None:
                if not slice_allows_all(points[k], normals[k], held, value):
                    allowed = np.zeros((0, 2))
                    ax.add_patch(Polygon(square, closed=True, facecolor=color, alpha=0.12, zorder=1))
                continue
            q, n2 = cut
            forbidden = clip_half_plane(square, q, -n2)
            if len(forbidden) >= 3:
                ax.add_patch(Polygon(forbidden, closed=True, facecolor=color, alpha=0.08, edgecolor="none", zorder=1))
            allowed = clip_half_plane(allowed, q, n2)
            # The boundary line within the square.
            direction = np.array([-n2[1], n2[0]]) / np.linalg.norm(n2)
            ends = np.array([q - 3 * extent * direction, q + 3 * extent * direction])
            # Over the allowed region's fill (zorder 2): a binding plane is that region's edge.
            ax.plot(ends[:, 0], ends[:, 1], color=color, linewidth=1.4, zorder=3.5)
        if len(allowed) >= 3:
            ax.add_patch(Polygon(allowed, closed=True, facecolor=FEASIBLE, alpha=0.45, edgecolor="none", zorder=2))
        # The current velocity a wide ring drawn last: the others, often on the same spot, show inside it.
        ax.scatter(*preferred[list(axes)], s=55, marker="D", facecolors="none", edgecolors="#0072B2", linewidths=1.2,
                   zorder=5)
        ax.scatter(*new[list(axes)], s=70, marker="*", color="#CC79A7", edgecolors="black", linewidths=0.5, zorder=6)
        ax.scatter(*current[list(axes)], s=170, marker="o", facecolors="none", edgecolors="black", linewidths=1.3,
                   zorder=7)
        ax.set_xlim(-extent, extent)
        ax.set_ylim(-extent, extent)
        ax.set_aspect("equal")
        ax.set_xlabel(f"{name_a} [m/s]")
        ax.set_ylabel(f"{name_b} [m/s]")
        held_name = ("vx", "vy", "vz")[held]
        ax.set_title(f"slice {held_name} = {value:.3g} m/s")
    handles = [Line2D([], [], color=AGENT_PLANE), Line2D([], [], color=OBSTACLE_PLANE),
               Patch(facecolor=FEASIBLE, alpha=0.45, edgecolor="none"),
               Line2D([], [], color="black", linewidth=1.0),
               Line2D([], [], linestyle="", marker="*", markersize=10, color="#CC79A7", markeredgecolor="black"),
               Line2D([], [], linestyle="", marker="D", markerfacecolor="none", markeredgecolor="#0072B2"),
               Line2D([], [], linestyle="", marker="o", markersize=11, markerfacecolor="none", markeredgecolor="black",
                      markeredgewidth=1.3)]
    labels = ["agent plane (line: its edge; forbidden side shaded)",
              "obstacle plane (line: its edge; forbidden side shaded)",
              "allowed by every plane and the max speed", "max-speed ball, sliced", "new velocity",
              "preferred velocity (projected)", "current velocity (projected)"]
    fig.legend(handles, labels, loc="outside lower center", ncol=4, fontsize="small", frameon=False)
    fallback = " (no velocity satisfies every plane: least violating chosen)" if info.get("used_fallback") else ""
    fig.suptitle((f"{info.get('method', '')} velocity space of agent {info.get('id', agent_id)}, "
                  f"{count(len(points), 'plane')}{fallback}") if title is None else title)
    return fig
