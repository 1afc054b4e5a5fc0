"""One style for every figure: colour-blind-safe colours, marks and legend placement.

Colours are Okabe and Ito's palette (2008), distinguishable with the common
colour-vision deficiencies. Paths coloured by agent take five of its colours
when there are at most five agents, else a continuous colour map by agent
index (never a repeating cycle, which would give agents far apart in index
one colour). The marks drawn over them are black (overlaps) and vermillion
squares (agents that did not arrive), small, translucent and capped so that
they never hide the paths.
"""

from __future__ import annotations

import numpy as np

from .._palette import OKABE_ITO, SERIES_COLORS, series_color  # noqa: F401

#: Colour maps of speed and time (sequential, readable in grey).
SPEED_CMAP = "viridis"
TIME_CMAP = "cividis"
#: Agents by index where there are more than the palette's colours: perceptually uniform, and cut before
#: its palest yellow so that every path stands out from a white background.
AGENT_CMAP = "plasma"
AGENT_CMAP_RANGE = (0.0, 0.85)

START_COLOR = "0.35"          # start dots in the legend (each dot has its agent's colour)
GOAL_COLOR = "0.25"           # goals: hollow rings, so starts on the same spot stay visible
OVERLAP_COLOR = "#000000"     # overlap marks: small translucent black x
NOT_ARRIVED_COLOR = "#D55E00"  # final positions of agents that did not arrive: vermillion squares

#: Most overlap marks drawn (the deepest); the legend gives the total.
MAX_OVERLAP_MARKS = 60


#: Agent colours where there are few agents: SERIES_COLORS but vermillion (it marks agents that did not arrive).
AGENT_PALETTE = tuple(c for c in SERIES_COLORS if c != NOT_ARRIVED_COLOR)


def agents_by_index(n: int) -> bool:
    """Whether ``n`` agents are coloured by index on a colour map (too many for the palette's distinct colours)."""
    return n > len(AGENT_PALETTE)


def agent_cmap():
    """The colour map of agent indices (AGENT_CMAP cut to AGENT_CMAP_RANGE)."""
    import matplotlib
    from matplotlib.colors import ListedColormap

    base = matplotlib.colormaps[AGENT_CMAP]
    return ListedColormap(base(np.linspace(*AGENT_CMAP_RANGE, 256)), name=f"{AGENT_CMAP}_agents")


def agent_colors(n: int):
    """One colour per agent slot as an (n, 4) RGBA array: a distinct palette colour each for up to five
    agents, else the agent colour map by index (0 to n - 1), so that no two agents far apart in index share one."""
    from matplotlib.colors import to_rgba_array

    n = max(n, 1)
    if not agents_by_index(n):
        return to_rgba_array(AGENT_PALETTE[:n])
    return agent_cmap()(np.linspace(0.0, 1.0, n))


def agent_label(n: int) -> str:
    """What the colour of a path or disc means, for a legend."""
    return f"colour: agent index, 0 to {n - 1}" if agents_by_index(n) else "colour: agent"


def legend_below(ax, handles, labels, columns: int = 4):
    """A legend under the axes, where it hides nothing that was drawn.

    Narrow axes (one of several side by side) get one entry per row, so that
    neighbouring legends do not run into each other.
    """
    from matplotlib.transforms import ScaledTranslation

    width = ax.get_position().width * ax.figure.get_figwidth()  # inches
    columns = 1 if width < 3.5 else min(columns, 2) if width < 5.5 else columns
    # Anchored a fixed distance (in inches, past the tick labels and the x label) under the axes' bottom edge
    # wherever the axes' box ends up: a flat scene has a short box, and a share of its height would be too little.
    below = ax.transAxes + ScaledTranslation(0.0, -0.5, ax.figure.dpi_scale_trans)
    return ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), bbox_transform=below,
                     ncol=min(columns, len(labels)), fontsize="small", frameon=False)
