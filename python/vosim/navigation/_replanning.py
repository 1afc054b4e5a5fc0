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

import numpy as np

from .. import _core
from .._checks import MAX_MAGNITUDE, scalar


def stall_replanner(sim, seconds) -> tuple[int, object]:
    """``(pause_every, replan)`` for the engine's run: re-plan agents stalled for ``seconds``."""
    seconds = scalar(seconds, "replan_stalled", minimum=0.0, strict=True, maximum=MAX_MAGNITUDE)
    plan = getattr(sim, "_plan", None)
    if plan is None:
        raise ValueError("replan_stalled: there is no planner to re-plan with; "
                         "give the agents their goals with set_goals(..., plan=...) first")
    planner, clearance = plan
    every = max(1, round(seconds / sim.time_step))
    least_moved = _core.STALL_SPEED * every * sim.time_step
    last = np.array(sim.positions)

    def replan(steps_done: int):
        positions = np.array(sim.positions)
        moved = np.linalg.norm(positions - last, axis=1)
        last[...] = positions
        goals = sim._final_goals()
        arrival = np.asarray(sim.arrival_radius)
        away = np.linalg.norm(positions - goals, axis=1) > arrival
        stalled = np.flatnonzero(np.asarray(sim.active) & np.asarray(sim.has_goal) & away & (moved < least_moved))
        if not len(stalled):
            return None
        ids = np.asarray(sim.ids)[stalled]
        current = planner
        if isinstance(planner, str):
            from ._goals import builder_of

            radius = float(np.asarray(sim.radius)[stalled].max())
            current = builder_of(planner).from_simulator(sim, radius=radius, clearance=clearance)
        offsets, points, planned = _plan_those_that_can(current, positions[stalled], goals[stalled], ids)
        return ids[planned], offsets, points, arrival[stalled][planned]

    return every, replan


def _plan_those_that_can(planner, starts, goals, ids):
    """Flat tracks for the agents the planner finds a path for (the others keep theirs)."""
    try:
        offsets, points = planner.plan_flat(starts, goals, lambda i: f"agent {int(ids[i])}")
        return offsets, points, np.ones(len(ids), dtype=bool)
    except ValueError:
        pass
    # Some agent cannot be planned for from where it stands (pushed against
    # a wall, say): plan the few stalled agents one by one, skipping it.
    planned = np.zeros(len(ids), dtype=bool)
    tracks = []
    for k in range(len(ids)):
        try:
            tracks.append(planner.plan_flat(starts[k:k + 1], goals[k:k + 1], lambda i: f"agent {int(ids[k])}")[1])
            planned[k] = True
        except ValueError:
            continue
    offsets = np.concatenate([[0], np.cumsum([len(t) for t in tracks])]).astype(np.int64)
    points = np.concatenate(tracks) if tracks else np.zeros((0, 2))
    return offsets, points, planned
