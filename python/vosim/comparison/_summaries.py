"""Summaries of a comparison table with their uncertainty: means with intervals, paired differences, seeds advice."""

from __future__ import annotations

import math
import numbers
from typing import Mapping, Sequence

import numpy as np

from .._checks import integer, scalar
from . import _statistics


#: Columns :func:`summarize` reports, in order (those the table has).
SUMMARY_COLUMNS = ("arrival_rate", "finished", "makespan", "collision_agent_steps", "collision_pairs",
                   "max_penetration", "min_clearance", "path_efficiency", "mean_speed")
#: Columns of :func:`summarize`'s intervals, of :func:`paired` and of :func:`seeds_needed` by default
#: (those the table has): the summary's metrics, ``finished`` (a share) aside.
INTERVAL_COLUMNS = tuple(c for c in SUMMARY_COLUMNS if c != "finished")
#: Columns of :func:`report` by default (those the table has): :data:`INTERVAL_COLUMNS` and ``fallbacks``,
#: the steps in which a method's collision guarantee did not hold.
REPORT_COLUMNS = (*INTERVAL_COLUMNS, "fallbacks")
#: Columns in which collisions are counted: a method without a collision guarantee
#: (:func:`vosim.methods.collision_guarantee`) is marked wherever one of them is reported.
COLLISION_COLUMNS = ("collision_agent_steps", "collision_pairs", "max_penetration", "min_clearance")


def _statistics_options(confidence, interval, resamples, random_seed) -> dict:
    confidence = scalar(confidence, "confidence", minimum=0.0, strict=True, maximum=1.0)
    if confidence >= 1.0:
        raise ValueError(f"confidence is {confidence}; must be < 1")
    if interval not in _statistics.INTERVALS:
        raise ValueError(f"interval is {interval!r}; must be one of {', '.join(map(repr, _statistics.INTERVALS))}")
    return {"confidence": float(confidence), "interval": interval,
            "resamples": integer(resamples, "resamples", minimum=100),
            "random_seed": integer(random_seed, "random_seed", minimum=0)}


def interval_description(options: dict) -> str:
    """How the intervals of :func:`summarize` and :func:`paired` were made, in words."""
    level = f"{100 * options['confidence']:g} %"
    if options["interval"] == "t":
        return f"{level} Student's t intervals over seeds"
    rule = "percentile" if options["interval"] == "percentile" else "BCa"
    return (f"{level} {rule} bootstrap intervals over seeds ({options['resamples']} resamples, "
            f"random seed {options['random_seed']})")


def _with_finished(table):
    """The table with a per-run ``finished`` column (1.0 when every agent arrived, as makespan says)."""
    if "makespan" in table.columns and "finished" not in table.columns:
        table = table.assign(finished=table["makespan"].notna().astype(float))
    return table


def _wanted_columns(table, columns, default) -> list:
    if columns is None:
        return [c for c in default if c in table.columns]
    if isinstance(columns, str):
        raise TypeError(f"columns: expected a list of column names, got the string {columns!r}")
    wanted = list(columns)
    for k, name in enumerate(wanted):
        if name not in table.columns:
            raise ValueError(f"columns[{k}] is {name!r}; the table has no such column")
    return wanted


def check_table(table) -> None:
    missing = [c for c in ("method", "scenario", "seed") if c not in getattr(table, "columns", ())]
    if missing:
        raise ValueError(f"table: expected a table from vosim.compare (no column {missing[0]!r})")


def _describe(values: np.ndarray, options: dict) -> dict:
    """Mean, interval and spread of one metric over seeds; all NaN unless every seed has a value."""
    values = np.asarray(values, dtype=float)
    defined = not np.isnan(values).any() and len(values) > 0
    if not defined:
        return dict(mean=math.nan, ci_low=math.nan, ci_high=math.nan, std=math.nan, min=math.nan, max=math.nan)
    with np.errstate(invalid="ignore"):
        low, high = _statistics.mean_interval(values, confidence=options["confidence"],
                                              interval=options["interval"], resamples=options["resamples"],
                                              random_seed=options["random_seed"])
        return dict(mean=float(values.mean()), ci_low=low, ci_high=high,
                    std=float(values.std(ddof=1)) if len(values) > 1 else math.nan,
                    min=float(values.min()), max=float(values.max()))


