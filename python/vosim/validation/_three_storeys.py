"""RiMEA test 8: parameter analysis of the evacuation of a three-storey building.

vosim is planar, so the storeys lie side by side in the plane: each
storey's room opens through its door onto a landing of one stairwell
strip, and the flights of stairs between the landings are speed zones
(as in RiMEA 2, 3 and 13). Walking down the strip from the top storey's
landing leads over the stairs to the next storey's landing, where that
storey's occupants join, and on to the ground floor's exit (a sink).
"""

from __future__ import annotations

import numpy as np

from .._checks import integer, scalar
from ._pedestrians import (PEDESTRIAN, RADIUS, SPEED, STAIR_PLAN_LENGTH, STAIR_SPEED_DOWN, TIME_STEP, method_of,
                           run_quietly, simulator_for)
from ._result import TestResult

#: The building as vosim draws it (m): each storey's room (along the strip, depth), the width of the
#: stairwell strip (landings and flights), a landing's length, a flight's length in plan (as RiMEA 2
#: and 3), the width of each room's door and of the exit, and the walk from the ground floor's landing
#: to the exit.
ROOM_8 = (10.0, 8.0)
STRIP_8 = 2.0
LANDING_8 = 2.0
DOOR_8 = 1.0
EXIT_WALK_8 = 4.0
STOREYS_8 = 3

#: The variations run by default, each against the base case: (name, what changes). ``persons`` is per
#: storey, ``level_speed`` and ``stair_speed`` in m/s, ``premovement`` the upper end (s) of pre-movement
#: times drawn uniformly from 0.
BASE_8 = {"persons": 20, "level_speed": SPEED, "stair_speed": STAIR_SPEED_DOWN, "premovement": 0.0}
VARIATIONS_8 = (("base", {}), ("fewer persons", {"persons": 10}), ("more persons", {"persons": 30}),
                ("slower on the level", {"level_speed": 1.0}), ("slower on the stairs", {"stair_speed": 0.5}),
                ("pre-movement 0-30 s", {"premovement": 30.0}))
#: The direction each varied parameter must move the evacuation time in (vosim's plausibility checks):
#: (variation, compared with, "longer").
EXPECTED_8 = (("fewer persons", "base"), ("base", "more persons"), ("base", "slower on the level"),
              ("base", "slower on the stairs"), ("base", "pre-movement 0-30 s"))


def _layout(storeys: int):
    """x of each storey's landing (storey 0, the ground floor, last) and the exit's x."""
    flight = STAIR_PLAN_LENGTH
    landings = [k * (LANDING_8 + flight) for k in range(storeys)]  # top storey first
    return landings[::-1], landings[-1] + LANDING_8 + EXIT_WALK_8


def _stairs(storeys: int) -> list:
    """Each flight as (x from, x to, strip width): down to the ground floor's and the first floor's landing."""
    landings, _ = _layout(storeys)
    return [(x - STAIR_PLAN_LENGTH, x, STRIP_8) for x in landings[:-1]]


def _walls(storeys: int) -> list:
    """Walls of the strip and the rooms; each room sits on its storey's landing, its door in the middle."""
    landings, exit_x = _layout(storeys)
    length, depth = ROOM_8
    walls = [[[exit_x, 0.0], [0.0, 0.0], [0.0, STRIP_8]]]
    doors = sorted(x + LANDING_8 / 2 for x in landings)
    rooms = [(d - length / 2, d + length / 2) for d in doors]
    # The strip's upper side and the rooms' floors, one line open at each door (the ground floor's room
    # ends where the exit is); then each room's three other sides.
    edges = [rooms[0][0]] + [c for d in doors for c in (d - DOOR_8 / 2, d + DOOR_8 / 2)] + [exit_x]
    walls += [[[edges[k], STRIP_8], [edges[k + 1], STRIP_8]] for k in range(0, len(edges), 2)]
    for left, right in rooms:
        walls.append([[left, STRIP_8], [left, STRIP_8 + depth], [right, STRIP_8 + depth], [right, STRIP_8]])
    return walls


