"""Comparing avoidance methods on scenarios over seeds: one tidy table of the engine's metrics.

:func:`compare` runs every method on the same seeds (common random numbers);
:func:`summarize` gives each metric's mean per scenario and method, with a
confidence interval, the spread and the counts behind it when asked;
:func:`paired` gives each method's difference from a baseline over the same
seeds, with a paired test; :func:`seeds_needed` says how many seeds a
chosen precision takes; :func:`report` writes it all, with what produced it.
"""

from __future__ import annotations

import importlib.util
import warnings
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np

from .._background_import import import_soon
from .._checks import integer
from .._dask import chosen_client
from ..methods import Method
from ..metrics import PER_SCENE, SCENE_PEAKS, SERIES, scene_peaks
from ..scenarios import ALL_SCENARIOS, Scenario, build_batch, takes_seed
from ..simulator import Simulator
from ._provenance import record_inputs
from ._summaries import (COLLISION_COLUMNS, INTERVAL_COLUMNS, REPORT_COLUMNS, SUMMARY_COLUMNS, half_widths,
                         interval_description, paired, seeds_needed, summarize)


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
        ``vosim.comparison.SUMMARY_COLUMNS`` or ``{"metric": half_width}``; with
        ``relative=True`` as a share of the mean's size. As in
        ``vosim.comparison.seeds_needed``, which decides each round.
    max_seeds, pilot_seeds
        With ``seeds="auto"``: the most seeds, and the seeds of the first
        round (0 to ``pilot_seeds - 1``). Each later round runs the seeds
        that ``vosim.comparison.seeds_needed`` asks for beyond those already run, as one
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
        of a method that all finished (:func:`vosim.comparison.summarize` does).
        ``df.attrs["series"]`` maps
        ``(method, scenario, seed)`` to that run's per-step and per-agent
        metrics and its time step, which :func:`vosim.plot.compare` draws.
        ``df.attrs["inputs"]`` records what produced the rows (each
        method's settings, each scenario's function, arguments, seeds and
        the digest of every scene, the step limit, the seed rounds), which
        ``vosim.comparison.report`` writes out with their digest.
    """
    if importlib.util.find_spec("pandas") is None:
        raise ImportError('compare needs pandas: pip install "vosim[pandas]"')
    # pandas loads on a thread while the first runs go on (they release the GIL).
    import_soon("pandas")
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
        wanted = half_widths(precision)  # checked before anything runs
        known = {*PER_SCENE, *SCENE_PEAKS, "finished", "agents", "steps_run"}
        for name in wanted:
            if name not in known:
                raise ValueError(f"precision[{name!r}]: not a metric of the table; expected one of "
                                 f"{', '.join(sorted(known - {'agents'}))}")
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
    import pandas as pd  # (waits for the thread's import to finish)

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
    for k, (item, factory) in enumerate(zip(items, factories)):
        # The first round's scenes, made here, are all of them when no more rounds ran.
        made_all = client is None and len(rounds) == 1
        scenes, run_seeds = first[k] if made_all else scenes_of(factory, all_seeds)
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
    from .._dask import client_for

    with client_for(client) as dask_client:
        keys = [(k, label) for k, _ in todo for label in named]
        futures = [dask_client.submit(_run_cell_on_worker, label, named[label], factories[k], seeds, steps,
                                      pure=False) for k, label in keys]
        for key, (cell_rows, cell_series) in zip(keys, dask_client.gather(futures)):
            cells[key] = cell_rows
            series.update(cell_series)
    return cells, series


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
    from ._report import write_report

    return write_report(table, path, baseline=baseline, columns=columns, interval=interval, confidence=confidence,
                        resamples=resamples, random_seed=random_seed, test=test, figures=figures)


__all__ = ["COLLISION_COLUMNS", "INTERVAL_COLUMNS", "REPORT_COLUMNS", "SUMMARY_COLUMNS", "compare",
           "interval_description", "named_methods", "paired", "report", "run_cell", "scenario_source", "scenes_of",
           "seed_list", "seeds_needed", "summarize", "unsupported"]
