"""Avoidance methods: configuration objects that a Simulator or Batch runs.

A method object only holds settings; pass it as ``method=`` or assign it to
``sim.method`` between steps. Every method reads the same neighbours and
agent parameters, so comparisons measure the algorithm alone.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from . import _core
from ._checks import integer, scalar


@dataclass(frozen=True, kw_only=True)
class Method:
    """Settings every method shares.

    Parameters
    ----------
    perturbation
        Each step, add to every goal-seeking agent's preferred velocity a
        random vector of length uniform in ``[0, perturbation)`` and uniform
        direction (RVO2's Blocks example uses 1e-4). Exact symmetry, such as
        two agents exactly head-on, deadlocks reciprocal methods; a tiny
        perturbation breaks it. A jam that is a stable equilibrium (agents
        exactly evenly spaced on a small circle meet in a ring around the
        centre and stop) needs a larger one, about 10 % of the preferred
        speed. 0 (the default) disables it.
    seed
        Seed of the perturbation. The draws depend only on (seed, agent id,
        step), so results do not depend on the thread count.
    """

    perturbation: float = 0.0
    seed: int = 0
    name = ""

    def __post_init__(self):
        scalar(self.perturbation, "perturbation", minimum=0.0)
        integer(self.seed, "seed", minimum=0)
        if self.seed >= 2**64:
            raise ValueError(f"seed is {self.seed}; must be < 2**64")

    def _make_core(self):
        core = self._core_method()
        core.set_preference_noise(float(self.perturbation), int(self.seed))
        return core

    def _core_method(self):  # pragma: no cover - every subclass defines it
        raise NotImplementedError

    def to_dict(self) -> dict:
        """The configuration as plain data (for JSON and saved results)."""
        return {"method": self.name, **asdict(self)}


@dataclass(frozen=True, kw_only=True)
class ORCA(Method):
    """Optimal Reciprocal Collision Avoidance, as in the RVO2 library.

    Each neighbour contributes a half-plane of admissible velocities, shared
    equally by the pair; each obstacle edge one that the agent takes alone.
    The new velocity is the admissible one nearest to the preferred
    velocity, or the least-violating one when the half-planes leave no room
    (linear program 3, which keeps obstacle half-planes hard). The defaults
    reproduce RVO2.

    Parameters
    ----------
    bisector_weight
        Weight ``w`` of the projected lines in linear program 3,
        ``normalize(w * d_j - d_i)``. 1 is the bisector of the published
        algorithm; smaller values lean towards the violated line's reverse,
        larger ones towards the other line.
    perturbation, seed
        See :class:`Method`.
    """

    bisector_weight: float = 1.0
    name = "ORCA"

    def __post_init__(self):
        super().__post_init__()
        scalar(self.bisector_weight, "bisector_weight", minimum=0.0, strict=True)

    def _core_method(self):
        return _core.Orca(bisector_weight=float(self.bisector_weight))
