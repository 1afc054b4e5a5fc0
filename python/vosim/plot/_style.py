"""One style for every figure: colour-blind-safe colours, marks and legend placement.

Colours are Okabe and Ito's palette (2008), distinguishable with the common
colour-vision deficiencies. Paths coloured by agent cycle through six of its
colours; the marks drawn over them are black (overlaps) and vermillion
squares (agents that did not arrive), small, translucent and capped so that
they never hide the paths.
"""

from __future__ import annotations

# Okabe-Ito: black, orange, sky blue, bluish green, yellow, blue, vermillion, reddish purple.
OKABE_ITO = ("#000000", "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7")

#: Method colours, in the order methods appear (black and yellow are kept for marks and are hard to see).
SERIES_COLORS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9")

#: Colour maps of speed and time (sequential, readable in grey). Agents cycle through SERIES_COLORS,
#: (but vermillion), so that neighbouring agents differ and every path stands out from a white background.
SPEED_CMAP = "viridis"
TIME_CMAP = "cividis"

START_COLOR = "0.35"          # start dots in the legend (each dot has its agent's colour)
GOAL_COLOR = "0.25"           # goals: hollow rings, so starts on the same spot stay visible
OVERLAP_COLOR = "#000000"     # overlap marks: small translucent black x
NOT_ARRIVED_COLOR = "#D55E00"  # final positions of agents that did not arrive: vermillion squares

#: Most overlap marks drawn (the deepest); the legend gives the total.
MAX_OVERLAP_MARKS = 60


def agent_colors(n: int):
    """One colour per agent slot, cycling through SERIES_COLORS but vermillion, as an (n, 4) RGBA array."""
    from matplotlib.colors import to_rgba_array

    palette = [c for c in SERIES_COLORS if c != NOT_ARRIVED_COLOR]  # vermillion marks agents that did not arrive
    return to_rgba_array([palette[k % len(palette)] for k in range(max(n, 1))])


def series_color(k: int) -> str:
    return SERIES_COLORS[k % len(SERIES_COLORS)]


def legend_below(ax, handles, labels, columns: int = 4):
    """A legend under the axes, where it hides nothing that was drawn.

    Narrow axes (one of several side by side) get one entry per row, so that
    neighbouring legends do not run into each other.
    """
    width = ax.get_position().width * ax.figure.get_figwidth()  # inches
    columns = 1 if width < 3.5 else 2 if width < 5.5 else columns
    return ax.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=min(columns, len(labels)),
                     fontsize="small", frameon=False)
