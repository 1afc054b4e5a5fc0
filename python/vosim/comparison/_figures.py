"""The figures of a comparison's report: every seed as a point, each mean with its interval as an error bar."""

from __future__ import annotations

import textwrap

import numpy as np

from .._pyplot import pyplot_module
from .._metric_labels import METRICS
from .._palette import series_color

#: The metrics' labels in the report's tables and figures: the comparison figures' and the fallbacks'.
LABELS = {**METRICS, "fallbacks": "fallback agent-steps"}
#: Mark of a method without a collision guarantee (the tables' mark).
_MARK = "†"


def _panels(plt, count: int, size=(3.6, 3.1)):
    columns = min(3, max(count, 1))
    rows = -(-count // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(size[0] * columns, size[1] * rows), squeeze=False)
    for ax in list(axes.flat)[count:]:
        ax.set_visible(False)
    return fig, list(axes.flat)[:count]


def _guarantee_note(counts_collisions: bool, methods, scenarios, guarantees) -> list:
    """The note under a panel that counts collisions, naming the methods without a collision guarantee."""
    if not counts_collisions:
        return []
    marked = [m for m in dict.fromkeys(methods)
              if any(guarantees.get(s, {}).get(m, {}).get("guaranteed") is False for s in scenarios)]
    return [f"{_MARK} no collision guarantee: " + ", ".join(marked)] if marked else []


def _note(ax, lines: list) -> None:
    """Notes under the panel, where they hide no point."""
    if lines:
        ax.set_xlabel("\n".join(textwrap.fill(line, 60) for line in lines), fontsize="x-small", color="0.3")


def _jitter(count: int, width: float, rng) -> np.ndarray:
    return rng.uniform(-0.25, 0.25, count) * width


def _values(table, scenario, method, metric) -> np.ndarray:
    import pandas as pd

    rows = table[(table["scenario"] == scenario) & (table["method"] == method)]
    return pd.to_numeric(rows[metric], errors="coerce").to_numpy(float)


def metrics_figure(table, summary, metrics: list, guarantees: dict):
    """One panel per metric: per scenario and method, every seed's value and the mean with its interval."""
    from ._summaries import COLLISION_COLUMNS

    plt = pyplot_module()
    methods = list(dict.fromkeys(table["method"]))
    scenarios = list(dict.fromkeys(table["scenario"]))
    colors = {m: series_color(k) for k, m in enumerate(methods)}
    width = 0.8 / len(methods)
    rng = np.random.default_rng(0)  # the points' horizontal jitter only
    fig, axes = _panels(plt, len(metrics))
    for ax, metric in zip(axes, metrics):
        undefined = {}  # scenario -> methods with a seed that did not finish
        for s, scenario in enumerate(scenarios):
            for k, method in enumerate(methods):
                x = s + (k - (len(methods) - 1) / 2) * width
                values = _values(table, scenario, method, metric)
                finite = values[np.isfinite(values)]
                row = summary.loc[(scenario, method, metric)]
                defined = np.isfinite(row["mean"])
                ax.scatter(x + _jitter(len(finite), width, rng), finite, s=9, color=colors[method], alpha=0.55,
                           zorder=2, facecolors=colors[method] if defined else "none", linewidths=0.8)
                if defined:
                    low, high = row["ci_low"], row["ci_high"]
                    error = (np.array([[row["mean"] - low], [high - row["mean"]]])
                             if np.isfinite(low) and np.isfinite(high) else None)
                    ax.errorbar(x, row["mean"], yerr=error, fmt="_", markersize=14, markeredgewidth=2,
                                color="black", ecolor=colors[method], elinewidth=2.2, capsize=4, zorder=3)
                elif len(values):
                    undefined.setdefault(scenario, []).append(method)
        ax.set_xticks(range(len(scenarios)))
        ax.set_xticklabels(scenarios, fontsize="small")
        ax.set_title(LABELS.get(metric, metric), fontsize="medium")
        ax.grid(axis="y", alpha=0.3)
        notes = []
        if undefined:
            notes = ["no mean (a seed did not finish): " + "; ".join(
                ", ".join(names) + (f" ({scenario})" if len(scenarios) > 1 else "")
                for scenario, names in undefined.items())]
        _note(ax, notes + _guarantee_note(metric in COLLISION_COLUMNS, methods, scenarios, guarantees))
    handles = [plt.Line2D([], [], linestyle="", marker="o", color=colors[m], markersize=5) for m in methods]
    labels = list(methods)
    handles.append(plt.Line2D([], [], color="0.3", marker="_", markersize=12, markeredgecolor="black",
                              linewidth=2.2))
    confidence = summary.attrs.get("interval", {}).get("description", "interval")
    labels.append(f"mean and {confidence.split(' over seeds')[0]}")
    seeds = summary["n_seeds"].max()
    fig.suptitle(f"every seed (points) and the mean over {seeds} seeds", fontsize="medium")
    fig.tight_layout(rect=(0, 0, 1, 0.9))
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.95), ncol=min(len(labels), 6),
               frameon=False, fontsize="small")
    return fig


