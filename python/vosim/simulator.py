"""A single scene of agents."""

from __future__ import annotations

import numpy as np

from ._parts import delegate, delegated_property
from ._simulation import _Simulation, add_agents_method
from .methods import Method
from .navigation import Navigation, navigation_state, restore_navigation


class Simulator(_Simulation):
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
    dimensions
        2 (agents in the plane, the default) or 3 (agents in space: every
        vector field is ``(N, 3)``; see "3D" in the user guide, docs/guide/three_d.md).

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

    def __init__(self, time_step: float = 0.25, *, method: Method | str | None = None, dimensions: int = 2):
        super().__init__(1, time_step, method, dimensions)

    # ------------------------------------------ navigation (its own part)
    set_goals = delegate(Navigation, Navigation.set_goals)
    set_exits = delegate(Navigation, Navigation.set_exits)
    chosen_exit = delegated_property(Navigation, Navigation.chosen_exit)
    chosen_route = delegated_property(Navigation, Navigation.chosen_route)

    def _route_pauser(self, replan_stalled):
        return self._part(Navigation).route_pauser(replan_stalled)

    def _navigation_state(self) -> dict | None:
        return navigation_state(self._part(Navigation))

    def _restore_navigation(self, state) -> None:
        restore_navigation(self._part(Navigation), state)

    def __repr__(self) -> str:
        return (f"Simulator(agents={self.num_agents}, dimensions={self.dimensions}, time_step={self.time_step}, "
                f"method={self.method!r}, time={self.time:g})")

    add_agents = add_agents_method(
        """Add ``n`` agents and return their ids (int64, stable for the agents' lives).

        Parameters
        ----------
        positions
            ``(n, 2)`` start positions, each coordinate within +-1e15.
{parameters}
        waypoints, waypoint_radius, waypoint_advance
            Instead of goals: a sequence of ``n`` arrays ``(k_i, D)`` of
            points to visit in order (None: no waypoints for that agent),
            the distance at which one counts as reached (default: the
            arrival radius), and the rule by which agents move on
            (``"distance"``, the default, ``"passed"`` or ``"visible"``; one
            for all or one per agent). See :meth:`set_waypoints`.
        strict
            Refuse (ValueError) agents whose centre lies inside a solid
            obstacle or outside the boundary.

        Scalars stand for every agent; None means the default. The ranges
        are the engine's working range (docs/guide/working_range.md); the defaults are
        a walking adult's (docs/guide/simulators.md, "The default agent"). An agent with a goal heads for it: before
        each step its preferred velocity becomes ``goal - position``,
        shortened to ``pref_speed`` when longer. A row of NaN in ``goals``
        means that agent has no goal and keeps the preferred velocity you
        write.

        Raises
        ------
        ValueError, TypeError
            Naming the argument, the first bad index and the value; no agent
            is added.
        RuntimeError
            When another thread is stepping or changing this simulator.
        """,
        vector_shape="``(n, 2)`` or one ``(2,)`` vector for all",
        scalar_shape="A scalar for all agents or an ``(n,)`` array",
    )
