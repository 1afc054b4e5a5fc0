"""Shortest paths through a visibility roadmap, for waypoint guidance.

A roadmap is a set of points in free space; two points see each other when
the segment between them keeps at least a clearance from every obstacle
edge. Paths are shortest over the roadmap graph, with the start and the
goal joined to every roadmap point they see (RVO2's Roadmap example does
the same, with Dijkstra from each goal).
"""

from __future__ import annotations

import numpy as np


def _point_segment_distance(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance from points ``p`` to segments ``a``-``b`` (broadcast over leading axes)."""
    ab = b - a
    length_sq = np.einsum("...i,...i->...", ab, ab)
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(length_sq > 0, np.einsum("...i,...i->...", p - a, ab) / length_sq, 0.0)
    nearest = a + np.clip(t, 0.0, 1.0)[..., None] * ab
    return np.linalg.norm(p - nearest, axis=-1)


def _cross(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]


def segment_distances(p: np.ndarray, q: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distances between segments ``p``-``q`` ``(m, 2)`` and edges ``a``-``b`` ``(e, 2)``: ``(m, e)``."""
    p, q = p[:, None], q[:, None]
    a, b = a[None], b[None]
    d1, d2 = _cross(q - p, a - p), _cross(q - p, b - p)
    d3, d4 = _cross(b - a, p - a), _cross(b - a, q - a)
    crossing = (d1 * d2 < 0) & (d3 * d4 < 0)
    ends = np.minimum.reduce([
        _point_segment_distance(a, p, q), _point_segment_distance(b, p, q),
        _point_segment_distance(p, a, b), _point_segment_distance(q, a, b),
    ])
    return np.where(crossing, 0.0, ends)


def visible(p: np.ndarray, q: np.ndarray, edges: np.ndarray, clearance: float) -> np.ndarray:
    """Whether each segment ``p[k]``-``q[k]`` keeps ``clearance`` from every edge ``(e, 2, 2)``."""
    p = np.asarray(p, dtype=np.float64).reshape(-1, 2)
    q = np.asarray(q, dtype=np.float64).reshape(-1, 2)
    if len(edges) == 0:
        return np.ones(len(p), dtype=bool)
    return (segment_distances(p, q, edges[:, 0], edges[:, 1]) >= clearance).all(axis=1)


def obstacle_edges(obstacles) -> np.ndarray:
    """Every edge of ``(kind, vertices)`` obstacles, ``(e, 2, 2)``: closed rings for polygons and boundaries."""
    edges = []
    for kind, vertices in obstacles:
        vertices = np.asarray(vertices, dtype=np.float64)
        ends = np.roll(vertices, -1, axis=0) if kind in ("polygon", "boundary") else vertices[1:]
        starts = vertices if kind in ("polygon", "boundary") else vertices[:-1]
        edges.append(np.stack([starts, ends], axis=1))
    return np.concatenate(edges) if edges else np.zeros((0, 2, 2))


def shortest_paths(starts, goals, roadmap, obstacles, clearance: float) -> list[np.ndarray]:
    """Each agent's waypoints from ``starts[i]`` to ``goals[i]`` through the roadmap.

    Parameters
    ----------
    starts, goals
        ``(n, 2)``.
    roadmap
        ``(m, 2)`` points in free space.
    obstacles
        ``(kind, vertices)`` pairs.
    clearance
        Smallest distance a path keeps from obstacle edges (the agents' radius).

    Returns
    -------
    list of ndarray
        ``(k_i, 2)`` arrays: the roadmap points passed, then the goal.

    Raises
    ------
    ValueError
        When an agent's goal cannot be reached over the roadmap.
    """
    starts = np.asarray(starts, dtype=np.float64)
    goals = np.asarray(goals, dtype=np.float64)
    roadmap = np.asarray(roadmap, dtype=np.float64)
    edges = obstacle_edges(obstacles)
    m = len(roadmap)

    def sight(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """(len(a), len(b)) lengths of visible connections, inf where blocked."""
        pa = np.repeat(a, len(b), axis=0)
        pb = np.tile(b, (len(a), 1))
        length = np.linalg.norm(pa - pb, axis=1)
        return np.where(visible(pa, pb, edges, clearance), length, np.inf).reshape(len(a), len(b))

    # All-pairs shortest paths over the roadmap (Floyd-Warshall, vectorised).
    dist = sight(roadmap, roadmap)
    np.fill_diagonal(dist, 0.0)
    following = np.tile(np.arange(m), (m, 1))  # next point on the way from i to j
    for k in range(m):
        through = dist[:, k:k + 1] + dist[k:k + 1, :]
        better = through < dist
        dist = np.where(better, through, dist)
        following = np.where(better, following[:, k:k + 1], following)

    from_start = sight(starts, roadmap)  # (n, m)
    to_goal = sight(goals, roadmap)  # (n, m)
    direct = np.where(visible(starts, goals, edges, clearance),
                      np.linalg.norm(goals - starts, axis=1), np.inf)
    paths = []
    for i in range(len(starts)):
        # best first point u and last point w: |s-u| + D[u, w] + |w-g|
        total = from_start[i][:, None] + dist + to_goal[i][None, :]
        u, w = np.unravel_index(np.argmin(total), total.shape)
        if direct[i] <= total[u, w]:
            paths.append(goals[i][None].copy())
            continue
        if not np.isfinite(total[u, w]):
            raise ValueError(f"goals[{i}]: {goals[i].tolist()} cannot be reached from {starts[i].tolist()} "
                             "over the roadmap")
        points = [u]
        while points[-1] != w:
            points.append(int(following[points[-1], w]))
        paths.append(np.vstack([roadmap[points], goals[i][None]]))
    return paths
