"""The "grid crowd" benchmark scenario, shared by the benchmarks.

N agents on a square lattice of spacing 2 (side = ceil(sqrt N)), each
jittered by up to 0.4 on each axis, each heading 50 m in a random direction;
in 3D a cubic lattice (side = ceil(N^(1/3))) and directions uniform on the
sphere.
Time step 0.1, neighbour distance 3.5, 10 neighbours, time horizons 2,
radius 0.5, max speed 1.5, preferred velocity = goal - position shortened to
length 1 when longer. Seeded, so every library gets the same crowd.
"""

from __future__ import annotations

import math

import numpy as np

TIME_STEP = 0.1
NEIGHBOR_DIST = 3.5
MAX_NEIGHBORS = 10
TIME_HORIZON = 2.0
RADIUS = 0.5
MAX_SPEED = 1.5
PREF_SPEED = 1.0


def grid_crowd(n: int, seed: int = 0, dimensions: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """Start positions and goals, both ``(n, dimensions)``."""
    rng = np.random.default_rng(seed)
    k = np.arange(n)
    if dimensions == 2:
        side = math.ceil(math.sqrt(n))
        start = np.column_stack([2.0 * (k % side), 2.0 * (k // side)]) + rng.uniform(-0.4, 0.4, (n, 2))
        heading = rng.uniform(0.0, 2.0 * np.pi, n)
        return start, start + 50.0 * np.column_stack([np.cos(heading), np.sin(heading)])
    side = math.ceil(round(n ** (1 / 3), 9))
    start = 2.0 * np.column_stack([k % side, k // side % side, k // (side * side)]) + rng.uniform(-0.4, 0.4, (n, 3))
    heading = rng.normal(size=(n, 3))  # a normal draw, normalised: uniform on the sphere
    heading /= np.linalg.norm(heading, axis=1, keepdims=True)
    return start, start + 50.0 * heading


def preferred_velocities(positions: np.ndarray, goals: np.ndarray) -> np.ndarray:
    to_goal = goals - positions
    length = np.linalg.norm(to_goal, axis=1, keepdims=True)
    return np.where(length > PREF_SPEED, to_goal * (PREF_SPEED / np.maximum(length, 1e-300)), to_goal)


def vosim_simulator(n: int, seed: int = 0, method=None, dimensions: int = 2):
    import vosim

    start, goals = grid_crowd(n, seed, dimensions)
    sim = vosim.Simulator(time_step=TIME_STEP, method=method, dimensions=dimensions)
    sim.add_agents(start, goals=goals, pref_speed=PREF_SPEED, radius=RADIUS, max_speed=MAX_SPEED,
                   neighbor_dist=NEIGHBOR_DIST, max_neighbors=MAX_NEIGHBORS, time_horizon=TIME_HORIZON,
                   time_horizon_obst=TIME_HORIZON)
    return sim


class PyrvoCrowd:
    """The same crowd in pyrvo (RVO2 2.0.3); preferred velocities are set
    from Python before each step, as pyrvo users do."""

    def __init__(self, n: int, seed: int = 0):
        import pyrvo

        self.start, self.goals = grid_crowd(n, seed)
        self.sim = pyrvo.RVOSimulator()
        self.sim.set_time_step(TIME_STEP)
        self.sim.set_agent_defaults(NEIGHBOR_DIST, MAX_NEIGHBORS, TIME_HORIZON, TIME_HORIZON, RADIUS, MAX_SPEED)
        for p in self.start:
            self.sim.add_agent((float(p[0]), float(p[1])))
        self.n = n

    def set_preferred_velocities(self) -> None:
        positions = np.array([self.sim.get_agent_position(i).to_tuple() for i in range(self.n)])
        for i, v in enumerate(preferred_velocities(positions, self.goals)):
            self.sim.set_agent_pref_velocity(i, (float(v[0]), float(v[1])))

    def do_step(self) -> None:
        self.sim.do_step()