def summarize(table, columns: Sequence[str] | None = None, *, interval: str | None = None,
              confidence: float = 0.95, resamples: int = 9999, random_seed: int = 0):
    """The mean of each metric per scenario and method, over the seeds of a :func:`compare` table.

    ``finished`` is the share of seeds in which every agent arrived.
    ``makespan`` is averaged only when every seed finished, and is NaN
    otherwise: a mean over the finished seeds alone would favour a method
    that finishes only its easy seeds.

    Parameters
    ----------
    table
        The DataFrame of :func:`compare`.
    columns
        The columns to give, in order; by default :data:`SUMMARY_COLUMNS`
        (those the table has), or with ``interval`` :data:`INTERVAL_COLUMNS`.
    interval
        None (the default): one mean per metric, as columns. Otherwise one
        row per scenario, method and metric with the mean, its two-sided
        ``confidence`` interval over the seeds, the spread and the counts:
        ``"percentile"`` (bootstrap: quantiles of the means of
        ``resamples`` resamples of the seeds, drawn with ``random_seed``, so
        the same table gives the same intervals), ``"bca"`` (bootstrap
        corrected for bias and skew) or ``"t"`` (Student's t). With few
        seeds (below about 10) the bootstrap's intervals are too narrow;
        prefer ``"t"`` there.
    confidence, resamples, random_seed
        The intervals' level, and the bootstrap's resamples and seed.

    Returns
    -------
    pandas.DataFrame
        Without ``interval``: indexed by (scenario, method), a column per
        metric. With it: indexed by (scenario, method, metric), columns
        ``mean, ci_low, ci_high, std, min, max, n_seeds, n_values,
        n_finished``: ``n_values`` seeds have a value of the metric (a
        makespan only where every agent arrived) and ``n_finished`` seeds
        finished. The mean, interval and spread are NaN unless every seed
        has a value (the rule for ``makespan`` above, for every metric).
        ``attrs["interval"]`` says how the intervals were made.
    """
    check_table(table)
    if interval is not None:
        return _summary_with_intervals(table, columns, _statistics_options(confidence, interval, resamples,
                                                                           random_seed))
    grouped = table.drop(columns=["seed"]).groupby(["scenario", "method"], sort=False)
    summary = grouped.mean(numeric_only=True)
    if "makespan" in table.columns:
        summary["finished"] = grouped["makespan"].agg(lambda s: s.notna().mean())
        summary["makespan"] = grouped["makespan"].agg(lambda s: s.mean() if s.notna().all() else np.nan)
    wanted = [c for c in SUMMARY_COLUMNS if c in summary.columns] if columns is None else list(columns)
    for k, name in enumerate(wanted):
        if name not in summary.columns:
            raise ValueError(f"columns[{k}] is {name!r}; the summary has no such column")
    summary = summary[wanted]
    summary.attrs = {}  # the per-run series stay with the table
    return summary


def _summary_with_intervals(table, columns, options: dict):
    import pandas as pd

    table = _with_finished(table)
    wanted = _wanted_columns(table, columns, INTERVAL_COLUMNS)
    rows = []
    for (scenario, method), group in table.groupby(["scenario", "method"], sort=False):
        finished = int(group["makespan"].notna().sum()) if "makespan" in group else -1
        for name in wanted:
            values = pd.to_numeric(group[name], errors="coerce").to_numpy(float)
            rows.append(dict(scenario=scenario, method=method, metric=name, **_describe(values, options),
                             n_seeds=len(values), n_values=int(np.sum(~np.isnan(values))), n_finished=finished))
    summary = pd.DataFrame(rows).set_index(["scenario", "method", "metric"])
    if "makespan" not in table.columns:
        summary = summary.drop(columns="n_finished")
    summary.attrs = {"interval": {**options, "description": interval_description(options)}}
    return summary


