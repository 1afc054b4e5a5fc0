"""The standard figures of a method comparison (a table from ``vosim.compare``)."""

from __future__ import annotations

import numpy as np

from .._metric_labels import METRICS
from ._common import pyplot_module
from ._style import series_color

#: Dash patterns of the methods' curves, in the order methods appear.
LINESTYLES = ("-", "--", "-.", ":", (0, (5, 1, 1, 1, 1, 1)), (0, (1, 3)))

#: Metrics drawn by default, with their axis labels.


def _order(values) -> list:
    seen = []
    for v in values:
        if v not in seen:
            seen.append(v)
    return seen


#: The figures :func:`compare` draws.
FIGURES = ("metrics", "collisions", "arrivals")


def compare(table, *, figure: str = "metrics", metrics=None, figsize_per_panel=(3.4, 3.0)):
    """Draw one of the standard figures of a comparison.

    Parameters
    ----------
    table
        The DataFrame of :func:`vosim.compare` (one row per method, scenario
        and seed).
    figure
        ``"metrics"``: each metric per method, one dot per seed and the
        mean over the seeds as a bar (the means of
        :func:`vosim.comparison.summarize`), grouped by scenario. Where that
        mean is undefined (the makespan where some seed did not finish: a
        mean of the finished seeds alone would flatter the method) there
        is no bar: the slot says "not finished", the finished seeds' dots
        are hollow, and the panel lists the runs without a value.
        ``"collisions"``: colliding pairs over time (mean over seeds, the
        range shaded); ``"arrivals"``: the fraction of agents arrived over
        time; one panel per scenario, both from the per-step data of
        ``table.attrs["series"]``.
    metrics
        Columns drawn in ``"metrics"``; by default those of
        ``METRICS`` that the table has.
    figsize_per_panel
        Size of one panel (inches).

    Returns
    -------
    matplotlib.figure.Figure

    Raises
    ------
    ValueError
        A table that is not from :func:`vosim.compare`, an unknown
        ``figure`` or metric, or ``"collisions"``/``"arrivals"`` for a
        table without per-step data.
    """
    plt = pyplot_module()
    for column in ("method", "scenario", "seed"):
        if column not in getattr(table, "columns", ()):
            raise ValueError(f"table: expected a table from vosim.compare (no column {column!r})")
    if figure not in FIGURES:
        raise ValueError(f"figure is {figure!r}; must be one of {', '.join(map(repr, FIGURES))}")
    if metrics is None:
        metrics = [m for m in METRICS if m in table.columns]
    else:
        for k, name in enumerate(metrics):
            if name not in table.columns:
                raise ValueError(f"metrics[{k}] is {name!r}; the table has no such column")
    methods = _order(table["method"])
    scenario_names = _order(table["scenario"])
    colors = {m: series_color(k) for k, m in enumerate(methods)}
    if figure != "metrics":
        series = table.attrs.get("series") if hasattr(table, "attrs") else None
        if not series:
            raise ValueError(f"figure is {figure!r}, but the table has no per-step data (table.attrs['series'])")
        return _over_time(plt, table, series, methods, scenario_names, colors, figure)
    return _metrics(plt, table, metrics, methods, scenario_names, colors, figsize_per_panel)


