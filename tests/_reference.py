"""Access to the RVO2 and HRVO reference data: the committed subsets under
tests/data, and the full files under ../shared/reference when they are
present (or where VOSIM_REFERENCE_DIR points)."""

from __future__ import annotations

import csv
import gzip
import io
import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parent / "data"
FULL = Path(os.environ.get("VOSIM_REFERENCE_DIR", Path(__file__).resolve().parents[2] / "shared" / "reference"))


def f32(values) -> np.ndarray:
    """Numbers printed from float32, read back as the exact float32 values (in float64)."""
    return np.asarray(values, dtype=np.float32).astype(np.float64)


@dataclass
class Rvo2Case:
    name: str
    meta: dict
    states: np.ndarray  # (S, N, 10) (3D: (S, N, 15)) float64 holding float32 values
    steps: np.ndarray
    neighbors: np.ndarray  # (min(S, 50), N, K)
    full: bool

    @property
    def time_step(self) -> float:
        return float(f32(self.meta["timeStep"]))

    @property
    def dimensions(self) -> int:
        return int(self.meta.get("dimension", 2))

    def columns(self) -> dict:
        """Where each quantity lies in a row of ``states`` (see the reference README)."""
        d = self.dimensions
        return {name: slice(k * d, (k + 1) * d) for k, name in enumerate(
            ("position", "velocity", "pref_velocity", "position_after", "velocity_after"))}

    def agent_kwargs(self) -> dict:
        if "agent_defaults" in self.meta:  # RVO2-3D: shared by all agents, no obstacles
            p = self.meta["agent_defaults"]
            return dict(radius=float(f32(p["radius"])), max_speed=float(f32(p["maxSpeed"])),
                        neighbor_dist=float(f32(p["neighborDist"])), max_neighbors=int(p["maxNeighbors"]),
                        time_horizon=float(f32(p["timeHorizon"])))
        p = self.meta["agent_params"]
        return dict(
            radius=f32(p["radius"]), max_speed=f32(p["maxSpeed"]), neighbor_dist=f32(p["neighborDist"]),
            max_neighbors=np.asarray(p["maxNeighbors"]), time_horizon=f32(p["timeHorizon"]),
            time_horizon_obst=f32(p["timeHorizonObst"]),
        )


def full_available(name: str) -> bool:
    return (FULL / "rvo2" / f"{name}.states.npy").exists()


def load_rvo2(name: str, *, full: bool) -> Rvo2Case:
    if full:
        base = FULL / "rvo2"
        meta = json.loads((base / f"{name}.json").read_text())
        arrays = {k: np.load(base / f"{name}.{k}.npy") for k in ("states", "steps", "neighbors")}
    else:
        meta = json.loads((DATA / "rvo2" / f"{name}.json").read_text())
        with np.load(DATA / "rvo2" / f"{name}.npz") as npz:
            arrays = {k: npz[k] for k in ("states", "steps", "neighbors")}
    return Rvo2Case(name, meta, arrays["states"].astype(np.float64), arrays["steps"], arrays["neighbors"], full)


# --- DetourCrowd sampling oracle (reference/detour) -------------------------

# Tables of runs, as named columns. Float columns hold float32 values in float64;
# an empty CSV field (no competitor, NaN penalties) is NaN.
DETOUR_TABLES = {
    "results_adaptive": {"case_id": int, "param_set": str, "nvel_x": float, "nvel_z": float, "ns": int,
                         "best_penalty": float, "min_gap": float, "nan_penalty": int},
    "levels_adaptive": {"case_id": int, "param_set": str, "level": int, "cr": float, "ns_level": int,
                        "best_x": float, "best_z": float, "best_penalty": float, "gap": float},
    "samples_debug": {"case_id": int, "run": str, "level": int, "vx": float, "vz": float, "penalty": float,
                      "vpen": float, "vcpen": float, "spen": float, "tpen": float},
}
DETOUR_TABLES["results_grid"] = DETOUR_TABLES["results_adaptive"]


