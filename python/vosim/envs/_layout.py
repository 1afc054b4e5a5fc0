"""Where episodes start: CrowdNav's robot placement and human generation, and the geometry they need.

Everything works on many scenes at once (leading axis ``c``): the vector
environment resets the scenes that ended in one call.
"""

from __future__ import annotations

import numpy as np

# Rounds of rejection sampling before giving up on a crowded layout, and
# candidates drawn per scene in each.
_MAX_TRIES = 200
_CANDIDATES = 16


def point_segment_distance(points: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Distance from ``points`` to the segments ``start``-``end`` (all broadcast, last axis 2)."""
    edge = end - start
    length2 = np.sum(edge * edge, axis=-1)
    along = np.sum((points - start) * edge, axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(length2 > 0, np.clip(along / np.where(length2 > 0, length2, 1.0), 0.0, 1.0), 0.0)
    closest = start + t[..., None] * edge
    return np.linalg.norm(points - closest, axis=-1)


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]


def segment_segment_distance(p0, p1, q0, q1) -> np.ndarray:
    """Distance between segments p0-p1 and q0-q1 (broadcast; 0 where they cross)."""
    d = np.minimum.reduce([point_segment_distance(p0, q0, q1), point_segment_distance(p1, q0, q1),
                           point_segment_distance(q0, p0, p1), point_segment_distance(q1, p0, p1)])
    r, s = p1 - p0, q1 - q0
    side_q0, side_q1 = _cross(r, q0 - p0), _cross(r, q1 - p0)
    side_p0, side_p1 = _cross(s, p0 - q0), _cross(s, p1 - q0)
    crossing = (side_q0 * side_q1 < 0) & (side_p0 * side_p1 < 0)
    return np.where(crossing, 0.0, d)


def obstacle_edges(polygons: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Start and end points ``(E, 2)`` of every edge (a polygon is closed; two vertices are a segment)."""
    starts, ends = [], []
    for vertices in polygons:
        following = np.roll(vertices, -1, axis=0)
        count = 1 if len(vertices) == 2 else len(vertices)
        starts.append(vertices[:count])
        ends.append(following[:count])
    if not starts:
        return np.zeros((0, 2)), np.zeros((0, 2))
    return np.concatenate(starts), np.concatenate(ends)


def inside_any(points: np.ndarray, polygons: list[np.ndarray]) -> np.ndarray:
    """Whether each point lies inside one of the polygons (crossing number; segments have no inside)."""
    inside = np.zeros(points.shape[:-1], dtype=bool)
    x, y = points[..., 0], points[..., 1]
    for vertices in polygons:
        if len(vertices) < 3:
            continue
        odd = np.zeros_like(inside)
        for (x0, y0), (x1, y1) in zip(vertices, np.roll(vertices, -1, axis=0)):
            straddles = (y0 > y) != (y1 > y)
            with np.errstate(invalid="ignore", divide="ignore"):
                x_cross = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
            odd ^= straddles & (x < x_cross)
        inside |= odd
    return inside


def robot_layout(robots: int, circle_radius: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Starts, goals ``(k, 2)`` and headings ``(k,)`` of the robots.

    CrowdNav's robot starts at ``(0, -circle_radius)`` heading for
    ``(0, circle_radius)``; further robots are spread evenly around the same
    circle, each heading for the opposite point.
    """
    angles = -np.pi / 2 + 2 * np.pi * np.arange(robots) / robots  # the first at the bottom, as CrowdNav's
    starts = circle_radius * np.column_stack([np.cos(angles), np.sin(angles)])
    starts[np.abs(starts) < 1e-12] = 0.0
    return starts, 0.0 - starts, angles + np.pi


class HumanGenerator:
    """CrowdNav's rules for the humans' starts and goals, with obstacles kept clear.

    ``circle_crossing``: a start on the circle of ``circle_radius`` at a
    uniform angle, moved by uniform noise of ``±v_pref / 2`` in x and y; the
    goal opposite it. ``square_crossing``: a start uniform in one half of a
    square of side ``square_width`` (left or right at random), a goal in the
    other half. A candidate is drawn again while it comes closer than
    ``r_human + r_other + discomfort_dist`` to an agent already placed (and,
    here, while it or its goal is that close to an obstacle, or inside one).
    """

    def __init__(self, scenario: str, *, circle_radius: float, square_width: float, discomfort_dist: float,
                 polygons: list[np.ndarray]):
        self.scenario = scenario
        self.circle_radius = circle_radius
        self.square_width = square_width
        self.discomfort_dist = discomfort_dist
        self.polygons = polygons
        self.edges = obstacle_edges(polygons)

    def _clear_of_obstacles(self, points: np.ndarray, radius: np.ndarray) -> np.ndarray:
        if not self.polygons:
            return np.ones(points.shape[:-1], dtype=bool)
        start, end = self.edges
        distance = point_segment_distance(points[..., None, :], start, end).min(axis=-1)
        return (distance >= radius + self.discomfort_dist) & ~inside_any(points, self.polygons)

    def __call__(self, rng: np.random.Generator, robot_starts: np.ndarray, robot_goals: np.ndarray,
                 robot_radius: float, human_radius: np.ndarray, human_speed: np.ndarray):
        """Starts and goals ``(c, n, 2)`` of the humans of ``c`` scenes.

        ``robot_starts``/``robot_goals`` are ``(k, 2)``; ``human_radius`` and
        ``human_speed`` are ``(c, n)``.
        """
        scenes, count = human_radius.shape
        k = len(robot_starts)
        placed = np.empty((scenes, k + count, 2))
        targets = np.empty((scenes, k + count, 2))
        radii = np.empty((scenes, k + count))
        placed[:, :k], targets[:, :k], radii[:, :k] = robot_starts, robot_goals, robot_radius
        for i in range(count):
            slot = k + i
            radii[:, slot] = human_radius[:, i]
            pending = np.arange(scenes)
            sign = np.where(rng.random(scenes) > 0.5, -1.0, 1.0)  # square_crossing: the start's half
            start_done = np.zeros(scenes, dtype=bool)
            for _ in range(_MAX_TRIES):
                if len(pending) == 0:
                    break
                pending = self._place(rng, pending, slot, placed, targets, radii, human_speed[:, i], sign, start_done)
            else:
                raise RuntimeError(f"could not place human {i} clear of the others and of the obstacles in "
                                   f"{_MAX_TRIES * _CANDIDATES} tries: too many humans for the {self.scenario} area")
        return placed[:, k:], targets[:, k:]

    def _place(self, rng, pending, slot, placed, targets, radii, speed, sign, start_done) -> np.ndarray:
        """Draw candidates for the scenes still pending; returns those still pending after.

        Each round draws ``_CANDIDATES`` candidates per scene and keeps the
        first acceptable one, so crowded layouts take few rounds.
        """
        m, t = len(pending), _CANDIDATES
        minimum = (radii[pending, slot, None] + radii[pending, :slot] + self.discomfort_dist)[:, None, :]
        radius = radii[pending, slot, None]

        def clear(points, others):  # points (m, t, 2), others (m, slot, 2)
            distance = np.linalg.norm(points[:, :, None] - others[:, None], axis=-1)
            return (distance >= minimum).all(axis=2) & self._clear_of_obstacles(points, radius)

        def first(ok):
            found = ok.any(axis=1)
            return found, np.argmax(ok, axis=1)

        rows = np.arange(m)
        if self.scenario == "circle_crossing":
            angle = rng.random((m, t)) * 2 * np.pi
            noise = (rng.random((m, t, 2)) - 0.5) * speed[pending, None, None]
            start = self.circle_radius * np.stack([np.cos(angle), np.sin(angle)], axis=-1) + noise
            ok = clear(start, placed[pending, :slot]) & clear(start, targets[pending, :slot])
            ok &= self._clear_of_obstacles(-start, radius)
            found, pick = first(ok)
            chosen = start[rows, pick]
            placed[pending[found], slot], targets[pending[found], slot] = chosen[found], -chosen[found]
            return pending[~found]
        # square_crossing: first the start (against the others' starts), then the goal (against their goals)
        half = self.square_width * 0.5
        choosing_start = ~start_done[pending]
        point = np.stack([rng.random((m, t)) * half, (rng.random((m, t)) - 0.5) * self.square_width], axis=-1)
        point[..., 0] *= np.where(choosing_start, sign[pending], -sign[pending])[:, None]
        others = np.where(choosing_start[:, None, None], placed[pending, :slot], targets[pending, :slot])
        found, pick = first(clear(point, others))
        chosen = point[rows, pick]
        new_start = found & choosing_start
        new_goal = found & ~choosing_start
        placed[pending[new_start], slot] = chosen[new_start]
        targets[pending[new_goal], slot] = chosen[new_goal]
        start_done[pending[new_start]] = True
        return pending[~new_goal]
