"""Obstacle edges binned in a uniform grid, to test many discs against obstacles in time linear in the discs.

A disc touches the obstacles when its centre lies in a solid (inside a
polygon, or outside every boundary when there are boundaries) or closer than
its radius to an edge. Checking every disc against every edge costs discs x
edges; binning the edges in cells of about the largest radius leaves each
disc a few edges to look at, whatever the map's size.
"""

from __future__ import annotations

import numpy as np

# Points are tested in chunks of this many, to bound the memory of the (point, edge) pairs.
_CHUNK = 16_384
# The grid never has more cells than this along one axis (long maps get larger cells).
_MAX_CELLS_PER_AXIS = 4096
# At most this many (cell, edge) and (cell, polygon) entries: cells grow until the boxes fit.
_MAX_ENTRIES = 4_000_000


def _edges(obstacles) -> tuple[np.ndarray, np.ndarray, np.ndarray, list, list]:
    """Edge ends a, b, the obstacle each edge belongs to, and the polygons' and boundaries' indices."""
    starts, ends, owners, polygons, boundaries = [], [], [], [], []
    for k, (kind, vertices) in enumerate(obstacles):
        v = np.asarray(vertices, dtype=np.float64)[:, :2]
        closed = kind in ("polygon", "boundary")
        a = v if closed else v[:-1]
        b = np.roll(v, -1, axis=0) if closed else v[1:]
        starts.append(a)
        ends.append(b)
        owners.append(np.full(len(a), k, dtype=np.int64))
        if kind == "polygon":
            polygons.append(k)
        elif kind == "boundary":
            boundaries.append(k)
    if not starts:
        empty = np.zeros((0, 2))
        return empty, empty.copy(), np.zeros(0, dtype=np.int64), polygons, boundaries
    return np.vstack(starts), np.vstack(ends), np.concatenate(owners), polygons, boundaries


