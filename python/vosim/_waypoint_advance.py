"""The rules by which waypoint tracks move on (``waypoint_advance``), as the engine's codes."""

from __future__ import annotations

import numpy as np

from . import _core

#: The rules, in the engine's code order: ``"distance"`` (the default), ``"passed"``, ``"visible"``.
WAYPOINT_ADVANCE: tuple[str, ...] = tuple(_core.WAYPOINT_ADVANCE)


def advance_codes(value, count: int, name: str = "waypoint_advance") -> np.ndarray:
    """``(count,)`` uint8 codes of one rule for every track, or of one rule per track.

    Raises ValueError naming ``name`` (and the index) and the value for an
    unknown rule or a sequence of the wrong length.
    """
    if isinstance(value, str):
        values = [value] * count
    else:
        try:
            values = list(value)
        except TypeError:
            raise ValueError(f"{name} is {value!r}; must be one of {', '.join(map(repr, WAYPOINT_ADVANCE))} "
                             "or a sequence of them, one per agent") from None
        if len(values) != count:
            raise ValueError(f"{name}: expected one rule per agent ({count}), got {len(values)}")
    codes = np.empty(count, dtype=np.uint8)
    for k, rule in enumerate(values):
        if not isinstance(rule, str) or rule not in WAYPOINT_ADVANCE:
            where = name if isinstance(value, str) else f"{name}[{k}]"
            raise ValueError(f"{where} is {rule!r}; must be one of {', '.join(map(repr, WAYPOINT_ADVANCE))}")
        codes[k] = WAYPOINT_ADVANCE.index(rule)
    return codes
