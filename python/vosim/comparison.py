"""Comparing avoidance methods on scenarios over seeds: one tidy table of the engine's metrics."""

from __future__ import annotations

import warnings
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np

from ._checks import integer
from ._dask import chosen_client
from .methods import Method
from .metrics import SERIES, scene_peaks
from .scenarios import ALL_SCENARIOS, Scenario, build_batch, takes_seed
from .simulator import Simulator


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
            seeds: Iterable[int] | int = range(4),
            *, steps: int | None = None, progress: bool = False, client=None):
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
    """
    try:
        import pandas as pd
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError('compare needs pandas: pip install "vosim[pandas]"') from error
    named = named_methods(methods)
    if isinstance(scenarios, (str, bytes, Scenario)) or callable(scenarios):
        scenarios = [scenarios]
    factories = [scenario_source(item, k) for k, item in enumerate(scenarios)]
    if not factories:
        raise ValueError("scenarios: expected at least one scenario")
    seeds = seed_list(seeds)
    if steps is not None:
        steps = integer(steps, "steps", minimum=1)

    client = chosen_client(client)
    # Locally every scene is made here anyway; a cluster makes them on its
    # workers, so only the first is made here, to check the dimensions.
    cells = [scenes_of(factory, seeds if client is None else seeds[:1]) for factory in factories]
    for k, (scenes, _) in enumerate(cells):
        _refuse_unsupported(named, scenes[0], k)

    rows, series = [], {}
    if client is None:
        for scenes, run_seeds in cells:
            for label, method in named.items():
                cell_rows, cell_series = run_cell(label, method, scenes, run_seeds, steps, progress)
                rows += cell_rows
                series.update(cell_series)
    else:
        from ._dask import client_for

        with client_for(client) as dask_client:
            futures = [dask_client.submit(_run_cell_on_worker, label, method, factory, seeds, steps,
                                          pure=False)
                       for factory in factories for label, method in named.items()]
            for cell_rows, cell_series in dask_client.gather(futures):
                rows += cell_rows
                series.update(cell_series)
    table = pd.DataFrame(rows)
    if len(table) and table["seed"].isna().any():
        table["seed"] = table["seed"].astype("Int64")  # fixed scenarios without a seed
    table.attrs["series"] = series
    return table


#: Columns :func:`summarize` reports, in order (those the table has).
SUMMARY_COLUMNS = ("arrival_rate", "finished", "makespan", "collision_agent_steps", "max_penetration",
                   "path_efficiency", "mean_speed")


def summarize(table, columns: Sequence[str] | None = None):
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
        (those the table has).
    """
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
