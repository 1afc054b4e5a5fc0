"""Bottleneck flow against width: a waiting crowd leaves a room through a corridor, against measured crowds.

The measured flows (``data/bottleneck_flow.csv``; provenance in
``data/README.md``) are those of seven published bottleneck experiments
(Seyfried et al. 2009, the 2006 runs analysed by Liddle et al. 2011,
Kretz et al. 2006, Nagai et al. 2006, Müller 1981, Daamen and Hoogendoorn
2010, Liao et al. 2014) as JuPedSim's validation test 13 tabulates them.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from .. import measurement
from .._checks import integer, scalar
from ._imo import spread_persons
from ._pedestrians import PEDESTRIAN, RADIUS, SPEED, TIME_STEP, method_of, run_quietly, simulator_for
from ._result import TestResult

_DATA = Path(__file__).with_name("data") / "bottleneck_flow.csv"

#: The waiting room (m): ``ROOM[0]`` deep along x, ``ROOM[1]`` wide, the corridor leaving the middle of its far wall.
ROOM = (8.0, 8.0)
#: Widths (m) run by default: from narrower than two bodies abreast to five bodies.
WIDTHS = (0.8, 0.9, 1.0, 1.1, 1.2, 1.4, 1.6, 1.8, 2.0, 2.2, 2.5)
#: The share of crossings left out at the start (the crowd's front walking in free) and at the end (the room
#: emptying, nobody pressing from behind) when the steady flow is taken.
TRIM = (0.1, 0.2)


@lru_cache(maxsize=1)
def _table() -> tuple:
    names = np.loadtxt(_DATA, delimiter=",", skiprows=1, usecols=0, dtype=str)
    values = np.loadtxt(_DATA, delimiter=",", skiprows=1, usecols=(1, 2), dtype=np.float64)
    return names, values


def bottleneck_flow_measured() -> dict:
    """Measured flows through bottlenecks, one row per run (or per width and set, as published).

    Returns
    -------
    dict
        ``source`` (the experiment set, e.g. ``"seyfried2009"``; see
        ``data/README.md``), ``width`` (m) and ``flow`` (persons/s), arrays
        of equal length (fresh copies).
    """
    names, values = _table()
    return {"source": names.copy(), "width": values[:, 0].copy(), "flow": values[:, 1].copy()}


def measured_specific_flow_band(low: float = 0.8, high: float = 2.5) -> tuple:
    """The lowest and highest measured specific flow J/b (persons/(m s)) at widths from ``low`` to ``high`` m."""
    data = bottleneck_flow_measured()
    inside = (data["width"] >= low - 1e-9) & (data["width"] <= high + 1e-9)
    if not inside.any():
        raise ValueError(f"widths: no measured flow between {low:g} and {high:g} m")
    specific = data["flow"][inside] / data["width"][inside]
    return float(specific.min()), float(specific.max())


def steady_flow(times, persons: int, trim=TRIM) -> float:
    """Persons/s from the crossing ``times`` (s) of a line, start-up and run-out left out.

    With ``n`` crossings sorted, the first ``ceil(trim[0] n)`` and the last
    ``ceil(trim[1] n)`` are dropped and the flow is the crossings between the
    first and the last kept, over the time between them. NaN when fewer
    than half of the ``persons`` crossed or fewer than 3 remain.
    """
    times = np.sort(np.asarray(times, dtype=np.float64))
    n = len(times)
    if n < max(3, persons / 2):
        return float("nan")
    first = int(np.ceil(trim[0] * n))
    last = n - 1 - int(np.ceil(trim[1] * n))
    if last - first < 2 or times[last] <= times[first]:
        return float("nan")
    return float((last - first) / (times[last] - times[first]))


def _run(method, width: float, persons: int, length: float, seconds: float, starts: np.ndarray):
    """Crossing times (s) of the line across the corridor's middle, and the persons out at its far end."""
    depth, side = ROOM
    half, end = width / 2.0, depth + length
    sim = simulator_for(method)
    for s in (1.0, -1.0):  # each half of the outline, mirrored about the axis
        sim.add_wall([[0.0, 0.0], [0.0, s * side / 2], [depth, s * side / 2], [depth, s * half], [end, s * half]])
    # Each heads for its own lane in the corridor (its place across the room scaled to the corridor's
    # usable width), so wide corridors are used across their width, then on beyond the end.
    # The lane's entry point counts as reached once passed: one pushed by the crowd into the corridor
    # more than waypoint_radius from it would otherwise walk out of the far end and round the outside
    # of the corridor back towards it, and never reach the sink.
    lane = starts[:, 1] / (side / 2) * max(0.0, half - RADIUS - 0.1)
    waypoints = [[[depth + 0.5, y], [end + 4.0, y]] for y in lane]
    sim.add_agents(starts, waypoints=waypoints, waypoint_radius=0.5, waypoint_advance="passed", pref_speed=SPEED,
                   max_speed=SPEED, **PEDESTRIAN)
    sim.add_sink([[end + 1.0, -side], [end + 5.0, -side], [end + 5.0, side], [end + 1.0, side]])
    traj = run_quietly(sim, int(np.ceil(seconds / TIME_STEP)), until_arrived=True, record_every=1)
    middle = depth + length / 2.0
    frames = measurement.crossing_frames(traj, measurement.MeasurementLine([middle, -half], [middle, half]))
    crossed = frames[frames >= 0]
    times = np.asarray(traj.times)[crossed] - float(traj.times[0])
    out = int(np.isfinite(np.asarray(sim.exit_time)).sum())
    return np.sort(times), out


