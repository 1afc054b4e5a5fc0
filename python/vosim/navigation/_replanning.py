"""Re-planning, during ``Simulator.run``, the agents that have stalled.

The engine pauses the run every ``replan_stalled`` seconds of simulated
time (a fixed number of steps, so that runs stay deterministic) and asks
for new waypoint tracks. An agent counts as stalled when it seeks a goal it
has not reached and has moved less than ``vosim.metrics``' stall speed times
that interval since the last pause; it is planned again from where it is to
its final goal (the last waypoint of its track), with the planner given to
``set_goals(plan=...)``. A planner named by a string is built again from the
simulator at each re-planning, so that it sees the static obstacles as they
are then.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from .. import _core
from .._checks import MAX_MAGNITUDE, scalar


def stall_replanner(navigation, seconds) -> tuple[int, object, object]:
    """``(pause_every, replan, finish)`` for the engine's run: re-plan the agents of ``navigation``'s
    simulator (its ``Navigation`` part) stalled for ``seconds``.

    The period runs on across consecutive runs with the same period, planner
    and agents: ``run(20, replan_stalled=2.0)`` at dt 0.1, called again and
    again, checks every 20 steps. ``finish(steps_done)`` must follow the run.
    A check that falls due at a run's last step is made before the next
    run's first step (nothing moves in between).
    """
    seconds = scalar(seconds, "replan_stalled", minimum=0.0, strict=True, maximum=MAX_MAGNITUDE)
    sim = navigation.sim
    plan = navigation.plan
    if plan is None:
        raise ValueError("replan_stalled: there is no planner to re-plan with; "
                         "give the agents their goals with set_goals(..., plan=...) first")
    planner, clearance = plan
    every = max(1, round(seconds / sim.time_step))
    least_moved = _core.STALL_SPEED * every * sim.time_step
    ids_now = np.asarray(sim.ids)
    clock = navigation.stall_clock
    if (clock is None or clock["every"] != every or clock["plan"] is not plan
            or not np.array_equal(clock["ids"], ids_now)):
        # Positions at the last check, and steps since it (carried from run to run).
        clock = {"every": every, "plan": plan, "ids": ids_now.copy(), "last": np.array(sim.positions), "since": 0}
        navigation.stall_clock = clock
    last = clock["last"]

    def check():
        positions = np.array(sim.positions)
        moved = np.linalg.norm(positions - last, axis=1)
        last[...] = positions
        goals = sim.waypoints.final_goals()
        arrival = np.asarray(sim.arrival_radius)
        away = np.linalg.norm(positions - goals, axis=1) > arrival
        stalled = np.flatnonzero(np.asarray(sim.active) & np.asarray(sim.has_goal) & away & (moved < least_moved))
        if not len(stalled):
            return None
        ids = np.asarray(sim.ids)[stalled]
        current = planner
        if isinstance(planner, str):
            from ._planners import builder_of

            radius = float(np.asarray(sim.radius)[stalled].max())
            current = builder_of(planner).from_simulator(sim, radius=radius, clearance=clearance)
        offsets, points, planned = _plan_those_that_can(current, positions[stalled], goals[stalled], ids)
        return ids[planned], offsets, points, arrival[stalled][planned]

    if clock["since"] >= every:  # fell due at the previous run's last step
        clock["since"] = 0
        tracks = check()
        if tracks is not None:
            ids, offsets, points, radius = tracks
            sim.waypoints.set_tracks(ids, offsets, points, radius)
    base = clock["since"]
    checked_at = [-base]  # this run's step of the last check

    def replan(steps_done: int):
        if (base + steps_done) % every:
            return None
        checked_at[0] = steps_done
        return check()

    def finish(steps_done: int) -> None:
        clock["since"] = steps_done - checked_at[0]

    # Pauses at every multiple of gcd(every, base) (every itself when base is 0) reach each due step.
    return math.gcd(every, base), replan, finish


def _plan_those_that_can(planner, starts, goals, ids):
    """Flat tracks for the agents the planner finds a path for (the others keep theirs).

    On a NavMesh, an agent pushed off the mesh is planned from the mesh's
    nearest point, which it walks to first.
    """
    from ._navmesh import NavMesh

    if isinstance(planner, NavMesh):
        plan_flat = functools.partial(planner.plan_flat, snap_starts=True)
    else:
        plan_flat = planner.plan_flat
    try:
        offsets, points = plan_flat(starts, goals, lambda i: f"agent {int(ids[i])}")
        return offsets, points, np.ones(len(ids), dtype=bool)
    except ValueError:
        pass
    # Some agent cannot be planned for from where it stands (pushed against
    # a wall, say): plan the few stalled agents one by one, skipping it.
    planned = np.zeros(len(ids), dtype=bool)
    tracks = []
    for k in range(len(ids)):
        try:
            tracks.append(plan_flat(starts[k:k + 1], goals[k:k + 1], lambda i: f"agent {int(ids[k])}")[1])
            planned[k] = True
        except ValueError:
            continue
    offsets = np.concatenate([[0], np.cumsum([len(t) for t in tracks])]).astype(np.int64)
    points = np.concatenate(tracks) if tracks else np.zeros((0, 2))
    return offsets, points, planned
