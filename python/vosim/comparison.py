"""Comparing avoidance methods on scenarios over seeds: one tidy table of the engine's metrics.

:func:`compare` runs every method on the same seeds (common random numbers);
:func:`summarize` gives each metric's mean per scenario and method, with a
confidence interval, the spread and the counts behind it when asked;
:func:`paired` gives each method's difference from a baseline over the same
seeds, with a paired test; :func:`seeds_needed` says how many seeds a
chosen precision takes; :func:`report` writes it all, with what produced it.
"""

from __future__ import annotations

import math
import numbers
import warnings
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np

from . import _statistics
from ._checks import integer, scalar
from ._dask import chosen_client
from .methods import Method
from .metrics import SERIES, scene_peaks
from .scenarios import ALL_SCENARIOS, Scenario, build_batch, takes_seed
from .simulator import Simulator
from ._comparison_provenance import record_inputs


def scenario_source(item, k: int) -> Callable[..., Scenario] | Scenario:
    """A scenario function taking ``seed=``, or a fixed Scenario (run once, with its own seed)."""
    if isinstance(item, Scenario):
        return item
    if isinstance(item, str):
        if item not in ALL_SCENARIOS:
            raise ValueError(f"scenarios[{k}] is {item!r}; must be one of {', '.join(ALL_SCENARIOS)}")
        factory = ALL_SCENARIOS[item]
        return factory if takes_seed(factory) else factory()  # a fixed layout (sphere) runs once
    if callable(item):
        return item
    raise TypeError(f"scenarios[{k}]: expected a scenario name, a function taking seed= or a Scenario, "
                    f"got {type(item).__name__}")


def scenes_of(source, seeds: list[int], params: Mapping | None = None) -> tuple[list[Scenario], list[int | None]]:
    """The scenes of one scenario source and their seeds: one per seed, or the fixed Scenario once."""
    if isinstance(source, Scenario):
        return [source], [source.seed]
    return [source(seed=seed, **(params or {})) for seed in seeds], list(seeds)