def _starts(persons: int, door: float, rng) -> np.ndarray:
    """``persons`` positions spread over the room above ``door`` (its x), jittered, clear of the walls."""
    length, depth = ROOM_8
    margin = RADIUS + 0.1
    columns = int(np.ceil(np.sqrt(persons * length / depth)))
    rows = int(np.ceil(persons / columns))
    dx, dy = (length - 2 * margin) / columns, (depth - 2 * margin) / rows
    cells = np.sort(rng.permutation(columns * rows)[:persons])
    starts = np.column_stack([door - length / 2 + margin + dx * (cells % columns + 0.5),
                              STRIP_8 + margin + dy * (cells // columns + 0.5)])
    return starts + rng.uniform(-1.0, 1.0, starts.shape) * (np.array([dx, dy]) / 2 - RADIUS - 0.02)


def evacuate_building(method, *, persons: int, level_speed: float, stair_speed: float, premovement: float,
                      seed: int, seconds: float, storeys: int = STOREYS_8):
    """One evacuation of the building; returns (simulator, trajectory, storey of each person)."""
    landings, exit_x = _layout(storeys)
    sim = simulator_for(method)
    for wall in _walls(storeys):
        sim.add_wall(wall)
    factor = min(1.0, stair_speed / level_speed)  # the stairs' speed in m/s, whatever the level speed
    for x0, x1, width in _stairs(storeys):
        sim.add_speed_zone([[x0, 0.0], [x1, 0.0], [x1, width], [x0, width]], factor)
    sim.add_sink([[exit_x, 0.0], [exit_x, STRIP_8]])
    rng = np.random.default_rng(seed)
    starts, storey, waypoints = [], [], []
    for level, x in enumerate(landings):
        door = x + LANDING_8 / 2
        mine = _starts(persons, door, rng)
        starts.append(mine)
        storey += [level] * persons
        # Through the door onto the landing, then down the strip in a lane of one's own and out.
        lanes = rng.uniform(RADIUS + 0.1, STRIP_8 - RADIUS - 0.1, persons)
        waypoints += [[[door, STRIP_8 / 2], [exit_x + 10.0, y]] for y in lanes]
    starts = np.vstack(starts)
    start_time = rng.uniform(0.0, premovement, len(starts)) if premovement > 0 else np.zeros(len(starts))
    sim.add_agents(starts, waypoints=waypoints, waypoint_radius=0.8, start_time=start_time, pref_speed=level_speed,
                   max_speed=level_speed, **PEDESTRIAN)
    traj = run_quietly(sim, int(np.ceil(seconds / TIME_STEP)), until_arrived=True, record_every=5)
    return sim, traj, np.array(storey)


def rimea_8(method="orca", *, variations=None, seeds=(0, 1, 2), seconds: float = 300.0,
            seed: int | None = None) -> TestResult:
    """RiMEA test 8: how the evacuation time of a three-storey building depends on the model's parameters.

    The guideline asks for a parameter analysis: a three-storey building is
    evacuated with its parameters varied (walking speeds, the number of
    persons, pre-movement times) and the evacuation times documented, to
    show how they behave with respect to each parameter. It gives no
    numbers to meet. JuPedSim's suite leaves this test out; the building
    here is vosim's: on each storey a 10 x 8 m room with a 1 m door onto a
    2 m landing of a 2 m wide stairwell; flights of stairs 8 m long in plan
    (as RiMEA 2 and 3) lead from each landing down to the one below; the
    exit (a sink) is 4 m past the ground floor's landing. Storeys lie side
    by side in the plane, each flight a speed zone that slows people to
    the stair speed (Weidmann's 0.694 m/s downstairs by default).

    ``variations``: (name, changes) pairs over ``BASE_8``
    (``VARIATIONS_8`` by default: 20 persons per storey at 1.34 m/s,
    then 10 and 30 per storey, 1.0 m/s on the level, 0.5 m/s on the
    stairs, pre-movement times drawn from 0 to 30 s). Each is run once per
    seed in ``seeds`` (``seed``: that one alone; the same seeds for every variation: placement,
    lanes, pre-movement times); the evacuation time of a storey is the
    time its last occupant leaves by the exit, of the building the latest,
    each the mean over the seeds (a single run's last person is noisy). A
    variation that leaves someone inside after ``seconds`` s in any seed
    shows the fewest persons out over the seeds instead of a time.

    Criterion (vosim's, the guideline asks only for documented results):
    every variation is evacuated within ``seconds`` s, and the evacuation
    time moves the plausible way with each parameter it varies
    (``EXPECTED_8``: longer with more persons, slower walking on the
    level or the stairs, and pre-movement times), where the variations
    named there are run.
    """
    method = method_of(method)
    if seed is not None:  # one seed alone (a verdict over seeds runs each on its own)
        seeds = (integer(seed, "seed", minimum=0),)
    seeds = [integer(s, f"seeds[{k}]", minimum=0) for k, s in enumerate(seeds)]
    if not seeds:
        raise ValueError("seeds: expected at least one seed, got none")
    seconds = scalar(seconds, "seconds", minimum=1.0, maximum=3600.0)
    variations = VARIATIONS_8 if variations is None else tuple(variations)
    if not variations:
        raise ValueError("variations: expected at least one (name, changes) pair, got none")
    runs = {}
    for k, item in enumerate(variations):
        try:
            name, changes = item
        except (TypeError, ValueError):
            raise ValueError(f"variations[{k}]: expected a (name, changes) pair, got {item!r}") from None
        unknown = [key for key in dict(changes) if key not in BASE_8]
        if unknown:
            raise ValueError(f"variations[{k}]: unknown parameter {unknown[0]!r}; choose from {', '.join(BASE_8)}")
        p = {**BASE_8, **dict(changes)}
        persons = integer(p["persons"], f"variations[{k}] persons", minimum=1, maximum=60)
        level = scalar(p["level_speed"], f"variations[{k}] level_speed", minimum=0.1, maximum=3.0)
        stair = scalar(p["stair_speed"], f"variations[{k}] stair_speed", minimum=0.05, maximum=3.0)
        pre = scalar(p["premovement"], f"variations[{k}] premovement", minimum=0.0, maximum=600.0)
        exits, first = [], None
        for seed in seeds:
            sim, traj, storey = evacuate_building(method, persons=persons, level_speed=level, stair_speed=stair,
                                                  premovement=pre, seed=seed, seconds=seconds)
            exits.append(np.array(sim.exit_time, dtype=float))
            first = first or (traj, storey)
        exit_time = np.stack(exits)  # (seeds, persons); inf: not out
        per_storey = [float(np.mean(np.max(exit_time[:, first[1] == s], axis=1))) for s in range(STOREYS_8)]
        runs[str(name)] = {"persons": persons * STOREYS_8, "out": int(np.isfinite(exit_time).sum(axis=1).min()),
                           "per_storey_s": per_storey, "total_s": float(np.mean(np.max(exit_time, axis=1))),
                           "exit_times": np.sort(exits[0][np.isfinite(exits[0])]), "trajectory": first[0],
                           "storey": first[1]}
    everybody = all(r["out"] == r["persons"] for r in runs.values())
    # Each check compares two variations that were both evacuated (a run with someone left inside has no time).
    checks = [(a, b, runs[a]["total_s"] < runs[b]["total_s"]) for a, b in EXPECTED_8
              if a in runs and b in runs and np.isfinite(runs[a]["total_s"]) and np.isfinite(runs[b]["total_s"])]
    wrong = [f"{b} not longer than {a}" for a, b, ok in checks if not ok]
    passed = bool(everybody and not wrong)

    def shown(t):
        return f"{t:.0f} s" if np.isfinite(t) else "not out"

    summary = ", ".join(f"{name} {r['total_s']:.0f} s" if np.isfinite(r["total_s"])
                        else f"{name} {r['out']}/{r['persons']} out" for name, r in runs.items())
    if wrong:
        summary += "; " + ", ".join(wrong)
    measured = {"variations": list(runs), "total_s": [r["total_s"] for r in runs.values()],
                "per_storey_s": [r["per_storey_s"] for r in runs.values()],
                "out": [r["out"] for r in runs.values()], "persons": [r["persons"] for r in runs.values()],
                "plausible": {f"{b} longer than {a}": ok for a, b, ok in checks}, "seeds": seeds}
    notes = ("per storey (ground, first, second): " +
             "; ".join(f"{name} " + "/".join(shown(t) for t in r["per_storey_s"]) for name, r in runs.items()))
    return TestResult("RiMEA 8", "parameter analysis, 3-storey building", method.name, measured,
                      f"everybody out in {seconds:g} s in every variation, and the evacuation time longer with more "
                      "persons, slower walking (level, stairs) and pre-movement times", passed, summary, notes,
                      data={"runs": runs, "building": _walls(STOREYS_8), "stairs": _stairs(STOREYS_8),
                            "exit": _layout(STOREYS_8)[1], "seconds": seconds})
