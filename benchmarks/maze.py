"""A procedurally generated maze as one walkable outline, for obstacle benchmarks.

The maze is a random spanning tree of a grid of square rooms (depth-first,
seeded) drawn on a pixel grid: rooms at odd pixel coordinates, the doorways
between connected rooms open, everything else wall. The open pixels form one
simply connected region (a tree of corridors without holes or pinch
points), so its outline is a single counter-clockwise polygon, given to
vosim as a boundary: agents stay inside the corridors.
"""

from __future__ import annotations

import numpy as np


def maze_pixels(rooms_x: int, rooms_y: int, seed: int) -> np.ndarray:
    """Open pixels of a perfect maze of rooms_x x rooms_y rooms: (2 rooms_y + 1, 2 rooms_x + 1) bool."""
    rng = np.random.default_rng(seed)
    open_ = np.zeros((2 * rooms_y + 1, 2 * rooms_x + 1), dtype=bool)
    visited = np.zeros((rooms_y, rooms_x), dtype=bool)
    stack = [(0, 0)]
    visited[0, 0] = True
    open_[1, 1] = True
    steps = np.array([(0, 1), (1, 0), (0, -1), (-1, 0)])
    while stack:
        y, x = stack[-1]
        options = [(y + dy, x + dx) for dy, dx in steps
                   if 0 <= y + dy < rooms_y and 0 <= x + dx < rooms_x and not visited[y + dy, x + dx]]
        if not options:
            stack.pop()
            continue
        ny, nx = options[rng.integers(len(options))]
        visited[ny, nx] = True
        open_[2 * ny + 1, 2 * nx + 1] = True
        open_[y + ny + 1, x + nx + 1] = True  # the doorway between the two rooms
        stack.append((ny, nx))
    return open_


def outline(open_: np.ndarray) -> np.ndarray:
    """The counter-clockwise outline of the open pixels (unit squares), collinear vertices merged."""
    padded = np.pad(open_, 1)
    rows, cols = np.nonzero(open_)
    y, x = rows.astype(np.int64), cols.astype(np.int64)
    # Each open pixel's sides facing a wall, directed with the open side on the left.
    sides = [
        (~padded[rows, cols + 1], (x, y), (x + 1, y)),              # below is wall
        (~padded[rows + 1, cols + 2], (x + 1, y), (x + 1, y + 1)),  # right
        (~padded[rows + 2, cols + 1], (x + 1, y + 1), (x, y + 1)),  # above
        (~padded[rows + 1, cols], (x, y + 1), (x, y)),              # left
    ]
    width = open_.shape[1] + 2
    starts, ends = [], []
    for wall, (x0, y0), (x1, y1) in sides:
        starts.append((y0 * width + x0)[wall])
        ends.append((y1 * width + x1)[wall])
    starts, ends = np.concatenate(starts), np.concatenate(ends)
    following = dict(zip(starts.tolist(), ends.tolist()))
    loop = [int(starts.min())]
    while True:
        step = following[loop[-1]]
        if step == loop[0]:
            break
        loop.append(step)
    points = np.column_stack([np.array(loop) % width, np.array(loop) // width]).astype(float)
    before, after = np.roll(points, 1, axis=0), np.roll(points, -1, axis=0)
    turn = (points[:, 0] - before[:, 0]) * (after[:, 1] - points[:, 1]) - \
        (points[:, 1] - before[:, 1]) * (after[:, 0] - points[:, 0])
    return points[turn != 0]


def maze(target_vertices: int, seed: int = 0, corridor: float = 5.0):
    """A square maze whose outline has about ``target_vertices`` vertices.

    Returns
    -------
    boundary : (n, 2) float array
        The outline in metres (corridors ``corridor`` wide), counter-clockwise.
    rooms : (m, 2) float array
        The centres of the rooms, in metres.
    """
    # About 2.4 outline vertices per room to start with; then correct the side from the count.
    side = max(2, int(round(np.sqrt(target_vertices / 2.4))))
    for _ in range(3):
        open_ = maze_pixels(side, side, seed)
        points = outline(open_)
        side = max(2, int(round(side * np.sqrt(target_vertices / len(points)))))
    open_ = maze_pixels(side, side, seed)
    points = outline(open_)
    rooms_y, rooms_x = np.mgrid[0:side, 0:side]
    rooms = np.column_stack([2 * rooms_x.ravel() + 1.5, 2 * rooms_y.ravel() + 1.5])
    return corridor * points, corridor * rooms
