"""RiMEA test 13: a crowd leaves a room along a corridor and up stairs; people queue at the foot of the stairs."""

from __future__ import annotations


import numpy as np

from .. import measurement
from .._checks import integer, scalar
from ._result import TestResult
from ._pedestrians import PEDESTRIAN, RADIUS, SPEED, STAIR_PLAN_LENGTH, STAIR_SPEED_UP, TIME_STEP, method_of, run_quietly, simulator_for

#: RiMEA 13's geometry as vosim builds it (m): the room (length along the way out, width), the corridor
#: (length, width; the door is the corridor's full width) and the landing after the stairs.
ROOM_13 = (10.0, 8.0)
CORRIDOR_13 = (12.0, 2.0)
LANDING_13 = 2.0


def room_with_stairs(method, foot: float, head: float, end: float, stair_speed: float):
    """RiMEA 13's room and corridor in a simulator: stairs (a speed zone) from ``foot`` to
    ``head`` along the corridor, a sink across its end at ``end``."""
    (room, room_width), width = ROOM_13, CORRIDOR_13[1]
    low, high = width / 2 - room_width / 2, width / 2 + room_width / 2
    sim = simulator_for(method)
    sim.add_wall([[0.0, width], [0.0, high], [-room, high], [-room, low], [0.0, low], [0.0, 0.0]])
    sim.add_wall([[0.0, 0.0], [end, 0.0]])
    sim.add_wall([[0.0, width], [end, width]])
    sim.add_speed_zone([[foot, 0.0], [head, 0.0], [head, width], [foot, width]], stair_speed / SPEED)
    sim.add_sink([[end, 0.0], [end, width]])
    return sim


