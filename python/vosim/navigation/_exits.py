"""``Simulator.set_exits``: each agent chooses one of several exits (sinks) and plans its way there.

Strategies
----------
``"nearest"``
    The exit with the shortest planned path.
``"quickest"``
    The exit with the least estimated time: the path walked at the
    preferred speed (scaled inside the speed zones it crosses) plus a queue
    term, the agents already heading for that exit divided by
    its capacity (``SPECIFIC_FLOW`` persons per metre of width and second).
    Agents choose one by one, the one nearest to any exit first, each seeing
    the choices made before it.
``"assigned"``
    The exit given per agent.

With ``reevaluate``, ``run()`` chooses again every so many seconds from
where the agents are then and plans them all again (assigned exits stay).
Exits open only for a time (``add_sink(opens_at=, closes_at=)``) are left
out of the choice while closed: ``run()`` chooses again, for everyone, at
the step where one of them opens or closes (an agent assigned a closed exit
takes the nearest open one). While none is open, choices stay.
``step()`` follows the same schedule (``pauser`` before the step, its
``finish`` after), so that n steps give the same bits as ``run(n)``.
Ties go to the exit listed first; the order of choosing is fixed by path
length and id, so that choices are deterministic.
"""

from __future__ import annotations

import math

import numpy as np

from .._checks import MAX_MAGNITUDE, ids_array, scalar
from .._waypoint_advance import advance_codes

CHOICES = ("nearest", "quickest", "assigned")
# Persons per metre of exit width and second that leave through a door: the
# specific flow of Weidmann's fundamental diagram at its maximum (about 1.2 to
# 1.3 /(m s)); what the queue term of "quickest" divides the waiting agents by.
SPECIFIC_FLOW = 1.3
# Relative difference under which two routes' estimates count as equal.
TIE = 1e-9


def exit_shape(points: np.ndarray) -> tuple[np.ndarray, float]:
    """Where agents bound for a sink head (a line's middle, an area's centroid) and its width.

    A line's width is its length; an area's is its longest side (the side
    agents walk through in a door-shaped area).
    """
    if len(points) == 2:
        return points.mean(axis=0), float(np.linalg.norm(points[1] - points[0]))
    x, y = points[:, 0], points[:, 1]
    xn, yn = np.roll(x, -1), np.roll(y, -1)
    cross = x * yn - xn * y
    twice_area = cross.sum()
    centre = np.array([((x + xn) * cross).sum(), ((y + yn) * cross).sum()]) / (3.0 * twice_area)
    width = float(np.max(np.hypot(xn - x, yn - y)))
    return centre, width


