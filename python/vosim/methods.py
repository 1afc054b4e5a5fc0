"""Avoidance methods: configuration objects that a Simulator or Batch runs.

A method object only holds settings; pass it as ``method=`` or assign it to
``sim.method`` between steps. Every method reads the same neighbours and
agent parameters, so comparisons measure the algorithm alone.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import asdict, dataclass

from . import _core
from ._checks import MAX_MAGNITUDE, scalar


class Method(ABC):
    """Base class of the method configurations (not usable on its own)."""

    name: str = ""

    @abstractmethod
    def _make_core(self):
        """The engine's object for this configuration."""

    def to_dict(self) -> dict:
        """The configuration as plain data (for JSON and saved results)."""
        return {"method": self.name, **asdict(self)}


@dataclass(frozen=True)
class ORCA(Method):
    """Optimal Reciprocal Collision Avoidance, as in the RVO2 library.

    Each neighbour contributes a half-plane of admissible velocities, shared
    equally by the pair; the new velocity is the admissible one nearest to the
    preferred velocity, or the least-violating one when the half-planes leave
    no room (linear program 3). The defaults reproduce RVO2.

    Parameters
    ----------
    bisector_weight
        Weight ``w`` of the projected lines in linear program 3,
        ``normalize(w * d_j - d_i)``, with ``0 < w <= 1e15``. 1 is the
        bisector of the published algorithm; smaller values lean towards the
        violated line's reverse, larger ones towards the other line.
    """

    bisector_weight: float = 1.0
    name = "ORCA"

    def __post_init__(self):
        scalar(self.bisector_weight, "bisector_weight", minimum=0.0, strict=True, maximum=MAX_MAGNITUDE)

    def _make_core(self):
        return _core.Orca(bisector_weight=float(self.bisector_weight))
