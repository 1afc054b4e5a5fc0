"""Figures of the validation tests (needs matplotlib)."""

from __future__ import annotations

import re

import numpy as np

from ._building_figure import building_figure
from ._crowd_figures import bottleneck_figure, corner_crowd_figure, single_file_figure, stair_congestion_figure
from ._imo_figures import counterflow_figure, exit_flow_figure
from ._iso_figures import stair_flow_figure
from ._juelich import juelich_corridor
from ._weidmann import weidmann_specific_flow, weidmann_speed

# Tests whose figures live in modules of their own.
_OWN_FIGURES = {"RiMEA 13": stair_congestion_figure, "RiMEA 15": corner_crowd_figure, "RiMEA 16": single_file_figure,
                "IMO 4": exit_flow_figure, "IMO 8": counterflow_figure, "RiMEA 8": building_figure,
                "Bottleneck": bottleneck_figure}
_OWN_FIGURES["ISO 12"] = stair_flow_figure


def figures(results) -> dict:
    """A matplotlib figure per result that has one, by file stem (``"rimea_4_orca"``)."""
    from .._pyplot import pyplot_module

    plt = pyplot_module()
    out = {}
    for result in results:
        # File-name safe: a method with settings ("ORCA, time_gap=0.5") becomes orca_time_gap_0_5.
        stem = re.sub(r"[^a-z0-9]+", "_", f"{result.test}_{result.method}".lower()).strip("_")
        if result.test == "RiMEA 4":
            out[stem] = _fundamental_diagram(plt, result)
        elif result.test == "RiMEA 5":
            out[stem] = _set_off(plt, result)
        elif result.test == "RiMEA 7":
            out[stem] = _speeds(plt, result)
        elif result.test == "RiMEA 9":
            out[stem] = _evacuated(plt, result)
        elif result.test in _OWN_FIGURES:
            out[stem] = _OWN_FIGURES[result.test](plt, result)
        elif "walls" in result.data:
            out[stem] = _paths(plt, result)
        elif "route" in result.data:
            out[stem] = _routes(plt, result)
        elif "trajectory" in result.data:
            from .. import plot

            ax = plot.trajectories(result.data["trajectory"], title=f"{result.heading}, {result.summary}")
            out[stem] = ax.figure
    return out


def _fundamental_diagram(plt, result):
    table = result.data["table"]
    rho = np.linspace(0.05, 5.4, 300)
    fig, (speed_ax, flow_ax) = plt.subplots(1, 2, figsize=(9.0, 3.6))
    measured = juelich_corridor()
    label = "measured: Jülich corridor, 1 s samples"
    speed_ax.scatter(measured["density"], measured["speed"], s=6, color="0.75", label=label, zorder=1)
    flow_ax.scatter(measured["density"], measured["density"] * measured["speed"], s=6, color="0.75", label=label,
                    zorder=1)
    speed_ax.plot(rho, weidmann_speed(rho), color="0.4", label="Weidmann (1993)")
    speed_ax.plot(table[:, 1], table[:, 2], "o-", color="C0", label=result.method)
    speed_ax.set(xlabel="density (persons/m²)", ylabel="speed (m/s)", xlim=(0, 5.5), ylim=(0, 1.9))
    flow_ax.plot(rho, weidmann_specific_flow(rho), color="0.4", label="Weidmann (1993)")
    flow_ax.plot(table[:, 1], table[:, 4], "o-", color="C0", label=result.method)
    top = max(float(np.nanmax(table[:, 4], initial=0.0)), float(np.max(measured["density"] * measured["speed"])))
    # Head room above the curves for the legend.
    flow_ax.set(xlabel="density (persons/m²)", ylabel="specific flow (1/(m s))", xlim=(0, 5.5), ylim=(0, 1.45 * top))
    flow_ax.legend(loc="upper left", fontsize=8)
    fig.suptitle(f"RiMEA 4: fundamental diagram, {result.method} ({result.verdict})")
    fig.tight_layout()
    return fig


