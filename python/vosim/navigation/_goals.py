"""A simulator's navigation: goals for many agents, optionally turned into planned waypoints
(``set_goals``), exits chosen among sinks (``set_exits``), and the run's pauses to re-route.

``Navigation`` is a part the Simulator owns (``_parts.py``): it keeps what
navigation decides (the exits' choice, the planner that re-planning uses,
the stall clock) and works on its simulator through the public API only.
"""

from __future__ import annotations

import weakref

import numpy as np

from .._checks import MAX_MAGNITUDE, ids_array, scalar, shaped
from .._waypoint_advance import advance_codes
from ._geometry import points_array
from ._planners import builder_of, plan_on_roadmap, warn_off_mesh

PLANNERS = ("roadmap", "navmesh")


class Navigation:
    """A simulator's navigation: the part behind ``set_goals``, ``set_exits``, ``chosen_exit`` and
    ``chosen_route``, and the run's pauses to re-route."""

    def __init__(self, sim):
        # Weakly: the simulator owns its parts, and its engine should go with it, not with the next
        # garbage collection.
        self._owner = weakref.ref(sim)
        #: The exits' choice (``set_exits``), None until exits are set.
        self.exits = None
        #: ``(planner, clearance)`` of the last planned ``set_goals``: what re-planning plans with.
        self.plan = None
        #: Re-planning's clock, carried from run to run (``_replanning.stall_replanner``).
        self.stall_clock = None

    @property
    def sim(self):
        sim = self._owner()
        if sim is None:  # pragma: no cover - a part lives no longer than its simulator
            raise RuntimeError("this simulator is gone")
        return sim

    def route_pauser(self, replan_stalled):
        """The run's pauses to re-route (``_Simulation._route_pauser``): the exits' choices and times, and
        stalled agents re-planned (``run(replan_stalled=)``); where both re-route an agent, the exits win."""
        from ._exits import merge_pausers
        from ._replanning import stall_replanner

        sim = self.sim
        stalled = None if replan_stalled is None else stall_replanner(self, replan_stalled)
        exits = None if self.exits is None else self.exits.pauser(sim)  # set_exits(reevaluate=...), times
        return merge_pausers(exits, stalled)

    def _slots_of(self, ids: np.ndarray) -> np.ndarray:
        """Each id's slot; ValueError naming the first unknown id."""
        sim = self.sim
        known = np.asarray(sim.ids)
        order = np.argsort(known, kind="stable")
        at = np.minimum(np.searchsorted(known[order], ids), max(len(known) - 1, 0))
        missing = (known[order][at] != ids) if len(known) else np.ones(len(ids), dtype=bool)
        if missing.any():
            k = int(np.argmax(missing))
            raise ValueError(f"ids[{k}]: no agent with id {int(ids[k])}")
        return order[at]

    def set_goals(self, ids, goals, *, plan=None, waypoint_radius=None, clearance: float = 0.0,
                  waypoint_advance="visible") -> None:
        """Send agents to new goals, planning the way round obstacles if asked.

        Parameters
        ----------
        ids
            Agent ids, ``(m,)``.
        goals
            ``(m, 2)`` goals.
        plan
            None: head straight for the goal. ``"roadmap"`` or
            ``"navmesh"``: plan each agent's path from where it is now with a
            :class:`~vosim.navigation.Roadmap` or
            :class:`~vosim.navigation.NavMesh` built from this simulator's
            obstacles for the largest radius among these agents; or such a
            planner, built before (reuse one for many calls). The path's
            corners become the agents' waypoints, the goal the last.
        waypoint_radius
            Distance at which a waypoint counts as reached, a scalar or
            ``(m,)``; by default each agent's arrival radius.
        clearance
            With ``plan="roadmap"`` or ``"navmesh"``: extra distance the
            paths keep from obstacles.
        waypoint_advance
            When an agent moves on from a path's corner: ``"visible"``
            (default: within ``waypoint_radius`` of it, once past it, or once
            the next corner is in line of sight), ``"passed"`` (within the
            radius or past it) or ``"distance"`` (only within
            ``waypoint_radius``: a crowd that shares a corner can ring it
            for ever, those that cannot get near it held back by the
            others); one for all or ``(m,)``. See :meth:`set_waypoints`.

        Notes
        -----
        The last ``plan`` given is kept for ``run(replan_stalled=...)``,
        which plans stalled agents again with it (a string: built again from
        the simulator then). Checkpoints carry it.

        An agent standing off the navigation mesh (inside an obstacle's
        solid, or nearer to a wall than the mesh's inflation allows) does
        not fail the others' plans: with a NavMesh its path begins with the
        mesh's nearest point, and a warning names it and how far off it
        stands; with a Roadmap, an agent that sees neither its goal nor any
        roadmap point (inside an obstacle's solid) heads straight for its
        goal, unplanned, and a warning names it and how far off it stands.

        Raises
        ------
        ValueError
            Unknown or repeated ids, bad goals, or a goal that cannot be reached (naming
            the agent); no agent is changed then.
        """
        from ._navmesh import NavMesh
        from ._roadmap import Roadmap

        sim = self.sim
        if isinstance(plan, str) and plan not in PLANNERS:
            raise ValueError(f"plan is {plan!r}; must be None, {', '.join(map(repr, PLANNERS))}, "
                             "a vosim.navigation.Roadmap or a NavMesh")
        if not (plan is None or isinstance(plan, (str, Roadmap, NavMesh))):
            raise TypeError(f"plan: expected None, 'roadmap', 'navmesh', a Roadmap or a NavMesh, "
                            f"got {type(plan).__name__}")
        ids = ids_array(ids)
        unique, first = np.unique(ids, return_index=True)
        if len(unique) < len(ids):  # one goal per agent: a repeated id would leave one of its goals unused
            k = int(np.setdiff1d(np.arange(len(ids)), first)[0])
            raise ValueError(f"ids[{k}]: id {int(ids[k])} is given twice (also ids[{int(np.argmax(ids == ids[k]))}])")
        goals = points_array(goals, "goals")
        if len(goals) != len(ids):
            raise ValueError(f"goals: expected {len(ids)} goals (one per id), got {len(goals)}")
        slots = self._slots_of(ids)
        if waypoint_radius is None:
            waypoint_radius = np.asarray(sim.arrival_radius)[slots]
        waypoint_radius = shaped(waypoint_radius, "waypoint_radius", [(), (len(ids),)], (len(ids),),
                                 minimum=0.0, maximum=MAX_MAGNITUDE)
        advance = advance_codes(waypoint_advance, len(ids))
        if len(ids) == 0:
            return
        planner = plan
        if plan is None:
            offsets, points = np.arange(len(ids) + 1, dtype=np.int64), goals
        else:
            if isinstance(plan, str):
                radius = float(np.asarray(sim.radius)[slots].max())
                # A mesh without a boundary spans the box round what it knows: the new goals too.
                extra = {"points": goals} if plan == "navmesh" else {}
                plan = builder_of(plan).from_simulator(sim, radius=radius, clearance=clearance, **extra)
            starts = np.ascontiguousarray(np.asarray(sim.positions)[slots])
            label = lambda i: f"agent {int(ids[i])}"  # noqa: E731
            if isinstance(plan, NavMesh):
                warn_off_mesh(plan, starts, ids)
                offsets, points = plan.plan_flat(starts, goals, label, snap_starts=True)
            else:
                offsets, points = plan_on_roadmap(plan, starts, goals, ids, label)
        sim.waypoints.set_tracks(ids, offsets, points, waypoint_radius, advance)
        if planner is not None:  # what run(replan_stalled=...) plans with (checkpoints carry it)
            self.plan = (planner, clearance)

    def set_exits(self, sinks, *, choice: str = "nearest", assignment=None, reevaluate=None,
                  via=None, plan="navmesh", clearance: float = 0.0, waypoint_radius=None,
                  waypoint_advance="visible") -> None:
        """Send every active agent to one of several exits (sinks), chosen by a strategy.

        Each agent heads for its exit's middle (a line sink's midpoint, an
        area sink's centroid) along a planned path, and leaves the simulation
        when it reaches the sink (see :meth:`add_sink`); ``chosen_exit``
        records which sink each agent chose, ``exit_sink`` through which it
        left.

        Parameters
        ----------
        sinks
            Ids of sinks already added with :meth:`add_sink`, ``(e,)``.
        choice
            ``"nearest"``: the exit with the shortest planned path.
            ``"quickest"``: the least estimated time, the time to walk the
            path at the preferred speed (slower or faster through the speed
            zones it crosses, ``add_speed_zone``) plus the agents already heading for that exit
            divided by its capacity (``vosim.navigation.SPECIFIC_FLOW``
            persons per metre of width and second; a line's width is its
            length, an area's its longest side); agents choose one after
            another, the one nearest to any exit first.
            ``"assigned"``: the sink given per agent in ``assignment`` (its
            first route where it is listed more than once).
        assignment
            With ``choice="assigned"``: one sink id per agent (every agent,
            in slot order, as ``ids``); inactive agents' entries are unused.
        reevaluate
            Every this many seconds of simulated time, ``run()`` and
            ``step()`` choose again for the agents still inside, from where
            they are (an assigned exit stays), and plan each of them again to
            its exit: agents pushed off their path (through a side door, into
            a corner) find their way back. None: the first choice and paths
            stay. The period carries across consecutive runs and steps.
        via
            Routes: None (each sink reached by the shortest path), or a list
            with one entry per sink, None or ``(k, 2)`` points the path to
            it passes through in order. A sink may then be listed more than
            once, with other via points, as another route to it (a short
            way over stairs and a long level one, say); routes to one sink
            share its queue, ``chosen_route`` tells them apart.
        plan
            ``"navmesh"`` (default), ``"roadmap"``, a planner built before,
            or None (straight lines to the exits, their lengths compared). A
            string is built once from the simulator's static obstacles now
            and reused by the re-evaluations.
        clearance
            Extra distance the planned paths keep from obstacles.
        waypoint_radius
            Distance at which a path's corner counts as passed; by default
            each agent's arrival radius.
        waypoint_advance
            When an agent moves on from a path's corner: ``"visible"``
            (default), ``"passed"`` or ``"distance"`` (see :meth:`set_goals`
            and :meth:`set_waypoints`); kept for the re-evaluations.

        Notes
        -----
        Exits open only for a time (``add_sink(opens_at=..., closes_at=...)``,
        :meth:`set_sink_times`: ISO 20414's dynamic availability of exits)
        are left out of the choice while closed; ``run()`` chooses again,
        for every agent still inside, at the step where one of them opens or
        closes (an agent assigned a closed exit takes the nearest open one;
        while every exit is closed, choices stay).

        The exits, the choice and the planner are kept on the simulator
        for ``run()``'s re-evaluations; checkpoints (pickles, copies,
        :meth:`save_state`) carry them.
        Agents added later are chosen for at the next re-evaluation (with
        ``"assigned"``, they have no exit and are left alone).

        Raises
        ------
        ValueError
            An unknown or repeated sink id, an unknown ``choice``, an
            ``assignment`` of the wrong length or naming a sink not listed,
            ``assignment`` given to another strategy, a bad ``reevaluate``,
            ``via`` of the wrong length or with bad points, an unknown ``waypoint_advance``, or an exit no agent can reach
            (naming the agent); nothing is changed then.
        """
        from ._exits import ExitChoice
        from ._navmesh import NavMesh
        from ._roadmap import Roadmap

        sim = self.sim
        if isinstance(plan, str) and plan not in PLANNERS:
            raise ValueError(f"plan is {plan!r}; must be None, {', '.join(map(repr, PLANNERS))}, "
                             "a vosim.navigation.Roadmap or a NavMesh")
        if not (plan is None or isinstance(plan, (str, Roadmap, NavMesh))):
            raise TypeError(f"plan: expected None, 'roadmap', 'navmesh', a Roadmap or a NavMesh, "
                            f"got {type(plan).__name__}")
        sinks = ids_array(sinks, "sinks", "sink")
        if assignment is not None:
            assignment = ids_array(assignment, "assignment", "sink")
        exits = ExitChoice(sim, sinks, choice, assignment, reevaluate, plan,
                           scalar(clearance, "clearance", minimum=0.0, maximum=MAX_MAGNITUDE), waypoint_radius, via,
                           waypoint_advance)
        exits.apply(sim)
        self.exits = exits

    def chosen_exit(self) -> np.ndarray:
        """The sink id each agent chose at the last choice (``set_exits``, re-evaluations), -1 for none.

        int64 ``(N,)``, a copy; agents that left keep the choice they had.
        """
        sim = self.sim
        exits = self.exits
        count = len(np.asarray(sim.ids))
        out = np.full(count, -1, dtype=np.int64)
        if exits is not None:
            known = exits.chosen[:count]
            out[:len(known)] = np.where(known >= 0, exits.sinks[np.maximum(known, 0)], -1)
        return out

    def chosen_route(self) -> np.ndarray:
        """Each agent's route at the last choice: its index in ``set_exits``' ``sinks``, -1 for none (int64 copy)."""
        sim = self.sim
        exits = self.exits
        count = len(np.asarray(sim.ids))
        out = np.full(count, -1, dtype=np.int64)
        if exits is not None:
            known = exits.chosen[:count]
            out[:len(known)] = known
        return out
