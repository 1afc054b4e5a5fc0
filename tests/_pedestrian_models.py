"""What the tests of the pedestrian models (social force, collision-free speed) share:
a walled corridor whose goals pull agents into the walls, the deepest overlap of a
run, and a run's positions for several thread counts."""

import numpy as np

import vosim
from vosim import scenarios


def assert_agents_stay_inside_a_corridor(method, steps=200):
    """12 agents in a corridor 2 m wide (walls at |y| = 1), their goals beyond the walls."""
    sim = vosim.Simulator(time_step=0.1, method=method)
    sim.add_obstacle([[0.0, 1.0], [30.0, 1.0], [30.0, 1.2], [0.0, 1.2]])
    sim.add_obstacle([[0.0, -1.2], [30.0, -1.2], [30.0, -1.0], [0.0, -1.0]])
    rng = np.random.default_rng(3)
    starts = np.stack([np.linspace(1.0, 10.0, 12), rng.uniform(-0.6, 0.6, 12)], axis=1)
    # Goals beyond the walls pull every agent into them.
    goals = np.stack([np.full(12, 40.0), np.where(np.arange(12) % 2 == 0, 8.0, -8.0)], axis=1)
    sim.add_agents(starts, goals=goals, radius=0.25, max_speed=2.0, pref_speed=1.34, neighbor_dist=5.0)
    for _ in range(steps):
        sim.step()
        inside = sim.positions[:, 0] < 30.0
        assert np.all(np.abs(sim.positions[inside, 1]) <= 1.0 - 0.25 + 1e-9)


def deepest_overlap(sim, steps):
    """The deepest overlap of two agents' discs over `steps` steps of `sim` (0 when none touch)."""
    radius = np.asarray(sim.radius).copy()
    worst = 0.0
    for _ in range(steps):
        sim.step()
        p = sim.positions
        d = np.linalg.norm(p[:, None] - p[None], axis=2) - (radius[:, None] + radius[None])
        np.fill_diagonal(d, np.inf)
        worst = max(worst, -d.min())
    return worst


def bottleneck_bytes_per_thread_count(method_type, threads=(1, 2, 3), agents=60, steps=50):
    """The positions' bytes after `steps` steps of a bottleneck with `method_type()`, once per thread count."""
    results = []
    for count in threads:
        vosim.set_num_threads(count)
        sim = scenarios.bottleneck(agents).build(method_type())
        for _ in range(steps):
            sim.step()
        results.append(np.ascontiguousarray(sim.positions).tobytes())
    return results
