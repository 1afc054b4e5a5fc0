"""Waypoints: the points each agent visits, in order, before its final goal (what Simulator and Batch share).

An agent with waypoints heads for the first, moves on to the next by its
rule (``waypoint_advance``: within ``waypoint_radius`` of it, or also once
past it, or also once the next is in sight; ``_waypoint_advance.py``), and
keeps the last as its final goal. The engine keeps every agent's track in a
scene feature (``cpp/core/navigation/waypoints.hpp``; the goals phase moves
agents on).

The simulator's waypoint methods delegate to its :class:`Waypoints` part,
which ``sim.waypoints`` also gives: navigation sets planned tracks through it
in their flat form (``set_tracks``).
"""

from __future__ import annotations

import warnings

import numpy as np

from ._checks import MAX_MAGNITUDE, check_values, ids_array, real_array, shaped
from ._parts import Part
from ._waypoint_advance import advance_codes


class Waypoints(Part):
    """A simulator's waypoints: ``sim.waypoints``.

    ``sim.set_waypoints(...)`` and ``sim.waypoints_remaining`` are the same as
    ``sim.waypoints.set_waypoints(...)`` and ``sim.waypoints.remaining()``.
    """

    methods = ("set_waypoints",)
    properties = {"waypoints_remaining": "remaining"}
    part_property = ("waypoints", """This simulator's waypoints (:class:`vosim.Waypoints`): set them, or read what is left
        and where each agent is finally bound.""")

    def __repr__(self) -> str:
        left = np.asarray(self._core.waypoints_remaining())
        return f"Waypoints(agents with waypoints left: {int((left > 0).sum())}, waypoints left: {int(left.sum())})"

    def set_waypoints(self, ids, waypoints, *, waypoint_radius=None, waypoint_advance="distance",
                      radius=None) -> None:
        """Give agents waypoints: each heads for its first, moves on to the next when
        within ``waypoint_radius`` of it (or by ``waypoint_advance``), and keeps the last
        as its final goal.

        Parameters
        ----------
        ids
            Agent ids, ``(m,)``.
        waypoints
            A sequence of ``m`` arrays ``(k_i, D)`` (k_i >= 1, D the simulator's
            dimensions), in the order to visit; None for an agent clears its
            waypoints (its goal stays).
        waypoint_radius
            Distance at which a waypoint counts as reached, a scalar or ``(m,)``;
            by default each agent's arrival radius (the keyword of ``add_agents``).
        waypoint_advance
            When an agent moves on from its current waypoint, one rule for
            all or one per agent. ``"distance"`` (default): only within
            ``waypoint_radius`` of it. ``"passed"``: also once past it,
            beyond the line through it at right angles to the leg leading
            to it (from the previous waypoint; for the first, from where
            the agent stands now), so an agent that overshoots a corner
            does not turn back. ``"visible"``: also once the waypoint after
            it is in line of sight, the segment from the agent to it
            keeping more than the agent's radius from every obstacle edge
            (plane only); or passed.
        radius
            Deprecated name of ``waypoint_radius`` (a DeprecationWarning).

        Notes
        -----
        The ``goals`` view shows each agent's current waypoint. An agent
        counts as arrived only at its last waypoint. The rule is kept in
        snapshots, pickles and checkpoints; re-planning
        (``run(replan_stalled=...)``) keeps each agent's rule.

        Raises
        ------
        ValueError
            Unknown ids, bad points or radii, or an unknown ``waypoint_advance``
            (naming it and the value); no agent is changed then.
        """
        name = "waypoint_radius"
        if radius is not None:
            if waypoint_radius is not None:
                raise TypeError("set_waypoints: give waypoint_radius only (radius is its deprecated name)")
            # stacklevel 3: past the simulator's delegating method, at its caller
            warnings.warn("set_waypoints(radius=) is deprecated; use waypoint_radius=, as add_agents does",
                          DeprecationWarning, stacklevel=3)
            name, waypoint_radius = "radius", radius
        ids = ids_array(ids)
        arrays = self.checked_arrays(waypoints, len(ids))
        advance = advance_codes(waypoint_advance, len(ids))
        if waypoint_radius is None:
            scene_slot = [self._core.locate(int(i)) for i in ids] if len(ids) else []
            reach = self._core.view("arrival_radius")
            waypoint_radius = np.array([reach[b, j] for b, j in scene_slot], dtype=np.float64)
        else:
            waypoint_radius = shaped(waypoint_radius, name, [(), (len(ids),)], (len(ids),), minimum=0.0,
                                     maximum=MAX_MAGNITUDE)
        self.set_lists(ids, arrays, waypoint_radius, advance)

    def remaining(self) -> np.ndarray:
        """Waypoints each agent still has after its current goal, int32 ``(..., N)`` (0 without waypoints)."""
        left = self._core.waypoints_remaining()
        return left if self._scene_axis else left[0]

    def final_goals(self) -> np.ndarray:
        """Where each agent is finally bound, ``(..., N, D)``: its last waypoint, or its goal without waypoints."""
        goals = self._core.final_goals()
        return goals if self._scene_axis else goals[0]

    def set_tracks(self, ids, offsets, points, radius, advance=None) -> None:
        """Waypoints in flat form: agent ``ids[k]`` follows ``points[offsets[k]:offsets[k + 1]]``.

        Parameters
        ----------
        ids
            Agent ids, ``(m,)``.
        offsets
            ``(m + 1,)`` increasing indices into ``points``, from 0 to ``len(points)``;
            an empty range clears the agent's waypoints.
        points
            ``(p, D)`` waypoints of every agent, one track after another.
        radius
            ``(m,)``: each agent's ``waypoint_radius``.
        advance
            ``(m,)`` rule codes (``_waypoint_advance.advance_codes``); None:
            each agent keeps its rule (distance without one).

        Raises
        ------
        ValueError
            Unknown ids, offsets out of order, bad points or radii (the engine
            checks all before changing any agent).
        """
        self._core.set_waypoints(ids_array(ids), np.ascontiguousarray(offsets, dtype=np.int64),
                                 np.ascontiguousarray(points, dtype=np.float64),
                                 np.ascontiguousarray(radius, dtype=np.float64),
                                 None if advance is None else np.ascontiguousarray(advance, dtype=np.uint8))

    def set_lists(self, ids, arrays: list[np.ndarray], radius, advance=None) -> None:
        """``set_tracks`` from one checked ``(k, D)`` array per agent (``checked_arrays``)."""
        offsets = np.concatenate([[0], np.cumsum([len(a) for a in arrays])]).astype(np.int64)
        points = np.concatenate(arrays) if arrays else np.zeros((0, self._core.dimensions))
        self.set_tracks(ids, offsets, points, radius, advance)

    def checked_arrays(self, waypoints, expected: int) -> list[np.ndarray]:
        """Checked ``(k_i, D)`` arrays (empty for None entries), one per agent."""
        dims = self._core.dimensions
        if isinstance(waypoints, np.ndarray) and waypoints.ndim == 3:
            waypoints = list(waypoints)
        if not isinstance(waypoints, (list, tuple)):
            raise TypeError(f"waypoints: expected a sequence of (k, {dims}) arrays, one per agent, "
                            f"got {type(waypoints).__name__}")
        if len(waypoints) != expected:
            raise ValueError(f"waypoints: expected {expected} entries (one per agent), got {len(waypoints)}")
        arrays = []
        for k, item in enumerate(waypoints):
            if item is None:
                arrays.append(np.zeros((0, dims)))
                continue
            points = real_array(item, f"waypoints[{k}]")
            if points.ndim != 2 or points.shape[1] != dims or len(points) == 0:
                raise ValueError(f"waypoints[{k}]: expected shape (k, {dims}) with k >= 1 (this simulator has "
                                 f"dimensions={dims}), got {points.shape}")
            check_values(points, f"waypoints[{k}]", magnitude=MAX_MAGNITUDE)
            arrays.append(points)
        return arrays

    def check_new_agents(self, fields: dict, n: int, shapes, target):
        """``add_agents``' ``waypoints``, ``waypoint_radius`` and ``waypoint_advance``, checked
        (the ``Part`` hook): None without waypoints."""
        if fields.get("waypoints") is not None and fields.get("goals") is not None:
            raise ValueError("goals, waypoints: give one or the other (the last waypoint is the final goal)")
        plan = None if fields.get("waypoints") is None else self.plan_for_new_agents(
            fields["waypoints"], fields.get("waypoint_radius"), n, shapes, target)
        advance = advance_codes(fields.get("waypoint_advance", "distance"), n)  # checked even without waypoints
        return None if plan is None else (*plan, advance)

    def agents_added(self, ids: np.ndarray, plan, values: dict) -> None:
        """Give the new agents their waypoints (the ``Part`` hook); the radius defaults to each one's arrival radius."""
        arrays, radius, advance = plan
        self.set_lists(ids, arrays,
                       (values["arrival_radius"] if radius is None else radius).reshape(-1),
                       np.tile(advance, self._core.scenes))

    def plan_for_new_agents(self, waypoints, radius, n: int, shapes, target):
        """``add_agents``' waypoints, checked: (one array per agent and scene, radius or None).

        A list of n entries serves every scene; a Batch also takes one list
        of n entries per scene.
        """
        scenes = self._core.scenes
        per_scene = (self._scene_axis and isinstance(waypoints, (list, tuple)) and len(waypoints) == scenes
                     and scenes != n and all(isinstance(w, (list, tuple)) for w in waypoints))
        if per_scene:
            arrays = [a for scene in waypoints for a in self.checked_arrays(scene, n)]
        else:
            arrays = self.checked_arrays(waypoints, n) * scenes
        if radius is not None:
            radius = shaped(radius, "waypoint_radius", shapes, target, minimum=0.0, maximum=MAX_MAGNITUDE)
        return arrays, radius
