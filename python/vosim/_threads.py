"""The number of threads the engine's parallel loops use."""

from __future__ import annotations

import os
import sys
import threading

from . import _core
from ._checks import integer
from ._dask import usable_cores


def set_num_threads(num_threads: int | None) -> None:
    """Set the number of threads every simulator's parallel loops use (process-wide).

    Results do not depend on it: they are bit-identical for any count.

    Parameters
    ----------
    num_threads
        From 1 to ``vosim.thread_limit()`` (4 per processor, at least 64;
        exactly 1 in a build without threads). None goes back to the default:
        ``OMP_NUM_THREADS`` when set, else the cores this process may use,
        or, in a Dask worker's task thread, its share of them (the cores
        over the worker's thread count). With that last default, each loop
        starts no more threads than the processors other programs leave
        idle (at least one); a count set here is used as it is.
    """
    if num_threads is None:
        _core.clear_num_threads()
        return
    _core.set_num_threads(integer(num_threads, "num_threads", minimum=1, maximum=_core.thread_limit()))


def simd_level() -> str:
    """The instruction set of the lane kernels: ``"scalar"``, ``"sse2"`` or ``"avx2"``.

    The sampling methods (VO, RVO, AdaptiveSampling, GridSampling) evaluate
    several neighbours at a time with it. The best one the CPU offers is
    chosen when vosim loads; results are bit-identical on every one.
    """
    return _core.simd_level()


def set_simd_level(level: str | None) -> None:
    """Pin the lane kernels to one instruction set (process-wide), to compare them.

    Parameters
    ----------
    level
        ``"scalar"``, ``"sse2"`` or ``"avx2"``, up to the best this build and
        CPU support; None goes back to that best one.

    Raises
    ------
    ValueError
        For an unknown level or one this build or CPU cannot run.
    """
    if level is None:
        level = _core.best_simd_level()
    if not isinstance(level, str):
        raise TypeError(f"level must be 'scalar', 'sse2', 'avx2' or None, not {level!r}")
    _core.set_simd_level(level)


def get_num_threads() -> int:
    """The number of threads the parallel loops started from this thread use."""
    return _core.get_num_threads()


_budget_checked = threading.local()


def take_worker_share() -> None:
    """Inside a Dask worker's task thread, default to its share of the cores.

    A worker runs ``nthreads`` tasks at once; each simulation stepping in
    one of them would otherwise start as many threads as the process has
    cores, and together they would oversubscribe the machine. So, unless
    ``OMP_NUM_THREADS`` is set (Dask's nanny sets it to 1 for the worker
    processes it starts) or :func:`set_num_threads` was called, steps
    started from such a thread use ``cores // nthreads`` threads (at least
    one). Decided once per thread; costs nothing outside Dask.
    """
    if getattr(_budget_checked, "done", False):
        return
    distributed = sys.modules.get("distributed")
    if distributed is None:
        return  # no Dask in this process yet: decide on a later call
    _budget_checked.done = True
    if os.environ.get("OMP_NUM_THREADS"):
        return
    try:
        worker = distributed.get_worker()
    except ValueError:  # not a worker's task thread
        return
    nthreads = getattr(getattr(worker, "state", None), "nthreads", None)
    if isinstance(nthreads, int) and nthreads > 0:
        _core.set_thread_budget(min(_core.thread_limit(), max(1, usable_cores() // nthreads)))


def have_threads() -> bool:
    """Whether this build runs steps on several threads (the engine's own pool)."""
    return _core.have_threads()


def have_openmp() -> bool:
    """Deprecated: vosim no longer uses OpenMP; use :func:`have_threads`."""
    import warnings

    warnings.warn(
        "vosim.have_openmp() is deprecated: vosim runs its loops on its own thread pool, not OpenMP; "
        "use vosim.have_threads()",
        DeprecationWarning,
        stacklevel=2,
    )
    return _core.have_threads()


def thread_limit() -> int:
    """The largest number of threads :func:`set_num_threads` accepts."""
    return _core.thread_limit()
