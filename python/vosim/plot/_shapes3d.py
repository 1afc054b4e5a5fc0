"""3D obstacle shapes drawn into 3D axes, or projected onto a plane (top and side views)."""

from __future__ import annotations

import numpy as np

from .._shape_list import shapes_of  # noqa: F401
from ..shapes3d import Box, ConvexPolyhedron, HalfSpace, ObstacleSet3D, Shape3D, Sphere

OBSTACLE_FACE = "0.6"
OBSTACLE_EDGE = "0.25"
#: Axis names and indices of the projection planes.
PLANES = {"xy": (0, 1), "xz": (0, 2), "yz": (1, 2)}
#: Box faces as corner indices of Box.corners() (bit 2: +x, bit 1: +y, bit 0: +z).
_BOX_FACES = ((0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3))


def _clip_polygon(polygon: np.ndarray, normal: np.ndarray, offset: float) -> np.ndarray:
    """The part of a convex polygon (k, d) where ``normal @ x <= offset`` (Sutherland-Hodgman, one plane)."""
    out = []
    for k in range(len(polygon)):
        a, b = polygon[k], polygon[(k + 1) % len(polygon)]
        da, db = normal @ a - offset, normal @ b - offset
        if da <= 0:
            out.append(a)
        if (da < 0 < db) or (db < 0 < da):
            out.append(a + (b - a) * (da / (da - db)))
    return np.array(out).reshape(-1, polygon.shape[1])


def _plane_in_box(shape: HalfSpace, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """The polygon where a half-space's plane crosses the box [lo, hi] (empty when it misses it)."""
    n, p = shape.normal, shape.point
    # Start from a square in the plane larger than the box, clip it by the box's six faces.
    middle = (lo + hi) / 2
    centre = middle - n * (n @ (middle - p))  # the box's middle, projected onto the plane
    u = np.cross(n, [1.0, 0, 0] if abs(n[0]) < 0.9 else [0, 1.0, 0])
    u /= np.linalg.norm(u)
    w = np.cross(n, u)
    size = 2.0 * float(np.linalg.norm(hi - lo)) + 1.0
    polygon = np.array([centre + size * (su * u + sw * w) for su, sw in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
    for axis in range(3):
        e = np.eye(3)[axis]
        polygon = _clip_polygon(polygon, e, hi[axis])
        if len(polygon):
            polygon = _clip_polygon(polygon, -e, -lo[axis])
    return polygon


def _sphere_mesh(shape: Sphere, resolution: int = 16):
    u, v = np.meshgrid(np.linspace(0, 2 * np.pi, 2 * resolution), np.linspace(0, np.pi, resolution))
    c, r = shape.center, shape.radius
    return c[0] + r * np.cos(u) * np.sin(v), c[1] + r * np.sin(u) * np.sin(v), c[2] + r * np.cos(v)


def draw_shapes_3d(ax, shapes, *, bounds, alpha: float = 0.35) -> int:
    """Draw shapes into 3D axes; half-spaces as the piece of their plane inside ``bounds`` ((lo, hi)).

    Returns how many were drawn.
    """
    from mpl_toolkits.mplot3d.art3d import Poly3DCollection

    lo, hi = (np.asarray(b, dtype=float) for b in bounds)
    faces = []
    for shape in shapes:
        if isinstance(shape, Box):
            corners = shape.corners()
            faces.extend(corners[list(face)] for face in _BOX_FACES)
        elif isinstance(shape, ConvexPolyhedron):
            faces.extend(shape.faces)
        elif isinstance(shape, HalfSpace):
            polygon = _plane_in_box(shape, lo, hi)
            if len(polygon) >= 3:
                faces.append(polygon)
        elif isinstance(shape, Sphere):
            x, y, z = _sphere_mesh(shape)
            ax.plot_surface(x, y, z, color=OBSTACLE_FACE, alpha=alpha, linewidth=0.2, edgecolor=OBSTACLE_EDGE,
                            shade=True)
    if faces:
        ax.add_collection3d(Poly3DCollection(faces, facecolors=OBSTACLE_FACE, edgecolors=OBSTACLE_EDGE,
                                             linewidths=0.4, alpha=alpha))
    return len(shapes)


def _hull_2d(points: np.ndarray) -> np.ndarray:
    """Convex hull of 2D points, counter-clockwise (Andrew's monotone chain)."""
    points = np.unique(np.round(points, 12), axis=0)
    if len(points) < 3:
        return points

    def turn(o, a, b):  # z of the cross product (o->a) x (o->b): > 0 turns left
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    def half(sequence):
        chain = []
        for p in sequence:
            while len(chain) >= 2 and turn(chain[-2], chain[-1], p) <= 0:
                chain.pop()
            chain.append(p)
        return chain[:-1]

    return np.array(half(points) + half(points[::-1]))


def draw_shapes_projected(ax, shapes, *, plane: str, bounds) -> int:
    """Draw the shadows of shapes on a coordinate plane ("xy", "xz" or "yz").

    A half-space shows only when its plane is seen edge-on (its normal lies
    in the view plane): its solid side, shaded within ``bounds``. Others
    (the ground seen from above) would cover the whole view and are left out.
    Returns how many were drawn.
    """
    from matplotlib.patches import Circle, Polygon

    axes = list(PLANES[plane])
    lo, hi = (np.asarray(b, dtype=float)[axes] for b in bounds)
    drawn = 0
    style = dict(facecolor=OBSTACLE_FACE, edgecolor=OBSTACLE_EDGE, linewidth=0.8, alpha=0.8, zorder=1.5)
    for shape in shapes:
        if isinstance(shape, Sphere):
            ax.add_patch(Circle(shape.center[axes], shape.radius, **style))
        elif isinstance(shape, (Box, ConvexPolyhedron)):
            corners = shape.corners() if isinstance(shape, Box) else shape.vertices
            ax.add_patch(Polygon(_hull_2d(corners[:, axes]), closed=True, **style))
        elif isinstance(shape, HalfSpace):
            hidden = [a for a in range(3) if a not in axes][0]
            if abs(shape.normal[hidden]) > 1e-9:
                continue
            n2 = shape.normal[axes]
            pad = 0.05 * float(np.max(hi - lo)) + 1.0
            rect = np.array([[lo[0] - pad, lo[1] - pad], [hi[0] + pad, lo[1] - pad],
                             [hi[0] + pad, hi[1] + pad], [lo[0] - pad, hi[1] + pad]])
            solid = _clip_polygon(rect, n2, float(n2 @ shape.point[axes]))  # the solid side: n . x <= n . p
            if len(solid) < 3:
                continue
            ax.add_patch(Polygon(solid, closed=True, hatch="//", **{**style, "alpha": 0.45}))
        else:
            continue
        drawn += 1
    return drawn


def shape_bounds(shapes) -> tuple[np.ndarray, np.ndarray] | None:
    """Lower and upper corners around the bounded shapes (None without any)."""
    points = []
    for shape in shapes:
        if isinstance(shape, Box):
            points.append(shape.corners())
        elif isinstance(shape, ConvexPolyhedron):
            points.append(shape.vertices)
        elif isinstance(shape, Sphere):
            points.append(np.array([shape.center - shape.radius, shape.center + shape.radius]))
    if not points:
        return None
    every = np.concatenate(points)
    return every.min(axis=0), every.max(axis=0)
