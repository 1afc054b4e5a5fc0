"""Figures of RiMEA tests 13, 15 and 16 (needs matplotlib)."""

from __future__ import annotations

import numpy as np


def stair_congestion_figure(plt, result):
    """RiMEA 13: people through the door and onto the stairs over time, and the density before the stairs."""
    data = result.data
    fig, (count_ax, density_ax) = plt.subplots(1, 2, figsize=(9.0, 3.6))
    for name, label, color in (("door", "through the door", "C0"), ("stairs", "onto the stairs", "C3")):
        times = data["crossed"][name]
        count_ax.step(np.concatenate([[0.0], times]), np.arange(len(times) + 1), where="post", color=color,
                      label=label)
    count_ax.set(xlabel="time (s)", ylabel="persons", ylim=(0, data["persons"] * 1.05))
    count_ax.legend(fontsize=8, loc="lower right")
    times = data["times"]
    for name, label, color in (("foot", "last 2 m before the stairs", "C3"), ("middle", "corridor's middle 2 m", "C0")):
        density_ax.plot(times, data["density"][name], color=color, lw=0.8, label=label)
    density_ax.set(xlabel="time (s)", ylabel="density (persons/m²)")
    density_ax.legend(fontsize=8, loc="upper right")
    fig.suptitle(f"{result.heading}\n{result.summary}", fontsize=10)
    fig.tight_layout()
    return fig


def corner_crowd_figure(plt, result):
    """RiMEA 15: persons across the target over time, round the corner and in the two straight corridors."""
    data = result.data
    fig, ax = plt.subplots(figsize=(5.5, 4.0))
    styles = {"short": ("short straight", "C2", "--"), "corner": ("corner", "C0", "-"),
              "long": ("long straight", "C3", "--")}
    for name, times in data["exit_times"].items():
        label, color, style = styles[name]
        ax.step(np.concatenate([[0.0], times]), np.arange(len(times) + 1), where="post", color=color, ls=style,
                label=label)
    ax.axhline(data["persons"], color="0.6", lw=0.8, ls=":")
    ax.set(xlabel="time (s)", ylabel="persons across the target", ylim=(0, data["persons"] * 1.05))
    ax.set_title(f"{result.heading}\n{result.summary}", fontsize=10)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    return fig


def single_file_figure(plt, result):
    """RiMEA 16: simulated (density, speed) samples over the band of measured single-file speeds."""
    data, env = result.data, result.data["envelope"]
    fig, ax = plt.subplots(figsize=(5.5, 4.0))
    edges = np.concatenate([env["low"][:1], env["high"]])
    ax.stairs(env["p90"], edges, baseline=env["p10"], fill=True, color="0.75", alpha=0.7,
              label="measured, 10-90 % (Jülich single file)")
    ax.stairs(env["p50"], edges, color="0.35", label="measured median")
    rho, v = data["density"], data["speed"]
    keep = np.random.default_rng(0).permutation(len(rho))[:4000]  # enough points to show the cloud
    ax.plot(rho[keep], v[keep], ".", ms=2, alpha=0.3, color="C0", label=f"{result.method}, each person each 0.4 s")
    runs = data["runs"]
    ax.plot(runs[:, 1], runs[:, 2], "o", color="C3", label="mean per run (persons / 26 m)")
    ax.set(xlabel="1D density (persons/m)", ylabel="speed (m/s)", xlim=(0, 3.5), ylim=(0, 1.6))
    ax.set_title(f"{result.heading}\n{result.summary}", fontsize=9)
    ax.legend(fontsize=7, loc="center right")
    fig.tight_layout()
    return fig


#: Marker per measured set of bottleneck flows (data/README.md names each).
_BOTTLENECK_SETS = {"seyfried2009": ("Seyfried et al. 2009", "s"), "liddle2011": ("Liddle et al. 2011", "D"),
                    "kretz2006": ("Kretz et al. 2006", "^"), "nagai2006": ("Nagai et al. 2006", "v"),
                    "mueller1981": ("Müller 1981", "<"), "daamen2010": ("Daamen, Hoogendoorn 2010", ">"),
                    "liao2014": ("Liao et al. 2014", "p")}


def bottleneck_figure(plt, result):
    """Bottleneck flow J against width b: the method's points and line, the measured points and band."""
    from ._bottleneck import bottleneck_flow_measured

    data = result.data
    table, (low, high), (slope, intercept) = data["table"], data["band"], data["fit"]
    b, flow = table[:, 0], table[:, 1]
    fig, ax = plt.subplots(figsize=(6.0, 4.6))
    span = np.array([0.0, 2.8])
    ax.fill_between(span, low * span, high * span, color="0.85",
                    label=f"measured J/b at b {b.min():g}-{b.max():g} m: {low:.2f}-{high:.2f} /(m s)")
    measured = bottleneck_flow_measured()
    for name, (label, marker) in _BOTTLENECK_SETS.items():
        mine = measured["source"] == name
        ax.plot(measured["width"][mine], measured["flow"][mine], marker, ms=4.5, color="0.35", mfc="none", label=label)
    finite = np.isfinite(flow)
    ax.plot(b[finite], flow[finite], "o", ms=7, color="C0", label=f"{result.method}", zorder=3)
    if np.isfinite(slope):
        ax.plot(span, slope * span + intercept, color="C0", lw=1.2, ls="--",
                label=f"{result.method} fit: J = {slope:.2f} b {intercept:+.2f}")
    ax.set(xlabel="bottleneck width b (m)", ylabel="flow J (persons/s)", xlim=(0.0, 2.8),
           ylim=(0.0, max(7.5, float(np.nanmax(flow, initial=0.0)) * 1.1)))
    ax.set_title(f"Bottleneck flow against width: {result.method} ({result.verdict})\n"
                 f"{result.summary}", fontsize=9)
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    return fig
