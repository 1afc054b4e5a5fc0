"""Agents' kinematic models by name (the engine stores them as small integers).

The names are declared once, in ``cpp/core/kinematics/kinematics.hpp``, and exported as
``_core.KINEMATICS`` (index: the stored value).
"""

from __future__ import annotations

import numpy as np

from . import _core

#: The kinematic models, by stored value: ``("holonomic", "differential_drive", "unicycle")``.
KINEMATICS: tuple[str, ...] = tuple(_core.KINEMATICS)


def kinematics_codes(value, name: str = "kinematics") -> np.ndarray:
    """Names (a string, or an array-like of strings) as the engine's int8 values."""
    names = np.asarray(value, dtype=object)
    codes = np.zeros(names.shape, dtype=np.int8)
    for at, entry in np.ndenumerate(names):
        if not isinstance(entry, str):
            where = f"{name}[{', '.join(map(str, at))}]" if names.ndim else name
            raise TypeError(f"{where} is {entry!r}; give one of {', '.join(map(repr, KINEMATICS))}")
        if entry not in KINEMATICS:
            where = f"{name}[{', '.join(map(str, at))}]" if names.ndim else name
            raise ValueError(f"{where} is {entry!r}; it must be one of {', '.join(map(repr, KINEMATICS))}")
        codes[at] = KINEMATICS.index(entry)
    return codes


def kinematics_names(codes: np.ndarray) -> np.ndarray:
    """The engine's int8 values as an array of names."""
    # (np.asarray: indexing with a 0-d array gives a bare string)
    return np.asarray(np.asarray(KINEMATICS, dtype=object)[np.asarray(codes, dtype=np.intp)]).astype(str)


def default_headings(positions: np.ndarray, velocities: np.ndarray, goals: np.ndarray) -> np.ndarray:
    """add_agents' default headings: the direction of the velocity if it is not zero,
    else towards the goal if there is one away from the position, else 0."""
    to_goal = np.where(np.isnan(goals), 0.0, goals - positions)
    moving = (velocities[..., 0] != 0) | (velocities[..., 1] != 0)
    towards = np.where(moving[..., None], velocities, to_goal)
    return np.arctan2(towards[..., 1], towards[..., 0])
