"""Figure of ISO 20414 component 12, stair flow rates (needs matplotlib)."""

from __future__ import annotations

import numpy as np


def stair_flow_figure(plt, result):
    """ISO 12: persons past the middle of the stairs over time, down and up, against the SFPE maximum."""
    data, measured = result.data, result.measured
    width = measured["effective_width_m"]
    low, high = data["published"]
    fig, ax = plt.subplots(figsize=(5.5, 4.0))
    for k, (name, times) in enumerate(data["crossed"].items()):
        ax.step(np.concatenate([[times[0] if len(times) else 0.0], times]), np.arange(len(times) + 1),
                where="post", color=f"C{k}", label=f"{name}: {measured[f'specific_flow_{name}']:.2f} /(m·s)")
    first = min((times[0] for times in data["crossed"].values() if len(times)), default=0.0)
    span = np.array([first, first + measured["persons"] / (low * width)])
    for value, style in ((low, ":"), (high, "--")):
        ax.plot(span, (span - first) * value * width, color="0.4", ls=style,
                label=f"SFPE {value:g} /(m·s) × {width:g} m")
    ax.set(xlabel="time (s)", ylabel="persons past the middle of the stairs", ylim=(0, measured["persons"] * 1.05))
    ax.set_title(f"{result.heading}\n{result.summary}", fontsize=9)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    return fig
