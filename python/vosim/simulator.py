"""A single scene of agents."""

from __future__ import annotations

import numpy as np

from ._simulation import _Simulation
from .methods import Method
from .navigation._goals import GoalMethods


class Simulator(GoalMethods, _Simulation):
    """Agents in one scene, stepped by one avoidance method.

    All per-agent state lives in the C++ engine and is shown as NumPy views
    without copying: ``sim.positions`` is an ``(N, 2)`` float64 array, and
    writing into it changes the simulation. Views taken before agents are
    added or removed keep their old memory (stale, never dangling): read the
    attribute again afterwards.

    Parameters
    ----------
    time_step
        Seconds per step, from 1e-15 to 1e15.
    method
        The avoidance method, ``vosim.ORCA()`` by default, or its name
        (``"orca"``, ``"hrvo"``, ``"adaptive"``, ...) for its defaults.

    Examples
    --------
    Two agents exactly head-on: ORCA, like RVO2, stalls them face to face
    (neither prefers a side), and ``run`` warns that they did not arrive.

    >>> import warnings, vosim
    >>> sim = vosim.Simulator(time_step=0.25)
    >>> ids = sim.add_agents([[-5.0, 0.0], [5.0, 0.0]], goals=[[5.0, 0.0], [-5.0, 0.0]], radius=0.5)
    >>> with warnings.catch_warnings(record=True):
    ...     traj = sim.run(200, until_arrived=True)
    >>> traj.all_arrived, int(traj.metrics["stalled_agents"])
    (False, 2)

    A deadlock rule (or a perturbation) lets them pass:

    >>> sim = vosim.Simulator(time_step=0.25, method=vosim.ORCA(deadlock="sidestep"))
    >>> ids = sim.add_agents([[-5.0, 0.0], [5.0, 0.0]], goals=[[5.0, 0.0], [-5.0, 0.0]], radius=0.5)
    >>> sim.run(200, until_arrived=True).all_arrived
    True
    """

    _scene_axis = False

    def __init__(self, time_step: float = 0.25, *, method: Method | str | None = None):
        super().__init__(1, time_step, method)

    def __repr__(self) -> str:
        return (f"Simulator(agents={self.num_agents}, time_step={self.time_step}, "
                f"method={self.method!r}, time={self.time:g})")

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
        """Add ``n`` agents and return their ids (int64, stable for the agents' lives).

        Parameters
        ----------
        positions
            ``(n, 2)`` start positions, each coordinate within +-1e15.
        velocities, pref_velocities
            ``(n, 2)`` or one ``(2,)`` vector for all (within +-1e15); zero by
            default.
        radius, max_speed, neighbor_dist, max_neighbors, time_horizon, time_horizon_obst
            A scalar for all agents or an ``(n,)`` array. Radii, speeds and
            distances from 0 to 1e15, time horizons from 1e-15 to 1e15,
            max_neighbors a whole number from 0 to 2**31 - 1 (the working
            range, see the README). The defaults are those of RVO2's
            examples.
        goals
            ``(n, 2)`` goals, or None. An agent with a goal heads for it:
            before each step its preferred velocity becomes
            ``goal - position``, shortened to ``pref_speed`` when longer. A row
            of NaN means that agent has no goal and keeps the preferred
            velocity you write.
        pref_speed
            Speed towards the goal; defaults to ``max_speed``.
        arrival_radius
            An agent counts as arrived within this distance of its goal;
            defaults to its radius.
        priority
            ORCA shares the avoidance of a pair in proportion: agent A takes
            ``priority_B / (priority_A + priority_B)`` of it (half when equal,
            which is RVO2; all of it when A's is 0 and B's is not).
        max_acceleration
            Largest change of velocity per second, applied after any method
            chose a velocity (as in the HRVO library); None (the default) or
            inf is unlimited. Limits void ORCA's collision-free guarantee.
        uncertainty_offset
            Velocity-obstacle methods (VO, RVO, HRVO) widen every cone by
            this, as the HRVO library's agents do; 0 by default.
        waypoints, waypoint_radius
            Instead of goals: a sequence of ``n`` arrays ``(k_i, 2)`` of
            points to visit in order (None: no waypoints for that agent),
            and the distance at which one counts as reached (default: the
            arrival radius). See :meth:`set_waypoints`.
        strict
            Refuse (ValueError) agents whose centre lies inside a solid
            obstacle or outside the boundary.

        Raises
        ------
        ValueError, TypeError
            Naming the argument, the first bad index and the value; no agent
            is added.
        RuntimeError
            When another thread is stepping or changing this simulator.
        """
        return self._add_agents(
            positions, velocities=velocities, radius=radius, max_speed=max_speed,
            neighbor_dist=neighbor_dist, max_neighbors=max_neighbors, time_horizon=time_horizon,
            time_horizon_obst=time_horizon_obst, goals=goals, pref_speed=pref_speed,
            pref_velocities=pref_velocities, arrival_radius=arrival_radius, priority=priority,
            max_acceleration=max_acceleration, uncertainty_offset=uncertainty_offset, waypoints=waypoints,
            waypoint_radius=waypoint_radius, strict=strict,
        )
