"""Figures of IMO tests 4 and 8 (needs matplotlib)."""

from __future__ import annotations

import numpy as np


def exit_flow_figure(plt, result):
    """IMO 4: persons out over time against the guideline's maximum flow from the first exit on."""
    data = result.data
    times, limit = data["exit_times"], data["max_flow"]
    fig, ax = plt.subplots(figsize=(5.5, 4.0))
    ax.step(np.concatenate([[0.0], times]), np.arange(len(times) + 1), where="post", color="C0",
            label=f"{result.method}")
    if len(times):
        span = np.array([times[0], times[0] + data["persons"] / limit])
        ax.plot(span, 1 + (span - times[0]) * limit, color="C3", ls="--", label=f"{limit:g} persons/s (limit)")
    ax.axhline(data["persons"], color="0.6", lw=0.8, ls=":")
    ax.set(xlabel="time (s)", ylabel="persons out through the 1 m exit", ylim=(0, data["persons"] * 1.05))
    ax.set_title(f"{result.heading}\n{result.summary}", fontsize=9)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    return fig


def counterflow_figure(plt, result):
    """IMO 8: room 1's persons in room 2 over time, one curve per counter-flow, and the last one's time."""
    data, measured = result.data, result.measured
    fig, (curve_ax, time_ax) = plt.subplots(1, 2, figsize=(9.0, 3.6))
    for k, (count, times) in enumerate(data["entry_times"].items()):
        curve_ax.step(np.concatenate([[0.0], times]), np.arange(len(times) + 1), where="post", color=f"C{k}",
                      label=f"counter-flow {count}")
    curve_ax.axhline(data["persons"], color="0.6", lw=0.8, ls=":")
    curve_ax.set(xlabel="time (s)", ylabel="persons from room 1 in room 2", ylim=(0, data["persons"] * 1.05))
    curve_ax.legend(fontsize=8, loc="lower right")
    flows, last = np.array(measured["counterflows"]), np.array(measured["time_last_in_room_2_s"])
    done = np.isfinite(last)
    time_ax.plot(flows[done], last[done], "o-", color="C0", label="last person in room 2")
    if (~done).any():  # drawn at the run's limit: not everybody was through by then
        time_ax.plot(flows[~done], np.full((~done).sum(), data["seconds"]), "x", color="C3", ms=9,
                     label=f"not all arrived in {data['seconds']:g} s")
    time_ax.set(xlabel="persons walking the other way", ylabel="time (s)", ylim=(0, data["seconds"] * 1.1))
    time_ax.legend(fontsize=8, loc="lower right")
    fig.suptitle(f"{result.heading}\n{result.summary}", fontsize=9)
    fig.tight_layout()
    return fig
