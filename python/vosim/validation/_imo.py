"""IMO MSC.1/Circ.1238 Annex 3 tests 4 (exit flow rate) and 8 (counter-flow between two rooms)."""

from __future__ import annotations

import numpy as np

from .. import measurement
from .._checks import integer, scalar
from ._pedestrians import PEDESTRIAN, RADIUS, SPEED, TIME_STEP, method_of, run_quietly, simulator_for
from ._result import TestResult

#: IMO test 4's room (length along the exit's normal, width of the wall with the exit) and exit width (m).
ROOM_4 = (8.0, 5.0)
EXIT_4 = 1.0
#: IMO test 4's criterion: the flow through the exit over the whole period (persons/s) must not exceed this.
MAX_FLOW_4 = 1.33
#: IMO test 4's peak flow is the highest over any stretch of at least this many seconds.
PEAK_WINDOW_4 = 10.0
#: IMO test 8's rooms (square, side in m) and the corridor joining them (length, width in m).
ROOM_8 = 10.0
CORRIDOR_8 = (10.0, 2.0)
#: IMO test 8's counter-flows (persons walking from room 2 to room 1) by default.
COUNTERFLOWS_8 = (0, 10, 50, 100)


def spread_persons(persons: int, x0: float, x1: float, y0: float, y1: float, rng) -> np.ndarray:
    """``persons`` start positions evenly over the rectangle, one per cell of a jittered grid, clear of its edges."""
    margin = RADIUS + 0.05
    length, width = x1 - x0 - 2 * margin, y1 - y0 - 2 * margin
    columns = int(np.ceil(np.sqrt(persons * length / width)))
    rows = int(np.ceil(persons / columns))
    dx, dy = length / columns, width / rows
    if min(dx, dy) < 2 * RADIUS + 0.02:
        raise ValueError(f"persons: {persons} do not fit a {x1 - x0:g} x {y1 - y0:g} m room")
    cells = np.sort(rng.permutation(columns * rows)[:persons])
    starts = np.column_stack([x0 + margin + dx * (cells % columns + 0.5), y0 + margin + dy * (cells // columns + 0.5)])
    return starts + rng.uniform(-1.0, 1.0, starts.shape) * (np.array([dx, dy]) / 2 - RADIUS - 0.01)


def peak_flow(times, window: float) -> float:
    """The highest flow (persons/s) over any stretch of at least ``window`` s between two exits.

    Flow over a stretch from one exit to a later one is measured as over
    the whole period: the persons after the first, divided by the time
    between them. The whole period counts as one stretch even when it is
    shorter than ``window``, so the peak is never below the flow over the
    whole period (the two are the same measure). ``times``: sorted exit
    times; 0 with fewer than two.
    """
    times = np.asarray(times, dtype=np.float64)
    if len(times) < 2:
        return 0.0
    best = (len(times) - 1) / (times[-1] - times[0]) if times[-1] > times[0] else float("inf")
    span = times[None, :] - times[:, None]
    count = np.arange(len(times))[None, :] - np.arange(len(times))[:, None]
    long_enough = span >= window
    if long_enough.any():
        best = max(best, float(np.max(count[long_enough] / span[long_enough])))
    return float(best)


def imo_4(method="orca", *, persons: int = 100, seconds: float = 300.0, seed: int = 0,
          max_flow: float = MAX_FLOW_4) -> TestResult:
    """IMO MSC.1/Circ.1238 Annex 3, test 4: exit flow rate of a crowd through a 1 m exit.

    ``persons`` pedestrians (the guideline: 100) stand evenly spread over a
    room 8 m deep and 5 m wide and leave through a 1 m exit in the middle of
    one 5 m wall, heading for the exit and on beyond it, where a sink 0.3 m
    past the door takes them out (``add_sink``). The flow over the whole
    period is the persons that left after the first, divided by the time
    from the first's exit to the last's (persons/s); the peak flow, the same
    measure over any stretch of at least 10 s between two exits
    (``peak_flow``: never below the flow over the whole period), is
    reported as well.

    Source: IMO MSC.1/Circ.1238 (2007), Annex 3, component test 4, as
    JuPedSim's issue #1569 names it ("exit flow rate"). The room's size,
    the population and the criterion "the flow over the whole period does
    not exceed 1.33 persons/s" (1.33 persons/(m s), the guideline's maximum
    specific flow through doorways in Annex 1, times 1 m) are as commonly
    cited; the text of Annex 3 itself could not be checked here.

    Criterion: everybody out within ``seconds`` s, and the flow over the whole
    period <= ``max_flow`` (1.33 persons/s).
    """
    method = method_of(method)
    persons = integer(persons, "persons", minimum=2, maximum=120)
    seconds = scalar(seconds, "seconds", minimum=1.0, maximum=3600.0)
    max_flow = scalar(max_flow, "max_flow", minimum=0.0, strict=True, maximum=100.0)
    rng = np.random.default_rng(integer(seed, "seed", minimum=0))
    depth, width = ROOM_4
    low, high = (width - EXIT_4) / 2, (width + EXIT_4) / 2
    sim = simulator_for(method)
    sim.add_wall([[depth, low], [depth, 0.0], [0.0, 0.0], [0.0, width], [depth, width], [depth, high]])
    starts = spread_persons(persons, 0.0, depth, 0.0, width, rng)
    door = [depth, width / 2]
    waypoints = [[door, [depth + 5.0, width / 2]] for _ in range(persons)]
    sim.add_agents(starts, waypoints=waypoints, waypoint_radius=0.5, pref_speed=SPEED, max_speed=SPEED, **PEDESTRIAN)
    sim.add_sink([[depth + 0.3, -2.0], [depth + 6.0, -2.0], [depth + 6.0, width + 2.0], [depth + 0.3, width + 2.0]])
    run_quietly(sim, int(np.ceil(seconds / TIME_STEP)), until_arrived=True, record_every=50)
    exit_time = np.array(sim.exit_time, dtype=np.float64)
    times = np.sort(exit_time[np.isfinite(exit_time)])
    left = len(times)
    span = float(times[-1] - times[0]) if left >= 2 else 0.0
    flow = (left - 1) / span if span > 0 else float("inf")
    peak = peak_flow(times, PEAK_WINDOW_4)
    passed = bool(left == persons and flow <= max_flow)
    summary = (f"{flow:.2f} persons/s (peak {peak:.2f} over {PEAK_WINDOW_4:g} s or more), last out {times[-1]:.0f} s"
               if left else "nobody out")
    if left < persons:
        summary = f"{left}/{persons} out in {seconds:g} s; " + summary
    notes = "" if flow <= max_flow else "more than the guideline's 1.33 persons/s squeeze through the 1 m exit"
    return TestResult("IMO 4", "exit flow rate, 1 m exit", method.name,
                      {"flow_persons_per_s": flow, "peak_flow_10s_persons_per_s": peak, "left": left,
                       "persons": persons, "last_out_s": float(times[-1]) if left else float("inf")},
                      f"everybody out, flow over the whole period <= {max_flow:g} persons/s", passed, summary, notes,
                      data={"exit_times": times, "persons": persons, "max_flow": max_flow})


def _counterflow_run(method, forward_starts: np.ndarray, backward: int, seconds: float, rng):
    """Seconds until the last of room 1's persons (at ``forward_starts``) enters room 2 (inf if not all do), and
    their entry times."""
    side, (length, width) = ROOM_8, CORRIDOR_8
    low, high = side / 2 - width / 2, side / 2 + width / 2
    far = 2 * side + length
    sim = simulator_for(method)
    for edge, lane in ((0.0, low), (side, high)):
        # The rooms' walls and the corridor's on this side of the axis, as one polyline.
        sim.add_wall([[0.0, side / 2], [0.0, edge], [side, edge], [side, lane], [side + length, lane],
                      [side + length, edge], [far, edge], [far, side / 2]])
    forward = len(forward_starts)
    backward_starts = spread_persons(backward, side + length, far, 0.0, side, rng) if backward else np.zeros((0, 2))
    mouths = ([side, side / 2], [side + length, side / 2])
    # Forward: through the corridor to its own spot in room 2 (its start shifted by the rooms' spacing);
    # backward alike into room 1. Lanes keep to the right on the way: +y for forward is the left, so -0.4.
    shift = side + length
    forward_route = [[[mouths[0][0], side / 2 - 0.4], [mouths[1][0], side / 2 - 0.4], list(s + [shift, 0.0])]
                     for s in forward_starts]
    backward_route = [[[mouths[1][0], side / 2 + 0.4], [mouths[0][0], side / 2 + 0.4], list(s - [shift, 0.0])]
                      for s in backward_starts]
    sim.add_agents(np.concatenate([forward_starts, backward_starts]), waypoints=forward_route + backward_route,
                   waypoint_radius=0.7, pref_speed=SPEED, max_speed=SPEED, **PEDESTRIAN)
    traj = run_quietly(sim, int(np.ceil(seconds / TIME_STEP)), until_arrived=True, record_every=1)
    entry = measurement.crossing_frames(traj, measurement.MeasurementLine([side + length, low], [side + length, high]))
    entry = entry[:forward]
    times = np.where(entry >= 0, traj.times[np.maximum(entry, 0)] - traj.times[0], np.inf)
    return (float(times.max()) if np.isfinite(times).all() else float("inf")), np.sort(times[np.isfinite(times)])


def imo_8(method="orca", *, persons: int = 100, counterflows=COUNTERFLOWS_8, seconds: float = 300.0,
          seed: int = 0) -> TestResult:
    """IMO MSC.1/Circ.1238 Annex 3, test 8: counter-flow between two rooms joined by a corridor.

    Two rooms 10 m x 10 m are joined by a corridor 10 m long and 2 m wide
    between the middles of their facing walls. ``persons`` pedestrians (the
    guideline: 100) spread evenly over room 1 walk through the corridor to a
    spot in room 2; the run is repeated with each number of ``counterflows``
    persons (the guideline: 0, 10, 50, 100) spread over room 2 walking the
    other way at the same time. Each keeps to the right in the corridor
    (waypoints 0.4 m right of its axis). The time measured is when the last
    of room 1's persons enters room 2 (crosses the corridor's end).

    Source: IMO MSC.1/Circ.1238 (2007), Annex 3, test 8 ("counter-flow, two
    rooms via corridor", JuPedSim issue #1569). The geometry and populations
    are those commonly cited for it; the text of Annex 3 itself could not be
    checked here. The guideline's expected result is qualitative: the time
    grows with the counter-flow.

    Criterion: everybody from room 1 reaches room 2 in every run (within
    ``seconds`` s), and the time never falls as the counter-flow grows and is
    longer with the largest counter-flow than with the smallest.
    """
    method = method_of(method)
    persons = integer(persons, "persons", minimum=1, maximum=200)
    seconds = scalar(seconds, "seconds", minimum=1.0, maximum=3600.0)
    flows = [integer(c, f"counterflows[{k}]", minimum=0, maximum=200) for k, c in enumerate(counterflows)]
    if len(flows) < 2 or any(b <= a for a, b in zip(flows, flows[1:])):
        raise ValueError(f"counterflows: {list(counterflows)} must be at least two increasing counts")
    rng = np.random.default_rng(integer(seed, "seed", minimum=0))
    # The same persons start in room 1 in every run; only the counter-flow changes.
    forward_starts = spread_persons(persons, 0.0, ROOM_8, 0.0, ROOM_8, rng)
    times, curves = [], {}
    for count in flows:
        last, entries = _counterflow_run(method, forward_starts, count, seconds,
                                         np.random.default_rng(rng.integers(2**32)))
        times.append(last)
        curves[count] = entries
    finished = all(np.isfinite(t) for t in times)
    growing = all(b >= a for a, b in zip(times, times[1:])) and times[-1] > times[0]
    passed = bool(finished and growing)
    summary = ", ".join(f"{c}: {t:.0f} s" if np.isfinite(t) else f"{c}: {len(curves[c])}/{persons} across"
                        for c, t in zip(flows, times))
    return TestResult("IMO 8", "counter-flow, two rooms via a corridor", method.name,
                      {"counterflows": flows, "time_last_in_room_2_s": times, "persons": persons,
                       "arrived": [int(len(curves[c])) for c in flows]},
                      "all reach room 2; time of the last grows with the counter-flow", passed,
                      "counter-flow " + summary,
                      data={"entry_times": curves, "persons": persons, "seconds": seconds})
