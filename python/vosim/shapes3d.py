"""Static obstacle shapes in 3D: half-spaces, boxes, spheres, convex polyhedra.

Every shape is solid and checked when made (NaN, zero volume, a matrix that
is no rotation, coplanar vertices, an unbounded set of half-spaces raise
``ValueError`` naming the argument and the value). Shapes are plain data:
``to_dict()`` / :func:`shape_from_dict` give a JSON-ready round trip.
:class:`ObstacleSet3D` puts shapes together and answers closest-point
queries with the engine's own code (``cpp/core/obstacles/obstacles3d.hpp``).

Conventions: the signed distance of a point to a shape is its distance to
the surface, negative inside; normals point out of the solid. A
:class:`HalfSpace` is solid behind its normal: the ground is
``HalfSpace(point=(0, 0, 0), normal=(0, 0, 1))``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from . import _core
from ._checks import MAX_MAGNITUDE, check_values, real_array

__all__ = [
    "Box",
    "ConvexPolyhedron",
    "Contacts",
    "HalfSpace",
    "ObstacleSet3D",
    "Plane",
    "Shape3D",
    "Sphere",
    "shape_from_dict",
]


def _vector(value, name: str, length: int = 3) -> np.ndarray:
    array = real_array(value, name)
    if array.shape != (length,):
        raise ValueError(f"{name}: expected {length} numbers, got shape {array.shape}")
    check_values(array, name, magnitude=MAX_MAGNITUDE)
    return array.copy()


def _rows(value, name: str, *, minimum_rows: int) -> np.ndarray:
    array = real_array(value, name)
    if array.ndim != 2 or array.shape[1] != 3 or len(array) < minimum_rows:
        raise ValueError(f"{name}: expected shape (n, 3) with n >= {minimum_rows}, got {array.shape}")
    check_values(array, name, magnitude=MAX_MAGNITUDE)
    return np.ascontiguousarray(array)


def _frozen(array: np.ndarray) -> np.ndarray:
    array = np.array(array, dtype=np.float64)
    array.flags.writeable = False
    return array


class Shape3D:
    """Base of the 3D obstacle shapes."""

    kind: str = ""

    def _add_to(self, core_set: "_core.ObstacleSet3") -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def to_dict(self) -> dict:  # pragma: no cover - abstract
        raise NotImplementedError

    def signed_distance(self, points) -> np.ndarray:
        """Signed distance of each of ``points`` ``(n, 3)`` to this shape's surface (negative inside)."""
        return ObstacleSet3D([self]).nearest(points).distances

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and _dict_equal(self.to_dict(), other.to_dict())

    __hash__ = None  # mutable-looking arrays inside: no hashing

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={np.asarray(v).tolist()!r}" for k, v in self.to_dict().items() if k != "type")
        return f"{type(self).__name__}({fields})"


def _dict_equal(a: dict, b: dict) -> bool:
    if a.keys() != b.keys():
        return False
    return all(np.array_equal(np.asarray(a[k]), np.asarray(b[k])) for k in a)


class HalfSpace(Shape3D):
    """Everything behind an infinite plane: ground, ceiling, a wall without ends.

    Parameters
    ----------
    point
        Any point of the plane.
    normal
        Outward normal (towards the free side); normalised on input.

    Examples
    --------
    >>> import vosim
    >>> ground = vosim.HalfSpace(point=(0, 0, 0), normal=(0, 0, 1))
    >>> float(ground.signed_distance([[1.0, 2.0, 3.0]])[0])
    3.0
    """

    kind = "half_space"

    def __init__(self, point, normal):
        point = _vector(point, "point")
        normal = _vector(normal, "normal")
        _core.ObstacleSet3().add_half_space(point, normal, "HalfSpace")  # checks (zero normal)
        self.point = _frozen(point)
        self.normal = _frozen(normal / np.linalg.norm(normal))

    def _add_to(self, core_set) -> int:
        return core_set.add_half_space(self.point, self.normal, "HalfSpace")

    def to_dict(self) -> dict:
        return {"type": self.kind, "point": self.point.tolist(), "normal": self.normal.tolist()}


