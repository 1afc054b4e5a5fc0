"""vosim: multi-agent local collision avoidance with a C++ core.

ORCA (the RVO2 algorithm) and other avoidance methods on one engine: one
neighbour search, one integrator, agent state shared with NumPy without
copying, many steps and scenes run in C++ with the GIL released.
"""

from importlib.metadata import PackageNotFoundError, version as _version

from ._io import load
from ._threads import get_num_threads, have_openmp, set_num_threads, thread_limit
from .batch import Batch
from .comparison import compare
from .methods import HRVO, ORCA, RVO, VO, AdaptiveSampling, ForceBased, GridSampling, Method
from .simulator import Simulator
from ._sweep import sweep
from .trajectory import Trajectory

try:
    __version__ = _version("vosim")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0+unknown"

__all__ = [
    "AdaptiveSampling",
    "Batch",
    "ForceBased",
    "GridSampling",
    "HRVO",
    "Method",
    "ORCA",
    "RVO",
    "VO",
    "Simulator",
    "Trajectory",
    "compare",
    "get_num_threads",
    "load",
    "have_openmp",
    "set_num_threads",
    "sweep",
    "thread_limit",
    "__version__",
]
