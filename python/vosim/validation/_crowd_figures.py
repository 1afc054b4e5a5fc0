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
    fig.suptitle(f"RiMEA 13: {result.method} ({'pass' if result.passed else 'fail'})\n{result.summary}", fontsize=10)
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
    ax.set_title(f"RiMEA 15: {result.method} ({'pass' if result.passed else 'fail'})\n{result.summary}", fontsize=10)
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
    ax.set_title(f"RiMEA 16: {result.method} ({'pass' if result.passed else 'fail'})\n{result.summary}", fontsize=9)
    ax.legend(fontsize=7, loc="center right")
    fig.tight_layout()
    return fig
