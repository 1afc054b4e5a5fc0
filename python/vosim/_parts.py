"""How a simulator owns its scene features' parts (speed zones, waiting stages, ...).

Each scene feature has a small part class over the simulator's engine; the
simulator makes one of each on first use and keeps it (``_Simulation._part``;
a part may hold state, as the obstacles' part holds the 3D shapes), and its
public methods delegate to them (``delegate``), so no part reads another's
attributes or the simulator's private state.
"""

from __future__ import annotations

import functools

from ._checks import integer


class Part:
    """A scene feature's part of one simulator: its engine, and whether it is a Batch."""

    def __init__(self, engine, scene_axis: bool):
        self._core = engine
        self._scene_axis = scene_axis

    def _scene(self, scene, *, every: bool) -> int:
        """The engine's scene index for ``scene=``; -1 (every scene) for None where ``every`` allows it."""
        scenes = self._core.scenes
        if not self._scene_axis:
            if scene is not None:
                raise TypeError("scene: a Simulator has one scene; scene= is for Batch")
            return -1 if every else 0
        if scene is None:
            if every:
                return -1
            raise TypeError(f"scene: this Batch has {scenes} scenes; give scene= (0 to {scenes - 1})")
        scene = integer(scene, "scene", minimum=0)
        if scene >= scenes:
            raise ValueError(f"scene is {scene}; must be < {scenes}" + (" (or None for every scene)" if every else ""))
        return scene


def delegate(part: type[Part], method):
    """A simulator method that calls ``method`` on the simulator's ``part``, with its documentation."""

    @functools.wraps(method)
    def call(self, *args, **kwargs):
        return method(self._part(part), *args, **kwargs)

    return call


def delegated_property(part: type[Part], method):
    """A simulator property that reads ``method`` of the simulator's ``part``, with its documentation."""
    return property(delegate(part, method), doc=method.__doc__)
