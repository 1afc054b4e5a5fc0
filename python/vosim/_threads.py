"""The number of threads the engine's parallel loops use."""

from __future__ import annotations

from . import _core
from ._checks import integer


def set_num_threads(num_threads: int) -> None:
    """Set the number of threads every simulator's parallel loops use (process-wide).

    Results do not depend on it: they are bit-identical for any count.

    Parameters
    ----------
    num_threads
        From 1 to ``vosim.thread_limit()`` (4 per processor, at least 64;
        exactly 1 in a build without OpenMP).
    """
    _core.set_num_threads(integer(num_threads, "num_threads", minimum=1, maximum=_core.thread_limit()))


def get_num_threads() -> int:
    """The number of threads the parallel loops use."""
    return _core.get_num_threads()


def have_openmp() -> bool:
    """Whether this build runs steps in parallel."""
    return _core.have_openmp()


def thread_limit() -> int:
    """The largest number of threads :func:`set_num_threads` accepts."""
    return _core.thread_limit()
