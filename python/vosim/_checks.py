"""Argument checking shared by the public API.

Every error names the argument and, for arrays, the first bad index and its
value, e.g. ``radius[3] is -1.0; must be >= 0``.

The engine's working range (``MAX_MAGNITUDE``, ``MIN_TIME``) comes from the
C++ core, which checks the same bounds on the values written into the views.
"""

from __future__ import annotations

import numbers
import operator
from typing import Sequence

import numpy as np

from . import _core

#: Largest magnitude of any coordinate, velocity, length, speed or time.
MAX_MAGNITUDE: float = float(_core.MAX_MAGNITUDE)
#: Smallest time step and time horizon.
MIN_TIME: float = float(_core.MIN_TIME)
#: Most agent slots per scene.
MAX_AGENTS: int = int(_core.MAX_AGENTS)
INT32_MAX = int(np.iinfo(np.int32).max)


def _number(value: float) -> str:
    """A bound as text: whole numbers in full up to 1e10 (2147483647), others as %g (1e+15)."""
    if float(value).is_integer() and abs(value) < 1e10:
        return str(int(value))
    return f"{value:g}"


def _index_text(name: str, index: Sequence[int]) -> str:
    if len(index) == 0:
        return name
    return f"{name}[{', '.join(str(int(i)) for i in index)}]"


def _first(mask: np.ndarray) -> tuple[int, ...]:
    return tuple(int(i) for i in np.argwhere(mask)[0])


def as_array(value, name: str) -> np.ndarray:
    try:
        return np.asarray(value)
    except (ValueError, TypeError) as error:  # ragged nested sequences
        raise ValueError(f"{name}: cannot be read as an array of numbers ({error})") from None


def real_array(value, name: str, *, dtype=np.float64) -> np.ndarray:
    """``value`` as an array of real numbers (bool, complex, text and objects refused)."""
    array = as_array(value, name)
    if array.dtype == np.bool_ or not (
        np.issubdtype(array.dtype, np.integer) or np.issubdtype(array.dtype, np.floating)
    ):
        raise TypeError(f"{name}: expected real numbers, got an array of dtype {array.dtype}")
    return array.astype(dtype, copy=False)


def check_values(
    array: np.ndarray,
    name: str,
    *,
    minimum: float | None = None,
    strict: bool = False,
    maximum: float | None = None,
    magnitude: float | None = None,
    finite: bool = True,
    whole: bool = False,
    infinity: bool = False,
) -> None:
    """Raise ValueError at the first element that is NaN/inf or out of range.

    ``minimum``/``maximum`` bound the values (``strict`` makes the minimum
    exclusive), ``magnitude`` bounds their absolute values, ``whole`` asks
    for whole numbers. With ``finite=False`` NaN passes the checks; with
    ``infinity=True`` +inf does (a limit that means "none").
    """
    if array.size == 0:
        return
    with np.errstate(invalid="ignore"):
        rules = []
        if infinity:
            rules.append((np.isnan(array) | (array == -np.inf), "must be a number or inf"))
        elif finite:
            rules.append((~np.isfinite(array), "must be finite"))
        else:
            rules.append((np.isinf(array), "must be finite"))
        if minimum is not None:
            rules.append((array <= minimum if strict else array < minimum,
                          f"must be {'>' if strict else '>='} {_number(minimum)}"))
        if maximum is not None:
            rules.append((array > maximum, f"must be <= {_number(maximum)}"))
        if magnitude is not None:
            rules.append((np.abs(array) > magnitude, f"must be between {_number(-magnitude)} and {_number(magnitude)}"))
        if whole:
            rules.append((np.isfinite(array) & (array != np.round(array)), "must be a whole number"))
    for bad, rule in rules:
        if bad.any():
            at = _first(bad)
            raise ValueError(f"{_index_text(name, at)} is {array[at].item()!r}; {rule}")


def scalar(
    value,
    name: str,
    *,
    minimum: float | None = None,
    strict: bool = False,
    maximum: float | None = None,
) -> float:
    """A finite real scalar (a 0-d real array is accepted), optionally bounded."""
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype != np.bool_ and (
        np.issubdtype(value.dtype, np.integer) or np.issubdtype(value.dtype, np.floating)
    ):
        value = value.item()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (numbers.Real, np.floating, np.integer)):
        raise TypeError(f"{name}: expected a real number, got {type(value).__name__} {value!r}")
    try:
        number = float(value)
    except OverflowError:  # an int too large for a double
        raise ValueError(f"{name} is an integer of {len(str(abs(value)))} digits; must be finite") from None
    check_values(np.asarray(number), name, minimum=minimum, strict=strict, maximum=maximum)
    return number


