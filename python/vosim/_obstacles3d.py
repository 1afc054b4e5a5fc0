"""3D obstacle shapes in a simulator: adding and removing them, the agent
placement check, and what checkpoints carry (``Shapes3D``, which the
simulator's :class:`~vosim._obstacles.Obstacles` part holds)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._checks import integer
from ._parts import Part
from .shapes3d import Shape3D, Sphere, shape_from_dict


class PlacedShape(NamedTuple):
    """A 3D obstacle of a simulator: its shape, its scene (None: every scene) and its id in that set."""

    shape: Shape3D
    scene: int | None
    id: int


def _names(prefix: str, indices) -> str:
    names = [f"{prefix}{k}]" for k in indices]
    return ", ".join(names[:10]) + (f", ... ({len(names)} in all)" if len(names) > 10 else "")


class Shapes3D(Part):
    """The 3D half of a simulator's obstacles: the shapes as added (the engine keeps their geometry only)."""

    def __init__(self, engine, scene_axis: bool):
        super().__init__(engine, scene_axis)
        # Every shape added, in order: (engine set, id, shape or None once removed).
        self._log: list = []

    def __bool__(self) -> bool:
        return bool(self._log)

    def add(self, shape, target: int, strict: bool) -> int:
        if not isinstance(shape, Shape3D):
            raise TypeError(f"shape: a 3D simulator's obstacles are 3D shapes (vosim.Box, vosim.Sphere, "
                            f"vosim.HalfSpace, vosim.ConvexPolyhedron), got {type(shape).__name__}")
        if strict:
            self._refuse_agents_in(shape, target)
        obstacle_id = shape._add_to(self._core.obstacles3d(target))
        self._log.append((target, obstacle_id, shape))
        return obstacle_id

    def remove(self, obstacle: int, target: int) -> None:
        obstacle = integer(obstacle, "obstacle", minimum=0)
        self._core.obstacles3d(target).remove(obstacle)  # ValueError for unknown or removed ids
        for k, (where, obstacle_id, _) in enumerate(self._log):
            if where == target and obstacle_id == obstacle:
                self._log[k] = (where, obstacle_id, None)

    def _refuse_agents_in(self, shape: Shape3D, target: int) -> None:
        view = self._core.view
        for b in range(self._core.scenes) if target < 0 else (target,):
            live = view("active")[b].astype(bool) & (view("ids")[b] >= 0)
            inside = live & (shape.signed_distance(view("positions")[b]) < view("radius")[b])
            if inside.any():
                scene_text = f" in scene {b}" if self._scene_axis else ""
                raise ValueError(f"shape: agents with ids {view('ids')[b][inside][:10].tolist()}{scene_text} "
                                 "would overlap it; move them, or pass strict=False to allow it")

    def refuse_new_agents(self, positions: np.ndarray, radius: np.ndarray) -> None:
        """Raise if new agents (positions (B, n, 3), radius (B, n)) overlap a 3D obstacle."""
        for b in range(positions.shape[0]):
            ids, _ = self._core.penetrated_obstacles3d(np.ascontiguousarray(positions[b], dtype=np.float64),
                                                         np.ascontiguousarray(radius[b], dtype=np.float64), b)
            if (ids >= 0).any():
                prefix = f"positions[{b}, " if self._scene_axis else "positions["
                bad = np.flatnonzero(ids >= 0)
                raise ValueError(f"{_names(prefix, bad)} (with their radius) overlap an obstacle (the first: "
                                 f"obstacle {int(ids[bad[0]])}); move them, or pass strict=False to allow it")

    def placed(self) -> tuple[PlacedShape, ...]:
        """3D simulators: every obstacle shape not removed, in the order added."""
        return tuple(PlacedShape(shape, None if target < 0 else target, obstacle_id)
                     for target, obstacle_id, shape in self._log if shape is not None)

    def payload(self) -> list:
        """The shape log as plain data (for checkpoints)."""
        return [{"scene": target, "id": obstacle_id, "shape": None if shape is None else shape.to_dict()}
                for target, obstacle_id, shape in self._log]

    def restore(self, entries) -> None:
        """Put back a payload(): the same shapes under the same ids."""
        self._log = []
        for entry in entries:
            target = int(entry["scene"])
            if entry["shape"] is None:
                # Removed: a stand-in takes (and gives back) its id, so later ids match.
                stand_in = Sphere((0.0, 0.0, 0.0), 1.0)
                obstacle_id = stand_in._add_to(self._core.obstacles3d(target))
                self._core.obstacles3d(target).remove(obstacle_id)
                self._log.append((target, obstacle_id, None))
            else:
                obstacle_id = self.add(shape_from_dict(entry["shape"]), target, strict=False)
            if obstacle_id != int(entry["id"]):
                raise ValueError(f"3D obstacle {entry['id']} of set {target} came back as {obstacle_id}")
