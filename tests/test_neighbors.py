"""The neighbour search returns exactly what a brute-force scan returns:
the max_neighbors nearest agents strictly within neighbor_dist, nearest
first, ties broken by the lower slot."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import vosim


def brute_force(positions, active, neighbor_dist, max_neighbors):
    n = len(positions)
    width = max(1, min(int(max_neighbors.max(initial=1)), n - 1))
    width = max(width, 1)
    table = np.full((n, width), -1)
    for i in range(n):
        if not active[i]:
            continue
        d = ((positions - positions[i]) ** 2).sum(axis=1)
        candidates = [j for j in range(n) if j != i and active[j] and d[j] < neighbor_dist[i] ** 2]
        candidates.sort(key=lambda j: (d[j], j))
        chosen = candidates[: max_neighbors[i]]
        table[i, : len(chosen)] = chosen
    return table


def neighbors_of(positions, active, neighbor_dist, max_neighbors):
    sim = vosim.Simulator()
    sim.add_agents(positions, neighbor_dist=neighbor_dist, max_neighbors=max_neighbors)
    sim.active[:] = active
    return sim.neighbors()  # ids equal slots here


@st.composite
def crowds(draw):
    n = draw(st.integers(0, 120))
    kind = draw(st.sampled_from(["uniform", "lattice", "clusters", "outliers"]))
    scale = draw(st.sampled_from([0.5, 5.0, 50.0, 5000.0]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    if kind == "uniform":
        positions = rng.uniform(-scale, scale, (n, 2))
    elif kind == "lattice":  # many exactly equal distances: ties
        positions = rng.integers(-5, 5, (n, 2)) * (scale / 5)
    elif kind == "clusters":  # coincident agents
        centres = rng.uniform(-scale, scale, (3, 2))
        positions = centres[rng.integers(0, 3, n)] + rng.integers(0, 2, (n, 2)) * 0.1
    else:  # a few far away: forces the hashed grid
        positions = rng.uniform(-scale, scale, (n, 2))
        positions[: n // 10] *= 1e6
    neighbor_dist = draw(arrays(np.float64, n, elements=st.floats(0, 2 * scale, allow_nan=False)))
    max_neighbors = draw(arrays(np.int64, n, elements=st.integers(0, 12)))
    active = draw(arrays(np.bool_, n, elements=st.booleans().filter(lambda b: True)))
    active |= rng.uniform(size=n) < 0.8
    return positions, active, neighbor_dist, max_neighbors


@given(crowds())
def test_matches_brute_force(crowd):
    positions, active, neighbor_dist, max_neighbors = crowd
    mine = neighbors_of(positions, active, neighbor_dist, max_neighbors)
    theirs = brute_force(positions, active, neighbor_dist, max_neighbors)
    width = max(mine.shape[1], theirs.shape[1])
    pad = lambda t: np.pad(t, ((0, 0), (0, width - t.shape[1])), constant_values=-1)  # noqa: E731
    np.testing.assert_array_equal(pad(mine), pad(theirs))


def test_large_crowd_matches_brute_force():
    rng = np.random.default_rng(5)
    positions = rng.uniform(0, 60, (1500, 2))
    nd = rng.uniform(0, 6, 1500)
    k = rng.integers(0, 15, 1500)
    active = rng.uniform(size=1500) < 0.95
    np.testing.assert_array_equal(neighbors_of(positions, active, nd, k), brute_force(positions, active, nd, k))
