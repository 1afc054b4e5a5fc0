"""Parameter sweeps: the cartesian product of methods, scenarios, parameters and seeds, on Dask.

Each cell (one method variant on one scenario variant for a group of seeds)
runs as one Batch through :func:`vosim.comparison.run_cell`, the same code
as :func:`vosim.compare`. With ``path``, every finished cell is written to
its own Parquet file at once, so an interrupted sweep resumes where it
stopped. Each part carries its cell's key, row count and a checksum of its
rows; a resumed sweep reuses only parts that match all three (and have the
cell's columns), and runs the others again with a warning.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import os
import warnings
from pathlib import Path
from typing import Iterable, Mapping, Sequence

import numpy as np

from ._atomic import atomic_path
from ._checks import integer
from ._dask import chosen_client
from ._progress import make_progress
from .comparison import named_methods, run_cell, scenario_source, scenes_of, seed_list
from .metrics import PER_SCENE, TIMES
from .methods import Method
from .scenarios import Scenario

#: Columns every row has before the parameters.
KEY_COLUMNS = ("method", "scenario", "seed", "agents", "steps_run")

PART_PREFIX = "cell-"
# The key of a part's Parquet metadata holding what it must match: the cell's
# key, its row count and the checksum of its rows (_rows_digest).
PART_STAMP = b"vosim.sweep_cell"


def _grid(values: Mapping | None, name: str) -> tuple[list[str], list[tuple]]:
    """Parameter names and every combination of their values."""
    if values is None:
        return [], [()]
    if not isinstance(values, Mapping):
        raise TypeError(f"{name}: expected a dict of parameter name -> list of values, got {type(values).__name__}")
    names, lists = [], []
    for key, options in values.items():
        if not isinstance(key, str):
            raise TypeError(f"{name}: parameter names must be strings, got {key!r}")
        if isinstance(options, (str, bytes)) or not isinstance(options, Iterable):
            raise TypeError(f"{name}[{key!r}]: expected a list of values, got {type(options).__name__}")
        options = list(options)
        if not options:
            raise ValueError(f"{name}[{key!r}]: expected at least one value")
        names.append(key)
        lists.append(options)
    return names, list(itertools.product(*lists))


def _plain(value):
    """A parameter value as JSON (for the cell's identity) and as a table value."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    return value


def _json_default(value):
    plain = _plain(value)
    if plain is value:
        raise TypeError(f"cannot describe {type(value).__name__} as JSON")
    return plain


@dataclasses.dataclass
class _Cell:
    label: str
    method: Method
    source: object  # a scenario function or a fixed Scenario
    scenario_params: dict
    agent_params: dict
    seeds: list
    columns: dict  # the parameter columns of its rows
    key: str = ""


def _with_agent_params(scenes: list[Scenario], agent_params: dict) -> list[Scenario]:
    if not agent_params:
        return scenes
    return [dataclasses.replace(s, agent_params={**s.agent_params, **agent_params}) for s in scenes]


def _run(cell: _Cell, steps, threads):
    """Build and run one cell where it is scheduled; its rows (the series stay behind)."""
    if threads is not None:
        from ._threads import set_num_threads

        set_num_threads(threads)
    scenes, seeds = scenes_of(cell.source, cell.seeds, cell.scenario_params)
    rows, _ = run_cell(cell.label, cell.method, _with_agent_params(scenes, cell.agent_params), seeds, steps)
    for row in rows:
        row.update(cell.columns)
    return rows


def _identify(cell: _Cell, steps) -> str:
    """A digest of everything a cell's rows depend on: its method, scenes, parameters and step limit."""
    scenes, seeds = scenes_of(cell.source, cell.seeds, cell.scenario_params)
    scenes = _with_agent_params(scenes, cell.agent_params)
    description = {
        "label": cell.label, "method": cell.method.to_dict(), "scenes": [s.to_dict() for s in scenes],
        "seeds": seeds, "steps": steps, "columns": cell.columns,
    }
    text = json.dumps(description, sort_keys=True, default=_json_default)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _frame(rows: list[dict], pd):
    table = pd.DataFrame(rows)
    if len(table):
        table["seed"] = table["seed"].astype("Int64")  # fixed scenarios may have none
    return table


def _rows_digest(arrow) -> str:
    """The checksum of a part's rows: column names, types and every value."""
    text = json.dumps({"columns": [[field.name, str(field.type)] for field in arrow.schema],
                       "rows": arrow.to_pylist()}, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


def _read_part(file: Path, cell: _Cell, pd):
    """The rows of ``cell`` in ``file``, or None and why they cannot be trusted.

    Everything is checked against the cell before it is reused: the key and
    row count in the part's metadata (read first, from the file's footer),
    the cell's columns, and the checksum of the rows.
    """
    import pyarrow.parquet as pq

    try:
        footer = pq.read_metadata(file)
        stamp = json.loads((footer.metadata or {}).get(PART_STAMP, b"null"))
        if not isinstance(stamp, dict):
            return None, "it was not written by a sweep of this vosim (no cell key)"
        if stamp.get("key") != cell.key:
            return None, f"it holds the rows of another cell ({stamp.get('key')!r}, not {cell.key!r})"
        rows = len(cell.seeds)
        if footer.num_rows != rows or stamp.get("rows") != rows:
            return None, f"it has {footer.num_rows} rows; the cell has {rows}"
        columns = set(footer.schema.to_arrow_schema().names)
        missing = [c for c in (*KEY_COLUMNS, *cell.columns) if c not in columns]
        if missing:
            return None, f"it lacks the columns {', '.join(missing)}"
        if _rows_digest(pq.read_table(file)) != stamp.get("digest"):
            return None, "its rows do not match its checksum"
        table = pd.read_parquet(file)
    except Exception as error:  # pyarrow raises several kinds for damaged files
        return None, f"not a readable Parquet file of a sweep cell ({type(error).__name__}: {error})"
    return table, None


def _write_part(table, file: Path, cell: _Cell) -> None:
    """Write atomically: a reader (or a resumed sweep) sees the whole file or none."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    arrow = pa.Table.from_pandas(table, preserve_index=False)
    stamp = {"key": cell.key, "rows": len(table), "digest": _rows_digest(arrow)}
    arrow = arrow.replace_schema_metadata({**(arrow.schema.metadata or {}), PART_STAMP: json.dumps(stamp).encode()})
    with atomic_path(file) as temporary:
        pq.write_table(arrow, temporary)


def _plan(named: dict, sources: list, seeds: list, method_params, scenario_params, agent_params, steps):
    """The cells of a sweep, each identified, and the names of its parameter columns."""
    method_names, method_combos = _grid(method_params, "method_params")
    scenario_names, scenario_combos = _grid(scenario_params, "scenario_params")
    agent_names, agent_combos = _grid(agent_params, "agent_params")
    taken = set(KEY_COLUMNS) | set(PER_SCENE) | set(TIMES)
    seen: dict[str, str] = {}
    for grid, names in (("method_params", method_names), ("scenario_params", scenario_names),
                        ("agent_params", agent_names)):
        for name in names:
            if name in taken or name in seen:
                where = seen.get(name, "the table's own columns")
                raise ValueError(f"{grid}[{name!r}]: the name is already a column ({where}); the table needs "
                                 "one column per name")
            seen[name] = grid

    cells = []
    for label, method in named.items():
        for combo in method_combos:
            fields = dict(zip(method_names, combo))
            try:
                variant = dataclasses.replace(method, **fields) if fields else method
            except TypeError:
                missing = [f for f in fields if f not in {x.name for x in dataclasses.fields(method)}]
                raise ValueError(f"method_params[{missing[0]!r}]: method {label!r} ({type(method).__name__}) "
                                 "has no such field") from None
            for source in sources:
                for scenario_combo in ([()] if isinstance(source, Scenario) else scenario_combos):
                    given = dict(zip(scenario_names, scenario_combo))
                    for agent_combo in agent_combos:
                        per_agent = dict(zip(agent_names, agent_combo))
                        columns = {**{k: _plain(v) for k, v in fields.items()},
                                   **{k: _plain(given.get(k)) for k in scenario_names},
                                   **{k: _plain(v) for k, v in per_agent.items()}}
                        # All seeds in one Batch, as in compare(): a Batch runs until all
                        # of its scenes arrived, which some metrics (steps_run, mean_speed) see.
                        group = [None] if isinstance(source, Scenario) else seeds
                        cells.append(_Cell(label, variant, source, given, per_agent, group, columns))
    for cell in cells:
        try:
            cell.key = _identify(cell, steps)
        except TypeError as error:  # a parameter the scenario function does not take, a value of a wrong type
            raise TypeError(f"scenario_params {cell.scenario_params}, agent_params {cell.agent_params}: "
                            f"{error}") from None
    if len({cell.key for cell in cells}) != len(cells):
        raise ValueError("scenarios: two cells of the sweep are the same run (a scenario or method listed twice?)")

    return cells, list(seen)


def sweep(methods: Mapping[str, Method] | Sequence[Method], scenarios: Sequence, seeds: Iterable[int] | int = range(4), *,
          method_params: Mapping | None = None, scenario_params: Mapping | None = None,
          agent_params: Mapping | None = None, steps: int | None = None,
          path=None, client=None, workers: int | None = None, threads: int | None = None, progress=False):
    """Run the cartesian product of methods, scenarios, parameters and seeds, here or on Dask.

    Every combination of a method (with ``method_params``), a scenario (with
    ``scenario_params``) and ``agent_params`` is a cell; its seeds run
    together as the scenes of one Batch, exactly as in :func:`vosim.compare`
    (same rows, same metrics). On Dask, cells run in parallel as tasks.

    Parameters
    ----------
    methods, scenarios, seeds, steps
        As in :func:`vosim.compare`.
    method_params
        ``{"field": [values]}``: every method runs with every combination
        (``{"samples": [60, 250]}``); each method must have the fields.
    scenario_params
        ``{"argument": [values]}`` passed to the scenario functions with
        ``seed=`` (``{"n": [10, 20]}``). A fixed Scenario object runs once,
        with these columns empty.
    agent_params
        ``{"name": [values]}`` of per-agent parameters
        (:data:`vosim.scenarios.AGENT_PARAMETERS`) set on every agent
        (``{"time_horizon": [2.0, 5.0]}``).
    path
        A folder for the results: each finished cell is written at once as
        one Parquet file in it (atomically). A sweep given the same folder
        again reads the cells it finds and runs only the others, so a sweep
        that was interrupted, or whose worker or client died, resumes where
        it stopped. ``pandas.read_parquet(path)`` reads the folder. A part
        is reused only when its cell's key, row count, columns and the
        checksum of its rows match; any other (damaged, emptied, edited,
        from another sweep or an older vosim) is run again, with a
        RuntimeWarning naming it. A folder named like a part is refused
        (ValueError naming it) before anything runs.
    client
        Where to run. None (the default): on the Dask client this process
        already uses (``distributed.Client.current()``), if there is one,
        else here, one cell after another, each on all of vosim's threads
        (on one machine that is the fastest). ``"local"``: a new
        ``distributed.LocalCluster`` on this machine, closed at the end; it
        starts worker processes, so a script must call the sweep under
        ``if __name__ == "__main__":`` (one that does not gets a RuntimeError
        saying so before any process starts). A ``distributed.Client``, or a
        scheduler's address (``"tcp://host:8786"``) for a cluster of several
        machines. False: here, even when a Dask client is active.
    workers, threads
        The LocalCluster's worker processes (default: one per core) and the
        threads vosim uses in each (default: the cores left per worker);
        when running here, ``threads`` sets this process's. Ignored for a
        given client (``threads`` still applies on its workers when given).
    progress
        True shows a progress bar over the cells; a callable is called as
        ``progress(cells_done, cells)`` as cells finish.

    Returns
    -------
    pandas.DataFrame
        One row per run: ``method, scenario, seed, agents, steps_run``, one
        column per parameter of the grids, then the metrics (see
        :func:`vosim.compare`). ``attrs["cells_run"]`` and
        ``attrs["cells_reused"]`` count the cells run now and those read
        from ``path``.
    """
    try:
        import pandas as pd
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError('sweep needs pandas and pyarrow: pip install "vosim[dask]"') from error
    named = named_methods(methods)
    if isinstance(scenarios, (str, bytes, Scenario)) or callable(scenarios):
        scenarios = [scenarios]
    sources = [scenario_source(item, k) for k, item in enumerate(scenarios)]
    if not sources:
        raise ValueError("scenarios: expected at least one scenario")
    seeds = seed_list(seeds)
    if steps is not None:
        steps = integer(steps, "steps", minimum=1)
    if threads is not None:
        threads = integer(threads, "threads", minimum=1)

    cells, parameters = _plan(named, sources, seeds, method_params, scenario_params, agent_params, steps)
    keys = [cell.key for cell in cells]

    folder = None if path is None else Path(path)
    parts: dict[str, object] = {}
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        for cell in cells:
            file = folder / f"{PART_PREFIX}{cell.key}.parquet"
            if file.is_dir():
                raise ValueError(f"{file}: not a file; a sweep writes its cell there, so move it away")
            if file.exists():
                table, reason = _read_part(file, cell, pd)
                if table is None:
                    warnings.warn(f"{file}: {reason}; running that cell again", RuntimeWarning, stacklevel=2)
                else:
                    parts[cell.key] = table
    reused = len(parts)
    todo = [cell for cell in cells if cell.key not in parts]
    reporter = make_progress(progress, len(cells))
    done = reused
    failed = True

    def finish(cell: _Cell, rows: list[dict]) -> None:
        nonlocal done
        table = _frame(rows, pd)
        if folder is not None:
            file = folder / f"{PART_PREFIX}{cell.key}.parquet"
            _write_part(table, file, cell)
            table, reason = _read_part(file, cell, pd)  # the table a resumed sweep would read
            if table is None:
                raise ValueError(f"{file}: {reason}, just after it was written (another process writing there?)")
        parts[cell.key] = table
        done += 1
        if reporter is not None:
            reporter.update(done)

    try:
        if reporter is not None:
            reporter.update(done)
        client = chosen_client(client)
        if todo and client is None:
            for cell in todo:
                finish(cell, _run(cell, steps, threads))
        elif todo:
            from ._dask import LOCAL, distributed_module, client_for, local_layout

            distributed = distributed_module()
            if isinstance(client, str) and client == LOCAL:
                workers, threads = local_layout(workers, threads)
            with client_for(client, workers=workers, threads=threads) as dask_client:
                futures = {dask_client.submit(_run, cell, steps, threads, pure=False): cell for cell in todo}
                try:
                    for future in distributed.as_completed(futures):
                        finish(futures[future], future.result())
                except BaseException:
                    dask_client.cancel(list(futures))
                    raise
        failed = False
    finally:
        if reporter is not None:
            reporter.close(done, failed=failed)

    frames = [parts[key] for key in keys]
    table = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=list(KEY_COLUMNS))
    order = list(KEY_COLUMNS) + parameters + [c for c in table.columns if c not in KEY_COLUMNS and c not in parameters]
    table = table[order]
    table.attrs["cells_run"] = len(cells) - reused
    table.attrs["cells_reused"] = reused
    return table
