"""Every ready-made scenario by name, planar and 3D, and the scene a name gives for a seed."""

from __future__ import annotations

import inspect
from typing import Callable

from ._library import LIBRARY
from ._library3d import SCENARIOS_3D
from ._scenario import Scenario
from ._warehouse import warehouse

#: Every planar scenario function by name (the command line's ``--scenario``).
SCENARIOS = {**LIBRARY, "warehouse": warehouse}

#: Every ready-made scenario by name: :data:`SCENARIOS` (planar), then :data:`SCENARIOS_3D`.
ALL_SCENARIOS = {**SCENARIOS, **SCENARIOS_3D}


def takes_seed(factory: Callable[..., Scenario]) -> bool:
    """Whether a scenario function takes ``seed=``; one that does not has a single fixed layout (``sphere``)."""
    try:
        return "seed" in inspect.signature(factory).parameters
    except (TypeError, ValueError):  # no signature to read: assume the usual seed= keyword
        return True