def bottleneck_width(method="orca", *, widths=WIDTHS, persons: int = 150, length: float = 4.0, seed: int = 0,
                     seconds: float = 300.0, min_r2: float = 0.9) -> TestResult:
    """Bottleneck flow against width: the steady flow J through a corridor of each width, against measured crowds.

    ``persons`` pedestrians (150) wait evenly spread over a room 8 m deep
    and 8 m wide (``ROOM``); from the middle of its far wall a corridor
    ``length`` m long (4 m) and ``b`` m wide leads out, and a sink 1 m past
    its end takes them out. The same start positions (``seed``) are run once
    per width in ``widths`` (0.8 to 2.5 m). Everyone heads for a lane of
    their own in the corridor (their place across the room, scaled to the
    corridor's width, its entry point counting as reached once passed:
    ``waypoint_advance="passed"``) and on out. The flow J (persons/s) is measured on a
    line across the corridor's middle (:func:`vosim.measurement.crossing_frames`,
    every step recorded): with the crossings sorted, the first 10 % (the
    crowd's front arriving before a jam has formed) and the last 20 % (the
    room emptying, nobody pressing from behind) are left out, and J is the
    crossings between the first and the last kept over the time between
    them (``steady_flow()``). The specific flow is J / b.

    Measured crowds (:func:`bottleneck_flow_measured`: Seyfried et al.
    2009, the 2006 runs analysed by Liddle et al. 2011, Kretz et al.
    2006, Nagai et al. 2006, Müller 1981, Daamen and Hoogendoorn 2010, Liao
    et al. 2014, as JuPedSim's validation test 13 tabulates them) give a
    flow that grows about linearly with the width, with specific flows of
    1.61 to 2.77 persons/(m s) at widths of 0.8 to 2.5 m
    (:func:`measured_specific_flow_band`).

    Criterion (vosim's): at least half the persons cross the line at every
    width; the flow grows with the width, about linearly (a straight line
    fitted to J against b has a positive slope and R² of at least
    ``min_r2``, 0.9); and the specific flow at every width lies within the
    measured band over the widths tested.
    """
    method = method_of(method)
    widths = [scalar(b, f"widths[{k}]", minimum=2 * RADIUS, strict=True, maximum=ROOM[1] - 1.0)
              for k, b in enumerate(widths)]
    if len(widths) < 2 or any(b <= a for a, b in zip(widths, widths[1:])):
        raise ValueError(f"widths: {list(widths)} must be at least two increasing widths")
    persons = integer(persons, "persons", minimum=10, maximum=200)
    length = scalar(length, "length", minimum=0.1, maximum=20.0)
    seconds = scalar(seconds, "seconds", minimum=1.0, maximum=3600.0)
    min_r2 = scalar(min_r2, "min_r2", minimum=0.0, maximum=1.0)
    rng = np.random.default_rng(integer(seed, "seed", minimum=0))
    depth, side = ROOM
    starts = spread_persons(persons, 0.0, depth - 0.5, -side / 2, side / 2, rng)
    rows, crossings = [], {}
    for b in widths:
        times, out = _run(method, b, persons, length, seconds, starts)
        crossings[b] = times
        rows.append((b, steady_flow(times, persons), len(times), out))
    table = np.array(rows, dtype=np.float64)
    b, flow = table[:, 0], table[:, 1]
    specific = flow / b
    low, high = measured_specific_flow_band(min(widths), max(widths))
    finite = np.isfinite(flow)
    slope, intercept, r2 = float("nan"), float("nan"), float("nan")
    if finite.sum() >= 2:
        slope, intercept = (float(v) for v in np.polyfit(b[finite], flow[finite], 1))
        residual = flow[finite] - (slope * b[finite] + intercept)
        spread = float(np.sum((flow[finite] - flow[finite].mean()) ** 2))
        r2 = 1.0 - float(np.sum(residual ** 2)) / spread if spread > 0 else float("nan")
    in_band = finite & (specific >= low) & (specific <= high)
    linear = bool(finite.all() and slope > 0 and r2 >= min_r2)
    passed = bool(linear and in_band.all())
    series = ", ".join(f"{w:g} m: {j:.2f}" for w, j in zip(b, flow))
    summary = (f"J = {slope:.2f} b {intercept:+.2f} /s (R² {r2:.2f}); J/b {np.nanmin(specific):.2f}-"
               f"{np.nanmax(specific):.2f} /(m s) vs measured {low:.2f}-{high:.2f}" if finite.sum() >= 2
               else "fewer than half crossed at most widths")
    notes = f"flows (persons/s): {series}"
    if not finite.all():
        summary += f"; fewer than half crossed at {int((~finite).sum())} of {len(b)} widths"
        notes += "; NaN: fewer than half the persons crossed"
    return TestResult(
        "Bottleneck", "flow against width", method.name,
        {"width_m": b.tolist(), "flow_per_s": flow.tolist(), "specific_flow": specific.tolist(),
         "crossed": [int(n) for n in table[:, 2]], "persons_out": [int(n) for n in table[:, 3]],
         "persons": persons, "slope": slope, "intercept": intercept, "r2": r2,
         "measured_specific_flow_band": [low, high]},
        f"at least half cross at every width; J against b linear (slope > 0, R² >= {min_r2:g}); J/b within the "
        f"measured {low:.2f}-{high:.2f} /(m s)", passed, summary, notes,
        data={"table": table, "crossings": crossings, "band": (low, high), "fit": (slope, intercept)})