@dataclass
class DetourData:
    """The DetourCrowd cases as flat columns, with the library's runs.

    Case row ``i`` owns ``circles[circle_start[i]:circle_start[i + 1]]`` and the
    same slice of the segment columns. The stored plane coordinates (x, z) are
    vosim's (x, y).
    """

    case_id: np.ndarray  # (C,) int
    name: np.ndarray  # (C,) str
    agent: np.ndarray  # (C, 8) x, y, vx, vy, dvx, dvy, radius, max_speed
    circle_start: np.ndarray  # (C + 1,)
    circles: np.ndarray  # (K, 7) x, y, vx, vy, dvx, dvy, radius
    segment_start: np.ndarray  # (C + 1,)
    segments: np.ndarray  # (M, 4) px, py, qx, qy
    segment_touch: np.ndarray  # (M,) bool, the library's flag
    params: dict  # name -> dtObstacleAvoidanceParams (camelCase keys, as in params.json)
    tables: dict  # table name -> {column: (R,) array}
    full: bool

    def row_of(self, case_id: int) -> int:
        row = int(np.searchsorted(self.case_id, case_id))
        assert self.case_id[row] == case_id, f"case {case_id} is not in this data"
        return row

    def case_inputs(self, row: int) -> dict:
        """The case in ``row`` as keyword arguments of ``_local_kernels.detour_sample``."""
        a = self.agent[row]
        c = self.circles[self.circle_start[row]:self.circle_start[row + 1]]
        s = self.segments[self.segment_start[row]:self.segment_start[row + 1]]
        return dict(position=a[0:2], velocity=a[2:4], desired_velocity=a[4:6], radius=a[6], max_speed=a[7],
                    circles=c[:, :6], circle_radii=c[:, 6], segments=s)

    def subset(self, case_ids) -> "DetourData":
        """The same data restricted to the given cases."""
        rows = np.array(sorted({self.row_of(c) for c in case_ids}), dtype=np.int64)

        def items(start):
            counts = np.diff(start)[rows]
            index = np.concatenate([np.arange(start[r], start[r + 1]) for r in rows]).astype(np.int64)
            return np.concatenate([[0], np.cumsum(counts)]), index

        circle_start, circle_items = items(self.circle_start)
        segment_start, segment_items = items(self.segment_start)
        keep = self.case_id[rows]
        tables = {}
        for name, columns in self.tables.items():
            mask = np.isin(columns["case_id"], keep)
            tables[name] = {k: v[mask] for k, v in columns.items()}
        return DetourData(
            case_id=keep, name=self.name[rows], agent=self.agent[rows],
            circle_start=circle_start, circles=self.circles[circle_items],
            segment_start=segment_start, segments=self.segments[segment_items],
            segment_touch=self.segment_touch[segment_items], params=self.params, tables=tables, full=False,
        )

    def to_npz(self, path: Path) -> None:
        """Everything in one compressed file, floats as the float32 values they are."""
        arrays = {
            "case_id": self.case_id.astype(np.int32), "name": self.name, "agent": self.agent.astype(np.float32),
            "circle_start": self.circle_start.astype(np.int32), "circles": self.circles.astype(np.float32),
            "segment_start": self.segment_start.astype(np.int32), "segments": self.segments.astype(np.float32),
            "segment_touch": self.segment_touch, "params": np.array(json.dumps(self.params)),
        }
        for name, columns in self.tables.items():
            for column, kind in DETOUR_TABLES[name].items():
                cast = {int: np.int32, float: np.float32, str: str}[kind]
                arrays[f"{name}.{column}"] = columns[column].astype(cast)
        np.savez_compressed(path, **arrays)


def detour_full_available() -> bool:
    return (FULL / "detour" / "cases.json").exists()


def _read_table(path: Path, kinds: dict) -> dict:
    """A CSV file as typed columns, read in one go."""
    text = np.loadtxt(path, dtype=str, delimiter=",", ndmin=2)
    header, body = list(text[0]), text[1:]
    assert header == list(kinds), f"{path.name}: unexpected columns {header}"
    columns = {}
    for k, (name, kind) in enumerate(kinds.items()):
        raw = body[:, k]
        if kind is float:
            columns[name] = f32(np.where(raw == "", "nan", raw))
        else:
            columns[name] = raw.astype(np.int64) if kind is int else raw
    return columns


def _load_detour_full() -> DetourData:
    base = FULL / "detour"
    cases = json.loads((base / "cases.json").read_text())
    agent = [[*c["agent"]["pos"], *c["agent"]["vel"], *c["agent"]["dvel"], c["agent"]["rad"], c["agent"]["vmax"]]
             for c in cases]
    circles = [[*o["pos"], *o["vel"], *o["dvel"], o["rad"]] for c in cases for o in c["circles"]]
    segments = [[*g["p"], *g["q"]] for c in cases for g in c["segments"]]
    return DetourData(
        case_id=np.array([c["id"] for c in cases]), name=np.array([c["name"] for c in cases]),
        agent=f32(agent), circle_start=np.concatenate([[0], np.cumsum([len(c["circles"]) for c in cases])]),
        circles=f32(circles).reshape(-1, 7),
        segment_start=np.concatenate([[0], np.cumsum([len(c["segments"]) for c in cases])]),
        segments=f32(segments).reshape(-1, 4),
        segment_touch=np.array([t for c in cases for t in c["segment_touch"]], dtype=bool),
        params=json.loads((base / "params.json").read_text()),
        tables={name: _read_table(base / f"{name}.csv", kinds) for name, kinds in DETOUR_TABLES.items()},
        full=True,
    )


