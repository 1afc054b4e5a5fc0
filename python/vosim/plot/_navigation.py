"""Planners drawn: a roadmap's points and edges or a navigation mesh's triangles, with planned paths."""

from __future__ import annotations

import numpy as np

from ._common import pyplot_module, obstacles


def navigation(planner, *, paths=None, starts=None, sim=None, ax=None, title: str | None = None):
    """Draw a :class:`~vosim.navigation.Roadmap` or :class:`~vosim.navigation.NavMesh` and paths planned on it.

    Parameters
    ----------
    planner
        The roadmap (points and the edges between those that see each
        other, over its obstacles) or the mesh (its triangles: the walkable
        area shrunk by the agents' radius).
    paths
        Waypoint arrays from ``planner.plan``, drawn as lines (with
        ``starts``, from each start).
    starts
        ``(n, 2)`` starts of the paths, drawn as dots.
    sim
        Draw this simulator's obstacles too (a mesh does not keep them).
    ax
        Matplotlib axes; a new figure when None.
    title
        Axes title.

    Returns
    -------
    matplotlib.figure.Figure
        The figure drawn on (``ax``'s when given; ``fig.axes[0]`` is the
        drawing when not).
    """
    from ..navigation import NavMesh, Roadmap

    plt = pyplot_module()
    from matplotlib.collections import LineCollection, PolyCollection

    if not isinstance(planner, (Roadmap, NavMesh)):
        raise TypeError(f"planner: expected a vosim.navigation Roadmap or NavMesh, got {type(planner).__name__}")
    if ax is None:
        _, ax = plt.subplots(figsize=(7, 6))
    from matplotlib.patches import Patch

    drawn = list(sim.obstacles) if sim is not None else []
    if not drawn and isinstance(planner, Roadmap):
        drawn = [(kind, vertices, None) for kind, vertices in planner.obstacles]
    obstacles(drawn, ax=ax)
    # Legend entries for the obstacles' patches (drawn without labels).
    kinds = {kind for kind, _, _ in drawn}
    extra = []
    if kinds & {"polygon", "wall", "segment"}:
        extra.append(Patch(facecolor="0.6", edgecolor="0.2", label="obstacle"))
    if "boundary" in kinds:
        extra.append(Patch(facecolor="0.85", edgecolor="0.2", label="outside the boundary"))
    if isinstance(planner, Roadmap):
        ax.add_collection(LineCollection(planner.points[planner.edges], colors="tab:blue", linewidths=0.4,
                                         alpha=0.5, zorder=3, label="roadmap edge (in sight)"))
        ax.scatter(*planner.points.T, s=10, color="tab:blue", zorder=4, label="roadmap point")
    else:
        ax.add_collection(PolyCollection(planner.vertices[planner.triangles], facecolors="#dcebd9",
                                         edgecolors="#7fa77a", linewidths=0.4, zorder=1.5,
                                         label=f"mesh triangle (shrunk by {planner.inflation:g} m)"))
    if paths is not None:
        paths = [np.asarray(p, dtype=np.float64).reshape(-1, 2) for p in paths]
        lines = paths if starts is None else [
            np.vstack([s, p]) for s, p in zip(np.asarray(starts, dtype=np.float64).reshape(-1, 2), paths)]
        ax.add_collection(LineCollection(lines, colors="tab:red", linewidths=1.2, zorder=5, label="planned path"))
        ends = np.array([p[-1] for p in paths if len(p)])
        if len(ends):
            ax.scatter(*ends.T, marker="x", s=30, color="tab:red", zorder=6, label="goal")
        corners = [p[:-1] for p in paths if len(p) > 1]
        if corners:
            ax.scatter(*np.vstack(corners).T, s=8, color="darkred", zorder=6, label="waypoint")
    if starts is not None:
        ax.scatter(*np.asarray(starts, dtype=np.float64).reshape(-1, 2).T, s=18, color="black", zorder=6,
                   label="start")
    ax.autoscale_view()
    ax.set_aspect("equal")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    handles, _ = ax.get_legend_handles_labels()
    ax.legend(handles=handles + extra, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=4,
              fontsize="small", frameon=False)
    ax.set_title(title if title is not None else
                 ("Visibility roadmap" if isinstance(planner, Roadmap) else "Navigation mesh") + " and planned paths")
    return ax.figure