def paired(table, baseline: str, columns: Sequence[str] | None = None, *, test: str = "auto",
           correction: str = "holm", alpha: float = 0.05, interval: str = "percentile", confidence: float = 0.95,
           resamples: int = 9999, random_seed: int = 0):
    """Each method's difference from ``baseline`` over the same seeds, per scenario and metric, with a paired test.

    :func:`compare` runs every method on the same seeds (common random
    numbers), so seed k of one method and seed k of another met the same
    scene: their difference is free of the scene-to-scene spread that a
    comparison of two means carries.

    Parameters
    ----------
    table
        The DataFrame of :func:`compare`.
    baseline
        The method (label) the others are compared with.
    columns
        The metrics; by default :data:`INTERVAL_COLUMNS` (those the table has).
    test
        ``"auto"``: the Wilcoxon signed-rank test with SciPy installed
        (``pip install "vosim[stats]"``), else ``"sign-flip"``: a permutation
        test of the mean difference (every sign pattern up to 16 pairs,
        else 20,000 random ones drawn with ``random_seed``). Two-sided.
    correction
        ``"holm"`` (the default): Holm–Bonferroni over the methods compared
        with the baseline, for each scenario and metric, so that the chance
        of any false finding among them stays below ``alpha``; ``"none"``.
    alpha
        The level at which ``significant`` is set (on the corrected p-value).
    interval, confidence, resamples, random_seed
        The interval of the mean difference, as in :func:`summarize`.

    Returns
    -------
    pandas.DataFrame
        Indexed by (scenario, metric, method), columns ``baseline, n_pairs,
        mean_difference`` (method minus baseline), ``ci_low, ci_high,
        cohens_dz`` (mean difference over the differences' standard
        deviation), ``rank_biserial`` (matched pairs, from -1 to 1),
        ``test, p_value, p_adjusted, significant``. Pairs are the seeds both
        ran; a metric that some paired seed lacks (a makespan where not
        every agent arrived) gives NaN differences and no test, as in
        :func:`summarize`. ``attrs`` say how intervals, tests and the
        correction were made.
    """
    import pandas as pd

    check_table(table)
    options = _statistics_options(confidence, interval, resamples, random_seed)
    if test not in _statistics.TESTS:
        raise ValueError(f"test is {test!r}; must be one of {', '.join(map(repr, _statistics.TESTS))}")
    if correction not in ("holm", "none"):
        raise ValueError(f"correction is {correction!r}; must be 'holm' or 'none'")
    alpha = scalar(alpha, "alpha", minimum=0.0, strict=True, maximum=1.0)
    methods = list(dict.fromkeys(table["method"]))
    if baseline not in methods:
        raise ValueError(f"baseline is {baseline!r}; the table's methods are {', '.join(map(repr, methods))}")
    others = [m for m in methods if m != baseline]
    if not others:
        raise ValueError(f"baseline: {baseline!r} is the table's only method; nothing to compare it with")
    table = _with_finished(table)
    wanted = _wanted_columns(table, columns, INTERVAL_COLUMNS)
    rows = []
    for scenario, group in table.groupby("scenario", sort=False):
        base = group[group["method"] == baseline].set_index("seed")
        for name in wanted:
            family = []
            for method in others:
                other = group[group["method"] == method].set_index("seed")
                seeds = [seed for seed in other.index if seed in base.index]
                a = pd.to_numeric(other.loc[seeds, name], errors="coerce").to_numpy(float)
                b = pd.to_numeric(base.loc[seeds, name], errors="coerce").to_numpy(float)
                d = a - b
                row = dict(scenario=scenario, metric=name, method=method, baseline=baseline, n_pairs=len(seeds))
                if len(d) and np.all(np.isfinite(d)):
                    low, high = _statistics.mean_interval(d, **{k: options[k] for k in
                                                                ("confidence", "interval", "resamples",
                                                                 "random_seed")})
                    p, how = _statistics.paired_test(d, test=test, random_seed=options["random_seed"])
                    row.update(mean_difference=float(d.mean()), ci_low=low, ci_high=high,
                               cohens_dz=_statistics.cohens_dz(d), rank_biserial=_statistics.rank_biserial(d),
                               test=how, p_value=p)
                else:
                    row.update(mean_difference=math.nan, ci_low=math.nan, ci_high=math.nan, cohens_dz=math.nan,
                               rank_biserial=math.nan, test="not tested (a paired seed has no value)",
                               p_value=math.nan)
                family.append(row)
            p_values = [row["p_value"] for row in family]
            adjusted = _statistics.holm(p_values) if correction == "holm" else np.asarray(p_values, float)
            for row, p in zip(family, adjusted):
                row["p_adjusted"] = float(p)
                row["significant"] = bool(p < alpha) if np.isfinite(p) else False
            rows += family
    result = pd.DataFrame(rows).set_index(["scenario", "metric", "method"])
    result.attrs = {
        "interval": {**options, "description": interval_description(options)},
        "test": test, "alpha": float(alpha), "correction": correction,
        "correction_description": (
            f"Holm–Bonferroni over the {len(others)} method{'s' if len(others) > 1 else ''} compared with "
            f"{baseline}, for each scenario and metric" if correction == "holm" else
            "none: each p-value stands alone"),
    }
    return result


