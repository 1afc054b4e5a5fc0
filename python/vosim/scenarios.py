"""Ready-made scenarios, as plain data that builds a Simulator."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ._checks import MAX_AGENTS, MAX_MAGNITUDE, integer, scalar
from .methods import ORCA, Method
from .simulator import Simulator


@dataclass
class Scenario:
    """Agents with their parameters and goals, obstacles, a time step and a suggested length.

    Attributes
    ----------
    name
        Short identifier.
    positions, goals
        ``(n, 2)`` start positions and goals.
    agent_params
        Keyword arguments for ``add_agents`` (scalars or ``(n,)`` arrays).
    obstacles
        ``(kind, vertices)`` pairs, kind one of ``"polygon"``, ``"wall"``,
        ``"boundary"`` (as for ``add_obstacle``, ``add_wall``, ``add_boundary``).
    time_step
        Seconds per step.
    max_steps
        How many steps a run should be allowed before giving up.
    method
        The method to use when ``build`` is given none (some scenarios need
        a perturbation to break their symmetry).
    """

    name: str
    positions: np.ndarray
    goals: np.ndarray
    agent_params: dict = field(default_factory=dict)
    obstacles: list = field(default_factory=list)
    time_step: float = 0.25
    max_steps: int = 10_000
    method: Method = field(default_factory=ORCA)

    @property
    def num_agents(self) -> int:
        return len(self.positions)

    def build(self, method: Method | None = None) -> Simulator:
        """A new Simulator holding this scenario's obstacles and agents."""
        sim = Simulator(time_step=self.time_step, method=self.method if method is None else method)
        adders = {"polygon": sim.add_obstacle, "wall": sim.add_wall, "boundary": sim.add_boundary}
        for kind, vertices in self.obstacles:
            adders[kind](vertices)
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


def blocks() -> Scenario:
    """RVO2's Blocks example: four groups of 25 agents cross between four square obstacles.

    Each group starts in a 5 x 5 block in one corner and heads for the
    opposite corner. Parameters as in the example: radius 2, max speed 2,
    preferred speed 1, neighbour distance 15, 10 neighbours, time horizons
    5, time step 0.25; an agent counts as arrived within 20 m of its goal
    (the example's stopping rule). The layout is symmetric, so, as in the
    example, preferred velocities get a perturbation of 1e-4.

    The number of steps to completion is chaotic and depends on the
    perturbation's seed: over seeds 0 to 11 the median is 3690 steps (RVO2's
    own run: 3785), most runs take 3100 to 5200, and seed 0 jams for 13795
    steps. The scenario uses seed 1, a typical run (3780 steps); pass your
    own method to draw others.
    """
    positions, goals = [], []
    for i in range(5):
        for j in range(5):
            for sx, sy in ((1, 1), (-1, 1), (1, -1), (-1, -1)):  # the example's order
                positions.append((sx * (55.0 + 10.0 * i), sy * (55.0 + 10.0 * j)))
                goals.append((-75.0 * sx, -75.0 * sy))
    squares = [
        [(-10.0, 40.0), (-40.0, 40.0), (-40.0, 10.0), (-10.0, 10.0)],
        [(10.0, 40.0), (10.0, 10.0), (40.0, 10.0), (40.0, 40.0)],
        [(10.0, -40.0), (40.0, -40.0), (40.0, -10.0), (10.0, -10.0)],
        [(-10.0, -40.0), (-10.0, -10.0), (-40.0, -10.0), (-40.0, -40.0)],
    ]
    return Scenario(
        name="blocks",
        positions=np.array(positions),
        goals=np.array(goals),
        agent_params=dict(radius=2.0, max_speed=2.0, pref_speed=1.0, neighbor_dist=15.0, max_neighbors=10,
                          time_horizon=5.0, time_horizon_obst=5.0, arrival_radius=20.0),
        obstacles=[("polygon", np.array(square)) for square in squares],
        time_step=0.25,
        max_steps=20_000,
        method=ORCA(perturbation=1e-4, seed=1),
    )


SCENARIOS = {"circle": circle, "blocks": blocks}