def integer(value, name: str, *, minimum: int | None = None, maximum: int | None = None) -> int:
    """A Python int (numpy integers accepted), optionally bounded."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name}: expected an integer, got bool {value!r}")
    try:
        number = operator.index(value)
    except TypeError:
        raise TypeError(f"{name}: expected an integer, got {type(value).__name__} {value!r}") from None
    if minimum is not None and number < minimum:
        raise ValueError(f"{name} is {number}; must be >= {minimum}")
    if maximum is not None and number > maximum:
        raise ValueError(f"{name} is {number}; must be <= {maximum}")
    return number


def boolean(value, name: str) -> bool:
    """A bool (numpy bools accepted)."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name}: expected True or False, got {type(value).__name__} {value!r}")
    return bool(value)


def shape_text(shapes: Sequence[tuple[int, ...]]) -> str:
    return " or ".join(str(tuple(s)) if s else "a scalar" for s in shapes)


def shaped(
    value,
    name: str,
    shapes: Sequence[tuple[int, ...]],
    target: tuple[int, ...],
    broadcast_view: bool = False,
    **checks,
) -> np.ndarray:
    """``value`` as a float64 array of one of ``shapes``, broadcast to ``target``.

    The values are checked with :func:`check_values` (keyword ``checks``)
    before broadcasting, so errors give indices into what the caller passed.
    The returned array is C-contiguous, or with ``broadcast_view`` a
    read-only view that repeats the values without copying them (its last
    axis contiguous).
    """
    array = real_array(value, name)
    if array.shape not in [tuple(s) for s in shapes]:
        raise ValueError(f"{name}: expected {shape_text(shapes)}, got shape {array.shape}")
    check_values(array, name, **checks)
    if broadcast_view:
        return np.broadcast_to(np.ascontiguousarray(array), target)
    return np.ascontiguousarray(np.broadcast_to(array, target))


def flags(value, name: str, shapes: Sequence[tuple[int, ...]], target: tuple[int, ...]) -> np.ndarray:
    """``value`` as a bool array of one of ``shapes`` broadcast to ``target``.

    Booleans are accepted, and integers that are 0 or 1.
    """
    array = as_array(value, name)
    if array.dtype != np.bool_:
        if not np.issubdtype(array.dtype, np.integer):
            raise TypeError(f"{name}: expected booleans, got an array of dtype {array.dtype}")
        bad = (array != 0) & (array != 1)
        if bad.any():
            at = _first(bad)
            raise ValueError(f"{_index_text(name, at)} is {array[at].item()!r}; must be True or False (or 0 or 1)")
    if array.shape not in [tuple(s) for s in shapes]:
        raise ValueError(f"{name}: expected {shape_text(shapes)}, got shape {array.shape}")
    return np.array(np.broadcast_to(array.astype(bool), target), dtype=bool)  # a copy; a scalar stays 0-d


def ids_array(ids, name: str = "ids", what: str = "agent") -> np.ndarray:
    """A 1-D int64 array of ids (of agents, or of ``what``: ``ids_array(sinks, "sinks", "sink")``).

    Numbers that are not integers are named with their index: the first one
    that is not a whole number (NaN, 0.5), else the first (``sinks[0] is
    0.0``: a float array, refused all the same).
    """
    array = as_array(ids, name)
    if array.ndim == 0:
        array = array.reshape(1)
    if array.size and (array.dtype == np.bool_ or not np.issubdtype(array.dtype, np.integer)):
        if array.dtype == np.bool_ or np.issubdtype(array.dtype, np.number):
            with np.errstate(invalid="ignore"):
                odd = ~np.isfinite(array) | (array != np.round(array)) if np.issubdtype(array.dtype, np.inexact) \
                    else np.zeros(array.shape, bool)
            at = _first(odd) if odd.any() else (0,) * array.ndim
            raise TypeError(f"{_index_text(name, at)} is {array[at].item()!r}; expected integer {what} ids, "
                            f"got an array of dtype {array.dtype}")
        raise TypeError(f"{name}: expected integer {what} ids, got an array of dtype {array.dtype}")
    if array.ndim != 1:
        raise ValueError(f"{name}: expected a 1-D array of {what} ids, got shape {array.shape}")
    if array.size and np.issubdtype(array.dtype, np.unsignedinteger):
        too_big = array > np.iinfo(np.int64).max
        if too_big.any():
            at = _first(too_big)
            raise ValueError(f"{_index_text(name, at)}: no {what} with id {array[at].item()}")
    return array.astype(np.int64, copy=False)


def is_instance_of(value, module: str, name: str) -> bool:
    """``isinstance`` by the class's module and name, for a module that the class's module imports
    (importing the class back would close an import circle)."""
    return any(cls.__module__ == module and cls.__name__ == name for cls in type(value).__mro__)