def path_lengths(offsets: np.ndarray, points: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Length of each flat track, from its start through its points."""
    counts = np.diff(offsets)
    previous = np.empty_like(points)
    previous[1:] = points[:-1]
    previous[offsets[:-1][counts > 0]] = starts[counts > 0]
    legs = np.linalg.norm(points - previous, axis=1)
    return np.add.reduceat(legs, offsets[:-1]) * (counts > 0) if len(points) else np.zeros(len(starts))


def walking_times(offsets, points, starts, lengths, speeds, zones) -> np.ndarray:
    """Time to walk each flat track at ``speeds``, slower or faster inside the speed zones ``(polygon, factor)``.

    Each zone's share of a track is walked at speed times its factor;
    where zones overlap, each counts on its own (the engine multiplies
    their factors), an estimate good for zones that do not overlap.
    """
    times = lengths / speeds
    if not zones or not len(points):
        return times
    from ._geometry import require_shapely

    shapely = require_shapely()
    counts = np.diff(offsets)
    lines = []
    for k in range(len(starts)):
        track = np.vstack([starts[k:k + 1], points[offsets[k]:offsets[k + 1]]])
        lines.append(shapely.linestrings(track) if counts[k] else shapely.points(starts[k]))
    lines = np.array(lines, dtype=object)
    for polygon, factor in zones:
        inside = shapely.length(shapely.intersection(lines, shapely.polygons(polygon)))
        times = times + inside / speeds * (1.0 / factor - 1.0)
    return times


def best(costs: np.ndarray, current: int) -> int:
    """The column of least cost; the current one where it ties (routes that have merged past their via points)."""
    choice = int(np.argmin(costs))
    if current >= 0 and costs[current] <= costs[choice] + TIE * (1.0 + abs(costs[choice])):
        return current
    return choice


def quickest(walking: np.ndarray, widths: np.ndarray, ids: np.ndarray, sinks: np.ndarray,
             current: np.ndarray) -> np.ndarray:
    """Each agent's route (columns of ``walking``, seconds) by estimated time, chosen one agent after another.

    Routes to the same sink (``sinks``, per route) share its queue.
    """
    count = len(walking)
    order = np.lexsort((ids, walking.min(axis=1)))  # nearest (in time) to any exit first, then by id
    _, group = np.unique(sinks, return_inverse=True)
    capacity = SPECIFIC_FLOW * widths
    heading = np.zeros(group.max() + 1 if len(group) else 0)
    chosen = np.empty(count, dtype=np.int64)
    for k in order:
        choice = best(walking[k] + heading[group] / capacity, int(current[k]))
        chosen[k] = choice
        heading[group[choice]] += 1.0
    return chosen


class ExitChoice:
    """The exits of a simulator and the choice made among them (kept on the simulator as ``_exits``)."""

    def __init__(self, sim, sinks, choice, assignment, reevaluate, plan, clearance, waypoint_radius, via=None,
                 waypoint_advance="visible"):
        if not isinstance(choice, str) or choice not in CHOICES:
            raise ValueError(f"choice is {choice!r}; must be one of {', '.join(map(repr, CHOICES))}")
        known = {s.id: s for s in sim.sinks}
        sinks = ids_array(sinks)
        if len(sinks) == 0:
            raise ValueError("sinks: give at least one sink id (from add_sink)")
        for k, s in enumerate(sinks):
            if int(s) not in known:
                raise ValueError(f"sinks[{k}]: no sink with id {int(s)} (sinks in place: {sorted(known)})")
        self.via = self._via_points(via, len(sinks))
        keys = [(int(s), self.via[k].tobytes()) for k, s in enumerate(sinks)]
        for k, key in enumerate(keys):  # a sink may be listed again as another route to it (other via points)
            if key in keys[:k]:
                raise ValueError(f"sinks[{k}]: sink {int(sinks[k])} is given twice"
                                 + (" with the same via points" if via is not None else ""))
        shapes = [exit_shape(np.asarray(known[int(s)].points)) for s in sinks]
        self.sinks = sinks
        self.targets = np.array([c for c, _ in shapes])
        self.widths = np.array([w for _, w in shapes])
        self.choice = choice
        self.plan = plan
        self.clearance = clearance
        count = len(np.asarray(sim.ids))
        if choice == "assigned":
            if assignment is None:
                raise ValueError('assignment: choice="assigned" needs one sink id per agent')
            assignment = ids_array(assignment)
            if len(assignment) != count:
                raise ValueError(f"assignment: expected {count} sink ids (one per agent), got {len(assignment)}")
            index = {}
            for i, s in enumerate(sinks):  # a sink listed as several routes: its first one
                index.setdefault(int(s), i)
            for k, s in enumerate(assignment):
                if int(s) not in index:
                    raise ValueError(f"assignment[{k}]: sink {int(s)} is not among sinks {sinks.tolist()}")
            self.assigned = np.array([index[int(s)] for s in assignment], dtype=np.int64)
        elif assignment is not None:
            raise ValueError(f'assignment: only for choice="assigned", not {choice!r}')
        if reevaluate is not None:
            reevaluate = scalar(reevaluate, "reevaluate", minimum=0.0, strict=True, maximum=MAX_MAGNITUDE)
        self.reevaluate = reevaluate
        if waypoint_radius is not None:
            waypoint_radius = scalar(waypoint_radius, "waypoint_radius", minimum=0.0, maximum=MAX_MAGNITUDE)
        self.waypoint_radius = waypoint_radius
        if not isinstance(waypoint_advance, str):
            raise ValueError(f"waypoint_advance is {waypoint_advance!r}; set_exits takes one rule for every agent")
        advance_codes(waypoint_advance, 1)  # checked now: a bad rule changes nothing
        self.waypoint_advance = waypoint_advance
        self.chosen = np.full(count, -1, dtype=np.int64)  # index into sinks, per slot
        self.passed = np.zeros((count, len(sinks)), dtype=np.int64)  # via points passed, per slot and route
        self.since = 0  # steps since the last evaluation, carried across runs
        self.open_routes = np.ones(len(sinks), dtype=bool)  # which routes' sinks were open at the last choice

    @staticmethod
    def _via_points(via, count: int) -> list[np.ndarray]:
        """``via`` checked: one ``(k, 2)`` array per route (k may be 0)."""
        from ._geometry import points_array

        if via is None:
            return [np.zeros((0, 2))] * count
        if not isinstance(via, (list, tuple)):
            raise TypeError(f"via: expected a list with one entry per sink (None or (k, 2) points), "
                            f"got {type(via).__name__}")
        if len(via) != count:
            raise ValueError(f"via: expected {count} entries (one per sink), got {len(via)}")
        return [np.zeros((0, 2)) if item is None else points_array(item, f"via[{k}]") for k, item in enumerate(via)]

    def planner(self, sim):
        """The planner: built from the simulator at the first choice (a string) and kept for re-evaluations."""
        from ._planners import builder_of

        if isinstance(self.plan, str):
            radius = float(np.asarray(sim.radius).max())
            # The mesh reaches the exits and the via points.
            extra = {"points": np.vstack([self.targets, *self.via])} if self.plan == "navmesh" else {}
            self.plan = builder_of(self.plan).from_simulator(sim, radius=radius, clearance=self.clearance, **extra)
        return self.plan

    def tracks(self, sim, planner, slots: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """For each route, ``(offsets, points, lengths)`` of the paths of the agents in ``slots`` along it.

        An agent's path along its current route leaves out the via points
        it has passed: a via point counts as passed once the agent's own
        path to the stop after it is no longer than the via point's (so a
        re-evaluation never sends it back), and stays passed while the agent
        keeps the route (``self.passed``, per agent and route).
        """
        ids = np.asarray(sim.ids)[slots]
        starts = np.ascontiguousarray(np.asarray(sim.positions)[slots])
        self._grow(len(np.asarray(sim.ids)))
        out = []
        for r, (target, via) in enumerate(zip(self.targets, self.via)):
            stops = np.vstack([via, target[None, :]])
            legs = [self._leg(planner, stops[j][None, :], stops[j + 1][None, :], ids[:1], what="via point")
                    for j in range(len(via))]  # stop to stop: the same for every agent, planned once
            leg_lengths = np.array([path_lengths(o, p, stops[j][None, :])[0] for j, (o, p) in enumerate(legs)])
            # Only agents on this route pass its via points; to the others it is a way through all of them.
            on_route = self.chosen[slots] == r
            at = np.where(on_route, self.passed[slots, r], 0)
            while len(via):
                ahead = np.flatnonzero((at < len(via)) & on_route)
                if not len(ahead):
                    break
                o, p = self._leg(planner, starts[ahead], stops[at[ahead] + 1], ids[ahead])
                beyond = path_lengths(o, p, starts[ahead]) <= leg_lengths[at[ahead]]
                if not beyond.any():
                    break
                at[ahead[beyond]] += 1
            self.passed[slots, r] = at
            offsets, points = self._leg(planner, starts, stops[at], ids)
            lengths = path_lengths(offsets, points, starts)
            if len(via) and len(slots):
                tail_lengths = np.concatenate([np.cumsum(leg_lengths[::-1])[::-1], [0.0]])
                lengths = lengths + tail_lengths[at]
                pieces = [np.vstack([points[offsets[k]:offsets[k + 1]], *[legs[j][1] for j in range(at[k], len(via))]])
                          for k in range(len(slots))]
                offsets = np.concatenate([[0], np.cumsum([len(q) for q in pieces])]).astype(np.int64)
                points = np.concatenate(pieces)
            out.append((offsets, points, lengths))
        return out

    def _grow(self, count: int) -> None:
        """Room for agents added since the last choice (no choice, no via point passed)."""
        if len(self.chosen) < count:
            self.chosen = np.concatenate([self.chosen, np.full(count - len(self.chosen), -1)])
        if len(self.passed) < count:
            more = np.zeros((count - len(self.passed), len(self.sinks)), dtype=np.int64)
            self.passed = np.vstack([self.passed, more])

    @staticmethod
    def _leg(planner, starts, goals, ids, what="agent"):
        """Flat paths from each start to its goal."""
        from ._planners import plan_on_roadmap
        from ._navmesh import NavMesh

        starts, goals = np.ascontiguousarray(starts), np.ascontiguousarray(goals)
        label = (lambda i: f"agent {int(ids[i])}") if what == "agent" else (lambda i: f"via point {starts[i].tolist()}")
        if planner is None or not len(starts):
            return np.arange(len(starts) + 1, dtype=np.int64), goals
        if isinstance(planner, NavMesh):
            return planner.plan_flat(starts, goals, label, snap_starts=True)
        return plan_on_roadmap(planner, starts, goals, ids, label)

    def windows(self, sim) -> np.ndarray:
        """``(e, 2)``: when each route's sink opens and closes (seconds; a removed sink never opens)."""
        out = np.empty((len(self.sinks), 2))
        live = {s.id: (-np.inf if s.opens_at is None else s.opens_at, np.inf if s.closes_at is None else s.closes_at)
                for s in sim.sinks}
        for r, sink in enumerate(self.sinks):
            out[r] = live.get(int(sink), (np.inf, np.inf))
        return out

    @staticmethod
    def open_at(windows: np.ndarray, time: float) -> np.ndarray:
        """Which routes' sinks are open at ``time`` (a step's middle, as the engine's exits phase decides)."""
        return (windows[:, 0] <= time) & (time < windows[:, 1])

    def choose(self, sim, slots: np.ndarray, planner, open_routes=None) -> tuple[np.ndarray, list]:
        """The exit index of each agent in ``slots``, and the tracks to every exit.

        ``open_routes`` (bool per route) leaves the closed ones out (cost
        infinite) while any is open; None: all are open.
        """
        tracks = self.tracks(sim, planner, slots)
        lengths = np.column_stack([t[2] for t in tracks]) if len(slots) else np.zeros((0, len(self.sinks)))
        closed = None if open_routes is None or open_routes.all() or not open_routes.any() else ~open_routes
        if closed is not None:
            lengths = np.where(closed, np.inf, lengths)
        current = self.chosen[slots]
        if self.choice == "assigned":
            chosen = self.assigned[slots].copy()
            if closed is not None:  # an assigned exit closed: the nearest open one
                moved = np.flatnonzero(closed[chosen])
                chosen[moved] = [best(lengths[k], -1) for k in moved]
            return chosen, tracks
        if self.choice == "nearest":
            return np.array([best(row, int(c)) for row, c in zip(lengths, current)], dtype=np.int64), tracks
        speeds = np.maximum(np.asarray(sim.pref_speed, dtype=float)[slots], 1e-9)
        zones = [(np.asarray(z.polygon), z.factor) for z in sim.speed_zones]
        starts = np.asarray(sim.positions)[slots]
        walking = np.column_stack([walking_times(o, p, starts, length, speeds, zones) for o, p, length in tracks]) \
            if len(slots) else np.zeros((0, len(self.sinks)))
        if closed is not None:
            walking = np.where(closed, np.inf, walking)
        return quickest(walking, self.widths, np.asarray(sim.ids)[slots], self.sinks, current), tracks

    @staticmethod
    def pick(tracks, chosen: np.ndarray, among: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Flat tracks of the agents at rows ``among``, each along its chosen exit's path."""
        pieces = [tracks[int(chosen[k])][1][tracks[int(chosen[k])][0][k]:tracks[int(chosen[k])][0][k + 1]]
                  for k in among]
        offsets = np.concatenate([[0], np.cumsum([len(p) for p in pieces])]).astype(np.int64)
        points = np.concatenate(pieces) if pieces else np.zeros((0, 2))
        return offsets, points

    def radius_of(self, sim, slots):
        if self.waypoint_radius is None:
            return np.asarray(sim.arrival_radius, dtype=float)[slots]
        return np.full(len(slots), self.waypoint_radius)

    def advance_of(self, slots):
        return advance_codes(self.waypoint_advance, len(slots))

    def apply(self, sim) -> None:
        """Choose for every active agent and send it on its way."""
        slots = self._active_slots(sim)
        self.open_routes = self.open_at(self.windows(sim), float(sim.time) + 0.5 * float(sim.time_step))
        chosen, tracks = self.choose(sim, slots, None if self.plan is None else self.planner(sim), self.open_routes)
        self.chosen[slots] = chosen
        offsets, points = self.pick(tracks, chosen, np.arange(len(slots)))
        if len(slots):
            sim.waypoints.set_tracks(np.asarray(sim.ids)[slots], offsets, points, self.radius_of(sim, slots),
                                     self.advance_of(slots))

    def _active_slots(self, sim) -> np.ndarray:
        """The agents to choose for: active ones (with ``"assigned"``, those given an exit)."""
        slots = np.flatnonzero(np.asarray(sim.active))
        return slots[slots < len(self.assigned)] if self.choice == "assigned" else slots

    def reevaluated(self, sim):
        """Choose again for the agents still inside; new tracks for all of them, from where they are.

        Planning every agent again, not only those whose exit changed, brings
        back those that others pushed off their path (through a side door,
        into a corner) where the rest of their track is out of sight.
        """
        slots = self._active_slots(sim)
        if not len(slots):
            return None
        chosen, tracks = self.choose(sim, slots, None if self.plan is None else self.planner(sim), self.open_routes)
        self.chosen[slots] = chosen
        offsets, points = self.pick(tracks, chosen, np.arange(len(slots)))
        return np.asarray(sim.ids)[slots], offsets, points, self.radius_of(sim, slots), self.advance_of(slots)

    def pauser(self, sim):
        """``(every, due, finish)`` for run(), or None when nothing falls due.

        Re-evaluates every ``reevaluate`` seconds (the period carried across
        runs), and at each step where an exit opens or closes (the run then
        pauses after every step to see).
        """
        windows = self.windows(sim)
        time_step, start = float(sim.time_step), float(sim.time)
        # The middle of the step after `done` steps; the engine's clock is a sum of steps, close enough.
        middle = lambda done: start + (done + 0.5) * time_step  # noqa: E731
        scheduled = bool(np.any(np.isfinite(windows) & (windows >= start - time_step)))
        if self.reevaluate is None and not scheduled:
            return None
        every = 1 if self.reevaluate is None else max(1, round(self.reevaluate / time_step))
        due_now = self.reevaluate is not None and self.since >= every  # fell due at the previous run's last step
        now_open = self.open_at(windows, middle(0))
        if due_now or not np.array_equal(now_open, self.open_routes):
            self.since = 0 if due_now else self.since
            self.open_routes = now_open
            tracks = self.reevaluated(sim)
            if tracks is not None:
                sim.waypoints.set_tracks(*tracks)
        base = self.since
        last = [-base]

        def due(steps_done: int):
            periodic = self.reevaluate is not None and (base + steps_done) % every == 0
            now = self.open_at(windows, middle(steps_done)) if scheduled else self.open_routes
            if not periodic and np.array_equal(now, self.open_routes):
                return None
            if periodic:
                last[0] = steps_done
            self.open_routes = now
            return self.reevaluated(sim)

        def finish(steps_done: int) -> None:
            if self.reevaluate is not None:
                self.since = steps_done - last[0]

        return (1 if scheduled else math.gcd(every, base)), due, finish


def merge_pausers(first, second):
    """One ``(every, due, finish)`` that runs both; where both re-route an agent, ``first`` wins."""
    if first is None:
        return second
    if second is None:
        return first
    every = math.gcd(first[0], second[0])

    def due(steps_done: int):
        a, b = first[1](steps_done), second[1](steps_done)
        if a is None or b is None:
            return a if b is None else b
        keep = ~np.isin(b[0], a[0])
        counts = np.diff(b[1])[keep]
        pieces = [b[2][b[1][k]:b[1][k + 1]] for k in np.flatnonzero(keep)]
        offsets = np.concatenate([a[1], a[1][-1] + np.cumsum(counts)]).astype(np.int64)
        points = np.concatenate([a[2], *pieces]) if pieces else a[2]
        merged = np.concatenate([a[0], b[0][keep]]), offsets, points, np.concatenate([a[3], b[3][keep]])
        if len(a) == 5 and len(b) == 5:
            return (*merged, np.concatenate([a[4], b[4][keep]]))
        return merged  # without rules for all: every agent keeps the one it has

    def finish(steps_done: int) -> None:
        first[2](steps_done)
        second[2](steps_done)

    return every, due, finish
