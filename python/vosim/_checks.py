"""Argument checking shared by the public API.

Every error names the argument and, for arrays, the first bad index and its
value, e.g. ``radius[3] is -1.0; must be >= 0``.
"""

from __future__ import annotations

import numbers
import operator
from typing import Sequence

import numpy as np


def _index_text(name: str, index: Sequence[int]) -> str:
    if len(index) == 0:
        return name
    return f"{name}[{', '.join(str(int(i)) for i in index)}]"


def _first(mask: np.ndarray) -> tuple[int, ...]:
    return tuple(int(i) for i in np.argwhere(mask)[0])


def real_array(value, name: str, *, dtype=np.float64) -> np.ndarray:
    """``value`` as an array of real numbers (bool, complex, text and objects refused)."""
    try:
        array = np.asarray(value)
    except (ValueError, TypeError) as error:  # ragged nested sequences
        raise ValueError(f"{name}: cannot be read as an array of numbers ({error})") from None
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
    finite: bool = True,
    whole: bool = False,
) -> None:
    """Raise ValueError at the first element that is NaN (or inf, with ``finite``) or out of range."""
    if array.size == 0:
        return
    bad = ~np.isfinite(array) if finite else np.isnan(array)
    if bad.any():
        at = _first(bad)
        rule = "must be finite" if finite else "must be a number"
        raise ValueError(f"{_index_text(name, at)} is {array[at].item()!r}; {rule}")
    if minimum is not None:
        bad = array <= minimum if strict else array < minimum
        if bad.any():
            at = _first(bad)
            relation = ">" if strict else ">="
            raise ValueError(f"{_index_text(name, at)} is {array[at].item()!r}; must be {relation} {minimum:g}")
    if whole:
        bad = array != np.round(array)
        if bad.any():
            at = _first(bad)
            raise ValueError(f"{_index_text(name, at)} is {array[at].item()!r}; must be a whole number")


def scalar(value, name: str, *, minimum: float | None = None, strict: bool = False) -> float:
    """A finite real scalar, optionally bounded below."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, np.floating, np.integer)):
        raise TypeError(f"{name}: expected a real number, got {type(value).__name__} {value!r}")
    number = float(value)
    check_values(np.asarray(number), name, minimum=minimum, strict=strict)
    return number


def integer(value, name: str, *, minimum: int | None = None) -> int:
    """A Python int (numpy integers accepted), optionally bounded below."""
    if isinstance(value, bool):
        raise TypeError(f"{name}: expected an integer, got bool {value!r}")
    try:
        number = operator.index(value)
    except TypeError:
        raise TypeError(f"{name}: expected an integer, got {type(value).__name__} {value!r}") from None
    if minimum is not None and number < minimum:
        raise ValueError(f"{name} is {number}; must be >= {minimum}")
    return number


def shaped(
    value,
    name: str,
    shapes: Sequence[tuple[int, ...]],
    target: tuple[int, ...],
    **checks,
) -> np.ndarray:
    """``value`` as a float64 array of one of ``shapes``, broadcast to ``target``.

    The values are checked with :func:`check_values` (keyword ``checks``)
    before broadcasting, so errors give indices into what the caller passed.
    The returned array is C-contiguous.
    """
    array = real_array(value, name)
    if array.shape not in [tuple(s) for s in shapes]:
        expected = " or ".join(str(tuple(s)) if s else "a scalar" for s in shapes)
        raise ValueError(f"{name}: expected {expected}, got shape {array.shape}")
    check_values(array, name, **checks)
    return np.ascontiguousarray(np.broadcast_to(array, target))


def ids_array(ids, name: str = "ids") -> np.ndarray:
    """A 1-D int64 array of agent ids."""
    array = np.asarray(ids)
    if array.ndim == 0:
        array = array.reshape(1)
    if array.size and (array.dtype == np.bool_ or not np.issubdtype(array.dtype, np.integer)):
        raise TypeError(f"{name}: expected integer agent ids, got an array of dtype {array.dtype}")
    if array.ndim != 1:
        raise ValueError(f"{name}: expected a 1-D array of agent ids, got shape {array.shape}")
    return array.astype(np.int64, copy=False)