def persons_in_room_13(persons: int, rng) -> np.ndarray:
    """Start positions evenly over the room (x from -10 to 0, y from -3 to 5), jittered, clear of the walls."""
    length, width = ROOM_13
    margin = RADIUS + 0.05
    rows = max(1, int(np.floor(np.sqrt(persons * (width - 2 * margin) / (length - 2 * margin)))))
    columns = int(np.ceil(persons / rows))
    dx, dy = (length - 2 * margin) / columns, (width - 2 * margin) / rows
    if min(dx, dy) < 2 * RADIUS + 0.02:
        raise ValueError(f"persons: {persons} do not fit the {length:g} x {width:g} m room")
    cells = np.sort(rng.permutation(rows * columns)[:persons])
    low = np.array([-length + margin, CORRIDOR_13[1] / 2 - width / 2 + margin])
    starts = low + np.column_stack([dx * (cells // rows + 0.5), dy * (cells % rows + 0.5)])
    return starts + rng.uniform(-1.0, 1.0, starts.shape) * (np.array([dx, dy]) / 2 - RADIUS - 0.01)


def flow_between_deciles(times: np.ndarray) -> float:
    """Persons per second through a line between its 10th and its 90th percentile crossing."""
    t10, t90 = np.percentile(times, [10, 90])
    return float(0.8 * len(times) / (t90 - t10)) if t90 > t10 else float("inf")


def rimea_13(method="orca", *, persons: int = 150, stair_length: float = STAIR_PLAN_LENGTH,
             stair_speed: float = STAIR_SPEED_UP, margin: float = 0.1, seconds: float = 900.0,
             seed: int = 0) -> TestResult:
    """RiMEA test 13: congestion in front of stairs (RiMEA 4.1.1: "fundamental diagram on stairs").

    ``persons`` pedestrians (the guideline: 150 adults) stand evenly spread in
    a 10 x 8 m room and leave it through a 2 m wide door into a corridor 2 m
    wide and 12 m long that ends at stairs going up (``stair_length`` m in
    plan, 8 m as in :func:`rimea_2`), then a 2 m landing and the exit (a
    sink). The stairs are a speed zone of factor ``stair_speed / 1.34``
    (Weidmann's 0.610 m/s upstairs by default), as in RiMEA 2. Each person
    heads for the door, then straight on along the corridor in its own
    lane.

    The guideline expects congestion at the room's exit, a steady flow in
    the corridor, and congestion at the foot of the stairs that grows,
    since the stairs pass fewer people than the corridor. vosim measures it
    as the flow (persons/s between the 10th and the 90th percentile
    crossing) through the door and onto the stairs, and the mean density in
    the last 2 m of the corridor before the stairs against the corridor's
    middle 2 m over the same time.

    Criterion (vosim's, from the expected result): the flow onto the stairs
    is at least ``margin`` (10 %) below the flow through the door, and
    people stand denser at the foot of the stairs than in the corridor's
    middle. A run that has not brought everybody out in ``seconds`` s
    fails. The scenario follows the room, corridor and stairs of JuPedSim's
    RiMEA test 13 (after guideline 3.0) with a larger room for 150 persons;
    RiMEA 4.1.1's own numbers could not be confirmed.
    """
    method = method_of(method)
    persons = integer(persons, "persons", minimum=10, maximum=300)
    stair_length = scalar(stair_length, "stair_length", minimum=1.0, maximum=100.0)
    stair_speed = scalar(stair_speed, "stair_speed", minimum=0.0, strict=True, maximum=SPEED)
    margin = scalar(margin, "margin", minimum=0.0, maximum=0.9)
    seconds = scalar(seconds, "seconds", minimum=1.0, maximum=3600.0)
    rng = np.random.default_rng(integer(seed, "seed", minimum=0))
    corridor, width = CORRIDOR_13
    foot, head = corridor, corridor + stair_length
    end = head + LANDING_13
    sim = room_with_stairs(method, foot, head, end, stair_speed)
    starts = persons_in_room_13(persons, rng)
    lanes = rng.uniform(RADIUS + 0.05, width - RADIUS - 0.05, persons)
    # Through the door first (moving on within 1 m of its middle, where the way on is clear of its posts).
    waypoints = [[[0.5, width / 2], [end + 10.0, y]] for y in lanes]
    sim.add_agents(starts, waypoints=waypoints, waypoint_radius=1.0, pref_speed=SPEED, max_speed=SPEED, **PEDESTRIAN)
    traj = run_quietly(sim, int(np.ceil(seconds / TIME_STEP)), until_arrived=True, record_every=1)
    times = np.asarray(traj.times)
    crossed = {}
    for name, x in (("door", 0.0), ("stairs", foot)):
        frames = measurement.crossing_frames(traj, measurement.MeasurementLine([x, 0.0], [x, width]))
        crossed[name] = np.sort(times[frames[frames >= 0]])
    everybody = all(len(c) == persons for c in crossed.values()) and bool(np.isfinite(sim.exit_time).all())
    door_flow = flow_between_deciles(crossed["door"]) if len(crossed["door"]) >= 10 else 0.0
    stair_flow = flow_between_deciles(crossed["stairs"]) if len(crossed["stairs"]) >= 10 else 0.0
    # Densities while the corridor carries people: from the 10th percentile crossing of the door to the
    # 90th of the stairs.
    areas = {name: measurement.MeasurementArea([[x0, 0.0], [x0 + 2.0, 0.0], [x0 + 2.0, width], [x0, width]])
             for name, x0 in (("foot", foot - 2.0), ("middle", corridor / 2 - 1.0))}
    if len(crossed["door"]) >= 10 and len(crossed["stairs"]) >= 10:
        window = (times >= np.percentile(crossed["door"], 10)) & (times <= np.percentile(crossed["stairs"], 90))
    else:
        window = np.ones(len(times), dtype=bool)
    density = {name: measurement.density(traj, area) for name, area in areas.items()}
    foot_density = float(np.mean(density["foot"][window]))
    middle_density = float(np.mean(density["middle"][window]))
    queue = stair_flow <= (1.0 - margin) * door_flow
    denser = foot_density > middle_density
    passed = bool(everybody and queue and denser)
    summary = (f"flow {door_flow:.2f}/s through the door, {stair_flow:.2f}/s onto the stairs; "
               f"{foot_density:.1f}/m² at their foot vs {middle_density:.1f} mid-corridor")
    if not everybody:
        summary += f" ({int(np.isfinite(sim.exit_time).sum())}/{persons} out in {seconds:g} s)"
    return TestResult("RiMEA 13", "congestion in front of stairs", method.name,
                      {"door_flow_per_s": door_flow, "stair_flow_per_s": stair_flow,
                       "foot_density_per_m2": foot_density, "middle_density_per_m2": middle_density,
                       "out": int(np.isfinite(sim.exit_time).sum()), "persons": persons},
                      f"flow onto the stairs at least {margin:.0%} below the flow through the door, and denser at "
                      "the foot of the stairs than mid-corridor", passed, summary,
                      data={"times": times, "crossed": crossed, "density": density, "persons": persons,
                            "window": window})
