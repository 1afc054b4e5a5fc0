"""Many independent scenes stepped together."""

from __future__ import annotations

import numpy as np

from ._simulation import _Simulation
from .methods import Method


class Batch(_Simulation):
    """``scenes`` independent scenes with the same number of agent slots, stepped together.

    Every per-agent field is a ``(B, N, ...)`` view of the engine's memory.
    Scenes never interact; all of them run in one C++ loop (in parallel),
    which is what makes parameter sweeps and seeds cheap. Agents removed
    from some scenes only leave inactive slots behind (``batch.active``).

    Parameters
    ----------
    scenes
        Number of scenes B (1 to 2**31 - 1).
    time_step
        Seconds per step (1e-15 to 1e15), shared by all scenes.
    method
        The avoidance method, ``vosim.ORCA()`` by default, or its name
        (``"orca"``, ``"hrvo"``, ...) for its defaults.
    """

    _scene_axis = True

    def __init__(self, scenes: int, time_step: float = 0.25, *, method: Method | str | None = None):
        super().__init__(scenes, time_step, method)

    def __repr__(self) -> str:
        return (f"Batch(scenes={self.scenes}, agents={self.num_agents}, time_step={self.time_step}, "
                f"method={self.method!r}, time={self.time:g})")

    @property
    def scenes(self) -> int:
        """Number of scenes B."""
        return self._engine.scenes

    def add_agents(
        self,
        positions,
        *,
        velocities=None,
        radius=1.5,
        max_speed=2.0,
        neighbor_dist=15.0,
        max_neighbors=10,
        time_horizon=10.0,
        time_horizon_obst=10.0,
        goals=None,
        pref_speed=None,
        pref_velocities=None,
        arrival_radius=None,
        priority=1.0,
        max_acceleration=None,
        uncertainty_offset=0.0,
        waypoints=None,
        waypoint_radius=None,
        strict=True,
    ) -> np.ndarray:
        """Add ``n`` agents to every scene; returns their ids, shape ``(B, n)``.

        ``positions`` is ``(B, n, 2)``, or ``(n, 2)`` for the same start in
        every scene. Every other argument is as in
        :meth:`Simulator.add_agents`, and may also carry a leading scene axis:
        ``(B, n)`` for scalars, ``(B, n, 2)`` for vectors.
        """
        return self._add_agents(
            positions, velocities=velocities, radius=radius, max_speed=max_speed,
            neighbor_dist=neighbor_dist, max_neighbors=max_neighbors, time_horizon=time_horizon,
            time_horizon_obst=time_horizon_obst, goals=goals, pref_speed=pref_speed,
            pref_velocities=pref_velocities, arrival_radius=arrival_radius, priority=priority,
            max_acceleration=max_acceleration, uncertainty_offset=uncertainty_offset, waypoints=waypoints,
            waypoint_radius=waypoint_radius, strict=strict,
        )
