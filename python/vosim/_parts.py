"""How a simulator owns its scene features' parts (speed zones, waiting stages, ...).

Each scene feature has a small part class over the simulator's engine; the
simulator makes one of each on first use and keeps it (``_Simulation._part``;
a part may hold state, as the obstacles' part holds the 3D shapes). A part
declares what the simulator shows of it (``methods``, ``properties``,
``part_property``) and ``install`` adds those to the simulator class as
delegates, so that a new feature is its own module and one line in
``_scene_parts.py``, and no part reads another's attributes or the
simulator's private state.
"""

from __future__ import annotations

import functools

import numpy as np

from ._checks import integer


class Part:
    """A scene feature's part of one simulator: its engine, and whether it is a Batch."""

    #: The part's methods the simulator shows under the same names.
    methods: tuple[str, ...] = ()
    #: The simulator's read-only properties, as {its name: the part's method that reads it}.
    properties: dict[str, str] = {}
    #: A simulator property giving the part itself (``sim.waypoints``), and its documentation.
    part_property: tuple[str, str] | None = None

    def __init__(self, engine, scene_axis: bool):
        self._core = engine
        self._scene_axis = scene_axis

    def check_new_agents(self, fields: dict, n: int, shapes, target):
        """``add_agents``' hook, before any agent is added: check the keywords that are this part's
        (``fields``, by name; ``shapes`` and ``target`` those of a per-agent scalar) and return what
        ``agents_added`` needs, or None."""
        return None

    def agents_added(self, ids: np.ndarray, plan, values: dict) -> None:
        """``add_agents``' hook, after agents ``ids`` (flat, scene after scene) were added with the
        per-agent ``values``: ``plan`` is what ``check_new_agents`` returned (never None here)."""

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


def install(cls: type, parts) -> None:
    """Add every part's declared methods and properties to the simulator class ``cls``, and the parts
    to those whose ``add_agents`` hooks it runs (``cls._scene_parts``).

    A name ``cls`` already has, or two parts declare, is a programming error: refused at import.
    """
    parts = tuple(parts)
    for part in parts:
        members = {name: delegate(part, getattr(part, name)) for name in part.methods}
        members.update({name: delegated_property(part, getattr(part, method))
                        for name, method in part.properties.items()})
        if part.part_property is not None:
            name, doc = part.part_property
            members[name] = property(lambda self, part=part: self._part(part), doc=doc)
        for name, member in members.items():
            if hasattr(cls, name):
                raise TypeError(f"{part.__name__}.{name}: {cls.__name__} already has an attribute {name!r}")
            setattr(cls, name, member)
    cls._scene_parts = getattr(cls, "_scene_parts", ()) + parts  # whose add_agents hooks run, in order
