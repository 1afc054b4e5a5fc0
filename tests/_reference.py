"""Access to the RVO2 reference data: the committed subset under tests/data,
and the full files under ../shared/reference when they are present (or where
VOSIM_REFERENCE_DIR points)."""

from __future__ import annotations

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
