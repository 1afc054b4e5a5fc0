"""Navigation meshes: the free space cut into triangles, searched by A*, paths pulled tight by the funnel."""

from __future__ import annotations

import numpy as np

from .. import _core
from ._geometry import distance_argument, points_array, require_shapely, segment_ids, simulator_radius
from ._notch_fill import inflatable_polygon

# Inflated obstacles get mitred corners (as a roadmap's points): a path
# bends at one point per corner, at least the inflation from both edges.
_INFLATE = dict(join_style="mitre", mitre_limit=4.0)

# Buffering (GEOS) falls back to 12 significant digits when floating-point
# noding fails, so far from the origin a shrink smaller than this share of
# the coordinates can empty the area (a 10 m room at 1e14 does).
_GEOMETRY_RESOLUTION = 1e-12


class NavMesh:
    """A navigation mesh: the walkable area, shrunk by the agents' radius, as triangles.

    Built by shapely's constrained Delaunay triangulation (``pip install
    "vosim[navigation]"``). A path runs through the chain of triangles that
    A* finds between the start's and the goal's (steps between neighbouring
    triangles cost the distance between their centroids; a point on an edge
    or corner may begin or end it in any triangle it touches), pulled tight along
    the shared edges by the funnel algorithm. The area is shrunk by ``radius
    + clearance`` first, so a disc of that radius can follow every path.

    Attributes
    ----------
    area
        The shrunk walkable area (a shapely Polygon or MultiPolygon), corners mitred.
    vertices
        ``(v, 2)`` corners of the triangles.
    triangles
        ``(t, 3)`` vertex indices, counter-clockwise.
    neighbors
        ``(t, 3)``: the triangle across edge ``k`` (from corner ``k`` to
        ``k + 1``), -1 at the area's edge.
    inflation
        ``radius + clearance``, the distance by which the area was shrunk.
    extra_margin
        How much farther than ``inflation`` the area may stay from a solid
        obstacle: 0 when every obstacle was inflated exactly; up to a tenth
        of ``inflation`` when a polygon of 2,000 vertices or more had its
        narrow notches filled first (:meth:`from_simulator`).

    Examples
    --------
    >>> from shapely.geometry import Polygon
    >>> from vosim.navigation import NavMesh
    >>> room = Polygon([(0, 0), (10, 0), (10, 10), (0, 10)], holes=[[(4, 0.5), (6, 0.5), (6, 9), (4, 9)]])
    >>> mesh = NavMesh.from_polygon(room, radius=0.25)
    >>> [path] = mesh.plan([[1.0, 1.0]], [[9.0, 1.0]])
    >>> len(path)       # round the pillar's two upper corners, then the goal
    3
    """

    def __init__(self, area, inflation: float, extra_margin: float = 0.0):
        shapely = require_shapely()
        self.area = area
        self.inflation = inflation
        self.extra_margin = extra_margin
        parts = shapely.get_parts(shapely.constrained_delaunay_triangles(area))
        corners = shapely.get_coordinates(parts).reshape(len(parts), 4, 2)[:, :3]
        clockwise = _cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0]) < 0
        corners[clockwise] = corners[clockwise][:, ::-1]
        keep = _cross(corners[:, 1] - corners[:, 0], corners[:, 2] - corners[:, 0]) > 0  # no slivers of zero area
        corners = corners[keep]
        self.vertices, index = np.unique(corners.reshape(-1, 2), axis=0, return_inverse=True)
        self.triangles = index.reshape(-1, 3).astype(np.int64)
        self.neighbors = _neighbors(self.triangles, len(self.vertices))
        self._centroids = self.vertices[self.triangles].mean(axis=1)
        self._tree = shapely.STRtree(shapely.polygons(self.vertices[self.triangles]))
        # The triangle graph in compressed rows, for the C++ search.
        t = len(self.triangles)
        source = np.repeat(np.arange(t), 3)
        target = self.neighbors.reshape(-1)
        joined = target >= 0
        source, target = source[joined], target[joined]
        self._row_start = np.concatenate([[0], np.cumsum(np.bincount(source, minlength=t))]).astype(np.int64)
        self._target = target.astype(np.int32)
        self._cost = np.linalg.norm(self._centroids[source] - self._centroids[target], axis=1)

    # ------------------------------------------------------------- building
    @classmethod
    def from_polygon(cls, walkable, *, radius: float = 0.0, clearance: float = 0.0) -> "NavMesh":
        """The mesh of a walkable area: a shapely Polygon (holes are obstacles) or MultiPolygon.

        Parameters
        ----------
        walkable
            Where agents may walk.
        radius
            The agents' radius: paths keep this far from the area's edges.
        clearance
            Extra distance kept.
        """
        shapely = require_shapely()
        if not isinstance(walkable, (shapely.Polygon, shapely.MultiPolygon)):
            raise TypeError(f"walkable: expected a shapely Polygon or MultiPolygon, got {type(walkable).__name__}")
        if not walkable.is_valid:
            raise ValueError(f"walkable: not a valid polygon ({shapely.is_valid_reason(walkable)})")
        inflation = distance_argument(radius, "radius") + distance_argument(clearance, "clearance")
        return cls._shrunk(walkable.buffer(-inflation, **_INFLATE) if inflation > 0 else walkable,
                           inflation, "walkable", walkable)

    @classmethod
    def from_simulator(cls, sim, *, radius: float | None = None, clearance: float = 0.0,
                       margin: float = 5.0, points=None) -> "NavMesh":
        """The mesh of a simulator's free space: inside its boundaries, outside its obstacles and walls.

        Only the static obstacles not removed count: moving obstacles are
        left to the local method to avoid.

        Parameters
        ----------
        sim
            A :class:`vosim.Simulator`.
        radius
            Distance paths keep from obstacles; by default the largest agent
            radius. Must be above 0 with ``clearance`` (walls have no width).
        clearance
            Extra distance kept.
        margin
            Without a boundary, the free space is the box around the
            obstacles, agents and goals grown by this much.
        points
            Further points, ``(m, 2)``, that box must hold: the goals about to
            be set (``set_goals(plan="navmesh")`` passes them).

        Notes
        -----
        Inflating a polygon whose many spikes lie closer than twice the
        inflation to each other takes GEOS time quadratic in its vertices
        (a 50,000-vertex star: minutes). A polygon of 2,000 vertices or more
        therefore has its notches narrower than a tenth of the inflation
        filled first (only vertices removed; each filled triangle provably
        within that tenth of the polygon): the inflated obstacle still holds
        every point within ``inflation`` of the polygon, and reaches at most
        ``0.1 * inflation`` farther than the exact one (``extra_margin``).
        Smaller polygons, and any whose filled outline would not be simple,
        are inflated exactly.
        """
        shapely = require_shapely()
        inflation = simulator_radius(sim, radius) + distance_argument(clearance, "clearance")
        if inflation <= 0:
            raise ValueError("radius + clearance is 0; a mesh around walls needs a width above 0")
        margin = distance_argument(margin, "margin")
        boundaries, solids, extra_margin = [], [], 0.0
        for kind, vertices, _ in sim.obstacles:
            if kind == "boundary":
                boundaries.append(shapely.Polygon(vertices))
            elif kind == "polygon":
                polygon, tolerance = inflatable_polygon(vertices, inflation)
                solids.append(polygon)
                extra_margin = max(extra_margin, tolerance)
            else:
                solids.append(shapely.LineString(vertices))
        if boundaries:
            walkable = shapely.union_all(boundaries)
        else:
            known = [v for _, v, _ in sim.obstacles] + [sim.positions, sim.goals[sim.has_goal]]
            if points is not None:
                known.append(points_array(points, "points"))
            known = np.concatenate([np.asarray(k).reshape(-1, 2) for k in known])
            if not len(known):
                raise ValueError("sim: without a boundary, obstacles or agents the free space has no extent")
            lo, hi = known.min(axis=0) - margin - inflation, known.max(axis=0) + margin + inflation
            walkable = shapely.box(lo[0], lo[1], hi[0], hi[1])
        free = walkable.buffer(-inflation, **_INFLATE)
        if solids:
            free = free.difference(shapely.union_all(solids).buffer(inflation, cap_style="square", **_INFLATE))
        return cls._shrunk(free, inflation, "sim", walkable, extra_margin)

    @classmethod
    def _shrunk(cls, free, inflation: float, name: str, source, extra_margin: float = 0.0) -> "NavMesh":
        """The mesh of ``free``, the walkable area ``source`` shrunk by ``inflation``."""
        shapely = require_shapely()
        polygons = [g for g in shapely.get_parts(free) if isinstance(g, shapely.Polygon) and not g.is_empty]
        if not polygons:
            magnitude = _magnitude(source)
            if magnitude * _GEOMETRY_RESOLUTION >= inflation:
                raise ValueError(
                    f"{name}: coordinates up to {magnitude:.3g} are too large to mesh at radius + clearance "
                    f"{inflation:g} (float64 geometry resolves about {_GEOMETRY_RESOLUTION:g} of the coordinates, "
                    f"{magnitude * _GEOMETRY_RESOLUTION:.3g} here); move the scene nearer the origin")
            raise ValueError(f"{name}: no walkable area is left {inflation:g} from the obstacles' edges")
        return cls(shapely.MultiPolygon(polygons) if len(polygons) > 1 else polygons[0], inflation, extra_margin)

    def __repr__(self) -> str:
        return f"NavMesh(triangles={len(self.triangles)}, inflation={self.inflation:g})"

    # ------------------------------------------------------------- planning
    def locate(self, points) -> np.ndarray:
        """The triangle holding each point, -1 outside the mesh, ``(n,)``."""
        points = points_array(points, "points")
        return self._locate(points)[0]

    def _locate(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(triangle or -1, nearest triangle, distance to it, touching) for each point.

        ``touching`` is ``(2, m)``: (point, triangle) for every triangle a
        point lies in or on (all of them on a shared edge or corner, else
        its nearest one), sorted by point, then triangle.
        """
        shapely = require_shapely()
        geometry = shapely.points(points)
        inside = np.full(len(points), len(self.triangles), dtype=np.int64)
        which, tri = self._tree.query(geometry, predicate="intersects")
        np.minimum.at(inside, which, tri)  # on a shared edge, the lower triangle
        inside[inside == len(self.triangles)] = -1
        nearest, distance = inside.copy(), np.zeros(len(points))
        outside = np.flatnonzero(inside < 0)
        if len(outside):
            (which_out, tri_out), gap = self._tree.query_nearest(geometry[outside], return_distance=True,
                                                                 all_matches=False)
            nearest[outside[which_out]], distance[outside[which_out]] = tri_out, gap
        which = np.concatenate([which, outside]).astype(np.int64)
        tri = np.concatenate([tri, nearest[outside]]).astype(np.int64)
        order = np.lexsort((tri, which))
        return inside, nearest, distance, np.stack([which[order], tri[order]])

    def plan(self, starts, goals) -> list[np.ndarray]:
        """Each start's waypoints to its goal: the corners of the shortest path, then the goal.

        Parameters
        ----------
        starts, goals
            ``(n, 2)``. A start or goal may lie outside the mesh by up to
            ``inflation`` (near a wall); the path then begins or ends at the
            mesh's nearest point.

        Returns
        -------
        list of ndarray
            ``n`` arrays ``(k_i, 2)``, each ending with its goal.

        Raises
        ------
        ValueError
            When a start or goal is off the mesh, or a goal cannot be reached
            (naming the path's index).
        """
        starts, goals = points_array(starts, "starts"), points_array(goals, "goals")
        if len(goals) != len(starts):
            raise ValueError(f"goals: expected {len(starts)} goals (one per start), got {len(goals)}")
        offsets, points = self.plan_flat(starts, goals, lambda i: f"path {i}")
        return np.split(points, offsets[1:-1]) if len(starts) else []

    def distance_off(self, points) -> np.ndarray:
        """How far each point lies from the walkable area (0 on it), ``(n,)``."""
        return self._locate(points_array(points, "points"))[2]

    @property
    def tolerance(self) -> float:
        """How far off the mesh a start or goal may lie (the inflation: an agent against a wall)."""
        return self.inflation * (1.0 + 1e-9) + 1e-9

    def plan_flat(self, starts: np.ndarray, goals: np.ndarray, label, *,
                  snap_starts: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`plan` as flat ``points`` cut at ``offsets``; ``label(i)`` names item i in errors.

        With ``snap_starts``, a start farther off the mesh than
        :attr:`tolerance` is no error: its path begins with the mesh's
        nearest point (the agent walks back onto the walkable area first).
        """
        shapely = require_shapely()
        n = len(starts)
        ends = np.vstack([starts, goals])
        _, tri, gap, touching = self._locate(ends)
        tolerance = self.tolerance
        too_far = gap > tolerance
        if snap_starts:
            too_far[:n] = False
        if too_far.any():
            k = int(np.argmax(too_far))
            what = "start" if k < n else "goal"
            raise ValueError(f"{label(k % n)}: its {what} {ends[k].tolist()} lies {gap[k]:.3g} from the walkable "
                             f"area (an obstacle's solid, or within {self.inflation:g} of an edge)")
        # Ends off the mesh: the path runs from and to the mesh's nearest points.
        snapped = ends.copy()
        off = np.flatnonzero(gap > 0)
        if len(off):
            lines = shapely.shortest_line(shapely.points(ends[off]), shapely.polygons(self.vertices[self.triangles[tri[off]]]))
            snapped[off] = shapely.get_coordinates(lines).reshape(-1, 2, 2)[:, 1]
        # A start or goal on a shared edge or corner may begin or end the corridor
        # in any triangle it touches: the search weighs each from its centroid.
        end_offsets = np.searchsorted(touching[0], np.arange(2 * n + 1)).astype(np.int64)
        split = end_offsets[n]
        touched = touching[1].astype(np.int32)
        reach = np.linalg.norm(self._centroids[touching[1]] - ends[touching[0]], axis=1)
        found, corridor_offsets, corridor = _core.graph_paths(
            self._row_start, self._target, self._cost, self._centroids,
            end_offsets[:n + 1], touched[:split], reach[:split],
            end_offsets[n:] - split, touched[split:], reach[split:],
            np.ascontiguousarray(goals))
        if not found.all():
            i = int(np.argmin(found))
            raise ValueError(f"{label(i)}: {goals[i].tolist()} cannot be reached from {starts[i].tolist()} "
                             "(no way through the walkable area)")
        # The portal between consecutive triangles a -> b: their shared edge, as seen walking through it.
        owner = segment_ids(corridor_offsets)
        step = np.flatnonzero(owner[1:] == owner[:-1]) if len(corridor) > 1 else np.zeros(0, dtype=np.int64)
        a, b = corridor[step], corridor[step + 1]
        k = np.argmax(self.neighbors[a] == b[:, None], axis=1)
        left = self.vertices[self.triangles[a, (k + 1) % 3]]
        right = self.vertices[self.triangles[a, k]]
        portal_offsets = (corridor_offsets - np.arange(n + 1)).astype(np.int64)
        offsets, points = _core.pull_strings(snapped[:n], snapped[n:], portal_offsets,
                                             np.ascontiguousarray(left), np.ascontiguousarray(right))
        # A goal off the mesh: its nearest mesh point was the last corner; the goal itself follows.
        offsets, points = _grown(offsets, points, gap[n:] > 0, goals, at_end=True)
        # A start far off the mesh: the agent first walks to the mesh's nearest point.
        if snap_starts:
            offsets, points = _grown(offsets, points, gap[:n] > tolerance, snapped[:n], at_end=False)
        return offsets, points


def _grown(offsets: np.ndarray, points: np.ndarray, where: np.ndarray, extra: np.ndarray, *, at_end: bool):
    """Tracks with ``extra[i]`` added at the end (or the start) of track i where ``where[i]``."""
    if not where.any():
        return offsets, points
    counts = np.diff(offsets) + where
    grown = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    out = np.empty((grown[-1], 2))
    owner = segment_ids(offsets)
    shift = np.where(where, 0 if at_end else 1, 0)[owner]
    out[grown[owner] + shift + np.arange(len(points)) - offsets[owner]] = points
    added = np.flatnonzero(where)
    out[grown[added + 1] - 1 if at_end else grown[added]] = extra[added]
    return grown, out


def _magnitude(geometry) -> float:
    """The largest absolute coordinate of a shapely geometry."""
    bounds = np.asarray(geometry.bounds, dtype=np.float64)
    return float(np.abs(bounds).max()) if np.isfinite(bounds).all() else 0.0


def _cross(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]


def _neighbors(triangles: np.ndarray, vertex_count: int) -> np.ndarray:
    """For each triangle edge (corner k to k + 1), the triangle on its other side, -1 if none."""
    t = len(triangles)
    a = triangles
    b = np.roll(triangles, -1, axis=1)
    key = (np.minimum(a, b) * vertex_count + np.maximum(a, b)).reshape(-1)
    order = np.argsort(key, kind="stable")
    paired = np.flatnonzero(key[order][1:] == key[order][:-1])
    neighbors = np.full(3 * t, -1, dtype=np.int64)
    first, second = order[paired], order[paired + 1]
    neighbors[first], neighbors[second] = second // 3, first // 3
    return neighbors.reshape(t, 3)
