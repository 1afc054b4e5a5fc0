"""``Simulator.set_exits``: each agent chooses one of several exits (sinks) and plans its way there.

Strategies
----------
``"nearest"``
    The exit with the shortest planned path.
``"quickest"``
    The exit with the least estimated time: path length / preferred speed
    plus a queue term, the agents already heading for that exit divided by
    its capacity (``SPECIFIC_FLOW`` persons per metre of width and second).
    Agents choose one by one, the one nearest to any exit first, each seeing
    the choices made before it.
``"assigned"``
    The exit given per agent.

With ``reevaluate``, ``run()`` chooses again every so many seconds from
where the agents are then and plans them all again (assigned exits stay).
Ties go to the exit listed first; the order of choosing is fixed by path
length and id, so that choices are deterministic.
"""

from __future__ import annotations

import math

import numpy as np

from .._checks import MAX_MAGNITUDE, ids_array, scalar

CHOICES = ("nearest", "quickest", "assigned")
# Persons per metre of exit width and second that leave through a door: the
# specific flow of Weidmann's fundamental diagram at its maximum (about 1.2 to
# 1.3 /(m s)); what the queue term of "quickest" divides the waiting agents by.
SPECIFIC_FLOW = 1.3


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


def quickest(lengths: np.ndarray, speeds: np.ndarray, widths: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """Each agent's exit index (columns of ``lengths``) by estimated time, chosen one agent after another."""
    count, exits = lengths.shape
    order = np.lexsort((ids, lengths.min(axis=1)))  # nearest to any exit first, then by id
    walking = lengths / speeds[:, None]
    capacity = SPECIFIC_FLOW * widths
    heading = np.zeros(exits)
    chosen = np.empty(count, dtype=np.int64)
    for k in order:
        choice = int(np.argmin(walking[k] + heading / capacity))
        chosen[k] = choice
        heading[choice] += 1.0
    return chosen


class ExitChoice:
    """The exits of a simulator and the choice made among them (kept on the simulator as ``_exits``)."""

    def __init__(self, sim, sinks, choice, assignment, reevaluate, plan, clearance, waypoint_radius):
        if not isinstance(choice, str) or choice not in CHOICES:
            raise ValueError(f"choice is {choice!r}; must be one of {', '.join(map(repr, CHOICES))}")
        known = {s.id: s for s in sim.sinks}
        sinks = ids_array(sinks)
        if len(sinks) == 0:
            raise ValueError("sinks: give at least one sink id (from add_sink)")
        for k, s in enumerate(sinks):
            if int(s) not in known:
                raise ValueError(f"sinks[{k}]: no sink with id {int(s)} (sinks in place: {sorted(known)})")
        unique, first = np.unique(sinks, return_index=True)
        if len(unique) < len(sinks):
            k = int(np.setdiff1d(np.arange(len(sinks)), first)[0])
            raise ValueError(f"sinks[{k}]: sink {int(sinks[k])} is given twice")
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
            index = {int(s): i for i, s in enumerate(sinks)}
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
        self.chosen = np.full(count, -1, dtype=np.int64)  # index into sinks, per slot
        self.since = 0  # steps since the last evaluation, carried across runs

    def planner(self, sim):
        """The planner: built from the simulator at the first choice (a string) and kept for re-evaluations."""
        from ._goals import builder_of

        if isinstance(self.plan, str):
            radius = float(np.asarray(sim.radius).max())
            extra = {"points": self.targets} if self.plan == "navmesh" else {}  # the mesh reaches the exits
            self.plan = builder_of(self.plan).from_simulator(sim, radius=radius, clearance=self.clearance, **extra)
        return self.plan

    def tracks(self, sim, planner, slots: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """For each exit, ``(offsets, points, lengths)`` of the paths of the agents in ``slots`` to it."""
        from ._goals import plan_on_roadmap
        from ._navmesh import NavMesh

        ids = np.asarray(sim.ids)[slots]
        starts = np.ascontiguousarray(np.asarray(sim.positions)[slots])
        out = []
        for target in self.targets:
            goals = np.repeat(target[None, :], len(slots), axis=0)
            label = lambda i: f"agent {int(ids[i])}"  # noqa: E731
            if planner is None:
                offsets, points = np.arange(len(slots) + 1, dtype=np.int64), goals
            elif isinstance(planner, NavMesh):
                offsets, points = planner.plan_flat(starts, goals, label, snap_starts=True)
            else:
                offsets, points = plan_on_roadmap(planner, starts, goals, ids, label)
            out.append((offsets, points, path_lengths(offsets, points, starts)))
        return out

    def choose(self, sim, slots: np.ndarray, planner) -> tuple[np.ndarray, list]:
        """The exit index of each agent in ``slots``, and the tracks to every exit."""
        tracks = self.tracks(sim, planner, slots)
        lengths = np.column_stack([t[2] for t in tracks]) if len(slots) else np.zeros((0, len(self.sinks)))
        if self.choice == "assigned":
            return self.assigned[slots], tracks
        if self.choice == "nearest":
            return np.argmin(lengths, axis=1), tracks
        speeds = np.maximum(np.asarray(sim.pref_speed, dtype=float)[slots], 1e-9)
        return quickest(lengths, speeds, self.widths, np.asarray(sim.ids)[slots]), tracks

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

    def apply(self, sim) -> None:
        """Choose for every active agent and send it on its way."""
        slots = np.flatnonzero(np.asarray(sim.active))
        chosen, tracks = self.choose(sim, slots, None if self.plan is None else self.planner(sim))
        self.chosen[slots] = chosen
        offsets, points = self.pick(tracks, chosen, np.arange(len(slots)))
        if len(slots):
            sim._set_flat_waypoints(np.asarray(sim.ids)[slots], offsets, points, self.radius_of(sim, slots))

    def reevaluated(self, sim):
        """Choose again for the agents still inside; new tracks for all of them, from where they are.

        Planning every agent again, not only those whose exit changed, brings
        back those that others pushed off their path (through a side door,
        into a corner) where the rest of their track is out of sight.
        """
        slots = np.flatnonzero(np.asarray(sim.active))
        if len(self.chosen) < len(np.asarray(sim.ids)):  # agents added since: no choice yet
            self.chosen = np.concatenate([self.chosen, np.full(len(np.asarray(sim.ids)) - len(self.chosen), -1)])
        if not len(slots):
            return None
        chosen, tracks = self.choose(sim, slots, None if self.plan is None else self.planner(sim))
        self.chosen[slots] = chosen
        offsets, points = self.pick(tracks, chosen, np.arange(len(slots)))
        return np.asarray(sim.ids)[slots], offsets, points, self.radius_of(sim, slots)

    def pauser(self, sim):
        """``(every, due, finish)`` for run(): re-evaluate every ``reevaluate`` seconds, carried across runs."""
        every = max(1, round(self.reevaluate / sim.time_step))
        if self.since >= every:  # fell due at the previous run's last step
            self.since = 0
            tracks = self.reevaluated(sim)
            if tracks is not None:
                sim._set_flat_waypoints(*tracks)
        base = self.since
        last = [-base]

        def due(steps_done: int):
            if (base + steps_done) % every:
                return None
            last[0] = steps_done
            return self.reevaluated(sim)

        def finish(steps_done: int) -> None:
            self.since = steps_done - last[0]

        return math.gcd(every, base), due, finish


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
        return np.concatenate([a[0], b[0][keep]]), offsets, points, np.concatenate([a[3], b[3][keep]])

    def finish(steps_done: int) -> None:
        first[2](steps_done)
        second[2](steps_done)

    return every, due, finish
