"""Random placement of discs and boxes clear of obstacles and of each other, in time linear in their number.

Rejection sampling: candidates are drawn in the bounds until one is clear.
Obstacles are tested through an :class:`~vosim._edge_index.EdgeIndex`; what
was placed before (discs, and the square boxes of obstacle regions) sits in
a hash grid of cells, so each candidate is compared with its neighbours only.
"""

from __future__ import annotations

import math

import numpy as np

from .._edge_index import EdgeIndex

# Candidates tried for each item before giving up.
PLACEMENT_TRIES = 2000
# Candidates drawn (and tested against the obstacles) at once: at first this
# many for each bounds and radius, doubling with each draw up to _MOST_AT_ONCE.
_FIRST_BATCH = 32
_MOST_AT_ONCE = 65_536


class Scatter:
    """Places items one by one, each clear of the obstacles and of the items placed before.

    Parameters
    ----------
    rng
        The random generator the candidates are drawn from.
    obstacles
        ``(kind, vertices)`` pairs.
    reach
        The largest clearance any item will ask for.
    """

    def __init__(self, rng: np.random.Generator, obstacles, reach: float):
        self.rng = rng
        self.reach = max(float(reach), 1e-3)
        self.index = EdgeIndex(obstacles, self.reach)
        self.cells: dict[tuple[int, int], list[int]] = {}
        self.centres: list[tuple[float, float]] = []
        self.radius: list[float] = []  # a disc's radius, or a box's half side
        self.boxes: list[bool] = []
        self.largest = 0.0
        # Candidates drawn for each (bounds, radius), their clearance of the obstacles, and the next unused one.
        self.pools: dict[tuple, list] = {}

    def _cell(self, x: float, y: float) -> tuple[int, int]:
        return math.floor(x / self.reach), math.floor(y / self.reach)

    def add(self, centre, radius: float, *, box: bool = False) -> None:
        """Records an item: a disc of ``radius`` or an axis-aligned square of half side ``radius``."""
        x, y = float(centre[0]), float(centre[1])
        self.cells.setdefault(self._cell(x, y), []).append(len(self.centres))
        self.centres.append((x, y))
        self.radius.append(float(radius))
        self.boxes.append(box)
        self.largest = max(self.largest, float(radius) * (math.sqrt(2.0) if box else 1.0))

    def clear_of_items(self, x: float, y: float, radius: float) -> bool:
        """Whether a disc at (x, y) keeps ``radius`` from every item placed (touching allowed)."""
        span = math.ceil((radius + self.largest) / self.reach)
        cx, cy = self._cell(x, y)
        for i in range(cx - span, cx + span + 1):
            for j in range(cy - span, cy + span + 1):
                for k in self.cells.get((i, j), ()):
                    px, py = self.centres[k]
                    if self.boxes[k]:
                        h = self.radius[k]
                        dx, dy = max(abs(x - px) - h, 0.0), max(abs(y - py) - h, 0.0)
                        if math.hypot(dx, dy) < radius or (dx == 0.0 and dy == 0.0):
                            return False
                    elif math.hypot(x - px, y - py) < radius + self.radius[k]:
                        return False
        return True

    def _draw(self, key) -> list:
        """The pool of candidates for (bounds, radius), refilled when used up."""
        pool = self.pools.get(key)
        if pool is None or pool[2] == len(pool[0]):
            size = _FIRST_BATCH if pool is None else min(2 * len(pool[0]), _MOST_AT_ONCE)
            xmin, xmax, ymin, ymax, radius = key
            candidates = self.rng.uniform([xmin, ymin], [xmax, ymax], size=(size, 2))
            pool = [candidates, ~self.index.touching(candidates, radius), 0]
            self.pools[key] = pool
        return pool

    def place(self, bounds, radius: float, *, avoid_items: bool = True) -> np.ndarray | None:
        """A random point in ``bounds`` (xmin, xmax, ymin, ymax) whose disc of ``radius`` is clear.

        ``avoid_items=False`` keeps it clear of the obstacles only. None
        when :data:`PLACEMENT_TRIES` candidates in a row were all blocked.
        Candidates are drawn in growing batches per bounds and radius, so
        that the obstacles are tested for many at once.
        """
        key = (*map(float, bounds), float(radius))
        for _ in range(PLACEMENT_TRIES):
            pool = self._draw(key)
            candidates, free, k = pool
            pool[2] = k + 1
            if free[k] and (not avoid_items or self.clear_of_items(candidates[k, 0], candidates[k, 1], radius)):
                return candidates[k].copy()
        return None
