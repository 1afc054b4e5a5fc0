"""Many independent scenes stepped together."""

from __future__ import annotations

import numpy as np

from ._simulation import _Simulation, add_agents_method
from .methods import Method


class Batch(_Simulation):
    """``scenes`` independent scenes with the same number of agent slots, stepped together.

    Every per-agent field is a ``(B, N, ...)`` view of the engine's memory.
    Scenes never interact; all of them run in one C++ loop (in parallel),
    which is what makes parameter sweeps and seeds cheap. Ids are unique
    across scenes (``batch.ids`` is ``(B, N)``). Removing the agents of a
    slot in every scene removes the slot: the later slots move down (read the
    views again). Removing an agent from some scenes only leaves an inactive
    slot in those scenes (``batch.active`` False, id -1).

    Parameters
    ----------
    scenes
        Number of scenes B (1 to 2**31 - 1).
    time_step
        Seconds per step (1e-15 to 1e15), shared by all scenes.
    method
        The avoidance method, ``vosim.ORCA()`` by default, or its name
        (``"orca"``, ``"hrvo"``, ...) for its defaults.
    dimensions
        2 (agents in the plane, the default) or 3 (in space: vector fields
        are ``(B, N, 3)``).
    """

    _scene_axis = True

    def __init__(self, scenes: int, time_step: float = 0.25, *, method: Method | str | None = None,
                 dimensions: int = 2):
        super().__init__(scenes, time_step, method, dimensions)

    def __repr__(self) -> str:
        return (f"Batch(scenes={self.scenes}, agents={self.num_agents}, dimensions={self.dimensions}, "
                f"time_step={self.time_step}, "
                f"method={self.method!r}, time={self.time:g})")

    @property
    def scenes(self) -> int:
        """Number of scenes B."""
        return self._engine.scenes

    add_agents = add_agents_method(
        """Add ``n`` agents to every scene; returns their ids, shape ``(B, n)``.

        ``positions`` is ``(B, n, 2)``, or ``(n, 2)`` for the same start in
        every scene. Every other argument is as in
        :meth:`Simulator.add_agents`, and may also carry a leading scene axis:
        ``(B, n)`` for scalars, ``(B, n, 2)`` for vectors.

        Parameters
        ----------
        positions
            ``(B, n, 2)`` or ``(n, 2)`` start positions, each coordinate within +-1e15.
{parameters}
        waypoints, waypoint_radius, waypoint_advance, strict
            As in :meth:`Simulator.add_agents`; waypoints may also be one list
            of ``n`` entries per scene.
        """,
        vector_shape="``(B, n, 2)``, ``(n, 2)`` or one ``(2,)`` vector for all",
        scalar_shape="A scalar for all, ``(n,)`` or ``(B, n)``",
    )