def run_cell(label: str, method: Method, scenes: Sequence[Scenario], seeds: Sequence[int | None],
             steps: int | None = None, progress=False) -> tuple[list[dict], dict]:
    """Run one method on scenes of one scenario as one Batch: a row and the series of each run.

    The one definition of how a run of :func:`compare` (and of
    :func:`vosim.sweep`) is made and measured.
    """
    scenario_name = scenes[0].name
    limit = steps if steps is not None else max(scene.max_steps for scene in scenes)
    batch = build_batch(scenes, method=method)
    # The metrics come from the engine; about 200 frames are enough
    # for the series drawn over time.
    with warnings.catch_warnings():
        # Runs that do not all arrive are the table's business (arrival_rate, makespan NaN).
        warnings.filterwarnings("ignore", message=r"run\(until_arrived=True\)", category=RuntimeWarning)
        traj = batch.run(limit, record_every=max(1, limit // 200), until_arrived=True,
                         progress=f"{label} on {scenario_name}" if progress else False)
    metrics = getattr(traj, "metrics", None)
    if not metrics:
        raise RuntimeError("compare: this vosim's engine returned no metrics with the trajectory")
    rows, series = [], {}
    peaks = scene_peaks(metrics)
    for b, seed in enumerate(seeds):
        row = {"method": label, "scenario": scenario_name, "seed": seed,
               "agents": scenes[b].num_agents, "steps_run": traj.steps_run}
        per_run = {}
        for name, value in metrics.items():
            value = np.asarray(value)
            if name in SERIES:
                per_run[name] = value[:, b]
            elif value.ndim == 1:
                row[name] = value[b].item()
            elif value.ndim == 2:
                per_run[name] = value[b]
        row.update({name: float(value[b]) for name, value in peaks.items()})
        per_run["time_step"] = scenes[b].time_step
        per_run["record_steps"] = np.asarray(traj.steps)
        rows.append(row)
        series[(label, scenario_name, seed)] = per_run
    return rows, series


def unsupported(method: Method, dimensions: int) -> str | None:
    """Why ``method`` cannot run in a ``dimensions``-D simulator (the engine's reason), or None when it can."""
    try:
        Simulator(dimensions=dimensions, method=method)
    except ValueError as error:
        return str(error).removeprefix("method: ")
    return None


def _refuse_unsupported(named: Mapping[str, Method], scene: Scenario, k: int) -> None:
    """Refuse, before anything runs, a method that cannot run scenario ``k`` (a planar method in 3D)."""
    for label, method in named.items():
        reason = unsupported(method, scene.dimensions)
        if reason:
            raise ValueError(f"methods[{label!r}]: {reason}; scenarios[{k}] ({scene.name!r}) is "
                             f"{scene.dimensions}D")


def _run_cell_on_worker(label, method, source, seeds, steps):
    """A cell built and run where it is scheduled (a Dask worker)."""
    scenes, run_seeds = scenes_of(source, seeds)
    return run_cell(label, method, scenes, run_seeds, steps)


def seed_list(seeds) -> list[int]:
    """The seeds of :func:`compare` and :func:`vosim.sweep`: a number K (seeds 0 to K-1) or a sequence."""
    if isinstance(seeds, (int, np.integer)) and not isinstance(seeds, bool):
        seeds = range(integer(seeds, "seeds", minimum=1))
    elif not isinstance(seeds, Iterable) or isinstance(seeds, (str, bytes)):
        raise TypeError(f"seeds: expected a number of seeds K (for 0 to K-1) or a sequence of seeds, "
                        f"got {type(seeds).__name__}")
    seeds = [integer(s, f"seeds[{k}]", minimum=0) for k, s in enumerate(seeds)]
    if not seeds:
        raise ValueError("seeds: expected at least one seed")
    return seeds


def named_methods(methods) -> dict[str, Method]:
    """The methods of :func:`compare` and :func:`vosim.sweep` by label (a mapping, or each method's name)."""
    if isinstance(methods, Mapping):
        named = dict(methods)
    else:
        named = {}
        for k, method in enumerate(methods):
            if not isinstance(method, Method):
                raise TypeError(f"methods[{k}]: expected a vosim method, got {type(method).__name__}")
            named.setdefault(method.name, method)
    if not named:
        raise ValueError("methods: expected at least one method")
    for name, method in named.items():
        if not isinstance(method, Method):
            raise TypeError(f"methods[{name!r}]: expected a vosim method such as vosim.ORCA(), "
                            f"got {type(method).__name__}")
    return named


def compare(methods: Mapping[str, Method] | Sequence[Method], scenarios: Sequence,
            seeds: Iterable[int] | int | str = range(4),
            *, steps: int | None = None, progress: bool = False, client=None,
            precision: float | Mapping[str, float] | None = None, max_seeds: int = 64, pilot_seeds: int = 5,
            relative: bool = False, confidence: float = 0.95):
    """Run every method on every scenario for every seed; one row per run (needs pandas).

    All seeds of one method and scenario run together as the scenes of one
    :class:`vosim.Batch`, until every agent of every scene has arrived or
    ``steps`` steps have passed. The metrics are the engine's, computed while
    running (see ``Trajectory.metrics``).

    Parameters
    ----------
    methods
        ``{"label": method}``, e.g. ``{"ORCA": vosim.ORCA(), "RVO": vosim.RVO()}``,
        or a list of methods labelled by their names. A method without a
        perturbation gets the scenario's (see ``Scenario.method_for``).
    scenarios
        Scenario names (``"crossing"``, or a 3D one such as ``"swarm_gate"``:
        see :data:`vosim.scenarios.ALL_SCENARIOS`), functions taking ``seed=``
        (``functools.partial(vosim.scenarios.bottleneck, 60, door_width=1.0)``)
        or Scenario objects. A Scenario object is a fixed scene: it runs once
        per method, and its row's seed is the scenario's own (``<NA>`` when
        it has none); so does a name whose scenario has one fixed layout
        (``"sphere"``). Every method must be able to run every scenario's
        dimensions: a 3D scenario refuses the planar methods (HRVO,
        DetourCrowd's sampling, AVO, ...) before anything runs.
    seeds
        The seeds, or a number K for seeds 0 to K-1 (as the command line's
        ``--seeds K``); scene k of each batch is ``factory(seed=seeds[k])``.
        ``"auto"``: seeds 0, 1, ... in rounds until every metric of
        ``precision`` has a confidence interval that narrow for every
        scenario and method, or ``max_seeds`` are reached (see below).
    steps
        Most steps per run; by default the largest ``max_steps`` of the
        scenario's seeds.
    progress
        Show a progress bar for each batch, labelled with the method and
        the scenario (not with ``client``).
    client
        Where to run, as for :func:`vosim.sweep`. None (the default): on the
        Dask client this process already uses (``distributed.Client.current()``),
        if there is one, else here. A ``distributed.Client``, a Dask
        scheduler's address, or ``"local"`` for a new LocalCluster (from a
        script: under ``if __name__ == "__main__":``): every method and
        scenario then runs as one task on that cluster (needs
        ``pip install "vosim[dask]"``). False: here, even when a Dask client
        is active. The results are the same either way.
    precision, relative, confidence
        With ``seeds="auto"``: the half-width wanted of each metric's
        ``confidence`` interval of the mean, one number for the metrics of
        :data:`SUMMARY_COLUMNS` or ``{"metric": half_width}``; with
        ``relative=True`` as a share of the mean's size. As in
        :func:`seeds_needed`, which decides each round.
    max_seeds, pilot_seeds
        With ``seeds="auto"``: the most seeds, and the seeds of the first
        round (0 to ``pilot_seeds - 1``). Each later round runs the seeds
        that :func:`seeds_needed` asks for beyond those already run, as one
        Batch per method and scenario; rounds are deterministic, and
        ``table.attrs["inputs"]["seed_rounds"]`` lists them (the rows equal
        those of ``compare`` called on each round's seeds). A warning says
        when ``max_seeds`` stopped the rounds first.

    Returns
    -------
    pandas.DataFrame
        Columns ``method, scenario, seed, agents, steps_run`` and one column
        per scalar metric of a scene (``collision_agent_steps``,
        ``arrival_rate``, ``makespan``, ...), and ``peak_angular_speed``,
        the largest over the scene's agents (rad/s; see :mod:`vosim.metrics`). ``makespan`` is NaN for a run
        in which some agent did not arrive: average it only over the seeds
        of a method that all finished (:func:`summarize` does).
        ``df.attrs["series"]`` maps
        ``(method, scenario, seed)`` to that run's per-step and per-agent
        metrics and its time step, which :func:`vosim.plot.compare` draws.
        ``df.attrs["inputs"]`` records what produced the rows (each
        method's settings, each scenario's function, arguments, seeds and
        the digest of every scene, the step limit, the seed rounds), which
        :func:`report` writes out with their digest.
    """
    try:
        import pandas as pd
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError('compare needs pandas: pip install "vosim[pandas]"') from error
    named = named_methods(methods)
    if isinstance(scenarios, (str, bytes, Scenario)) or callable(scenarios):
        scenarios = [scenarios]
    items = list(scenarios)
    factories = [scenario_source(item, k) for k, item in enumerate(items)]
    if not factories:
        raise ValueError("scenarios: expected at least one scenario")
    auto = isinstance(seeds, str) and seeds == "auto"
    if auto:
        if precision is None:
            raise ValueError('precision: seeds="auto" needs the confidence-interval half-width wanted, '
                             'e.g. precision={"makespan": 0.5}')
        max_seeds = integer(max_seeds, "max_seeds", minimum=2)
        pilot_seeds = integer(pilot_seeds, "pilot_seeds", minimum=2, maximum=max_seeds)
        wanted = _precision(precision, relative)  # checked before anything runs
        rounds = [list(range(pilot_seeds))]
    else:
        if precision is not None:
            raise ValueError('precision: only with seeds="auto"')
        rounds = [seed_list(seeds)]
    if steps is not None:
        steps = integer(steps, "steps", minimum=1)

    client = chosen_client(client)
    # Locally every scene is made here anyway; a cluster makes them on its
    # workers, so only the first is made here, to check the dimensions.
    first = [scenes_of(factory, rounds[0] if client is None else rounds[0][:1]) for factory in factories]
    for k, (scenes, _) in enumerate(first):
        _refuse_unsupported(named, scenes[0], k)

    cells, series = _run_round(named, factories, rounds[0], first if client is None else None, steps, progress,
                               client)
    while auto:
        advice = seeds_needed(_frame(pd, _rows(cells)), wanted, relative=relative, confidence=confidence)
        needed = advice["seeds_needed"].max(skipna=True)
        done = sum(map(len, rounds))
        if not np.isfinite(needed) or needed <= done:
            break
        if done >= max_seeds:
            warnings.warn(f"compare: stopped at max_seeds={max_seeds}; the intervals asked for need "
                          f"{int(needed)} seeds (see vosim.comparison.seeds_needed)", RuntimeWarning, stacklevel=2)
            break
        rounds.append(list(range(done, min(int(needed), max_seeds))))
        more_cells, more_series = _run_round(named, factories, rounds[-1], None, steps, progress, client,
                                             seeded_only=True)
        for key, cell_rows in more_cells.items():
            cells[key] += cell_rows
        series.update(more_series)

    table = _frame(pd, _rows(cells))
    all_seeds = [seed for r in rounds for seed in r]
    described = []
    for item, factory in zip(items, factories):
        scenes, run_seeds = scenes_of(factory, all_seeds)
        described.append((item, scenes, run_seeds))
    table.attrs["series"] = series
    table.attrs["inputs"] = record_inputs(named, described, steps, rounds)
    return table


def _frame(pd, rows: list):
    table = pd.DataFrame(rows)
    if len(table) and table["seed"].isna().any():
        table["seed"] = table["seed"].astype("Int64")  # fixed scenarios without a seed
    return table


def _rows(cells: dict) -> list:
    return [row for cell_rows in cells.values() for row in cell_rows]


def _run_round(named, factories, seeds, made, steps, progress, client, seeded_only=False):
    """Every method on every scenario for ``seeds`` (``made``: the scenes, if made already).

    Returns the rows of each cell, keyed (scenario index, label) in the
    table's order, and the series. ``seeded_only``: leave out the fixed
    Scenarios (a later round of seeds has nothing new to run for them).
    """
    todo = [(k, factory) for k, factory in enumerate(factories)
            if not (seeded_only and isinstance(factory, Scenario))]
    cells, series = {(k, label): [] for k, _ in todo for label in named}, {}
    if client is None:
        for k, factory in todo:
            scenes, run_seeds = made[k] if made else scenes_of(factory, seeds)
            for label, method in named.items():
                cell_rows, cell_series = run_cell(label, method, scenes, run_seeds, steps, progress)
                cells[(k, label)] = cell_rows
                series.update(cell_series)
        return cells, series
    from ._dask import client_for

    with client_for(client) as dask_client:
        keys = [(k, label) for k, _ in todo for label in named]
        futures = [dask_client.submit(_run_cell_on_worker, label, named[label], factories[k], seeds, steps,
                                      pure=False) for k, label in keys]
        for key, (cell_rows, cell_series) in zip(keys, dask_client.gather(futures)):
            cells[key] = cell_rows
            series.update(cell_series)
    return cells, series


#: Columns :func:`summarize` reports, in order (those the table has).
SUMMARY_COLUMNS = ("arrival_rate", "finished", "makespan", "collision_agent_steps", "max_penetration",
                   "path_efficiency", "mean_speed")
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


def _check_table(table) -> None:
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
    _check_table(table)
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

    _check_table(table)
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


def _precision(precision, relative: bool) -> dict:
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

    _check_table(table)
    wanted = _precision(precision, relative)
    if isinstance(precision, Mapping):
        _wanted_columns(_with_finished(table), list(wanted), ())
    table = _with_finished(table)
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


def report(table, path, *, baseline: str | None = None, columns: Sequence[str] | None = None,
           interval: str = "percentile", confidence: float = 0.95, resamples: int = 9999, random_seed: int = 0,
           test: str = "auto", figures: bool = True):
    """Write a comparison's report to the folder ``path``: tables, figures and what produced them.

    Files (each written atomically): ``report.md`` (Markdown: the
    provenance, the fairness notes, the means with intervals, the spread,
    the paired differences), ``summary.tex`` and ``paired.tex`` (LaTeX
    tables, booktabs), ``summary.csv`` and ``paired.csv``,
    ``provenance.json``, and with ``figures`` (needs matplotlib)
    ``metrics.png`` (per-seed points, means and their intervals) and
    ``differences.png`` (the paired differences and their intervals).

    Parameters
    ----------
    table
        The DataFrame of :func:`compare` (its ``attrs["inputs"]`` give the
        provenance; a table without them, read back from a CSV file, gets
        a report that says its inputs are unknown).
    path
        The folder, made if missing; files of an earlier report there are
        replaced.
    baseline
        The method the others are paired with; by default the table's
        first. With one method, no paired differences.
    columns
        The metrics; by default :data:`REPORT_COLUMNS` (those the table has).
    interval, confidence, resamples, random_seed, test
        As in :func:`summarize` and :func:`paired`.
    figures
        Draw the figures.

    Returns
    -------
    dict
        The path of each file written, by name, and ``"inputs_sha256"``:
        the digest of the inputs, equal for two reports exactly when their
        methods, scenes, seeds and step limit are.
    """
    from ._comparison_report import write_report

    return write_report(table, path, baseline=baseline, columns=columns, interval=interval, confidence=confidence,
                        resamples=resamples, random_seed=random_seed, test=test, figures=figures)
