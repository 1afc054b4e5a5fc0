"""ISO 20414 component 12: the specific flow a crowd reaches on a flight of stairs, down and up."""

from __future__ import annotations

import numpy as np

from .. import measurement
from .._checks import integer, scalar
from ._pedestrians import (PEDESTRIAN, SPEED, STAIR_PLAN_LENGTH, STAIR_SPEED_DOWN, STAIR_SPEED_UP, TIME_STEP,
                           method_of, run_quietly)
from ._result import TestResult
from ._stair_congestion import CORRIDOR_13, flow_between_deciles, persons_in_room_13, room_with_stairs

#: The maximum specific flow on stairs in the SFPE Handbook's hydraulic model (Nelson and Mowrer; Gwynne
#: and Rosenbaum, "Employing the hydraulic model in assessing emergency movement"), persons per second and
#: metre of effective width: 0.94 for risers of 7.5 in and treads of 10 in, 1.01 for 7/11, 1.09 for
#: 6.5/12 and 1.16 for 6.5/13 (1.3 on the level), the same up and down.
STAIR_MAX_SPECIFIC_FLOW = (0.94, 1.16)
#: The boundary layer (m) the hydraulic model takes off each side of a stair between walls: the effective
#: width is the clear width less twice this.
STAIR_BOUNDARY = 0.15
#: The level way (m) between the room's door and the foot of the stairs, and the landing after them.
APPROACH_12 = 4.0
LANDING_12 = 2.0


def _flight(method, persons: int, stair_speed: float, seconds: float, seed: int) -> dict:
    """One crowd through a room's door and along the stairs; the steady flow and density on them."""
    rng = np.random.default_rng(seed)
    width = CORRIDOR_13[1]
    foot, head = APPROACH_12, APPROACH_12 + STAIR_PLAN_LENGTH
    end = head + LANDING_12
    sim = room_with_stairs(method, foot, head, end, stair_speed)
    starts = persons_in_room_13(persons, rng)
    lanes = rng.uniform(0.3, width - 0.3, persons)
    waypoints = [[[0.5, width / 2], [end + 10.0, y]] for y in lanes]
    sim.add_agents(starts, waypoints=waypoints, waypoint_radius=1.0, pref_speed=SPEED, max_speed=SPEED, **PEDESTRIAN)
    traj = run_quietly(sim, int(np.ceil(seconds / TIME_STEP)), until_arrived=True, record_every=1)
    times = np.asarray(traj.times)
    middle = (foot + head) / 2
    frames = measurement.crossing_frames(traj, measurement.MeasurementLine([middle, 0.0], [middle, width]))
    crossed = np.sort(times[frames[frames >= 0]])
    flow = flow_between_deciles(crossed) if len(crossed) >= 10 else 0.0
    # Density and speed on the 2 m of stairs round the line, while the steady flow lasts.
    area = measurement.MeasurementArea([[middle - 1.0, 0.0], [middle + 1.0, 0.0], [middle + 1.0, width],
                                        [middle - 1.0, width]])
    window = ((times >= np.percentile(crossed, 10)) & (times <= np.percentile(crossed, 90)) if len(crossed) >= 10
              else np.zeros(len(times), dtype=bool))
    density = measurement.density(traj, area)
    speed = measurement.mean_speed(traj, area)
    return {"flow": flow, "density": float(np.mean(density[window])) if window.any() else 0.0,
            "speed": float(np.nanmean(speed[window])) if window.any() and np.isfinite(speed[window]).any() else 0.0,
            "out": int(np.isfinite(sim.exit_time).sum()), "trajectory": traj, "crossed": crossed}