def _load_detour_subset() -> DetourData:
    with np.load(DATA / "detour" / "subset.npz") as z:
        a = {k: z[k] for k in z.files}
    tables = {
        name: {column: a[f"{name}.{column}"].astype({int: np.int64, float: np.float64, str: str}[kind])
               for column, kind in kinds.items()}
        for name, kinds in DETOUR_TABLES.items()
    }
    return DetourData(
        case_id=a["case_id"].astype(np.int64), name=a["name"], agent=a["agent"].astype(np.float64),
        circle_start=a["circle_start"].astype(np.int64), circles=a["circles"].astype(np.float64),
        segment_start=a["segment_start"].astype(np.int64), segments=a["segments"].astype(np.float64),
        segment_touch=a["segment_touch"], params=json.loads(str(a["params"])), tables=tables, full=False,
    )


def load_detour(*, full: bool) -> DetourData:
    """The DetourCrowd oracle: every case and run (``full``) or the committed subset."""
    return _load_detour_full() if full else _load_detour_subset()
@dataclass
class HrvoCase:
    """One HRVO scenario (library version ``orig``): the agents table and the
    dumped rows of steps.csv, as float64 arrays holding the float32 values."""

    name: str
    meta: dict
    agents: dict[str, np.ndarray]  # columns of agents.csv, one entry per agent
    rows: dict[str, np.ndarray]  # columns of steps.csv, one entry per dumped (step, agent)
    neighbors: list[list[int]]  # per row, in the library's order (= VO index)
    full: bool

    @property
    def time_step(self) -> float:
        return float(f32(self.meta["time_step"]))

    def row_index(self) -> dict[tuple[int, int], int]:
        """Row of each (step, agent)."""
        return {(int(k), int(i)): r for r, (k, i) in enumerate(zip(self.rows["step"], self.rows["agent"]))}


def _columns(text: str) -> tuple[dict[str, np.ndarray], list[str] | None]:
    reader = csv.reader(io.StringIO(text))
    header = next(reader)
    records = list(reader)
    neighbors = None
    if "neighbors" in header:
        k = header.index("neighbors")
        neighbors = [record.pop(k) for record in records]
        header.pop(k)
    values = f32([[float(x) for x in record] for record in records]).reshape(len(records), len(header))
    return {name: values[:, j] for j, name in enumerate(header)}, neighbors


def hrvo_full_available(name: str) -> bool:
    return (FULL / "hrvo" / "orig" / f"{name}_steps.csv").exists()


def load_hrvo(name: str, *, full: bool) -> HrvoCase:
    if full:
        base = FULL / "hrvo" / "orig"
        steps_text = (base / f"{name}_steps.csv").read_text()
    else:
        base = DATA / "hrvo"
        with gzip.open(base / f"{name}_steps.csv.gz", "rt") as f:
            steps_text = f.read()
    meta = json.loads((base / f"{name}_meta.json").read_text())
    agents, _ = _columns((base / f"{name}_agents.csv").read_text())
    rows, neighbors = _columns(steps_text)
    lists = [[int(j) for j in entry.split(";")] if entry else [] for entry in neighbors]
    return HrvoCase(name, meta, agents, rows, lists, full)


# --- AVO2 single-step oracle (reference/avo2) --------------------------------

@dataclass
class Avo2Case:
    name: str
    meta: dict
    states: np.ndarray  # (S, N, 10) float64 holding float32 values
    steps: np.ndarray
    counts: np.ndarray  # (S, N, 2): neighbours, lines (with the 2 speed lines)
    neighbors: np.ndarray  # (R, N, K) for the first R rows (steps below 50)
    lines: np.ndarray  # (R, N, K + 2, 4) in delta-v space, NaN padded
    full: bool

    @property
    def time_step(self) -> float:
        return float(f32(self.meta["timeStep"]))

    def agent_kwargs(self) -> dict:
        p = self.meta["agent_params"]
        return dict(
            radius=f32(p["radius"]), max_speed=f32(p["maxSpeed"]), neighbor_dist=f32(p["neighborDist"]),
            max_neighbors=np.asarray(p["maxNeighbors"]), time_horizon=f32(p["timeHorizon"]),
            max_acceleration=f32(p["maxAccel"]), acceleration_interval=f32(p["accelInterval"]),
        )


def avo2_full_available(name: str) -> bool:
    return (FULL / "avo2" / f"{name}.states.npy").exists()


def load_avo2(name: str, *, full: bool) -> Avo2Case:
    kinds = ("states", "steps", "counts", "neighbors", "lines")
    if full:
        base = FULL / "avo2"
        meta = json.loads((base / f"{name}.json").read_text())
        arrays = {k: np.load(base / f"{name}.{k}.npy") for k in kinds}
    else:
        meta = json.loads((DATA / "avo2" / f"{name}.json").read_text())
        with np.load(DATA / "avo2" / f"{name}.npz") as npz:
            arrays = {k: npz[k] for k in kinds}
    return Avo2Case(name, meta, arrays["states"].astype(np.float64), arrays["steps"], arrays["counts"],
                    arrays["neighbors"], arrays["lines"].astype(np.float64), full)
