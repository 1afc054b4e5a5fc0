"""Several runs side by side, on one colour scale, with one colour bar and one legend."""

from __future__ import annotations

import re

import numpy as np

from .._checks import integer
from ._common import pyplot_module, scene_of
from ._trajectories import COLOR_BY, trajectories


def _colour_range(runs: dict, color_by: str, scene: int) -> tuple[float, float] | None:
    """The range of the coloured values over every run (speeds from the recorded velocities, or times)."""
    lows, highs = [], []
    for traj in runs.values():
        if color_by == "speed":
            data = scene_of(traj, scene)
            live = (data["ids"] >= 0) & data["took_part"]
            values = np.linalg.norm(data["velocities"][1:][:, live], axis=-1)
        else:
            values = np.asarray(traj.times)[1:]
        if values.size:
            lows.append(float(np.min(values)))
            highs.append(float(np.max(values)))
    if not lows:
        return None
    low, high = min(lows), max(highs)
    return (low, high) if high > low else (low, low + 1.0)


def side_by_side(runs, *, color_by: str = "speed", scene: int = 0, columns: int | None = None,
                 panel_size: tuple[float, float] = (4.2, 4.2), **options):
    """Draw several runs side by side: one colour scale, one colour bar and one legend for the figure.

    Parameters
    ----------
    runs
        ``{title: Trajectory}`` (e.g. one per method), or a sequence of
        trajectories (titled by their method).
    color_by
        ``"speed"`` (default: what a reader compares between methods),
        ``"time"`` or ``"agent"``. Speed and time share one scale over every
        panel and one colour bar.
    scene
        Which scene of Batch trajectories to draw.
    columns
        Panels per row (default: all in one row, at most 4).
    panel_size
        Width and height of each panel, in inches.
    options
        Passed on to :func:`trajectories` for every panel (``show_collisions``,
        ``max_frames``, ``linewidth``, ``headings``, ...).

    Returns
    -------
    matplotlib.figure.Figure
        One axes per run, then the colour bar's (for speed and time).

    Notes
    -----
    The legend under the panels lists every kind of mark drawn in any
    panel once; the counts that differ between panels (agents that did not
    arrive, overlaps) are in each panel's legend entry only when it has one
    panel, and otherwise in the panel titles.
    """
    if color_by not in COLOR_BY:
        raise ValueError(f"color_by is {color_by!r}; must be one of {', '.join(map(repr, COLOR_BY))}")
    for name in ("ax", "legend", "colorbar", "clim"):
        if name in options:
            raise TypeError(f"side_by_side: {name}= is chosen for every panel; leave it out")
    if not isinstance(runs, dict):
        runs = list(runs)
        runs = {f"{traj.method or 'run'}" + (f" ({k})" if [t.method for t in runs].count(traj.method) > 1 else ""): traj
                for k, traj in enumerate(runs)}
    if not runs:
        raise ValueError("runs: give at least one trajectory")
    plt = pyplot_module()
    count = len(runs)
    columns = min(count, 4) if columns is None else integer(columns, "columns", minimum=1)
    rows = -(-count // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(panel_size[0] * columns, panel_size[1] * rows + 1.2),
                             squeeze=False, layout="constrained")
    clim = _colour_range(runs, color_by, scene) if color_by != "agent" else None
    entries: dict[str, object] = {}
    for ax, (title, traj) in zip(axes.flat, runs.items()):
        trajectories(traj, ax=ax, scene=scene, color_by=color_by, legend=False, colorbar=False, clim=clim,
                     **options)
        handles, labels = ax._vosim_legend
        counts = []
        for handle, label in zip(handles, labels):
            base = re.sub(r"\s*\(\d[^)]*\)(, at its end)?$", "", label)
            if base != label:
                counts.append(label.replace("did not arrive", "not arrived").replace(", at its end", ""))
            entries.setdefault(base, handle)
        ax.set_title(title + ("\n" + "; ".join(counts) if counts else ""), fontsize="medium")
    for ax in list(axes.flat)[count:]:
        ax.remove()
    if clim is not None:
        from matplotlib.cm import ScalarMappable
        from matplotlib.colors import Normalize

        from . import _style as style

        cmap = style.SPEED_CMAP if color_by == "speed" else style.TIME_CMAP
        label = "speed [m/s]" if color_by == "speed" else "time [s]"
        # Under the panels, as wide as half of them: never taller than the (equal-aspect) axes beside it.
        fig.colorbar(ScalarMappable(Normalize(*clim), cmap), ax=list(axes.flat)[:count], label=label,
                     location="bottom", shrink=0.5, aspect=40)
    fig.legend(list(entries.values()), list(entries.keys()), loc="outside lower center",
               ncol=min(4, len(entries)), fontsize="small", frameon=False)
    return fig