def iso_12(method="orca", *, persons: int = 80, tolerance: float = 0.05, seconds: float = 300.0,
           seed: int = 0) -> TestResult:
    """ISO 20414 basic component 12: stair flow rates.

    ``persons`` pedestrians stand evenly spread in a 10 x 8 m room (as in
    :func:`rimea_13`) and leave it through a 2 m door into a level way 4 m
    long, then a flight of stairs 2 m wide and 8 m long in plan, a 2 m
    landing and the exit (a sink). The stairs are a speed zone of factor
    stair speed / 1.34, as in RiMEA 2, 3 and 13: Weidmann's 0.694 m/s going
    down, then, in a second run, 0.610 m/s going up. The specific flow on
    the stairs is the flow through a line across their middle (persons/s
    between the 10th and the 90th percentile crossing,
    :func:`vosim.measurement.crossing_frames`) per metre of effective width
    (the clear 2 m less a 0.15 m boundary layer each side, as the SFPE
    Handbook's hydraulic model takes it); density and speed on the 2 m of
    stairs round the line are reported alongside.

    Source: ISO 20414:2020 section 5.2 lists the component (JuPedSim issue
    #1570); the values come from the SFPE Handbook's hydraulic model (Nelson
    and Mowrer; Gwynne and Rosenbaum): a maximum specific flow on stairs of
    0.94 to 1.16 persons/(m s) of effective width, from steep (7.5 in
    risers, 10 in treads) to shallow stairs (6.5 / 13 in), the same up and
    down (1.3 on the level).

    Criterion: the specific flow on the stairs, down and up, lies within
    that range widened by ``tolerance`` (5 %) each side: the crowd fills the
    stairs (the room's door passes more than the stairs do) and the stairs
    let through no more than measured crowds do.
    """
    method = method_of(method)
    persons = integer(persons, "persons", minimum=20, maximum=300)
    tolerance = scalar(tolerance, "tolerance", minimum=0.0, maximum=0.5)
    seconds = scalar(seconds, "seconds", minimum=10.0, maximum=3600.0)
    seed = integer(seed, "seed", minimum=0)
    effective = CORRIDOR_13[1] - 2 * STAIR_BOUNDARY
    low, high = STAIR_MAX_SPECIFIC_FLOW[0] * (1 - tolerance), STAIR_MAX_SPECIFIC_FLOW[1] * (1 + tolerance)
    runs = {name: _flight(method, persons, speed, seconds, seed)
            for name, speed in (("down", STAIR_SPEED_DOWN), ("up", STAIR_SPEED_UP))}
    specific = {name: run["flow"] / effective for name, run in runs.items()}
    everybody = all(run["out"] == persons for run in runs.values())
    passed = bool(everybody and all(low <= value <= high for value in specific.values()))
    summary = "; ".join(f"{name} {specific[name]:.2f}/(m·s) at {run['density']:.1f}/m²" for name, run in runs.items())
    if not everybody:
        summary += " (" + ", ".join(f"{run['out']}/{persons} out {name}" for name, run in runs.items()) + ")"
    measured = {"persons": persons, "effective_width_m": effective}
    for name, run in runs.items():
        measured.update({f"specific_flow_{name}": specific[name], f"flow_{name}_per_s": run["flow"],
                         f"density_{name}_per_m2": run["density"], f"speed_{name}_m_s": run["speed"],
                         f"out_{name}": run["out"]})
    notes = ""
    if any(value > high for value in specific.values()):
        notes = ("stairs are speed zones: they slow people but set no capacity of their own, so the flow on them is "
                 "density times the slowed speed, as dense as the method packs people")
    elif any(value < low for value in specific.values()):
        notes = "the crowd on the stairs stays sparser (or slower) than measured crowds at the stairs' capacity"
    return TestResult("ISO 12", "stair flow rates, down and up", method.name, measured,
                      f"specific flow on the stairs, down and up, {low:.2f} to {high:.2f} /(m·s) of effective width "
                      f"(SFPE: {STAIR_MAX_SPECIFIC_FLOW[0]:g} to {STAIR_MAX_SPECIFIC_FLOW[1]:g})", passed, summary,
                      notes=notes, data={"trajectory": runs["down"]["trajectory"],
                                         "crossed": {name: run["crossed"] for name, run in runs.items()},
                                         "published": STAIR_MAX_SPECIFIC_FLOW})