def _metrics(plt, table, metrics, methods, scenario_names, colors, figsize_per_panel):
    from matplotlib.transforms import blended_transform_factory

    from ..comparison import summarize

    means = summarize(table, columns=list(metrics)) if metrics else None  # the bars: one rule for table and figure
    # Three or four panels a row, whichever leaves fewer empty (four when equal).
    columns = min((4, 3), key=lambda c: (-len(metrics) % c, -c)) if len(metrics) > 4 else max(len(metrics), 1)
    rows = -(-len(metrics) // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(figsize_per_panel[0] * columns, figsize_per_panel[1] * rows),
                             squeeze=False)
    width = 0.8 / len(methods)
    rng = np.random.default_rng(0)  # horizontal jitter of the dots only
    unfinished_any = False
    for ax, name in zip(axes.flat, metrics):
        missing_runs = []
        for s, scenario in enumerate(scenario_names):
            for k, method in enumerate(methods):
                values = table[(table["scenario"] == scenario) & (table["method"] == method)][name].to_numpy(float)
                x = s + (k - (len(methods) - 1) / 2) * width
                finite = values[np.isfinite(values)]
                mean = float(means.loc[(scenario, method), name])
                if np.isfinite(mean):
                    ax.bar(x, mean, width=width * 0.9, color=colors[method], alpha=0.35)
                jitter = np.full(len(finite), x) + rng.uniform(-0.2, 0.2, len(finite)) * width
                if np.isfinite(mean) or not len(finite):
                    ax.scatter(jitter, finite, s=10, color=colors[method], zorder=3)
                else:  # some seeds have a value, but no mean is defined: no bar, hollow dots
                    unfinished_any = True
                    ax.scatter(jitter, finite, s=14, facecolors="none", edgecolors=colors[method], linewidths=1.0,
                               zorder=3)
                    # An empty hatched slot the height of the panel: the gap reads as "no mean" at a glance.
                    slot = blended_transform_factory(ax.transData, ax.transAxes)
                    ax.add_patch(plt.Rectangle((x - width * 0.45, 0.0), width * 0.9, 1.0, transform=slot,
                                               facecolor="none", edgecolor=colors[method], hatch="///",
                                               linewidth=0.0, alpha=0.45, zorder=1))
                    ax.text(x, 0.03, "not finished", transform=slot, rotation=90, ha="center", va="bottom",
                            fontsize="small", color="0.15", zorder=2)
                missing = len(values) - len(finite)
                if missing:  # NaN: e.g. no makespan where not everyone arrived
                    missing_runs.append(f"{method} {missing}/{len(values)}"
                                        + (f" ({scenario})" if len(scenario_names) > 1 else ""))
        ax.set_xticks(range(len(scenario_names)))
        ax.set_xticklabels(scenario_names, fontsize="small")
        logarithmic = _wide_range(table[name].to_numpy(float))
        if logarithmic:  # one huge value would flatten every other bar to nothing
            _symlog_axis(ax, logarithmic)
        elif (table[name].to_numpy(float) < 0).any():  # a clearance below zero: overlap
            ax.axhline(0.0, color="0.3", linewidth=0.8, zorder=2)
        ax.set_title(METRICS.get(name, name) + (" (log scale)" if logarithmic else ""), fontsize="medium")
        if missing_runs:
            # Runs without a value (makespan when not everyone arrived) are said, never drawn as 0.
            ax.set_xlabel("no value: " + ", ".join(missing_runs), fontsize="small", color="0.2", wrap=True)
    for ax in list(axes.flat)[len(metrics):]:
        ax.set_visible(False)
    handles = [plt.Rectangle((0, 0), 1, 1, color=colors[m]) for m in methods]
    handles.append(plt.Line2D([], [], linestyle="", marker="o", color="0.4", markersize=4))
    labels = methods + ["one seed (bar: mean)"]
    if unfinished_any:
        handles.append(plt.Line2D([], [], linestyle="", marker="o", markerfacecolor="none", markeredgecolor="0.4",
                                  markersize=4))
        labels.append("finished seed; others did not (no bar)")
    fig.suptitle(f"metrics per method over {table['seed'].nunique()} seeds", fontsize="medium")
    fig.tight_layout(rect=(0, 0, 1, 0.92))
    # The legend between the title and the panels, where it covers nothing.
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.955), ncol=min(len(labels), 7),
               frameon=False, fontsize="small")
    return fig


#: A metric panel turns logarithmic when its largest value exceeds its median positive value this many times.
LOG_SPREAD = 100.0


def _wide_range(values: np.ndarray) -> float:
    """0 when the non-negative ``values`` fit a linear axis; else the linear threshold of a symlog axis (the
    power of ten at or below the smallest positive value: zeros stay visible as zeros)."""
    values = values[np.isfinite(values)]
    positive = values[values > 0]
    if not len(positive) or (values < 0).any() or positive.max() <= LOG_SPREAD * np.median(positive):
        return 0.0
    return float(10.0 ** np.floor(np.log10(positive.min())))


def _symlog_axis(ax, threshold: float) -> None:
    """A logarithmic axis that still shows zero: linear up to ``threshold`` (a power of ten), one decade tall,
    and labelled only at 0 and at each power of ten from the threshold up (no label crowding in under the
    first decade)."""
    from matplotlib.ticker import FixedLocator, LogFormatterSciNotation, NullLocator

    ax.set_yscale("symlog", linthresh=threshold, linscale=1.0)
    low, high = ax.get_ylim()
    decades = 10.0 ** np.arange(np.log10(threshold), np.ceil(np.log10(max(high, threshold * 10))) + 1)
    ax.yaxis.set_major_locator(FixedLocator(np.r_[0.0, decades]))
    formatter = LogFormatterSciNotation(base=10.0)
    ax.yaxis.set_major_formatter(lambda value, position: "0" if value == 0 else formatter(value, position))
    ax.yaxis.set_minor_locator(NullLocator())
    ax.set_ylim(0.0, high)


