"""ISO 20414 component 9: an exit closes during the evacuation; those bound for it go to the other one."""

from __future__ import annotations

import numpy as np

from .._checks import integer, scalar
from ._pedestrians import PEDESTRIAN, RADIUS, SPEED, TIME_STEP, method_of, run_quietly, simulator_for
from ._result import TestResult

#: The room (length, width in m) and its two 1 m exits in the top wall, (from, to) along it: the far one
#: near the left wall, the near one near the right wall, by which the persons (:data:`AREA_9`) start.
ROOM_9 = (20.0, 10.0)
EXITS_9 = ((2.0, 3.0), (17.0, 18.0))
AREA_9 = ((10.0, 19.5), (0.5, 8.0))
#: When the near exit closes (s).
CLOSES_9 = 10.0


def iso_9(method="orca", *, persons: int = 50, closes_at: float = CLOSES_9, seconds: float = 120.0,
          reevaluate: float = 2.0, seed: int = 0) -> TestResult:
    """ISO 20414 basic component 9: dynamic availability of exits.

    ``persons`` pedestrians stand evenly spread over the right half of a
    20 m x 10 m room with two 1 m exits in its top wall, one 2 m from the
    left wall (far) and one 2 m from the right wall (near, by the persons).
    Each exit has a sink just beyond it; the near one's closes at
    ``closes_at`` s (``add_sink(closes_at=...)``: it takes nobody after
    that). The persons choose with ``set_exits(choice="nearest",
    reevaluate=...)``: all head for the near exit, and when it closes
    ``run()`` sends those still inside to the far one along new paths (and
    plans them again every ``reevaluate`` seconds, as RiMEA 11 does, so
    that those the crowd pushed off their path find their way back).

    Source: ISO 20414:2020 section 5.2 lists the component (JuPedSim issue
    #1570); its geometry and numbers could not be checked here, so the
    room, the time and the criterion are vosim's.

    Criterion: nobody leaves through the near exit after it closes, some
    leave through it before (the closing takes effect during the run),
    everyone else leaves through the far exit, and the room is empty within
    ``seconds``. The evacuation time (the last exit time) is reported.
    """
    method = method_of(method)
    persons = integer(persons, "persons", minimum=2, maximum=200)
    seconds = scalar(seconds, "seconds", minimum=1.0, maximum=3600.0)
    closes_at = scalar(closes_at, "closes_at", minimum=TIME_STEP, maximum=seconds)
    reevaluate = scalar(reevaluate, "reevaluate", minimum=TIME_STEP, maximum=3600.0)
    rng = np.random.default_rng(integer(seed, "seed", minimum=0))
    length, width = ROOM_9
    sim = simulator_for(method)
    sim.add_wall([[0.0, 0.0], [length, 0.0]])
    sim.add_wall([[0.0, 0.0], [0.0, width]])
    sim.add_wall([[length, 0.0], [length, width]])
    edges = [0.0] + [x for gap in EXITS_9 for x in gap] + [length]
    for a, b in zip(edges[::2], edges[1::2]):
        sim.add_wall([[a, width], [b, width]])
    (a, b), (c, d) = EXITS_9
    far = sim.add_sink([[a, width + 0.3], [b, width + 0.3], [b, width + 1.2], [a, width + 1.2]])
    near = sim.add_sink([[c, width + 0.3], [d, width + 0.3], [d, width + 1.2], [c, width + 1.2]],
                        closes_at=closes_at)
    # Evenly: a jittered grid over the start area, one person per cell.
    (x0, x1), (y0, y1) = AREA_9
    columns = int(np.ceil(np.sqrt(persons * (x1 - x0) / (y1 - y0))))
    rows = int(np.ceil(persons / columns))
    cells = np.sort(rng.permutation(columns * rows)[:persons])
    dx, dy = (x1 - x0) / columns, (y1 - y0) / rows
    starts = np.column_stack([x0 + dx * (cells % columns + 0.5), y0 + dy * (cells // columns + 0.5)])
    starts += rng.uniform(-1.0, 1.0, starts.shape) * np.maximum(0.0, np.array([dx, dy]) / 2 - RADIUS - 0.01)
    sim.add_agents(starts, pref_speed=SPEED, max_speed=SPEED, **PEDESTRIAN)
    sim.set_exits([far, near], choice="nearest", reevaluate=reevaluate)
    chose_near = int(np.sum(sim.chosen_exit == near))
    traj = run_quietly(sim, int(np.ceil(seconds / TIME_STEP)), until_arrived=True, record_every=5)
    left_by, times = np.asarray(sim.exit_sink), np.asarray(sim.exit_time)
    before = int(np.sum((left_by == near) & (times <= closes_at + TIME_STEP / 2)))
    after = int(np.sum((left_by == near) & (times > closes_at + TIME_STEP / 2)))
    by_far = int(np.sum(left_by == far))
    inside = persons - before - after - by_far
    last = float(np.max(times)) if inside == 0 else float("inf")
    passed = bool(after == 0 and before > 0 and inside == 0)
    summary = (f"{before} by the near exit before it closed at {closes_at:g} s, {after} after; {by_far} by the far; "
               + (f"out after {last:.0f} s" if inside == 0 else f"{inside} still inside after {seconds:g} s"))
    route = np.where(left_by == near, 0, np.where(left_by == far, 1, 2))
    return TestResult("ISO 9", "dynamic availability of exits", method.name,
                      {"near_before_closing": before, "near_after_closing": after, "far_exit": by_far,
                       "still_inside": inside, "chose_near_first": chose_near, "persons": persons,
                       "closes_at_s": closes_at, "evacuation_time_s": last},
                      f"nobody leaves by the near exit after it closes at {closes_at:g} s, some before; the rest "
                      f"by the far exit, all within {seconds:g} s", passed, summary,
                      data={"trajectory": traj, "route": route,
                            "route_names": ["near exit (closes)", "far exit", "still inside"]})
