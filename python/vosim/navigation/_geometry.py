"""Geometry shared by the planners: obstacle edges, free-space tests, line of sight (with shapely)."""

from __future__ import annotations

import numpy as np

from .._checks import MAX_MAGNITUDE, check_values, is_instance_of, real_array, scalar


def require_shapely():
    """The shapely module (>= 2.1), or an ImportError naming the extra."""
    try:
        import shapely
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError('vosim.navigation needs shapely >= 2.1: pip install "vosim[navigation]"') from error
    if not hasattr(shapely, "constrained_delaunay_triangles"):  # pragma: no cover - depends on the environment
        raise ImportError(f'vosim.navigation needs shapely >= 2.1 (found {shapely.__version__}): '
                          'pip install "vosim[navigation]"')
    return shapely


def points_array(value, name: str) -> np.ndarray:
    """Checked ``(n, 2)`` float64 points (one ``(2,)`` point becomes ``(1, 2)``)."""
    array = real_array(value, name)
    if array.ndim == 1 and array.shape == (2,):
        array = array[None]
    if array.ndim != 2 or array.shape[1] != 2:
        raise ValueError(f"{name}: expected shape (n, 2), got {array.shape}")
    check_values(array, name, magnitude=MAX_MAGNITUDE)
    return np.ascontiguousarray(array, dtype=np.float64)


def distance_argument(value, name: str) -> float:
    return scalar(value, name, minimum=0.0, maximum=MAX_MAGNITUDE)


def simulator_radius(sim, radius) -> float:
    """``radius``, or by default the largest agent radius of ``sim`` (0 without agents), checked."""
    if not is_instance_of(sim, "vosim.simulator", "Simulator"):  # (the simulator imports navigation)
        raise TypeError(f"sim: expected a vosim.Simulator, got {type(sim).__name__}")
    if radius is None:
        radius = float(sim.radius.max()) if sim.num_agents else 0.0
    return distance_argument(radius, "radius")


def is_closed(kind: str) -> bool:
    return kind in ("polygon", "boundary")


def obstacle_edges(obstacles) -> np.ndarray:
    """Every edge of ``(kind, vertices)`` obstacles, ``(e, 2, 2)``: closed rings for polygons and boundaries."""
    edges = []
    for kind, vertices in obstacles:
        vertices = np.asarray(vertices, dtype=np.float64)
        ends = np.roll(vertices, -1, axis=0) if is_closed(kind) else vertices[1:]
        starts = vertices if is_closed(kind) else vertices[:-1]
        edges.append(np.stack([starts, ends], axis=1))
    return np.concatenate(edges) if edges else np.zeros((0, 2, 2))


class Sight:
    """Line-of-sight tests against obstacle edges, keeping a distance from them."""

    def __init__(self, edges: np.ndarray):
        shapely = require_shapely()
        self._shapely = shapely
        self._tree = shapely.STRtree(shapely.linestrings(edges)) if len(edges) else None

    def clear(self, p: np.ndarray, q: np.ndarray, distance: float) -> np.ndarray:
        """Whether each segment ``p[k]``-``q[k]`` stays farther than ``distance`` from every edge."""
        result = np.ones(len(p), dtype=bool)
        if self._tree is None or len(p) == 0:
            return result
        lines = self._shapely.linestrings(np.stack([p, q], axis=1))
        hit, _ = self._tree.query(lines, predicate="dwithin", distance=distance)
        result[hit] = False
        return result

    def distances(self, points: np.ndarray) -> np.ndarray:
        """Distance from each point to the nearest edge (inf without edges)."""
        if self._tree is None or len(points) == 0:
            return np.full(len(points), np.inf)
        (which, _), distance = self._tree.query_nearest(self._shapely.points(points), return_distance=True,
                                                         all_matches=False)
        result = np.full(len(points), np.inf)
        result[which] = distance
        return result

    def clear_points(self, points: np.ndarray, distance: float) -> np.ndarray:
        """Whether each point lies farther than ``distance`` from every edge."""
        result = np.ones(len(points), dtype=bool)
        if self._tree is None or len(points) == 0:
            return result
        hit, _ = self._tree.query(self._shapely.points(points), predicate="dwithin", distance=distance)
        result[hit] = False
        return result


def visible(p, q, edges: np.ndarray, clearance: float) -> np.ndarray:
    """Whether each segment ``p[k]``-``q[k]`` keeps more than ``clearance`` from every edge ``(e, 2, 2)``."""
    p = np.asarray(p, dtype=np.float64).reshape(-1, 2)
    q = np.asarray(q, dtype=np.float64).reshape(-1, 2)
    return Sight(np.asarray(edges, dtype=np.float64).reshape(-1, 2, 2)).clear(p, q, clearance)


def segment_ids(offsets: np.ndarray) -> np.ndarray:
    """For flat items cut at ``offsets``, the index of the group each item belongs to."""
    return np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