def _curve(run: dict, what: str) -> tuple[np.ndarray, np.ndarray] | None:
    dt = run["time_step"]
    if what == "collisions":
        counts = run.get("collisions_series")
        if counts is None:
            return None
        counts = np.asarray(counts, dtype=float)
        counts[counts < 0] = np.nan  # a state the run did not observe (interrupted)
        steps = np.asarray(run.get("record_steps", np.arange(len(counts))), dtype=float)
        return steps * dt, counts
    arrival = run.get("arrival_step")
    if arrival is None:
        return None
    arrival = np.asarray(arrival)
    # To the end of the run, not to the last arrival: a run that stopped with
    # agents still walking shows its final share as a flat line.
    recorded = run.get("record_steps")
    end = int(np.max(recorded)) if recorded is not None and len(recorded) else int(arrival.max(initial=0)) + 1
    steps = np.arange(max(end, int(arrival.max(initial=0)) + 1) + 1)
    arrived = np.searchsorted(np.sort(arrival[arrival >= 0]), steps, side="right") / max(len(arrival), 1)
    return steps * dt, arrived


def _over_time(plt, table, series, methods, scenario_names, colors, what: str):
    fig, axes = plt.subplots(1, len(scenario_names), figsize=(4.2 * len(scenario_names), 3.4), squeeze=False)
    for ax, scenario in zip(axes[0], scenario_names):
        last_arrival, unfinished = 0.0, []
        for method in methods:
            seeds = table[(table["scenario"] == scenario) & (table["method"] == method)]["seed"]
            curves = [_curve(series[(method, scenario, seed)], what) for seed in seeds
                      if (method, scenario, seed) in series]
            curves = [c for c in curves if c is not None]
            if not curves:
                continue
            if what == "arrivals":
                for time, arrived in curves:
                    rising = np.flatnonzero(np.diff(arrived, prepend=0.0) > 0)
                    last_arrival = max(last_arrival, float(time[rising[-1]]) if len(rising) else 0.0)
                ends = [float(time[-1]) for time, arrived in curves if arrived[-1] < 1.0]
                if ends:
                    unfinished.append(f"{method}: {len(ends)} of {len(curves)} runs\nunfinished, "
                                      f"stopped at {max(ends):.0f} s")
            longest = max(len(c[0]) for c in curves)
            time = max(curves, key=lambda c: len(c[0]))[0]
            # a finished run keeps its last value (everyone arrived; no more collisions)
            padded = np.array([np.r_[c[1], np.full(longest - len(c[1]), c[1][-1] if what == "arrivals" else 0.0)]
                               for c in curves])
            # a dash pattern per method too: colours alone are close for some readers and in print
            ax.plot(time, padded.mean(axis=0), color=colors[method], label=method, linewidth=1.4,
                    linestyle=LINESTYLES[methods.index(method) % len(LINESTYLES)])
            ax.fill_between(time, padded.min(axis=0), padded.max(axis=0), color=colors[method], alpha=0.15,
                            linewidth=0)
        ax.set_title(scenario, fontsize="medium")
        ax.set_xlabel("time [s]")
        ax.set_ylabel("colliding pairs" if what == "collisions" else "arrived (fraction)")
        if what == "arrivals":
            ax.set_ylim(-0.02, 1.02)
            if unfinished and last_arrival > 0:
                # A run stopped without everyone in would stretch the axis to its end: the axis ends a little
                # after the last arrival, and the panel says which runs went on, and for how long.
                ax.set_xlim(right=last_arrival * 1.08)
                ax.text(0.98, 0.04, "\n".join(unfinished), transform=ax.transAxes, ha="right", va="bottom",
                        fontsize="small", color="0.2", zorder=5,
                        bbox=dict(boxstyle="round,pad=0.3", facecolor="white", edgecolor="0.8", alpha=0.9))
    handles, labels = axes[0][0].get_legend_handles_labels()
    handles.append(plt.Rectangle((0, 0), 1, 1, color="0.5", alpha=0.25))
    labels.append("range over seeds (line: mean)")
    fig.suptitle("collisions over time" if what == "collisions" else "arrivals over time", fontsize="medium")
    # Under the panels, where it covers no curve.
    columns = min(len(labels), max(2, 3 * len(scenario_names)))
    fig.tight_layout(rect=(0, 0.06 * (1 + (len(labels) - 1) // columns), 1, 1))
    fig.legend(handles, labels, loc="lower center", ncol=columns, fontsize="small", frameon=False)
    return fig
