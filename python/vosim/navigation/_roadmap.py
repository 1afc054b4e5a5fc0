"""Visibility roadmaps: shortest paths past the corners of obstacles."""

from __future__ import annotations

import numpy as np

from .. import _core
from .._checks import integer
from ._geometry import (Sight, distance_argument, is_closed, obstacle_edges, points_array, segment_ids,
                        simulator_radius)

# Roadmap points sit this much (relative) beyond radius + clearance, so the
# segment between two corners of one edge still keeps the radius.
_MARGIN = 1e-3
_KINDS = ("polygon", "segment", "wall", "boundary")


def corner_points(obstacles, offset: float) -> np.ndarray:
    """Points ``offset`` from the obstacles' corners that paths bend around, ``(k, 2)``.

    A corner counts when the solid's angle there is below 180 degrees (the
    convex corners of solid polygons, the reflex ones of boundaries, every
    bend of a wall on its outer side, both sides past a wall's ends). The
    point lies on the corner's bisector, ``offset`` from both edges' lines.
    """
    found = []
    for kind, vertices in obstacles:
        v = np.asarray(vertices, dtype=np.float64)
        closed = is_closed(kind)
        if closed:
            incoming, outgoing = v - np.roll(v, 1, axis=0), np.roll(v, -1, axis=0) - v
            corner = v
        else:
            incoming, outgoing = v[1:-1] - v[:-2], v[2:] - v[1:-1]
            corner = v[1:-1]
        turn = incoming[:, 0] * outgoing[:, 1] - incoming[:, 1] * outgoing[:, 0]
        unit_in = incoming / np.linalg.norm(incoming, axis=1, keepdims=True)
        unit_out = outgoing / np.linalg.norm(outgoing, axis=1, keepdims=True)

        def right(u):
            return np.column_stack([u[:, 1], -u[:, 0]])

        if kind == "polygon":  # solid on the left: free space on the right of every edge
            keep, side = turn > 0, 1.0
        elif kind == "boundary":  # solid on the right
            keep, side = turn < 0, -1.0
        else:  # a wall bends around on the side opposite to its turn
            keep, side = turn != 0, np.where(turn > 0, 1.0, -1.0)[:, None]
        n1, n2 = side * right(unit_in), side * right(unit_out)
        # The miter: offset from both lines. Very sharp corners would send it far away; cap it.
        scale = 1.0 / np.maximum(1.0 + np.einsum("ij,ij->i", n1, n2), 0.25)
        found.append((corner + offset * (n1 + n2) * scale[:, None])[keep])
        if not closed:  # past both ends of a wall or segment, on either side
            for tip, direction in ((v[-1], v[-1] - v[-2]), (v[0], v[0] - v[1])):
                t = direction / np.linalg.norm(direction)
                n = np.array([t[1], -t[0]])
                found.append(np.array([tip + offset * (t + n), tip + offset * (t - n)]))
    return np.concatenate(found) if found else np.zeros((0, 2))


