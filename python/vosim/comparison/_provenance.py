"""What produced a comparison table: its inputs (methods, scenes, seeds), their digest, and the machine.

:func:`vosim.compare` records its inputs in ``table.attrs["inputs"]``
(:func:`record_inputs`); a report adds where and when it ran
(:func:`provenance`). The digest of the inputs is a SHA-256 of their
canonical JSON (sorted keys, floats written exactly), so two reports made
from the same methods, scenes, seeds and step limit carry the same digest,
whatever the machine, the date or the thread count.
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import hashlib
import inspect
import json
import math
import os
import platform
import subprocess
from pathlib import Path

import numpy as np


def plain(value):
    """``value`` as JSON types: NumPy scalars and arrays as numbers and lists, non-finite floats as text."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, np.ndarray):
        return [plain(v) for v in value.tolist()]
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)  # 'nan', 'inf': JSON has no such numbers
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    try:
        import pandas as pd

        if value is pd.NA:
            return None
    except ImportError:  # pragma: no cover - pandas is there whenever a table is
        pass
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return plain(dataclasses.asdict(value))
    return repr(value)


def canonical_json(data) -> str:
    """One text for one content: sorted keys, no spaces, floats as Python writes them (exactly)."""
    return json.dumps(plain(data), sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def sha256(data) -> str:
    return hashlib.sha256(canonical_json(data).encode()).hexdigest()


def _qualified(function) -> str:
    """The function's importable name: ``vosim.scenarios.crossing`` rather than its private module's."""
    from .. import scenarios

    name = getattr(function, "__qualname__", repr(function))
    if getattr(scenarios, name, None) is function:
        return f"vosim.scenarios.{name}"
    return f"{getattr(function, '__module__', '?')}.{name}"


def _defaults(function, given: set) -> dict:
    """The defaults of the parameters of ``function`` that were not given (seed aside)."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return {}
    return {p.name: p.default for p in parameters
            if p.default is not inspect.Parameter.empty and p.name not in given and p.name != "seed"}


def describe_source(item) -> dict:
    """A scenario as :func:`vosim.compare` was given it: its function and every argument it ran with."""
    from ..scenarios import ALL_SCENARIOS, Scenario

    if isinstance(item, Scenario):
        return {"kind": "fixed scenario", "name": item.name}
    if isinstance(item, str):
        function = ALL_SCENARIOS[item]
        return {"kind": "scenario function", "function": _qualified(function), "arguments": _defaults(function, set())}
    if isinstance(item, functools.partial):
        bound = {}
        try:
            bound = dict(inspect.signature(item.func).bind_partial(*item.args, **item.keywords).arguments)
        except (TypeError, ValueError):
            bound = {"args": list(item.args), **item.keywords}
        return {"kind": "scenario function", "function": _qualified(item.func),
                "arguments": {**_defaults(item.func, set(bound)), **bound}}
    return {"kind": "scenario function", "function": _qualified(item), "arguments": _defaults(item, set())}


def method_departures(method, as_run: list) -> dict:
    """The settings in which the methods as run (``Method`` objects) differ from ``method``'s class defaults.

    A setting with one value across the runs maps to it; one that varies
    (a perturbation seed that follows the scenario's) maps to the list of
    its values.
    """
    reference = type(method)().to_dict()
    runs = [run.to_dict() for run in as_run]
    departures = {}
    for name, default in reference.items():
        values = []
        for run in runs:
            value = run.get(name)
            if value not in values:
                values.append(value)
        if values != [default]:
            departures[name] = values[0] if len(values) == 1 else values
    return departures


def scene_inputs(label_methods: dict, item, scenes: list, seeds: list) -> dict:
    """What one scenario of a comparison ran: its description, seeds, each scene's digest, the methods as run."""
    from ..methods import collision_guarantee, no_guarantee_reason

    return {
        "description": describe_source(item),
        "name": scenes[0].name,
        "dimensions": scenes[0].dimensions,
        "seeds": list(seeds),
        "agents": [scene.num_agents for scene in scenes],
        "time_step": sorted({scene.time_step for scene in scenes}),
        "max_steps": sorted({scene.max_steps for scene in scenes}),
        "scenes_sha256": [sha256(scene.to_dict()) for scene in scenes],
        "departures": {label: method_departures(method, [scene.method_for(method) for scene in scenes])
                       for label, method in label_methods.items()},
        "collision_guarantee": {label: {"guaranteed": no_guarantee_reason(run) is None,
                                        "statement": collision_guarantee(run) or no_guarantee_reason(run)}
                                for label, run in ((label, scenes[0].method_for(method))
                                                   for label, method in label_methods.items())},
    }


def record_inputs(label_methods: dict, scenarios: list, steps, seed_rounds: list) -> dict:
    """``table.attrs["inputs"]`` of :func:`vosim.compare`: ``scenarios`` as (item, scenes, seeds) triples.

    ``threads`` is the engine's thread count here when the runs started
    (not part of the digest: results do not depend on it).
    """
    from .._threads import get_num_threads

    return {
        "threads": get_num_threads(),
        "methods": {label: method.to_dict() for label, method in label_methods.items()},
        "scenarios": [scene_inputs(label_methods, item, scenes, seeds) for item, scenes, seeds in scenarios],
        "steps": steps,
        "seed_rounds": [list(r) for r in seed_rounds],
    }


def inputs_digest(inputs: dict) -> str:
    """SHA-256 of what determines a comparison's rows: methods, scenarios (described and every scene), seeds, steps."""
    return sha256({
        "methods": inputs["methods"],
        "scenarios": [{"description": s["description"], "seeds": s["seeds"], "scenes_sha256": s["scenes_sha256"]}
                      for s in inputs["scenarios"]],
        "steps": inputs["steps"],
        "seed_rounds": inputs["seed_rounds"],
    })


def _timing_column(name: str) -> bool:
    """Columns left out of the results' digest: wall-clock times differ from run to run."""
    return name.startswith("time_")


def results_digest(table) -> str:
    """SHA-256 of the table's rows, wall-clock times left out (same results give the same digest)."""
    columns = [c for c in table.columns if not _timing_column(str(c))]
    return sha256({"columns": [str(c) for c in columns],
                   "rows": [[plain(v) for v in row] for row in table[columns].itertuples(index=False)]})


def git_commit() -> str | None:
    """The commit of the source tree vosim was imported from, ``+dirty`` when it has changes; None outside git."""
    folder = Path(__file__).resolve().parent
    try:
        commit = subprocess.run(["git", "-C", str(folder), "rev-parse", "HEAD"], capture_output=True, text=True,
                                timeout=10)
        if commit.returncode != 0:
            return None
        dirty = subprocess.run(["git", "-C", str(folder), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return commit.stdout.strip() + ("+dirty" if dirty.returncode == 0 and dirty.stdout.strip() else "")


def machine() -> dict:
    from .._threads import simd_level

    return {"platform": platform.platform(), "machine": platform.machine(), "processor": platform.processor(),
            "cpu_count": os.cpu_count(), "simd_level": simd_level(), "python": platform.python_version(),
            "numpy": np.__version__}


def provenance(table, statistics: dict) -> dict:
    """Everything a report states about where its numbers came from."""
    from .._threads import get_num_threads
    from .._version import __version__

    inputs = table.attrs.get("inputs")
    return {
        "vosim_version": __version__,
        "git_commit": git_commit(),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "threads": (inputs or {}).get("threads", get_num_threads()),
        "machine": machine(),
        "statistics": statistics,
        "inputs": inputs,
        "inputs_sha256": inputs_digest(inputs) if inputs else None,
        "results_sha256": results_digest(table),
    }
