"""The rules of RVO2's Circle and Blocks examples (preferred velocities,
stopping rule), as recorded in ../shared/reference/rvo2/README.md, for whole
runs of pyrvo driven from Python (benchmarks/rvo2_makespan.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "rvo2"
_MASK = (1 << 64) - 1


def f32(values) -> np.ndarray:
    return np.asarray(values, dtype=np.float32).astype(np.float64)


class SplitMix64:
    """The generator the reference data used for Blocks' perturbation."""

    def __init__(self, seed: int):
        self.state = seed & _MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def uniform(self, count: int) -> np.ndarray:
        """``count`` draws in [0, 1) (float32 resolution, as the reference)."""
        return np.array([(self.next() >> 40) * 2.0**-24 for _ in range(count)])


@dataclass
class ExampleRules:
    name: str
    meta: dict

    @classmethod
    def load(cls, name: str) -> "ExampleRules":
        return cls(name, json.loads((DATA / f"{name}.json").read_text()))

    @property
    def time_step(self) -> float:
        return float(f32(self.meta["timeStep"]))

    @property
    def start(self) -> np.ndarray:
        return f32(self.meta["initial_positions"])

    @property
    def goals(self) -> np.ndarray:
        return f32(self.meta["goals"])

    @property
    def obstacles(self) -> list[np.ndarray]:
        return [f32(polygon) for polygon in self.meta["obstacles"]]

    @property
    def params(self) -> dict:
        p = self.meta["agent_params"]
        first = lambda key: float(f32(p[key][0]))  # noqa: E731 - the examples use one value for all
        return dict(neighbor_dist=first("neighborDist"), max_neighbors=int(p["maxNeighbors"][0]),
                    time_horizon=first("timeHorizon"), time_horizon_obst=first("timeHorizonObst"),
                    radius=first("radius"), max_speed=first("maxSpeed"))

    @property
    def arrival_radius(self) -> float:
        return 20.0 if self.name.startswith("blocks") else self.params["radius"]

    def all_arrived(self, positions: np.ndarray) -> bool:
        return bool(np.all(np.sum((positions - self.goals) ** 2, axis=1) <= self.arrival_radius**2))

    def preferred_velocities(self) -> Callable[[np.ndarray], np.ndarray]:
        """A function positions -> preferred velocities, stateful for Blocks' random perturbation."""
        goals = self.goals
        rng = SplitMix64(20240601) if self.name.startswith("blocks") else None

        def rule(positions: np.ndarray) -> np.ndarray:
            g = goals - positions
            length_sq = np.sum(g * g, axis=1, keepdims=True)
            g = np.where(length_sq > 1.0, g / np.sqrt(np.maximum(length_sq, 1e-300)), g)
            if rng is not None:
                u = rng.uniform(2 * len(g)).reshape(-1, 2)
                angle, dist = u[:, 0] * 2.0 * np.pi, u[:, 1] * 1e-4
                g = g + dist[:, None] * np.column_stack([np.cos(angle), np.sin(angle)])
            return g

        return rule
