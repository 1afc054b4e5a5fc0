"""Figure of RiMEA test 8 (needs matplotlib): the building with the base run's paths, and evacuation curves."""

from __future__ import annotations

import numpy as np


def building_figure(plt, result):
    """Left: walls, stairs and the first seed's base-case paths, by storey; right: persons out over time."""
    data = result.data
    runs = data["runs"]
    fig, (plan_ax, curve_ax) = plt.subplots(1, 2, figsize=(11.0, 4.2), gridspec_kw={"width_ratios": [1.6, 1.0]})
    for x0, x1, y1 in data["stairs"]:
        plan_ax.fill_between([x0, x1], 0.0, y1, color="0.85", zorder=0)
        plan_ax.text((x0 + x1) / 2, y1 / 2, "stairs", ha="center", va="center", fontsize=7, color="0.35")
    for wall in data["building"]:
        wall = np.asarray(wall)
        plan_ax.plot(wall[:, 0], wall[:, 1], color="0.15", lw=1.5)
    base = next(iter(runs.values()))
    positions, storey = base["trajectory"].positions, base["storey"]
    names = ("ground floor", "first floor", "second floor")
    for i in range(positions.shape[1]):
        plan_ax.plot(positions[:, i, 0], positions[:, i, 1], lw=0.5, color=f"C{storey[i]}", alpha=0.6)
    for s, name in enumerate(names):
        mine = storey == s
        plan_ax.plot(positions[0, mine, 0], positions[0, mine, 1], "o", ms=2.5, color=f"C{s}", label=name)
    plan_ax.axvline(data["exit"], color="C3", lw=1.0, ls="--")
    plan_ax.set(xlabel="x (m), storeys side by side", ylabel="y (m)", aspect="equal", ylim=(-0.5, 12.5),
                title=f"{next(iter(runs))}: paths of one run (exit at the dashed line)")
    plan_ax.legend(fontsize=7, loc="upper center", ncol=3, frameon=False)
    for k, (name, run) in enumerate(runs.items()):
        times = run["exit_times"]
        curve_ax.step(np.concatenate([[0.0], times]), np.arange(len(times) + 1), where="post", color=f"C{k}",
                      label=f"{name} ({run['total_s']:.0f} s)" if np.isfinite(run["total_s"]) else f"{name} (not out)")
    curve_ax.set(xlabel="time (s)", ylabel="persons out (one run)")
    curve_ax.legend(fontsize=7, loc="lower right", title="mean evacuation time", title_fontsize=7)
    fig.suptitle(result.heading, fontsize=10)
    fig.tight_layout()
    return fig
