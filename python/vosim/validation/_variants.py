"""Deliberately broken variants of the tests' scenes: what a verdict must catch.

A verdict is worth as much as its ability to fail. Every test builds its
scene through one simulator (``_pedestrians.simulator_for``); inside
``with broken(name):`` that simulator changes the scene as it is built, the
way a faulty model or set-up would, and the test runs unchanged:

>>> from vosim import validation
>>> with validation.broken("half_speed"):
...     result = validation.rimea_1("orca")
>>> result.passed, result.summary
(False, 'not at the end in 50 s')

The suite shows each test of ``vosim validate`` failing on a variant
(``tests/validation/test_validation_variants.py``); ``vosim validate --variant NAME``
runs the whole table on one.
"""

from __future__ import annotations

import contextlib
import contextvars

#: The broken variants, by name: what each changes in every scene built while it is active.
VARIANTS = {
    "no_avoidance": "agents see no neighbours (max_neighbors=0): nobody avoids anybody",
    "half_speed": "every agent's preferred and maximum speeds halved",
    "no_walls": "walls and obstacles left out of the scene",
    "no_waiting": "pre-movement times dropped: everybody sets off at once",
    "flat_stairs": "speed zones (the stairs) left out: stairs walked at the level speed",
    "exits_never_close": "sinks stay open whatever their closing time",
}

_ACTIVE: contextvars.ContextVar[str | None] = contextvars.ContextVar("vosim_validation_variant", default=None)


def _checked(variant) -> str | None:
    if variant is None:
        return None
    if not isinstance(variant, str):
        raise TypeError(f"variant: expected a name from {', '.join(VARIANTS)} or None, got {type(variant).__name__}")
    if variant not in VARIANTS:
        raise ValueError(f"variant: unknown variant {variant!r}; choose from {', '.join(VARIANTS)}")
    return variant


@contextlib.contextmanager
def broken(variant: str | None):
    """Build every test's scene with the broken ``variant`` (a name from :data:`VARIANTS`) inside the block.

    ``None`` leaves the scenes as the tests define them. Variants do not
    nest: the innermost one applies.
    """
    token = _ACTIVE.set(_checked(variant))
    try:
        yield
    finally:
        _ACTIVE.reset(token)


def active_variant() -> str | None:
    """The variant the scenes are built with now (None: as the tests define them)."""
    return _ACTIVE.get()


def simulator_class():
    """The Simulator class, or a subclass that builds the active variant's scene."""
    from ..simulator import Simulator

    variant = _ACTIVE.get()
    return Simulator if variant is None else _VARIANT_CLASSES[variant]


def _make_classes() -> dict:
    from ..simulator import Simulator

    class NoAvoidance(Simulator):
        def add_agents(self, positions, **arguments):
            return super().add_agents(positions, **{**arguments, "max_neighbors": 0})

    class HalfSpeed(Simulator):
        def add_agents(self, positions, **arguments):
            for name in ("pref_speed", "max_speed"):
                if arguments.get(name) is not None:
                    arguments[name] = 0.5 * _as_array(arguments[name])
            return super().add_agents(positions, **arguments)

    class NoWalls(Simulator):
        def add_wall(self, points, **arguments):
            return -1

        def add_obstacle(self, vertices, **arguments):
            return -1

    class NoWaiting(Simulator):
        def add_agents(self, positions, **arguments):
            arguments.pop("start_time", None)
            return super().add_agents(positions, **arguments)

    class FlatStairs(Simulator):
        def add_speed_zone(self, polygon, factor, **arguments):
            return -1

    class ExitsNeverClose(Simulator):
        def add_sink(self, points, **arguments):
            arguments.pop("closes_at", None)
            return super().add_sink(points, **arguments)

    return {"no_avoidance": NoAvoidance, "half_speed": HalfSpeed, "no_walls": NoWalls, "no_waiting": NoWaiting,
            "flat_stairs": FlatStairs, "exits_never_close": ExitsNeverClose}


def _as_array(value):
    import numpy as np

    return np.asarray(value, dtype=np.float64)


class _Classes(dict):
    """The variants' simulator classes, made on first use (the simulator module imports late)."""

    def __missing__(self, key):
        self.update(_make_classes())
        return dict.__getitem__(self, key)


_VARIANT_CLASSES = _Classes()
