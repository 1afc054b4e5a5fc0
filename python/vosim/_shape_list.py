"""The 3D obstacle shapes of a simulator, batch, obstacle set or list, for one scene: what the
plots and the viewer draw."""

from __future__ import annotations

from .shapes3d import ObstacleSet3D, Shape3D


def shapes_of(items, *, scene: int | None = None) -> list[Shape3D]:
    """The 3D shapes among ``items``, for one scene (None: all).

    ``items``: shapes, an ObstacleSet3D, a 3D simulator or batch (its
    ``obstacle_shapes``), or its ``PlacedShape`` records (shape, scene, id).
    """
    if items is None:
        return []
    if hasattr(items, "obstacle_shapes"):
        items = items.obstacle_shapes
    if isinstance(items, ObstacleSet3D):
        return list(items.shapes.values())
    if isinstance(items, Shape3D):
        return [items]
    shapes = []
    for item in items:
        if isinstance(item, Shape3D):
            shapes.append(item)
        elif isinstance(getattr(item, "shape", None), Shape3D):
            if scene is None or item.scene is None or item.scene == scene:
                shapes.append(item.shape)
    return shapes