def _speeds(plt, result):
    data = result.data
    fig, ax = plt.subplots(figsize=(5.0, 4.0))
    for k, name in enumerate(dict.fromkeys(data["names"])):
        mine = np.array([g == name for g in data["names"]])
        lo, hi = data["low"][mine][0], data["high"][mine][0]
        ax.axhspan(lo, hi, color=f"C{k}", alpha=0.15)
        ax.plot(data["assigned"][mine], data["measured"][mine], "o", color=f"C{k}", label=f"{name} ({lo:g}-{hi:g})")
    span = [np.nanmin(data["low"]), np.nanmax(data["high"])]
    ax.plot(span, span, color="0.5", lw=0.8)
    ax.set(xlabel="assigned speed (m/s)", ylabel="measured speed (m/s)",
           title=f"{result.heading}, {result.summary}")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def _set_off(plt, result):
    start, set_off = result.data["start_time"], result.data["set_off"]
    lag = result.data["lag"]
    fig, ax = plt.subplots(figsize=(5.0, 4.0))
    span = np.array([0.0, max(float(np.max(start)), 1.0) * 1.05])
    ax.fill_between(span, span, span + lag, color="C2", alpha=0.2, label=f"on time (within {lag:g} s after)")
    ax.plot(span, span, color="0.5", lw=0.8)
    early = set_off < start
    ax.plot(start[~early], set_off[~early], "o", color="C0", label="set off")
    if early.any():
        ax.plot(start[early], set_off[early], "x", color="C3", markersize=8, label="moved before its time")
    ax.set(xlabel="pre-movement time (s)", ylabel="set off at (s)", xlim=tuple(span), ylim=(0.0, span[1] + lag))
    ax.set_title(f"{result.heading}\n{result.summary}", fontsize=10)
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    return fig


def _evacuated(plt, result):
    data = result.data
    fig, ax = plt.subplots(figsize=(5.5, 4.0))
    for k, (label, times) in enumerate(data["exit_times"].items()):
        ax.step(np.concatenate([[0.0], times]), np.arange(len(times) + 1), where="post", color=f"C{k}", label=label)
    ax.axhline(data["persons"], color="0.6", lw=0.8, ls="--")
    ax.set(xlabel="time (s)", ylabel="persons evacuated", ylim=(0, data["persons"] * 1.05))
    ax.set_title(f"{result.heading}, {data['persons']} persons\n{result.summary}", fontsize=10)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    return fig


def _paths(plt, result):
    """Walls and every person's whole path, those who left through a sink included (tests 6 and 12)."""
    import textwrap

    positions = result.data["trajectory"].positions
    lo, hi = positions.reshape(-1, 2).min(axis=0), positions.reshape(-1, 2).max(axis=0)
    for wall in result.data["walls"]:
        lo, hi = np.minimum(lo, np.min(wall, axis=0)), np.maximum(hi, np.max(wall, axis=0))
    span = hi - lo
    fig, ax = plt.subplots(figsize=(7.0, max(3.0, min(8.0, 7.0 * span[1] / span[0] + 1.2))))
    for wall in result.data["walls"]:
        wall = np.asarray(wall)
        ax.plot(wall[:, 0], wall[:, 1], color="0.15", lw=2.0)
    for i in range(positions.shape[1]):
        ax.plot(positions[:, i, 0], positions[:, i, 1], lw=0.5, color=f"C{i % 10}", alpha=0.7)
    ax.plot(positions[0, :, 0], positions[0, :, 1], "o", ms=2.5, color="0.3", label="start")
    ax.set(xlabel="x (m)", ylabel="y (m)", aspect="equal")
    ax.set_title(f"{result.heading}\n" + "\n".join(textwrap.wrap(result.summary, 70)), fontsize=9)
    ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    return fig


def _routes(plt, result):
    """Every path, coloured by the exit or route taken (agents that left keep their path up to the sink)."""
    from ..plot import obstacles

    traj, route, names = result.data["trajectory"], result.data["route"], result.data["route_names"]
    fig, ax = plt.subplots(figsize=(6.5, 5.0))
    obstacles(traj.obstacles, ax=ax, scene=0)
    for k, name in enumerate(names):
        mine = np.flatnonzero(route == k)
        for n, i in enumerate(mine):
            ax.plot(traj.positions[:, i, 0], traj.positions[:, i, 1], color=f"C{k}", lw=0.8, alpha=0.7,
                    label=f"{name} ({len(mine)})" if n == 0 else None)
        ax.plot(traj.positions[0, mine, 0], traj.positions[0, mine, 1], "o", color=f"C{k}", ms=3)
    ax.set(xlabel="x (m)", ylabel="y (m)", aspect="equal")
    ax.set_title(f"{result.heading}\n{result.summary}", fontsize=10)
    ax.legend(fontsize=8, loc="best")
    fig.tight_layout()
    return fig
