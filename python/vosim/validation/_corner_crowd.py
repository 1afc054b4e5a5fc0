"""RiMEA test 15: a large crowd walks round a corner, against the same crowd in two straight corridors."""

from __future__ import annotations

import numpy as np

from .._checks import integer, scalar
from ._result import TestResult
from ._pedestrians import PEDESTRIAN, RADIUS, SPEED, TIME_STEP, method_of, run_quietly, simulator_for

#: RiMEA 15's geometry as vosim builds it (m): the corridors' width, the start area's length, and the
#: corner corridor's legs measured along its inner wall (from the start area's front to the corner, and
#: from the corner to the target line).
CORRIDOR_WIDTH_15 = 6.0
START_LENGTH_15 = 40.0
LEGS_15 = (10.0, 10.0)


def _crowd(persons: int, rng) -> np.ndarray:
    """``persons`` start positions evenly over the start area (x from -40 to 0, y from 0 to 6), jittered."""
    width, length = CORRIDOR_WIDTH_15, START_LENGTH_15
    margin = RADIUS + 0.05
    rows = max(1, int(np.floor(np.sqrt(persons * (width - 2 * margin) / (length - 2 * margin)))))
    columns = int(np.ceil(persons / rows))
    dx, dy = (length - 2 * margin) / columns, (width - 2 * margin) / rows
    if min(dx, dy) < 2 * RADIUS + 0.02:
        raise ValueError(f"persons: {persons} do not fit the {length:g} x {width:g} m start area")
    cells = np.sort(rng.permutation(rows * columns)[:persons])
    starts = np.column_stack([-length + margin + dx * (cells // rows + 0.5), margin + dy * (cells % rows + 0.5)])
    return starts + rng.uniform(-1.0, 1.0, starts.shape) * (np.array([dx, dy]) / 2 - RADIUS - 0.01)


def _evacuate(method, layout: str, starts: np.ndarray, seconds: float, rng) -> np.ndarray:
    """Each person's time (s) to cross the target line, inf for those still on the way after ``seconds``."""
    width, (first, second) = CORRIDOR_WIDTH_15, LEGS_15
    sim = simulator_for(method)
    back = -START_LENGTH_15 - 1.0
    n = len(starts)
    if layout == "corner":
        # Leg 1 along +x, the corner turns left (to +y); the inner wall is the one at y = width.
        sim.add_wall([[back, width], [first, width], [first, width + second]])
        sim.add_wall([[back, 0.0], [first + width, 0.0], [first + width, width + second]])
        target = [[first, width + second], [first + width, width + second]]
        # First towards the middle of leg 2's entrance, then up leg 2, moving on when within half the
        # width of it (where every point lies past the inner corner) or as soon as the spot up leg 2 is in
        # sight past the inner wall (``visible``): people take the corner, and the walls hold them to it.
        middle = [first + width / 2, width]
        lanes = rng.uniform(first + RADIUS, first + width - RADIUS, n)
        waypoints = [[middle, [x, width + second + 10.0]] for x in lanes]
        sim.add_agents(starts, waypoints=waypoints, waypoint_radius=width / 2, waypoint_advance="visible",
                       pref_speed=SPEED, max_speed=SPEED, **PEDESTRIAN)
    else:
        length = first + second if layout == "short" else first + second + 2 * width
        sim.add_wall([[back, width], [length, width]])
        sim.add_wall([[back, 0.0], [length, 0.0]])
        target = [[length, 0.0], [length, width]]
        goals = np.column_stack([np.full(n, length + 10.0), starts[:, 1]])
        sim.add_agents(starts, goals=goals, pref_speed=SPEED, max_speed=SPEED, **PEDESTRIAN)
    sim.add_wall([[back, 0.0], [back, width]])
    sim.add_sink(target)
    run_quietly(sim, int(np.ceil(seconds / TIME_STEP)), until_arrived=True, record_every=50)
    return np.array(sim.exit_time, dtype=np.float64)


def rimea_15(method="orca", *, persons: int = 500, seconds: float = 600.0, seed: int = 0) -> TestResult:
    """RiMEA test 15: a large crowd walks round a corner; its time lies between two straight routes'.

    The same ``persons`` pedestrians (the guideline: 500), spread evenly over a
    start area 40 m long in a corridor 6 m wide, walk to a target line
    (a sink, ``add_sink``) in three corridors of that width: one that turns
    90 degrees left (legs of 10 m and 10 m along its inner wall, from the
    start area's front to the corner and on to the target), a short straight
    one as long as the corner's inner wall (20 m) and a long straight one as
    long as its outer wall (32 m). The time of each is the time the last
    person crosses the target line. Round the corner each pedestrian heads
    first for the middle of the second leg's entrance (moving on within 3
    m of it), then for its own spot beyond the target; in the straight
    corridors straight for a spot beyond the target in its lane. Round the
    corner each moves on as soon as its spot up the second leg is in sight
    past the inner wall, so the walls hold it to the corner.

    Geometry: the guideline asks for three such geometries with lines of
    equal length and 500 persons (as JuPedSim's test describes them); the
    widths and lengths here are vosim's choice, the guideline's own numbers
    could not be confirmed.

    Criterion (the guideline's): the corner's time lies between the short and
    the long straight corridors' (inclusive). A run that has not brought
    everybody across the target in ``seconds`` s fails.
    """
    method = method_of(method)
    persons = integer(persons, "persons", minimum=2, maximum=2000)
    seconds = scalar(seconds, "seconds", minimum=1.0, maximum=3600.0)
    rng = np.random.default_rng(integer(seed, "seed", minimum=0))
    starts = _crowd(persons, rng)
    times, curves = {}, {}
    for layout in ("short", "corner", "long"):
        exit_time = _evacuate(method, layout, starts, seconds, np.random.default_rng(rng.integers(2**32)))
        done = np.isfinite(exit_time)
        times[layout] = float(exit_time.max()) if done.all() else float("inf")
        curves[layout] = np.sort(exit_time[done])
    short, corner, long = times["short"], times["corner"], times["long"]
    finished = all(np.isfinite(t) for t in times.values())
    passed = bool(finished and short <= corner <= long)
    if finished:
        summary = f"short {short:.0f} s, corner {corner:.0f} s, long {long:.0f} s"
    else:
        summary = "not everybody across in {:g} s: {}".format(
            seconds, ", ".join(f"{k} {len(curves[k])}/{persons}" for k in ("short", "corner", "long")))
    most = {k: float(np.percentile(v, 95)) if len(v) else float("inf") for k, v in curves.items()}
    notes = ("95 % of the persons across after: " + ", ".join(f"{k} {t:.0f} s" for k, t in most.items()))
    return TestResult("RiMEA 15", "large crowd round a corner", method.name,
                      {"time_short_s": short, "time_corner_s": corner, "time_long_s": long, "persons": persons,
                       "arrived": {k: int(len(v)) for k, v in curves.items()},
                      "time_95_percent_s": most},
                      "time round the corner between the short and the long straight corridors' "
                      "(last person across the target)", passed, summary, notes,
                      data={"exit_times": curves, "persons": persons})
