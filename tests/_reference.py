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
    states: np.ndarray  # (S, N, 10) float64 holding float32 values
    steps: np.ndarray
    neighbors: np.ndarray  # (min(S, 50), N, K)
    full: bool

    @property
    def time_step(self) -> float:
        return float(f32(self.meta["timeStep"]))

    def agent_kwargs(self) -> dict:
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