#: An infinite plane as an obstacle is a half-space: solid behind its normal.
Plane = HalfSpace


def _euler_matrix(angles) -> np.ndarray:
    """Rotation by angles[0] about x, then angles[1] about y, then angles[2] about z (fixed axes, radians)."""
    ax, ay, az = angles
    cx, sx, cy, sy, cz, sz = np.cos(ax), np.sin(ax), np.cos(ay), np.sin(ay), np.cos(az), np.sin(az)
    rx = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    ry = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    rz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    return rz @ ry @ rx


class Box(Shape3D):
    """A box, axis-aligned unless turned by ``rotation`` or ``euler``.

    Parameters
    ----------
    center
        Its centre.
    half_extents
        Half its size along its own axes (all > 0).
    rotation
        ``(3, 3)`` rotation matrix whose columns are the box's axes in world
        coordinates (orthonormal, determinant +1). Default: the identity.
    euler
        Instead of ``rotation``: angles in radians about x, then y, then z
        (fixed axes), i.e. ``R = Rz @ Ry @ Rx``.

    Examples
    --------
    >>> import numpy as np, vosim
    >>> crate = vosim.Box(center=(0, 0, 1), half_extents=(1, 1, 1))
    >>> float(crate.signed_distance([[0.0, 0.0, 4.0]])[0])
    2.0
    >>> turned = vosim.Box(center=(0, 0, 1), half_extents=(2, 1, 1), euler=(0, 0, np.pi / 4))
    """

    kind = "box"

    def __init__(self, center, half_extents, *, rotation=None, euler=None):
        center = _vector(center, "center")
        half_extents = _vector(half_extents, "half_extents")
        if rotation is not None and euler is not None:
            raise TypeError("Box: give rotation= or euler=, not both")
        if euler is not None:
            rotation = _euler_matrix(_vector(euler, "euler"))
        elif rotation is None:
            rotation = np.eye(3)
        rotation = real_array(rotation, "rotation")
        if rotation.shape != (3, 3):
            raise ValueError(f"rotation: expected shape (3, 3), got {rotation.shape}")
        check_values(rotation, "rotation")
        _core.ObstacleSet3().add_box(center, half_extents, rotation.ravel(), "Box")  # checks the values
        self.center = _frozen(center)
        self.half_extents = _frozen(half_extents)
        self.rotation = _frozen(rotation)

    @classmethod
    def from_bounds(cls, lower, upper) -> "Box":
        """The axis-aligned box between corners ``lower`` and ``upper``."""
        lower, upper = _vector(lower, "lower"), _vector(upper, "upper")
        return cls(center=(lower + upper) / 2, half_extents=(upper - lower) / 2)

    def corners(self) -> np.ndarray:
        """The 8 corners ``(8, 3)``, x slowest (bit 2 of the index: +x, bit 1: +y, bit 0: +z)."""
        signs = np.array([[sx, sy, sz] for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)], dtype=float)
        return self.center + (signs * self.half_extents) @ self.rotation.T

    def _add_to(self, core_set) -> int:
        return core_set.add_box(self.center, self.half_extents, self.rotation.ravel(), "Box")

    def to_dict(self) -> dict:
        return {"type": self.kind, "center": self.center.tolist(), "half_extents": self.half_extents.tolist(),
                "rotation": self.rotation.tolist()}