def _crossings(points: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Whether a ray from each point towards +x crosses the edge a-b (row by row)."""
    above_a, above_b = a[:, 1] > points[:, 1], b[:, 1] > points[:, 1]
    straddles = above_a != above_b
    with np.errstate(divide="ignore", invalid="ignore"):
        x = a[:, 0] + (points[:, 1] - a[:, 1]) * (b[:, 0] - a[:, 0]) / (b[:, 1] - a[:, 1])
    return straddles & (points[:, 0] < x)


def _segment_distance_sq(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    d = b - a
    length_sq = np.einsum("ij,ij->i", d, d)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(length_sq > 0, np.einsum("ij,ij->i", p - a, d) / length_sq, 0.0)
    closest = a + np.clip(t, 0.0, 1.0)[:, None] * d
    gap = p - closest
    return np.einsum("ij,ij->i", gap, gap)


class EdgeIndex:
    """The edges of 2D obstacles in a grid, for discs of radius up to ``reach``.

    Parameters
    ----------
    obstacles
        ``(kind, vertices)`` pairs, kind ``"polygon"``, ``"boundary"``,
        ``"wall"`` or ``"segment"`` (as in :attr:`vosim.Scenario.obstacles`).
    reach
        The largest radius :meth:`touching` will be asked about.
    """

    def __init__(self, obstacles, reach: float):
        self.a, self.b, self.owner, polygons, boundaries = _edges(obstacles)
        self.reach = float(reach)
        self.boundaries = [(self.a[self.owner == k], self.b[self.owner == k]) for k in boundaries]
        self.empty = len(self.a) == 0
        if self.empty:
            return
        lo = np.minimum(self.a, self.b).min(axis=0) - self.reach
        hi = np.maximum(self.a, self.b).max(axis=0) + self.reach
        self.lo = lo
        edge_lo, edge_hi = np.minimum(self.a, self.b) - self.reach, np.maximum(self.a, self.b) + self.reach
        self.polygon_ids = np.array(polygons, dtype=np.int64)
        plo = np.array([self.a[self.owner == k].min(axis=0) for k in polygons]).reshape(-1, 2)
        phi = np.array([self.a[self.owner == k].max(axis=0) for k in polygons]).reshape(-1, 2)
        # Cells of about the reach, larger on long maps and where big boxes would list too many entries.
        self.cell = max(self.reach, float((hi - lo).max()) / _MAX_CELLS_PER_AXIS, 1e-6)
        while self._entries(edge_lo, edge_hi) + self._entries(plo, phi) > _MAX_ENTRIES:
            self.cell *= 2.0
        self.shape = np.maximum(np.ceil((hi - lo) / self.cell).astype(np.int64), 1)
        # Edges by the cells their box grown by reach covers.
        self.edge_cells = self._cells_of_boxes(edge_lo, edge_hi)
        # Polygons by the cells their box covers (for the inside test).
        if len(polygons):
            order = np.argsort(self.owner, kind="stable")
            self.edge_order = order
            self.edge_start = np.searchsorted(self.owner[order], np.arange(len(obstacles) + 1))
            self.polygon_cells = self._cells_of_boxes(plo, phi)

    def _entries(self, lo: np.ndarray, hi: np.ndarray) -> int:
        """How many cells the boxes lo..hi cover together, with the current cell size."""
        span = np.floor((hi - self.lo) / self.cell) - np.floor((lo - self.lo) / self.cell) + 1
        return int(np.prod(span, axis=1).sum()) if len(lo) else 0

    def _cells_of_boxes(self, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(sorted cell keys, item of each) for items whose boxes lo..hi cover those cells."""
        c0 = np.clip(np.floor((lo - self.lo) / self.cell).astype(np.int64), 0, self.shape - 1)
        c1 = np.clip(np.floor((hi - self.lo) / self.cell).astype(np.int64), 0, self.shape - 1)
        span = c1 - c0 + 1
        counts = span[:, 0] * span[:, 1]
        item = np.repeat(np.arange(len(lo)), counts)
        rank = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        x = c0[item, 0] + rank % span[item, 0]
        y = c0[item, 1] + rank // span[item, 0]
        keys = x * self.shape[1] + y
        order = np.argsort(keys, kind="stable")
        return keys[order], item[order]

    def _pairs(self, points: np.ndarray, table) -> tuple[np.ndarray, np.ndarray]:
        """(point, item) pairs for the items listed in each point's cell."""
        keys, items = table
        cell = np.floor((points - self.lo) / self.cell).astype(np.int64)
        inside = ((cell >= 0) & (cell < self.shape)).all(axis=1)
        key = np.where(inside, cell[:, 0] * self.shape[1] + cell[:, 1], -1)
        first = np.searchsorted(keys, key, side="left")
        last = np.where(inside, np.searchsorted(keys, key, side="right"), first)
        counts = last - first
        point = np.repeat(np.arange(len(points)), counts)
        at = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts) + np.repeat(first, counts)
        return point, items[at]

    def touching(self, points, radius, tolerance: float = 0.0) -> np.ndarray:
        """Whether each disc reaches into the obstacles by more than ``tolerance``.

        Parameters
        ----------
        points
            ``(P, 2)`` centres.
        radius
            Radii, a scalar or ``(P,)``, each at most ``reach``.
        tolerance
            A disc closer than its radius to an edge by at most this much
            only touches it and is not counted.

        Returns
        -------
        ndarray of bool, ``(P,)``: the centre in a solid, or an edge nearer
        than ``radius - tolerance``.
        """
        points = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        radius = np.broadcast_to(np.asarray(radius, dtype=np.float64), (len(points),))
        out = np.zeros(len(points), dtype=bool)
        if self.empty:
            return out
        for start in range(0, len(points), _CHUNK):
            part = slice(start, start + _CHUNK)
            out[part] = self._touching(points[part], radius[part], tolerance)
        return out

    def _touching(self, points, radius, tolerance) -> np.ndarray:
        hit = np.zeros(len(points), dtype=bool)
        point, edge = self._pairs(points, self.edge_cells)
        if len(point):
            reach = np.maximum(radius[point] - tolerance, 0.0)
            near = _segment_distance_sq(points[point], self.a[edge], self.b[edge]) < reach * reach
            hit[point[near]] = True
        if len(self.polygon_ids):
            point, polygon = self._pairs(points, self.polygon_cells)
            if len(point):
                owner = self.polygon_ids[polygon]
                counts = self.edge_start[owner + 1] - self.edge_start[owner]
                pair = np.repeat(np.arange(len(point)), counts)
                rank = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
                edge = self.edge_order[self.edge_start[owner][pair] + rank]
                crossed = _crossings(points[point[pair]], self.a[edge], self.b[edge])
                odd = np.bincount(pair, weights=crossed, minlength=len(point)) % 2 == 1
                hit[point[odd]] = True
        if self.boundaries:
            within = np.zeros(len(points), dtype=bool)
            for a, b in self.boundaries:
                crossed = np.zeros(len(points), dtype=np.int64)
                for k in range(len(a)):
                    crossed += _crossings(points, np.broadcast_to(a[k], points.shape),
                                          np.broadcast_to(b[k], points.shape))
                within |= crossed % 2 == 1
            hit |= ~within
        return hit
