"""inspect() and neighbors() use the step's own neighbour gathering: for every method,
with obstacles, they list what the step then uses and predict its velocities."""

import numpy as np
import pytest

import vosim

METHODS = [
    vosim.ORCA(), vosim.VO(), vosim.RVO(), vosim.HRVO(), vosim.HRVO(selection="sampling"),
    vosim.RVO(selection="geometric"), vosim.AdaptiveSampling(), vosim.GridSampling(grid_size=9),
    vosim.ForceBased(),
]


def crowd(method, scenes=2):
    """Agents crossing a room with a wall and a triangle, some with few neighbours."""
    rng = np.random.default_rng(7)
    batch = vosim.Batch(scenes, time_step=0.1, method=method)
    start = rng.uniform(-6.0, 6.0, (scenes, 24, 2))
    batch.add_agents(start, goals=-start, radius=0.3, neighbor_dist=4.0, time_horizon=2.0,
                     max_neighbors=np.tile([3, 10, 1, 30], 6), time_horizon_obst=1.5)
    batch.add_wall([[-8.0, 7.0], [8.0, 7.0]])
    batch.add_obstacle([[0.5, -0.5], [1.5, -0.5], [1.0, 0.6]], strict=False)
    batch.run(8)
    return batch


@pytest.mark.parametrize("method", METHODS, ids=lambda m: m.name + "-" + str(getattr(m, "selection", "")))
def test_inspect_and_neighbors_match_the_step(method):
    batch = crowd(method)
    table = batch.neighbors()
    seen = {int(i): batch.inspect(int(i)) for i in batch.ids.ravel()}
    assert any(len(d["obstacle_edges"]) for d in seen.values())  # the obstacles are in reach
    assert any(len(d["neighbors"]) >= 3 for d in seen.values())
    batch.step()
    for (b, k), agent in np.ndenumerate(batch.ids):
        d = seen[int(agent)]
        row = table[b, k]
        np.testing.assert_array_equal(d["neighbors"], row[row >= 0])
        np.testing.assert_array_equal(d["new_velocity"], batch.velocities[b, k])
