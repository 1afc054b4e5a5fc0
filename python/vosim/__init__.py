"""vosim: multi-agent local collision avoidance with a C++ core.

ORCA (the RVO2 algorithm) and other avoidance methods on one engine: one
neighbour search, one integrator, agent state shared with NumPy without
copying, many steps and scenes run in C++ with the GIL released.
"""

from ._loading import load, load_state
from ._overlap_warning import OverlapWarning
from ._threads import (get_num_threads, have_openmp, have_threads, set_num_threads, set_simd_level, simd_level,
                       thread_limit)
from .batch import Batch
from .methods import (AVO, HRVO, ORCA, RVO, VO, AdaptiveSampling, CollisionFreeSpeed, ForceBased, GridSampling, Method,
                      SocialForce)
from .methods import METHODS as _METHODS
from .shapes3d import Box, ConvexPolyhedron, HalfSpace, ObstacleSet3D, Plane, Sphere
from .simulator import Simulator
from .trajectory import Trajectory
from ._waiting import WaitingStage
from ._waypoints import Waypoints

# Submodules reachable as attributes without importing them first
# (``vosim.plot.trajectories(...)``); imported on first use, so that
# ``import vosim`` needs only NumPy and stays quick. ``vosim.view`` is also
# callable: ``vosim.view(obj)`` is ``vosim.view.view(obj)``.
_LAZY_SUBMODULES = ("measurement", "metrics", "plot", "scenarios", "validation", "view")
# Names whose modules load on first use (``from vosim import compare`` too):
# the comparison and sweep machinery, and the installed version, which the
# package metadata gives slowly.
_LAZY_NAMES = {"compare": ".comparison", "sweep": ".sweeps", "__version__": "._version"}


def __getattr__(name: str):
    import importlib

    if name in _LAZY_SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    if name in _LAZY_NAMES:
        value = getattr(importlib.import_module(_LAZY_NAMES[name], __name__), name)
        globals()[name] = value  # once: later reads find it here
        return value
    raise AttributeError(f"module 'vosim' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY_SUBMODULES) | set(_LAZY_NAMES))


__all__ = [
    "AdaptiveSampling",
    "Batch",
    "Box",
    "ConvexPolyhedron",
    "CollisionFreeSpeed",
    "ForceBased",
    "GridSampling",
    "HalfSpace",
    "HRVO",
    "Method",
    "ObstacleSet3D",
    "ORCA",
    "OverlapWarning",
    "AVO",
    "Plane",
    "RVO",
    "SocialForce",
    "VO",
    "Simulator",
    "Sphere",
    "Trajectory",
    "WaitingStage",
    "Waypoints",
    "compare",
    "get_num_threads",
    "load",
    "load_state",
    "have_openmp",
    "have_threads",
    "set_num_threads",
    "set_simd_level",
    "simd_level",
    "sweep",
    "thread_limit",
    "view",
    "__version__",
]
# Every registered method is exported, including any without a name above.
__all__ += [name for name in _METHODS if name not in __all__]
globals().update(_METHODS)
