"""Obstacles: what Simulator and Batch share.

Obstacles follow RVO2's convention: vertices counter-clockwise, solid on the
left of every edge. Four kinds, one model:

- ``add_obstacle``: a solid polygon (3+ vertices), or a segment (2 vertices);
- ``add_wall``: an open polyline, solid on both sides;
- ``add_boundary``: an enclosing polygon; agents stay inside it;
- ``add_obstacles_from``: shapely geometry (walkable areas, holes, lines).

Polygons, segments and walls added with ``velocity=`` move (translate) at
that velocity, which ``set_obstacle_velocity`` changes between steps; they
do not yield to agents. ``remove_obstacle`` removes any obstacle. All of it
takes effect at the next step.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import _core
from ._checks import MAX_MAGNITUDE, check_values, integer, real_array
from ._obstacles3d import PlacedShape, Shapes3D
from ._parts import Part
from ._periodic import PeriodicAxis
from .shapes3d import Shape3D


class Obstacle(NamedTuple):
    """A read-only description of one obstacle, for plotting and saving.

    Attributes
    ----------
    kind
        ``"polygon"``, ``"segment"``, ``"wall"`` or ``"boundary"``.
    vertices
        ``(n, 2)`` read-only array, as given (counter-clockwise for polygons
        and boundaries).
    scene
        The scene it belongs to, or None when every scene sees it.
    """

    kind: str
    vertices: np.ndarray
    scene: int | None


class MovingObstacle(NamedTuple):
    """A read-only description of one moving obstacle where it is now.

    Attributes
    ----------
    id
        What ``add_obstacle``/``add_wall`` returned (within its scene's set,
        or the shared set when ``scene`` is None).
    kind
        ``"polygon"``, ``"segment"`` or ``"wall"``.
    vertices
        ``(n, 2)`` read-only array: the vertices as given, moved so far.
    velocity
        ``(vx, vy)``, in length units per time unit.
    scene
        The scene it belongs to, or None when every scene sees it.
    """

    id: int
    kind: str
    vertices: np.ndarray
    velocity: tuple[float, float]
    scene: int | None


def _velocity(velocity) -> tuple[float, float]:
    array = real_array(velocity, "velocity")
    if array.shape != (2,):
        raise ValueError(f"velocity: expected (vx, vy), got shape {array.shape}")
    check_values(array, "velocity", magnitude=MAX_MAGNITUDE)
    return float(array[0]), float(array[1])


def _vertex_array(vertices, name: str, closed: bool) -> np.ndarray:
    array = real_array(vertices, name)
    if array.ndim != 2 or array.shape[1] != 2:
        raise ValueError(f"{name}: expected shape (n, 2), got {array.shape}")
    check_values(array, name, magnitude=MAX_MAGNITUDE)
    # A ring that repeats its first vertex at the end (shapely, GeoJSON) is
    # the same polygon: drop the repetition.
    if closed and len(array) > 3 and np.array_equal(array[0], array[-1]):
        array = array[:-1]
    return np.ascontiguousarray(array)


def _ids_text(ids) -> str:
    ids = [int(i) for i in ids]
    shown = ", ".join(map(str, ids[:20]))
    return shown + (f", ... ({len(ids)} in all)" if len(ids) > 20 else "")


class Obstacles(Part):
    """A simulator's obstacles: the part behind ``add_obstacle``, ``add_wall``, ``add_boundary``,
    ``add_obstacles_from``, ``remove_obstacle``, ``set_obstacle_velocity``, ``obstacles``,
    ``moving_obstacles``, ``obstacle_shapes`` and ``obstacle_clearance``, and the check that new
    agents stand clear of them. The simulator owns one for its life: it keeps the 3D shapes as
    added (``shapes``).
    """

    methods = ("add_obstacle", "add_wall", "add_boundary", "add_obstacles_from", "remove_obstacle",
               "set_obstacle_velocity", "obstacle_clearance", "points_in_obstacles")
    properties = {"obstacles": "obstacles", "moving_obstacles": "moving_obstacles",
                  "obstacle_shapes": "obstacle_shapes"}

    def __init__(self, engine, scene_axis: bool):
        super().__init__(engine, scene_axis)
        self.shapes = Shapes3D(engine, scene_axis)

    def _scenes_of(self, scene: int) -> range:
        return range(self._core.scenes) if scene < 0 else range(scene, scene + 1)

    def _add(self, vertices, kind: str, scene, strict: bool, name: str, velocity=None) -> int:
        moving = velocity is not None
        vx, vy = _velocity(velocity) if moving else (0.0, 0.0)
        closed = kind in ("polygon", "boundary")
        array = _vertex_array(vertices, name, closed)
        if kind == "polygon" and len(array) < 3:
            if len(array) < 2:
                raise ValueError(f"{name}: an obstacle needs at least 2 vertices (2 make a segment, "
                                 f"3 or more a polygon), got {len(array)}")
            kind = "segment"
        _core.check_obstacle(array, kind, name)
        target = self._scene(scene, every=True)
        PeriodicAxis(self._core, self._scene_axis).check_obstacle(array, moving, name)
        if strict and kind in ("polygon", "boundary"):
            self._refuse_blocked_agents(array, kind, target)
        return self._core.add_obstacle(array, kind, target, moving, vx, vy)

    def _refuse_blocked_agents(self, vertices: np.ndarray, kind: str, target: int) -> None:
        """Raise if the new obstacle would put existing agents' centres in its solid."""
        if self._core.count == 0:
            return
        for b in self._scenes_of(target):
            if kind == "boundary" and self._core.has_boundary(b):
                continue  # another walkable area: a new boundary blocks nobody new
            view = self._core.view
            live = view("active")[b] & (view("ids")[b] >= 0)
            blocked = _core.obstacle_blocks(np.ascontiguousarray(view("positions")[b]), vertices, kind) & live
            if blocked.any():
                where = "inside the obstacle" if kind == "polygon" else "outside the boundary"
                scene_text = f" in scene {b}" if self._scene_axis else ""
                raise ValueError(
                    f"agents with ids {_ids_text(view('ids')[b][blocked])}{scene_text} would be {where}; "
                    "move them, or pass strict=False to allow it (they then ignore that obstacle until "
                    "they leave its solid part)")

    def points_in_obstacles(self, points, *, scene: int | None = None, moving: bool = True) -> np.ndarray:
        """Whether each point lies in an obstacle's solid or outside every boundary (2D), bool ``(n,)``.

        Parameters
        ----------
        points
            ``(n, 2)`` points, e.g. candidate places for new agents.
        scene
            Batch only: the scene whose obstacles count (its own and those
            every scene sees); a Simulator takes None.
        moving
            Whether moving obstacles count, where they are now.
        """
        if self._core.dimensions != 2:
            raise ValueError("points_in_obstacles is for 2D simulators; in 3D, see obstacle_shapes")
        array = real_array(points, "points")
        if array.ndim != 2 or array.shape[1] != 2:
            raise ValueError(f"points: expected shape (n, 2), got {array.shape}")
        check_values(array, "points", magnitude=MAX_MAGNITUDE)
        return self._core.blocked_points(np.ascontiguousarray(array, dtype=np.float64),
                                         self._scene(scene, every=False), bool(moving))

    def refuse_new_agents(self, positions: np.ndarray, radius) -> None:
        """Raise if new agents would stand in an obstacle: positions ``(B, n, D)``, radius ``(B, n)``
        (in 2D their centres in a solid; in 3D their discs overlapping a shape)."""
        if self._core.dimensions == 3:
            if self.shapes:
                self.shapes.refuse_new_agents(positions, radius())
            return
        for b in range(positions.shape[0]):
            blocked = self._core.blocked_points(np.ascontiguousarray(positions[b]), b)
            if blocked.any():
                prefix = f"positions[{b}, " if self._scene_axis else "positions["
                names = [f"{prefix}{k}]" for k in np.flatnonzero(blocked)]
                shown = ", ".join(names[:10]) + (f", ... ({len(names)} in all)" if len(names) > 10 else "")
                verb = "lies" if len(names) == 1 else "lie"
                raise ValueError(
                    f"{shown} {verb} inside an obstacle or outside the boundary; "
                    "move them, or pass strict=False to allow it")

    def add_obstacle(self, vertices, *, strict: bool = True, scene: int | None = None, velocity=None) -> int:
        """Add a solid polygon (``(n, 2)``, counter-clockwise) or a segment (``(2, 2)``);
        in 3D, a shape (:class:`vosim.Box`, :class:`vosim.Sphere`, :class:`vosim.HalfSpace`,
        :class:`vosim.ConvexPolyhedron`).

        Parameters
        ----------
        vertices
            Counter-clockwise vertices (solid inside, as in RVO2). Two
            vertices make a segment, solid on both sides. A repeated closing
            vertex is dropped.
        strict
            Refuse (ValueError listing the agent ids) if the centre of an
            existing agent would lie strictly inside. A disc merely
            overlapping an edge is fine: ORCA pushes it out.
        scene
            Batch only: the scene that gets the obstacle; None (the default)
            for an obstacle every scene sees.
        velocity
            ``(vx, vy)``: a moving obstacle, translated by ``velocity * dt``
            every step (from the next step on), listed in
            :attr:`moving_obstacles`. It does not yield: ORCA agents take the
            whole avoidance, against the obstacle's velocity obstacle (the
            static one shifted by its velocity); the other methods see its
            edges where they are at each step. ``(0, 0)`` makes one that
            stands still until :meth:`set_obstacle_velocity`. None (the
            default): a static obstacle.

        Returns
        -------
        int
            The obstacle's id within its set (the shared one, or its
            scene's): how many obstacles were added to that set before it.
            Ids never change; :meth:`remove_obstacle` takes them.

        Raises
        ------
        ValueError
            Fewer than 2 vertices, NaN/inf, repeated consecutive vertices,
            zero-width spikes, collinear or self-intersecting polygons, and
            clockwise polygons (reverse them, or use :meth:`add_boundary`).
            In 3D: agents overlapping the shape (with ``strict``).
        """
        if self._core.dimensions == 3:
            if velocity is not None:
                raise ValueError("velocity: 3D obstacles do not move")
            return self.shapes.add(vertices, self._scene(scene, every=True), strict)
        if isinstance(vertices, Shape3D):
            raise TypeError("vertices: a 3D shape needs a 3D simulator (dimensions=3); this one has dimensions=2")
        return self._add(vertices, "polygon", scene, strict, "vertices", velocity)

    def add_wall(self, points, *, scene: int | None = None, velocity=None) -> int:
        """Add an open polyline ``(n, 2)``, n >= 2, solid on both sides (``scene``, ``velocity`` as in add_obstacle)."""
        return self._add(points, "wall", scene, False, "points", velocity)

    def remove_obstacle(self, obstacle: int, *, scene: int | None = None) -> None:
        """Remove an obstacle, static or moving, from the next step on.

        Parameters
        ----------
        obstacle
            The id that ``add_obstacle``, ``add_wall``, ``add_boundary`` or
            ``add_obstacles_from`` returned. The other obstacles keep theirs.
        scene
            Batch only: the scene whose own obstacle it is; None (the
            default) for one every scene sees.

        Raises
        ------
        ValueError
            An id never given in that set, or already removed.
        """
        target = self._scene(scene, every=True)
        if self._core.dimensions == 3:
            self.shapes.remove(obstacle, target)
            return
        self._core.remove_obstacle(target, integer(obstacle, "obstacle", minimum=0))

    def set_obstacle_velocity(self, obstacle: int, velocity, *, scene: int | None = None) -> None:
        """Change a moving obstacle's velocity ``(vx, vy)`` from the next step on.

        ``obstacle`` and ``scene`` as in :meth:`remove_obstacle`. A sequence
        of poses is followed by setting the velocity between runs of steps.

        Raises
        ------
        ValueError
            An unknown or removed id, a static obstacle (add it with
            ``velocity=`` to move it), or a velocity that is not finite.
        """
        target = self._scene(scene, every=True)
        vx, vy = _velocity(velocity)
        self._core.set_obstacle_velocity(target, integer(obstacle, "obstacle", minimum=0), vx, vy)

    def add_boundary(self, vertices, *, strict: bool = True, scene: int | None = None) -> int:
        """Add an enclosing polygon (counter-clockwise around the walkable area); agents stay inside.

        Several boundaries make several walkable areas: an agent must be
        inside one of them. ``strict`` refuses agents whose centre would be
        outside (ValueError listing their ids); ``scene`` as in add_obstacle.
        """
        return self._add(vertices, "boundary", scene, strict, "vertices")

    def add_obstacles_from(self, geometry, *, walkable: bool = True, strict: bool = True,
                           scene: int | None = None) -> list[int]:
        """Add obstacles from shapely geometry (needs ``pip install shapely``).

        Parameters
        ----------
        geometry
            A shapely Polygon, MultiPolygon, LineString, MultiLineString,
            LinearRing or GeometryCollection of them.
        walkable
            With True (the default), polygons are walkable areas: each
            exterior becomes a boundary and each hole a solid obstacle. With
            False, polygons are solid obstacles (holes are not allowed).
            Lines always become walls.
        strict, scene
            As in :meth:`add_obstacle`.

        Returns
        -------
        list of int
            The indices of the obstacles added, in order.
        """
        try:
            from shapely.geometry import (GeometryCollection, LinearRing, LineString, MultiLineString,
                                          MultiPolygon, Polygon)
            from shapely.geometry.polygon import orient
        except ImportError as error:  # pragma: no cover - depends on the environment
            raise ImportError('add_obstacles_from needs shapely: pip install "vosim[shapely]"') from error
        self._scene(scene, every=True)  # check it before adding anything
        target = scene
        added: list[int] = []

        def visit(item) -> None:
            if isinstance(item, (MultiPolygon, MultiLineString, GeometryCollection)):
                for part in item.geoms:
                    visit(part)
            elif isinstance(item, Polygon):
                if item.is_empty:
                    return
                item = orient(item, sign=1.0)  # exterior counter-clockwise, holes clockwise
                exterior = np.asarray(item.exterior.coords)[:-1, :2]
                holes = [np.asarray(ring.coords)[:-1, :2][::-1] for ring in item.interiors]
                if walkable:
                    added.append(self.add_boundary(exterior, strict=strict, scene=target))
                    added.extend(self.add_obstacle(h, strict=strict, scene=target) for h in holes)
                else:
                    if holes:
                        raise ValueError("geometry: a solid polygon with holes cannot be an obstacle; "
                                         "use walkable=True, or add its parts separately")
                    added.append(self.add_obstacle(exterior, strict=strict, scene=target))
            elif isinstance(item, (LineString, LinearRing)):
                if not item.is_empty:
                    added.append(self.add_wall(np.asarray(item.coords)[:, :2], scene=target))
            else:
                raise TypeError(f"geometry: cannot make obstacles from {type(item).__name__}")

        visit(geometry)
        return added

    def moving_obstacles(self) -> tuple[MovingObstacle, ...]:
        """Every moving obstacle where it is now: those every scene sees, then each scene's own."""
        scenes = [-1, *self._core.scenes_with_obstacles()]
        return tuple(MovingObstacle(int(o), kind, vertices, (float(v[0]), float(v[1])), None if b < 0 else b)
                     for b in scenes for o, kind, vertices, v in self._core.obstacles(b, True))

    def obstacles(self) -> tuple[Obstacle, ...]:
        """Every static obstacle not removed, in the order added: those every scene sees, then each scene's own."""
        result = [Obstacle(kind, vertices, None) for kind, vertices in self._core.obstacles(-1)]
        for b in self._core.scenes_with_obstacles():
            result.extend(Obstacle(kind, vertices, b) for kind, vertices in self._core.obstacles(b))
        return tuple(result)

    def obstacle_shapes(self) -> tuple[PlacedShape, ...]:
        """3D simulators: every obstacle shape not removed, in the order added."""
        return self.shapes.placed()

    def obstacle_clearance(self) -> np.ndarray:
        """Each agent's clearance to the obstacles: distance to the nearest edge minus its radius.

        Negative when an agent overlaps an edge or its centre is in an
        obstacle's solid; ``inf`` without obstacles. Shape ``(..., N)``.
        """
        positions = self._core.view("positions")
        radius = self._core.view("radius")
        result = np.stack([
            self._core.obstacle_distances(np.ascontiguousarray(positions[b]), b) - radius[b]
            for b in range(self._core.scenes)
        ]) if self._core.count else np.zeros((self._core.scenes, 0))
        return result if self._scene_axis else result[0]
