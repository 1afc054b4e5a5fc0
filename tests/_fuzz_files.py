"""The file fuzz of tests/files/test_fuzz_files.py, run in a process of its own.

``python _fuzz_files.py KIND CASES SEED FOLDER`` damages one good file of
KIND (``state``, ``pickle``, ``trajectory``, ``sweep_part``) CASES times,
seeded, and loads each damaged copy. Three ways of damage:

- ``bytes``: flipped bytes, a cut, a run overwritten, bytes inserted or
  deleted. The file must load equal to the original or be refused with a
  ValueError naming it (a sweep part: be run again, with a warning naming
  it, giving the same rows). A damaged pickle stream may also be refused by
  the unpickler itself, before vosim's code runs, or decode to an object
  that is no simulator at all: both are counted apart;
- ``crafted``: one entry of the file (an array, a metadata value) replaced
  by a crafted one (huge counts, NaN, other types and shapes, dropped), the
  checksum left as it was: the same property;
- ``forged``: as crafted, with the checksum recomputed, as someone forging a
  file would: it must be refused with a ValueError, or load and then step
  (states) or summarise (trajectories) without any other exception.

Before the cases, the process's address space is limited to what it uses
plus ``MEMORY_MARGIN`` (not under AddressSanitizer, which reserves terabytes):
any allocation for a count a file claims but does not carry fails as a
MemoryError, which counts as unexpected. A crash ends the process, which
the test sees.

Prints one JSON line: cases tried, and how they ended, by outcome.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import math
import pickle
import random
import resource
import sys
import traceback
import warnings
from collections import Counter
from pathlib import Path

import numpy as np

import vosim
from vosim import _archive, _checkpoint, _io

MEMORY_MARGIN = 512 << 20
INTEGERS = [-1, 0, 1, 2, 7, 255, 2**31 - 1, 2**31, 2**53, 2**63 - 1, -(2**63), 10**9, 10**12]
FLOATS = [math.nan, math.inf, -math.inf, 1e300, -1e300, 1e16, -0.0, 5e-324]
JSON_VALUES = [None, True, "x", "", [], {}, [1, 2], {"a": 1}, [[1.0, 2.0]], "\u00e9\u0000", *INTEGERS, *FLOATS]
DTYPES = ["float64", "float32", "int64", "int32", "int8", "uint8", "bool", "U3", "complex128", "S2"]


# ------------------------------------------------------------------ damage
def damage_bytes(data: bytes, rng: random.Random) -> bytes:
    data = bytearray(data)
    how = rng.randrange(5)
    if how == 0:
        for _ in range(rng.randint(1, 4)):
            k = rng.randrange(len(data))
            data[k] ^= rng.randint(1, 255)
    elif how == 1:
        del data[rng.randrange(len(data)):]
    elif how == 2:
        start = rng.randrange(len(data))
        length = rng.randint(1, 64)
        data[start:start + length] = bytes(rng.choice([0, 255, rng.randrange(256)]) for _ in range(length))
    elif how == 3:
        k = rng.randrange(len(data))
        data[k:k] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    else:
        k = rng.randrange(len(data))
        del data[k:k + rng.randint(1, 8)]
    return bytes(data)


def crafted_array(array: np.ndarray, rng: random.Random):
    """A crafted replacement of an array entry; None drops the entry."""
    how = rng.randrange(8)
    if how == 0:
        return None
    if how == 1 and array.size:
        changed = array.copy()
        value = rng.choice(INTEGERS + FLOATS)
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            try:
                changed.reshape(-1)[rng.randrange(array.size)] = value
            except (OverflowError, ValueError, TypeError):
                changed.reshape(-1)[rng.randrange(array.size)] = 0
        return changed
    if how == 2:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            try:
                return array.astype(rng.choice(DTYPES))
            except (ValueError, TypeError, OverflowError):
                return np.zeros(array.shape, rng.choice(DTYPES))
    if how == 3:
        return array.reshape(-1)[: rng.randrange(array.size + 1)] if array.size else np.zeros(3)
    if how == 4:
        return np.concatenate([array.reshape(-1), array.reshape(-1)[:1]]) if array.size else np.ones(2)
    if how == 5:
        return array.reshape(-1) if array.ndim != 1 else array.reshape(1, -1)
    if how == 6:
        return np.array(rng.choice(INTEGERS + FLOATS))
    return np.zeros((0,) + array.shape[1:], array.dtype)


def _paths(value, where=()):
    """Every (path) to a value inside nested dicts and lists."""
    yield where
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, where + (key,))
    elif isinstance(value, list):
        for k, item in enumerate(value):
            yield from _paths(item, where + (k,))


def crafted_json(metadata: dict, rng: random.Random) -> dict:
    """``metadata`` with one value anywhere in it replaced or removed."""
    metadata = copy.deepcopy(metadata)
    path = rng.choice([p for p in _paths(metadata) if p and p[-1] != "checksum"])
    parent = metadata
    for key in path[:-1]:
        parent = parent[key]
    if rng.random() < 0.2:
        del parent[path[-1]]
    else:
        parent[path[-1]] = copy.deepcopy(rng.choice(JSON_VALUES))
    return metadata


def crafted_file(arrays: dict, metadata: dict, rng: random.Random) -> tuple[dict, dict]:
    """One entry of a file, an array or a metadata value, crafted."""
    arrays = dict(arrays)
    if rng.random() < 0.6:
        name = rng.choice(sorted(arrays))
        value = crafted_array(arrays[name], rng)
        if value is None:
            del arrays[name]
        else:
            arrays[name] = value
    else:
        metadata = crafted_json(metadata, rng)
    return arrays, metadata


def npz_bytes(arrays: dict, metadata: dict, rng: random.Random) -> bytes:
    stream = io.BytesIO()
    (np.savez_compressed if rng.random() < 0.5 else np.savez)(
        stream, **arrays, metadata=np.array(json.dumps(metadata)))
    return stream.getvalue()


def split(path: Path) -> tuple[dict, dict]:
    arrays = _archive.read_arrays(path)
    metadata = json.loads(str(arrays.pop("metadata")))
    return arrays, metadata


def forge_state(arrays: dict, metadata: dict) -> None:
    state = _checkpoint.assemble(arrays, metadata)
    with contextlib.suppress(TypeError, ValueError, AttributeError):
        if state is not None:
            metadata["checksum"] = _checkpoint.checksum(state)


def forge_trajectory(arrays: dict, metadata: dict) -> None:
    rest = {k: v for k, v in metadata.items() if k != "checksum"}
    with contextlib.suppress(TypeError, ValueError):
        metadata["checksum"] = _archive.digest(arrays, rest)


# ------------------------------------------------------------------- kinds
def original_state(folder: Path):
    sim = vosim.Batch(2, time_step=0.1)
    rng = np.random.default_rng(5)
    sim.add_agents(rng.uniform(-6.0, 6.0, (2, 6, 2)), goals=rng.uniform(-6.0, 6.0, (2, 6, 2)), strict=False)
    sim.add_agents(rng.uniform(-6.0, 6.0, (2, 3, 2)), strict=False,
                   waypoints=[[rng.uniform(-6.0, 6.0, (k + 1, 2)) for k in range(3)] for _ in range(2)])
    sim.add_obstacle([[0.0, 0.0], [2.0, 0.0], [1.0, 1.0]], scene=1, strict=False)
    sim.add_wall([[-8.0, 8.0], [-7.0, 8.0]], velocity=(0.5, 0.0))
    sim.remove_obstacle(sim.add_obstacle([[9.0, 9.0], [10.0, 9.0], [10.0, 10.0]], strict=False))
    sim.run(4)
    return sim


def same_state(sim, original) -> bool:
    return _checkpoint.payload(sim)["checksum"] == _checkpoint.payload(original)["checksum"]


def exercise_state(sim) -> None:
    """A forged state that loaded must step or refuse to (ValueError), nothing else."""
    try:
        sim.step()
    except ValueError:
        pass


def original_trajectory(folder: Path):
    sim = vosim.Batch(2, time_step=0.1)
    rng = np.random.default_rng(6)
    sim.add_agents(rng.uniform(-6.0, 6.0, (2, 5, 2)), goals=rng.uniform(-6.0, 6.0, (2, 5, 2)))
    sim.add_obstacle([[0.0, 0.0], [2.0, 0.0], [1.0, 1.0]], scene=1, strict=False)
    return sim.run(5)


def checksum_of(path: Path) -> str:
    return json.loads(str(_archive.read_arrays(path)["metadata"]))["checksum"]


def same_trajectory(traj, path: Path) -> bool:
    """Whether ``traj`` saves as the original did (its checksum covers every array and the metadata)."""
    return checksum_of(traj.save(path.with_name("again.npz"))) == checksum_of(path.with_name("original.npz"))


def exercise_trajectory(traj) -> None:
    traj.summary()
    traj.to_dataframe()
    traj.subsample(2)


# ------------------------------------------------------------------ running
class Outcomes:
    def __init__(self):
        self.counts = Counter()
        self.unexpected = []

    def bad(self, mode: str, what: str) -> None:
        self.counts[f"{mode}:unexpected"] += 1
        if len(self.unexpected) < 10:
            where = traceback.extract_tb(sys.exc_info()[2])[-1:] if sys.exc_info()[2] else []
            self.unexpected.append(f"{mode}: {what}" + "".join(f" (at {f.filename}:{f.lineno})" for f in where))


def names_file(error: Exception, path: Path) -> bool:
    return f"path: {str(path)!r}" in str(error)


# vosim's own source files (a checkout's folder may well be named "vosim" too).
PACKAGE = Path(vosim.__file__).resolve().parent


def from_vosim(error: BaseException) -> bool:
    """Whether the exception came out of vosim's code (not the unpickler's own)."""
    return any(Path(frame.filename).resolve().is_relative_to(PACKAGE)
               for frame in traceback.extract_tb(error.__traceback__))


def fuzz_file_kind(kind: str, cases: int, rng: random.Random, folder: Path, out: Outcomes) -> None:
    original = folder / "original.npz"
    if kind == "state":
        sim = original_state(folder)
        sim.save_state(original)
        load, same, exercise, forge = vosim.load_state, lambda s, p: same_state(s, sim), exercise_state, forge_state
    else:
        traj = original_trajectory(folder)
        traj.save(original)
        load, same, exercise, forge = vosim.load, same_trajectory, exercise_trajectory, forge_trajectory
    data = original.read_bytes()
    arrays, metadata = split(original)
    case = folder / "case.npz"
    for _ in range(cases):
        mode = rng.choice(["bytes", "bytes", "crafted", "forged"])
        if mode == "bytes":
            case.write_bytes(damage_bytes(data, rng))
        else:
            changed, changed_metadata = crafted_file(arrays, metadata, rng)
            if mode == "forged":
                forge(changed, changed_metadata)
            case.write_bytes(npz_bytes(changed, changed_metadata, rng))
        try:
            loaded = load(case)
        except ValueError as error:
            if names_file(error, case):
                out.counts[f"{mode}:refused"] += 1
            else:
                out.bad(mode, f"ValueError not naming the file: {error}")
            continue
        except Exception as error:  # noqa: BLE001 - what the fuzz looks for
            out.bad(mode, f"{type(error).__name__}: {error}")
            continue
        if same(loaded, case):
            out.counts[f"{mode}:equal"] += 1
        elif mode == "forged":
            try:
                exercise(loaded)
                out.counts[f"{mode}:loaded"] += 1
            except Exception as error:  # noqa: BLE001
                out.bad(mode, f"loaded, then {type(error).__name__}: {error}")
        else:
            out.bad(mode, "loaded, but not equal to the original")


def fuzz_pickles(cases: int, rng: random.Random, folder: Path, out: Outcomes) -> None:
    sim = original_state(folder)
    data = pickle.dumps(sim)
    state = sim.__getstate__()
    for _ in range(cases):
        mode = rng.choice(["bytes", "bytes", "crafted", "forged"])
        if mode == "bytes":
            damaged = damage_bytes(data, rng)
            try:
                loaded = pickle.loads(damaged)
            except ValueError:
                out.counts[f"{mode}:refused"] += 1
                continue
            except Exception as error:  # noqa: BLE001
                if from_vosim(error):
                    out.bad(mode, f"{type(error).__name__}: {error}")
                else:  # the unpickler's own refusal of a damaged stream, before vosim's code
                    out.counts[f"{mode}:refused_by_pickle"] += 1
                continue
        else:
            arrays, metadata = crafted_file(*split_payload(state, folder), rng)
            crafted = _checkpoint.assemble(arrays, metadata) or metadata
            if mode == "forged":
                with contextlib.suppress(TypeError, ValueError, AttributeError):
                    crafted["checksum"] = _checkpoint.checksum(crafted)
            loaded = type(sim).__new__(type(sim))
            try:
                loaded.__setstate__(crafted)
            except ValueError as error:
                if str(error).startswith("state "):
                    out.counts[f"{mode}:refused"] += 1
                else:
                    out.bad(mode, f"ValueError not naming the state: {error}")
                continue
            except Exception as error:  # noqa: BLE001
                out.bad(mode, f"{type(error).__name__}: {error}")
                continue
        if mode == "bytes" and not isinstance(loaded, (vosim.Simulator, vosim.Batch)):
            # The damaged stream decoded to another object: vosim's code never ran.
            out.counts[f"{mode}:not_a_simulator"] += 1
        elif isinstance(loaded, type(sim)) and same_state(loaded, sim):
            out.counts[f"{mode}:equal"] += 1
        elif mode == "forged":
            try:
                exercise_state(loaded)
                out.counts[f"{mode}:loaded"] += 1
            except Exception as error:  # noqa: BLE001
                out.bad(mode, f"loaded, then {type(error).__name__}: {error}")
        else:
            out.bad(mode, f"loaded, but not equal to the original ({type(loaded).__name__})")


def split_payload(state: dict, folder: Path) -> tuple[dict, dict]:
    """A payload as a state file lays it out: its arrays and its metadata."""
    return split(_checkpoint.write_state(state, folder / "payload.npz"))


def fuzz_sweep_parts(cases: int, rng: random.Random, folder: Path, out: Outcomes) -> None:
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    grid = dict(methods=[vosim.ORCA()], scenarios=["headon_pair"], seeds=[0, 1], steps=20, client=False)
    results = folder / "sweep"
    whole = vosim.sweep(**grid, path=results)
    (part,) = results.glob("cell-*.parquet")
    data = part.read_bytes()
    good = pq.read_table(part)
    timings = list(vosim.metrics.TIMES)
    expected = whole.drop(columns=timings)
    for _ in range(cases):
        mode = rng.choice(["bytes", "bytes", "crafted"])
        if mode == "bytes":
            part.write_bytes(damage_bytes(data, rng))
        else:
            frame = good.to_pandas()
            how = rng.randrange(5)
            if how == 0:
                frame = frame.iloc[: rng.randrange(len(frame))]
            elif how == 1:
                frame = frame.drop(columns=[rng.choice(list(frame.columns))])
            elif how == 2:
                column = rng.choice(list(frame.columns))
                frame[column] = rng.choice([0, "x", math.nan, 2**40])
            elif how == 3:
                frame = pd.concat([frame, frame.iloc[:1]])
            else:
                frame = pd.DataFrame()
            table = pa.Table.from_pandas(frame, preserve_index=False)
            if rng.random() < 0.7:  # keep the stamp of the good part
                table = table.replace_schema_metadata({**(table.schema.metadata or {}), **good.schema.metadata})
            pq.write_table(table, part)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                table = vosim.sweep(**grid, path=results)
            except Exception as error:  # noqa: BLE001
                out.bad(mode, f"{type(error).__name__}: {error}")
                continue
        warned = [w for w in caught if part.name in str(w.message) and "running that cell again" in str(w.message)]
        try:
            pd.testing.assert_frame_equal(table.drop(columns=timings), expected)
        except AssertionError:
            out.bad(mode, "the resumed sweep's rows differ from the original's")
            continue
        if table.attrs["cells_reused"]:
            out.counts[f"{mode}:equal"] += 1
        elif warned:
            out.counts[f"{mode}:run_again"] += 1
        else:
            out.bad(mode, "a part was run again without a warning naming it")


def limit_memory() -> int:
    """Limits the address space to what is used now plus MEMORY_MARGIN; returns the limit (0: none)."""
    if vosim._core.SANITIZED:
        return 0
    with open("/proc/self/statm") as stream:
        used = int(stream.read().split()[0]) * resource.getpagesize()
    limit = used + MEMORY_MARGIN
    resource.setrlimit(resource.RLIMIT_AS, (limit, resource.getrlimit(resource.RLIMIT_AS)[1]))
    return limit


def main() -> None:
    kind, cases, seed, folder = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4])
    rng = random.Random(seed)
    out = Outcomes()
    run = {"state": fuzz_file_kind, "trajectory": fuzz_file_kind}
    # Warm up (threads, lazily imported modules) on a few cases, then limit memory for the rest.
    warm = min(cases, 3)
    if kind in run:
        run[kind](kind, warm, rng, folder, out)
    elif kind == "pickle":
        fuzz_pickles(warm, rng, folder, out)
    else:
        fuzz_sweep_parts(warm, rng, folder, out)
    limit = limit_memory()
    if kind in run:
        run[kind](kind, cases - warm, rng, folder, out)
    elif kind == "pickle":
        fuzz_pickles(cases - warm, rng, folder, out)
    else:
        fuzz_sweep_parts(cases - warm, rng, folder, out)
    print(json.dumps({"kind": kind, "cases": cases, "memory_limit": limit, "outcomes": dict(sorted(out.counts.items())),
                      "unexpected": out.unexpected}))


if __name__ == "__main__":
    main()