class Sphere(Shape3D):
    """A solid ball.

    Examples
    --------
    >>> import vosim
    >>> ball = vosim.Sphere(center=(0, 0, 5), radius=2)
    >>> float(ball.signed_distance([[0.0, 0.0, 5.0]])[0])
    -2.0
    """

    kind = "sphere"

    def __init__(self, center, radius):
        center = _vector(center, "center")
        radius = real_array(radius, "radius")
        if radius.shape != ():
            raise ValueError(f"radius: expected a number, got shape {radius.shape}")
        _core.ObstacleSet3().add_sphere(center, float(radius), "Sphere")  # checks radius > 0
        self.center = _frozen(center)
        self.radius = float(radius)

    def _add_to(self, core_set) -> int:
        return core_set.add_sphere(self.center, self.radius, "Sphere")

    def to_dict(self) -> dict:
        return {"type": self.kind, "center": self.center.tolist(), "radius": self.radius}


class ConvexPolyhedron(Shape3D):
    """A bounded convex solid, the intersection of half-spaces ``normals @ x <= offsets``.

    Make one with :meth:`from_halfspaces` or :meth:`from_vertices` (the
    convex hull), from at most 512 half-spaces (faces); rounder solids are
    better modelled as spheres. Redundant and repeated planes are dropped, so
    ``normals``/``offsets`` hold one unit-normal plane per face.

    Attributes
    ----------
    normals, offsets
        ``(f, 3)`` outward unit normals and ``(f,)`` offsets of the faces.
    vertices
        ``(v, 3)`` corners.
    faces
        One ``(k, 3)`` array per face: its corners, counter-clockwise seen
        from outside.
    """

    kind = "polyhedron"

    def __init__(self, normals, offsets):
        normals = _rows(normals, "normals", minimum_rows=4)
        offsets = real_array(offsets, "offsets")
        if offsets.shape != (len(normals),):
            raise ValueError(f"offsets: expected shape ({len(normals)},), got {offsets.shape}")
        check_values(offsets, "offsets", magnitude=MAX_MAGNITUDE)
        vertices, faces, face_normals, face_offsets = _core.polyhedron_geometry(
            normals, np.ascontiguousarray(offsets), "ConvexPolyhedron"
        )
        self.normals = _frozen(face_normals)
        self.offsets = _frozen(face_offsets)
        self.vertices = _frozen(vertices)
        self.faces = [_frozen(face) for face in faces]

    @classmethod
    def from_halfspaces(cls, normals, offsets) -> "ConvexPolyhedron":
        """The solid where ``normals[k] @ x <= offsets[k]`` for every k (bounded, with volume).

        Examples
        --------
        >>> import vosim
        >>> cube = vosim.ConvexPolyhedron.from_halfspaces(
        ...     normals=[[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]],
        ...     offsets=[1, 1, 1, 1, 1, 1])
        >>> len(cube.vertices), len(cube.faces)
        (8, 6)
        """
        return cls(normals, offsets)

    @classmethod
    def from_vertices(cls, points) -> "ConvexPolyhedron":
        """The convex hull of ``points`` ``(n >= 4, 3)``; needs SciPy (``pip install "vosim[geometry3d]"``).

        Raises ``ValueError`` when the points are coplanar (no volume).
        """
        points = _rows(points, "points", minimum_rows=4)
        try:
            from scipy.spatial import ConvexHull, QhullError
        except ImportError as error:  # pragma: no cover - depends on the environment
            raise ImportError('ConvexPolyhedron.from_vertices needs SciPy: pip install "vosim[geometry3d]"') from error
        try:
            hull = ConvexHull(points)
        except QhullError:
            raise ValueError("points: they are coplanar or collinear, so their hull has no volume") from None
        # Qhull's facets: normal @ x + offset <= 0 inside, unit outward normals.
        return cls(hull.equations[:, :3], -hull.equations[:, 3])

    def _add_to(self, core_set) -> int:
        return core_set.add_polyhedron(self.normals, self.offsets, "ConvexPolyhedron")

    def to_dict(self) -> dict:
        return {"type": self.kind, "normals": self.normals.tolist(), "offsets": self.offsets.tolist()}


_KINDS = {cls.kind: cls for cls in (HalfSpace, Box, Sphere, ConvexPolyhedron)}


