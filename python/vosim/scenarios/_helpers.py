"""What the scenario modules share: the seed check and a generous step limit."""

from __future__ import annotations

import math

from .._checks import integer


def checked_seed(seed) -> int:
    return integer(seed, "seed", minimum=0, maximum=2**64 - 1)


def steps_for(distance: float, speed: float, time_step: float, factor: float = 3.0, extra: int = 300) -> int:
    """A generous step limit: ``factor`` times the unobstructed travel time, plus ``extra`` steps."""
    return int(math.ceil(factor * distance / speed / time_step)) + extra
