"""Ready-made scenarios, as plain data that builds a Simulator."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ._checks import MAX_AGENTS, MAX_MAGNITUDE, integer, scalar
from .methods import Method
from .simulator import Simulator


@dataclass
class Scenario:
    """Agents with their parameters and goals, a time step and a suggested length.

    Attributes
    ----------
    name
        Short identifier.
    positions, goals
        ``(n, 2)`` start positions and goals.
    agent_params
        Keyword arguments for ``add_agents`` (scalars or ``(n,)`` arrays).
    time_step
        Seconds per step.
    max_steps
        How many steps a run should be allowed before giving up.
    """

    name: str
    positions: np.ndarray
    goals: np.ndarray
    agent_params: dict = field(default_factory=dict)
    time_step: float = 0.25
    max_steps: int = 10_000

    @property
    def num_agents(self) -> int:
        return len(self.positions)

    def build(self, method: Method | None = None) -> Simulator:
        """A new Simulator holding this scenario's agents."""
        sim = Simulator(time_step=self.time_step, method=method)
        sim.add_agents(self.positions, goals=self.goals, **self.agent_params)
        return sim


def circle(n: int = 250, radius: float = 200.0) -> Scenario:
    """RVO2's Circle example: ``n`` agents evenly on a circle, each heading for its antipode.

    Parameters as in the example: radius 1.5, max speed 2, preferred speed 1,
    neighbour distance 15, 10 neighbours, time horizons 10, time step 0.25.
    """
    n = integer(n, "n", minimum=1, maximum=MAX_AGENTS)
    radius = scalar(radius, "radius", minimum=0.0, strict=True, maximum=MAX_MAGNITUDE)
    angles = np.arange(n) * (2.0 * np.pi / n)
    positions = radius * np.column_stack([np.cos(angles), np.sin(angles)])
    return Scenario(
        name=f"circle{n}",
        positions=positions,
        goals=-positions,
        agent_params=dict(radius=1.5, max_speed=2.0, pref_speed=1.0, neighbor_dist=15.0,
                          max_neighbors=10, time_horizon=10.0, time_horizon_obst=10.0),
        time_step=0.25,
        max_steps=10_000,
    )