def shape_from_dict(data: dict) -> Shape3D:
    """The shape a ``to_dict()`` described (for JSON round trips)."""
    if not isinstance(data, dict) or "type" not in data:
        raise ValueError(f"shape: expected a dict with a 'type' key, got {data!r:.80}")
    kind = data["type"]
    if kind not in _KINDS:
        raise ValueError(f"shape type is {kind!r}; must be one of {sorted(_KINDS)}")
    fields = {k: v for k, v in data.items() if k != "type"}
    try:
        if kind == "polyhedron":
            return ConvexPolyhedron.from_halfspaces(**fields)
        return _KINDS[kind](**fields)
    except TypeError as error:
        raise ValueError(f"shape of type {kind!r}: {error}") from None


class Contacts(NamedTuple):
    """Obstacles near a point (or the nearest of each of many points)."""

    ids: np.ndarray        #: ``(k,)`` obstacle ids
    points: np.ndarray     #: ``(k, 3)`` closest surface points
    normals: np.ndarray    #: ``(k, 3)`` outward unit normals there
    distances: np.ndarray  #: ``(k,)`` signed distances (negative inside)


class ObstacleSet3D:
    """Shapes put together, with the engine's closest-point queries.

    Parameters
    ----------
    shapes
        Shapes to add now (ids 0, 1, ... in this order).

    Examples
    --------
    >>> import vosim
    >>> obstacles = vosim.ObstacleSet3D([vosim.HalfSpace((0, 0, 0), (0, 0, 1)), vosim.Sphere((4, 0, 1), 1)])
    >>> near = obstacles.query((2, 0, 1), range=1.5)
    >>> near.ids.tolist(), near.distances.tolist()
    ([0, 1], [1.0, 1.0])
    """

    def __init__(self, shapes=()):
        self._core = _core.ObstacleSet3()
        self._shapes: dict[int, Shape3D] = {}
        for shape in shapes:
            self.add(shape)

    def add(self, shape: Shape3D) -> int:
        """Add a shape; returns its id."""
        if not isinstance(shape, Shape3D):
            raise TypeError(f"shape: expected a vosim 3D shape (Box, Sphere, ...), got {type(shape).__name__}")
        obstacle_id = shape._add_to(self._core)
        self._shapes[obstacle_id] = shape
        return obstacle_id

    def remove(self, obstacle_id: int) -> None:
        """Remove the shape with this id."""
        self._core.remove(int(obstacle_id))
        del self._shapes[int(obstacle_id)]

    @property
    def shapes(self) -> dict[int, Shape3D]:
        """The live shapes by id."""
        return dict(self._shapes)

    def __len__(self) -> int:
        return len(self._shapes)

    def query(self, point, range: float) -> Contacts:  # noqa: A002 - the natural name
        """Every obstacle whose surface is within ``range`` of ``point`` (signed distance <= range), nearest first."""
        point = _vector(point, "point")
        range_ = float(real_array(range, "range"))
        if not np.isfinite(range_):
            raise ValueError(f"range is {range_}; must be finite")
        return Contacts(*self._core.query(point, range_))

    def nearest(self, points) -> Contacts:
        """For each of ``points`` ``(n, 3)``, the nearest obstacle (id -1 and distance inf when empty)."""
        return Contacts(*self._core.nearest(_rows(points, "points", minimum_rows=0)))

    def penetrating(self, points, radius=0.0) -> np.ndarray:
        """Per point, the lowest id of an obstacle that a sphere of ``radius`` there penetrates, or -1."""
        points = _rows(points, "points", minimum_rows=0)
        radii = np.broadcast_to(real_array(radius, "radius"), (len(points),)).astype(np.float64)
        check_values(radii, "radius", minimum=0.0, magnitude=MAX_MAGNITUDE)
        return self._core.first_penetrating(points, np.ascontiguousarray(radii))