def difference_figure(table, differences, baseline: str, guarantees: dict):
    """One panel per metric: per scenario and method, each seed's difference from the baseline and their mean."""
    from ._summaries import COLLISION_COLUMNS

    plt = pyplot_module()
    metrics = list(dict.fromkeys(differences.index.get_level_values("metric")))
    methods = list(dict.fromkeys(differences.index.get_level_values("method")))
    scenarios = list(dict.fromkeys(differences.index.get_level_values("scenario")))
    all_methods = list(dict.fromkeys(table["method"]))
    colors = {m: series_color(all_methods.index(m)) for m in methods}
    width = 0.8 / len(methods)
    rng = np.random.default_rng(0)
    fig, axes = _panels(plt, len(metrics))
    for ax, metric in zip(axes, metrics):
        ax.axhline(0.0, color="0.5", linewidth=0.8, zorder=1)
        for s, scenario in enumerate(scenarios):
            base = table[(table["scenario"] == scenario) & (table["method"] == baseline)].set_index("seed")[metric]
            for k, method in enumerate(methods):
                x = s + (k - (len(methods) - 1) / 2) * width
                other = table[(table["scenario"] == scenario) & (table["method"] == method)].set_index("seed")[metric]
                seeds = [seed for seed in other.index if seed in base.index]
                d = other.loc[seeds].to_numpy(float) - base.loc[seeds].to_numpy(float)
                d = d[np.isfinite(d)]
                row = differences.loc[(scenario, metric, method)]
                defined = np.isfinite(row["mean_difference"])  # hollow: pairs of a metric without a mean
                ax.scatter(x + _jitter(len(d), width, rng), d, s=9, color=colors[method], alpha=0.55, zorder=2,
                           facecolors=colors[method] if defined else "none", linewidths=0.8)
                if np.isfinite(row["mean_difference"]):
                    error = None
                    if np.isfinite(row["ci_low"]) and np.isfinite(row["ci_high"]):
                        error = np.array([[row["mean_difference"] - row["ci_low"]],
                                          [row["ci_high"] - row["mean_difference"]]])
                    ax.errorbar(x, row["mean_difference"], yerr=error, fmt="_", markersize=14, markeredgewidth=2,
                                color="black", ecolor=colors[method], elinewidth=2.2, capsize=4, zorder=3)
                    if row["significant"]:
                        ax.annotate("*", (x, row["ci_high"] if np.isfinite(row["ci_high"]) else row["mean_difference"]),
                                    textcoords="offset points", xytext=(0, 2), ha="center", fontsize="medium")
        ax.set_xticks(range(len(scenarios)))
        ax.set_xticklabels(scenarios, fontsize="small")
        ax.set_title(f"{LABELS.get(metric, metric)}, method − {baseline}", fontsize="medium")
        ax.grid(axis="y", alpha=0.3)
        _note(ax, _guarantee_note(metric in COLLISION_COLUMNS, [baseline, *methods], scenarios, guarantees))
    handles = [plt.Line2D([], [], linestyle="", marker="o", color=colors[m], markersize=5) for m in methods]
    labels = [f"{m} − {baseline}" for m in methods]
    handles.append(plt.Line2D([], [], color="0.3", marker="_", markersize=12, markeredgecolor="black",
                              linewidth=2.2))
    labels.append("mean difference and interval (* corrected p below alpha)")
    fig.suptitle(f"paired differences from {baseline}, seed by seed", fontsize="medium")
    fig.tight_layout(rect=(0, 0, 1, 0.9))
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.95), ncol=min(len(labels), 5),
               frameon=False, fontsize="small")
    return fig