class Roadmap:
    """A visibility roadmap: points in free space joined where they see each other.

    Paths go from the start to a point it sees, along roadmap edges, and from
    a point that sees the goal to the goal (or straight to the goal when it
    is in sight); A* finds the shortest. Seeing means the segment keeps more
    than ``radius`` from every obstacle edge, so a disc of that radius can
    follow it. Building needs shapely (``pip install "vosim[navigation]"``).

    Parameters
    ----------
    points
        ``(m, 2)`` roadmap points, in free space.
    obstacles
        ``(kind, vertices)`` pairs (``sim.obstacles`` or a Scenario's).
    radius
        Distance every path keeps from obstacle edges (the agents' radius).
    links
        A start (or goal) is joined to the nearest this many roadmap points
        that it sees, or to every point it sees when it sees none of those
        (checking sight to every point would cost far more for large maps).

    Attributes
    ----------
    points
        ``(m, 2)``.
    edges
        ``(k, 2)`` index pairs ``i < j`` of points that see each other.
    radius, links
        As given.
    obstacles
        ``(kind, vertices)`` pairs, as given.

    Examples
    --------
    >>> import vosim
    >>> from vosim.navigation import Roadmap
    >>> sim = vosim.Simulator()
    >>> _ = sim.add_obstacle([[-1, -5], [1, -5], [1, 5], [-1, 5]])
    >>> roadmap = Roadmap.from_simulator(sim, radius=0.5)
    >>> [path] = roadmap.plan([[-5.0, 0.0]], [[5.0, 0.0]])
    >>> len(path)       # two corners of the wall, then the goal
    3
    """

    def __init__(self, points, obstacles=(), *, radius: float, links: int = 16):
        self.points = points_array(points, "points")
        self.obstacles = []
        for k, (kind, vertices) in enumerate(obstacles):
            if kind not in _KINDS:
                raise ValueError(f"obstacles[{k}]: kind is {kind!r}; must be one of {', '.join(_KINDS)}")
            self.obstacles.append((kind, points_array(vertices, f"obstacles[{k}]")))
        self.radius = distance_argument(radius, "radius")
        self.links = integer(links, "links", minimum=1)
        self._sight = Sight(obstacle_edges(self.obstacles))
        m = len(self.points)
        i, j = np.triu_indices(m, k=1)
        seen = self._sight.clear(self.points[i], self.points[j], self.radius)
        self.edges = np.column_stack([i[seen], j[seen]]).astype(np.int64)
        # Both directions, in compressed rows for the C++ search.
        source = np.concatenate([self.edges[:, 0], self.edges[:, 1]])
        target = np.concatenate([self.edges[:, 1], self.edges[:, 0]])
        order = np.lexsort((target, source))
        source, target = source[order], target[order]
        self._row_start = np.concatenate([[0], np.cumsum(np.bincount(source, minlength=m))]).astype(np.int64)
        self._target = target.astype(np.int32)
        self._cost = np.linalg.norm(self.points[source] - self.points[target], axis=1)

    @classmethod
    def from_simulator(cls, sim, *, radius: float | None = None, clearance: float = 0.0,
                       links: int = 16) -> "Roadmap":
        """The roadmap of a simulator's obstacles: points off every corner that paths bend around.

        Only the static obstacles not removed count: moving obstacles are
        left to the local method to avoid.

        Parameters
        ----------
        sim
            A :class:`vosim.Simulator`.
        radius
            Distance paths keep from obstacle edges; by default the largest
            agent radius (0 without agents).
        clearance
            Extra distance of the roadmap points from the corners' edges, so
            that agents do not graze them.
        links
            As in :class:`Roadmap`.
        """
        radius = simulator_radius(sim, radius)
        obstacles = [(kind, vertices) for kind, vertices, _ in sim.obstacles]
        return cls.from_obstacles(obstacles, radius=radius, clearance=clearance, links=links, free=sim)

    @classmethod
    def from_obstacles(cls, obstacles, *, radius: float, clearance: float = 0.0, links: int = 16,
                       free=None) -> "Roadmap":
        """The roadmap of ``(kind, vertices)`` obstacles (see :meth:`from_simulator`)."""
        radius = distance_argument(radius, "radius")
        clearance = distance_argument(clearance, "clearance")
        offset = (radius + clearance) * (1.0 + _MARGIN) + 1e-9
        candidates = corner_points(obstacles, offset)
        keep = Sight(obstacle_edges(obstacles)).clear_points(candidates, radius)
        if free is not None and len(candidates):  # not inside another obstacle's solid
            scene = 0 if np.ndim(free.positions) == 3 else None  # a Batch: its first scene
            keep &= ~free.points_in_obstacles(candidates, scene=scene, moving=False)
        elif len(candidates):
            keep &= ~_blocked(candidates, obstacles)
        return cls(candidates[keep], obstacles, radius=radius, links=links)

    def __repr__(self) -> str:
        return f"Roadmap(points={len(self.points)}, edges={len(self.edges)}, radius={self.radius:g})"

    def plan(self, starts, goals) -> list[np.ndarray]:
        """Each start's waypoints to its goal: the roadmap points passed, then the goal.

        Parameters
        ----------
        starts, goals
            ``(n, 2)``.

        Returns
        -------
        list of ndarray
            ``n`` arrays ``(k_i, 2)``, each ending with its goal.

        Raises
        ------
        ValueError
            When a goal cannot be reached (naming the path's index).
        """
        starts, goals = points_array(starts, "starts"), points_array(goals, "goals")
        if len(goals) != len(starts):
            raise ValueError(f"goals: expected {len(starts)} goals (one per start), got {len(goals)}")
        offsets, points = self.plan_flat(starts, goals, lambda i: f"path {i}")
        return np.split(points, offsets[1:-1]) if len(starts) else []

    def plan_flat(self, starts: np.ndarray, goals: np.ndarray, label) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`plan` as flat ``points`` cut at ``offsets``; ``label(i)`` names item i in errors."""
        n = len(starts)
        # A start or goal nearer than the radius to a wall may still leave it.
        reach = np.minimum(self.radius, 0.999 * self._sight.distances(np.vstack([starts, goals])))
        direct = self._sight.clear(starts, goals, np.minimum(reach[:n], reach[n:]))
        todo = np.flatnonzero(~direct)
        entry_at, entry_node, entry_cost = self._links(starts[todo], reach[:n][todo])
        exit_at, exit_node, exit_cost = self._links(goals[todo], reach[n:][todo])
        found, path_offsets, path = _core.graph_paths(
            self._row_start, self._target, self._cost, self.points, entry_at, entry_node, entry_cost,
            exit_at, exit_node, exit_cost, np.ascontiguousarray(goals[todo]))
        if not found.all():
            i = int(todo[np.argmin(found)])
            raise ValueError(f"{label(i)}: {goals[i].tolist()} cannot be reached from {starts[i].tolist()} "
                             f"over the roadmap (radius {self.radius:g})")
        counts = np.ones(n, dtype=np.int64)
        counts[todo] += np.diff(path_offsets)
        offsets = np.concatenate([[0], np.cumsum(counts)])
        points = np.empty((offsets[-1], 2))
        points[offsets[1:] - 1] = goals
        which = segment_ids(path_offsets)  # the index into todo of every path node
        points[offsets[todo[which]] + np.arange(len(path)) - path_offsets[which]] = self.points[path]
        return offsets, points

    def stranded(self, starts: np.ndarray, goals: np.ndarray) -> np.ndarray:
        """How far each start lies off the walkable area where it sees neither its goal nor a roadmap point; else 0.

        Such a start (inside an obstacle's solid, or nearer to an edge than
        the radius) cannot be planned from: ``set_goals`` leaves those
        agents heading straight for their goals. A start on the walkable
        area that sees no roadmap point is not stranded: its goal is
        unreachable, which ``plan_flat`` reports.
        """
        n = len(starts)
        gap = np.zeros(n)
        if n == 0:
            return gap
        distance = self._sight.distances(np.vstack([starts, goals]))
        reach = np.minimum(self.radius, 0.999 * distance)
        todo = np.flatnonzero(~self._sight.clear(starts, goals, np.minimum(reach[:n], reach[n:])))
        linked, _, _ = self._links(starts[todo], reach[:n][todo])
        blind = todo[np.diff(linked) == 0]
        inside = _blocked(starts[blind], self.obstacles)
        gap[blind] = np.where(inside, distance[blind] + self.radius, np.maximum(self.radius - distance[blind], 0.0))
        return gap

    def _links(self, ends: np.ndarray, reach: np.ndarray):
        """The roadmap points each of ``ends`` is joined to: (offsets, node indices, lengths).

        Each end is joined to the nearest ``links`` points it sees; an end
        that sees none of them is joined to every point it sees.
        """
        m, k = len(self.points), min(self.links, len(self.points))
        if m == 0:
            return np.zeros(len(ends) + 1, dtype=np.int64), np.zeros(0, dtype=np.int32), np.zeros(0)
        rows, nodes = [np.zeros(0, dtype=np.int64)], [np.zeros(0, dtype=np.int64)]
        block = max(1, 2_000_000 // max(m, 1))  # bounds the distance matrix
        for first in range(0, len(ends), block):
            part = np.arange(first, min(first + block, len(ends)))
            gap = np.linalg.norm(ends[part, None] - self.points[None], axis=2)
            near = np.argpartition(gap, k - 1, axis=1)[:, :k] if k < m else np.tile(np.arange(m), (len(part), 1))
            r, c = np.repeat(part, k), near.reshape(-1)
            seen = self._sight.clear(ends[r], self.points[c], reach[r])
            blind = np.setdiff1d(part, r[seen])
            if len(blind):  # nothing near in sight: try every point
                r_all, c_all = np.repeat(blind, m), np.tile(np.arange(m), len(blind))
                seen_all = self._sight.clear(ends[r_all], self.points[c_all], reach[r_all])
                r, c, seen = np.concatenate([r, r_all]), np.concatenate([c, c_all]), np.concatenate([seen, seen_all])
            rows.append(r[seen])
            nodes.append(c[seen])
        rows, nodes = np.concatenate(rows), np.concatenate(nodes)
        order = np.lexsort((nodes, rows))
        rows, nodes = rows[order], nodes[order]
        offsets = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=len(ends)))]).astype(np.int64)
        cost = np.linalg.norm(ends[rows] - self.points[nodes], axis=1)
        return offsets, nodes.astype(np.int32), cost


def _blocked(points: np.ndarray, obstacles) -> np.ndarray:
    """Which points lie in an obstacle's solid (inside a polygon, outside every boundary)."""
    inside = np.zeros(len(points), dtype=bool)
    boundaries = [v for kind, v in obstacles if kind == "boundary"]
    for kind, vertices in obstacles:
        if kind == "polygon":
            inside |= _core.obstacle_blocks(points, np.ascontiguousarray(vertices), "polygon")
    if boundaries:
        outside_all = np.ones(len(points), dtype=bool)
        for vertices in boundaries:
            outside_all &= _core.obstacle_blocks(points, np.ascontiguousarray(vertices), "boundary")
        inside |= outside_all
    return inside
