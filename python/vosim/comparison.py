"""Comparing avoidance methods on scenarios over seeds: one tidy table of the engine's metrics."""

from __future__ import annotations

from typing import Callable, Iterable, Mapping, Sequence

import numpy as np

from ._checks import integer
from .methods import Method
from .scenarios import SCENARIOS, Scenario, build_batch

#: Per-agent and per-step metrics are kept out of the table (see ``DataFrame.attrs["series"]``).
SERIES = ("min_clearance_series", "collisions_series")


def _factory(item, k: int) -> Callable[..., Scenario]:
    if isinstance(item, str):
        if item not in SCENARIOS:
            raise ValueError(f"scenarios[{k}] is {item!r}; must be one of {', '.join(SCENARIOS)}")
        return SCENARIOS[item]
    if callable(item):
        return item
    raise TypeError(f"scenarios[{k}]: expected a scenario name or a function taking seed=, "
                    f"got {type(item).__name__}")


def _methods(methods) -> dict[str, Method]:
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


def compare(methods: Mapping[str, Method] | Sequence[Method], scenarios: Sequence, seeds: Iterable[int] = range(4),
            *, steps: int | None = None, progress: bool = False):
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
        Scenario names (``"crossing"``) or functions taking ``seed=``
        (``functools.partial(vosim.scenarios.bottleneck, 60, door_width=1.0)``).
    seeds
        The seeds; scene k of each batch is ``factory(seed=seeds[k])``.
    steps
        Most steps per run; by default the largest ``max_steps`` of the
        scenario's seeds.
    progress
        Show a progress bar for each batch.

    Returns
    -------
    pandas.DataFrame
        Columns ``method, scenario, seed, agents, steps_run`` and one column
        per scalar metric of a scene (``collision_agent_steps``,
        ``arrival_rate``, ``makespan``, ...). ``df.attrs["series"]`` maps
        ``(method, scenario, seed)`` to that run's per-step and per-agent
        metrics and its time step, which :func:`vosim.plot.compare` draws.
    """
    try:
        import pandas as pd
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError('compare needs pandas: pip install "vosim[pandas]"') from error
    named = _methods(methods)
    if isinstance(scenarios, (str, bytes)) or callable(scenarios):
        scenarios = [scenarios]
    factories = [_factory(item, k) for k, item in enumerate(scenarios)]
    if not factories:
        raise ValueError("scenarios: expected at least one scenario")
    seeds = [integer(s, f"seeds[{k}]", minimum=0) for k, s in enumerate(seeds)]
    if not seeds:
        raise ValueError("seeds: expected at least one seed")
    if steps is not None:
        steps = integer(steps, "steps", minimum=1)

    rows, series = [], {}
    for factory in factories:
        scenes = [factory(seed=seed) for seed in seeds]
        scenario_name = scenes[0].name
        limit = steps if steps is not None else max(scene.max_steps for scene in scenes)
        for label, method in named.items():
            batch = build_batch(scenes, method=method)
            # The metrics come from the engine; about 200 frames are enough
            # for the series drawn over time.
            traj = batch.run(limit, record_every=max(1, limit // 200), until_arrived=True, progress=progress)
            metrics = getattr(traj, "metrics", None)
            if not metrics:
                raise RuntimeError("compare: this vosim's engine returned no metrics with the trajectory")
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
                per_run["time_step"] = scenes[b].time_step
                per_run["record_steps"] = np.asarray(traj.steps)
                rows.append(row)
                series[(label, scenario_name, seed)] = per_run
    table = pd.DataFrame(rows)
    table.attrs["series"] = series
    return table