def half_widths(precision) -> dict:
    """``precision`` of :func:`seeds_needed` as ``{metric: half_width}``, checked."""
    if isinstance(precision, Mapping):
        if not precision:
            raise ValueError("precision: expected at least one metric")
        wanted = {}
        for name, value in precision.items():
            if not isinstance(name, str):
                raise TypeError(f"precision: metric names must be strings, got {name!r}")
            wanted[name] = scalar(value, f"precision[{name!r}]", minimum=0.0, strict=True)
        return wanted
    if isinstance(precision, numbers.Real) and not isinstance(precision, bool):
        value = scalar(precision, "precision", minimum=0.0, strict=True)
        return {name: value for name in INTERVAL_COLUMNS}
    raise TypeError(f"precision: expected a half-width or a dict of metric -> half-width, "
                    f"got {type(precision).__name__}")


def seeds_needed(table, precision: float | Mapping[str, float], *, relative: bool = False,
                 confidence: float = 0.95, max_seeds: int = 100_000):
    """How many seeds give each metric a confidence interval of at most a chosen half-width, from a pilot table.

    Per scenario, method and metric, the smallest n >= 2 with
    ``t(n-1) s / sqrt(n) <= half_width``, ``s`` the standard deviation over
    the pilot's seeds and ``t`` Student's quantile at ``confidence``
    (two-sided). ``s`` is itself estimated, so the advice is as good as the
    pilot: with 5 seeds it can be a factor of 2 off either way; with 10,
    about 1.5.

    Parameters
    ----------
    table
        A :func:`compare` table (the pilot), with at least two seeds.
    precision
        The half-width wanted: one number for the metrics of
        :data:`INTERVAL_COLUMNS` the table has, or ``{"metric": half_width}``
        (in the metric's unit: ``{"makespan": 0.5}`` for +-0.5 s).
    relative
        Half-widths as a share of the pilot's mean size (0.05: +-5 %).
    confidence
        The intervals' level.
    max_seeds
        Advice above this reads ``max_seeds + 1``.

    Returns
    -------
    pandas.DataFrame
        Indexed by (scenario, method, metric), columns ``n_seeds`` (the
        pilot's), ``mean, std, half_width`` (the pilot's t interval),
        ``target`` (the half-width wanted) and ``seeds_needed`` (NaN where
        a seed lacks a value: more seeds do not give a makespan to a
        method that does not finish).
    """
    import pandas as pd

    check_table(table)
    wanted = half_widths(precision)
    table = _with_finished(table)
    for name in wanted if isinstance(precision, Mapping) else ():
        if name not in table.columns:
            raise ValueError(f"precision[{name!r}]: the table has no such column")
    options = _statistics_options(confidence, "t", 100, 0)
    max_seeds = integer(max_seeds, "max_seeds", minimum=2)
    rows = []
    for (scenario, method), group in table.groupby(["scenario", "method"], sort=False):
        for name, target in wanted.items():
            if name not in group:
                continue
            values = pd.to_numeric(group[name], errors="coerce").to_numpy(float)
            described = _describe(values, options)
            goal = target * abs(described["mean"]) if relative else target
            if len(values) < 2 or not np.isfinite(described["std"]):
                needed = math.nan
            elif relative and goal == 0:
                needed = 2 if described["std"] == 0 else math.nan  # no size to be a share of
            else:
                needed = _statistics.seeds_for_half_width(described["std"], goal, confidence=confidence,
                                                          most=max_seeds)
            rows.append(dict(scenario=scenario, method=method, metric=name, n_seeds=len(values),
                             mean=described["mean"], std=described["std"],
                             half_width=0.5 * (described["ci_high"] - described["ci_low"]), target=goal,
                             seeds_needed=needed))
    result = pd.DataFrame(rows).set_index(["scenario", "method", "metric"])
    result.attrs = {"confidence": options["confidence"], "relative": bool(relative)}
    return result
