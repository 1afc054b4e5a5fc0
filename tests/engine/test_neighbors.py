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


def brute_force_vectorised(positions, active, neighbor_dist, max_neighbors):
    """brute_force with a distance matrix, for crowds of a few hundred."""
    n = len(positions)
    width = max(1, min(int(max_neighbors.max(initial=1)), n - 1))
    d = ((positions[None, :, :] - positions[:, None, :]) ** 2).sum(axis=2)  # d[i, j] = |p_j - p_i|^2
    valid = active[:, None] & active[None, :] & ~np.eye(n, dtype=bool) & (d < (neighbor_dist**2)[:, None])
    order = np.argsort(np.where(valid, d, np.inf), axis=1, kind="stable")[:, :width]
    found = np.minimum(valid.sum(axis=1), max_neighbors)
    return np.where(np.arange(width)[None, :] < found[:, None], order, -1)


@st.composite
def crowded(draw):
    """More agents in one grid cell than a plain scan handles well: one spot,
    a few spots, a tiny cloud, a fine lattice (ties), or a cluster in a crowd."""
    n = draw(st.integers(49, 300))
    kind = draw(st.sampled_from(["one spot", "few spots", "cloud", "fine lattice", "cluster in crowd"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    centre = rng.uniform(-100, 100, 2)
    if kind == "one spot":
        positions = np.tile(centre, (n, 1))
    elif kind == "few spots":
        positions = centre + rng.integers(0, 3, (n, 2)) * draw(st.sampled_from([1e-12, 0.01, 1.0]))
    elif kind == "cloud":
        positions = centre + rng.normal(0.0, draw(st.sampled_from([1e-9, 1e-3, 0.1])), (n, 2))
    elif kind == "fine lattice":
        positions = centre + rng.integers(-4, 5, (n, 2)) * 0.125
    else:
        positions = rng.uniform(-30, 30, (n, 2))
        positions[: n // 2] = centre + rng.normal(0.0, 1e-6, (n // 2, 2))
    neighbor_dist = draw(arrays(np.float64, n, elements=st.sampled_from([0.0, 1e-9, 0.1, 1.0, 5.0, 50.0])))
    max_neighbors = draw(arrays(np.int64, n, elements=st.integers(0, 12)))
    active = rng.uniform(size=n) < draw(st.sampled_from([0.7, 1.0]))
    return positions, active, neighbor_dist, max_neighbors


@given(crowded())
def test_crowded_cells_match_brute_force(crowd):
    positions, active, neighbor_dist, max_neighbors = crowd
    mine = neighbors_of(positions, active, neighbor_dist, max_neighbors)
    theirs = brute_force_vectorised(positions, active, neighbor_dist, max_neighbors)
    width = max(mine.shape[1], theirs.shape[1])
    pad = lambda t: np.pad(t, ((0, 0), (0, width - t.shape[1])), constant_values=-1)  # noqa: E731
    np.testing.assert_array_equal(pad(mine), pad(theirs))


def test_agents_on_one_spot_see_the_lowest_slots():
    """100,000 agents on one point: each one's neighbours are the 10 lowest
    other slots (all at distance 0, ties broken by slot). The crowded cell's
    tree keeps each query to about k log n work, where a plain scan of the
    cell would take n (10^10 in all)."""
    n, k = 100_000, 10
    sim = vosim.Simulator()
    sim.add_agents(np.full((n, 2), 7.0), max_neighbors=k, neighbor_dist=1.0)
    table = sim.neighbors()
    lowest = np.arange(k + 1)
    expected = np.tile(lowest[1:], (n, 1))  # agents from slot k on see slots 0..k-1
    expected[k + 1:] = lowest[:k]
    for i in range(k + 1):  # the first k + 1 see the others among 0..k
        expected[i] = lowest[lowest != i]
    np.testing.assert_array_equal(table, expected)
