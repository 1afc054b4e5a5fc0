"""RiMEA tests of escape routes (guideline 4.1.1): 10, assigned exits, 11, exit choice, 14, route choice.

Both use :meth:`vosim.Simulator.set_exits` for the route (planned on a
navigation mesh) and sinks for the exits; the method under test does the
walking. Geometries follow JuPedSim's verification suite
(``Utest/rimea_tests/test_10``, ``test_11`` and ``test_14``).
"""

from __future__ import annotations

import numpy as np

from .._checks import integer, scalar
from ._result import TestResult
from ._walls import persons_through_walls
from ._pedestrians import (PEDESTRIAN, RADIUS, SPEED, STAIR_SPEED_DOWN, STAIR_SPEED_UP, TIME_STEP, method_of,
                           run_quietly, simulator_for)

#: RiMEA 10's floor (JuPedSim's geometry): a 1 m corridor (y 5 to 6, x 0 to 18) between six rooms above
#: and six below, each with a 0.9 m door onto it; exit 1 at the top of a 1.2 m passage (x 6 to 7.2) up to
#: y = 11, exit 2 at the corridor's right end (x = 18). Room doors: the x of each door's left side.
DOORS_ABOVE_10 = (1.05, 4.05, 7.65, 10.05, 13.05, 16.05)
DOORS_BELOW_10 = (1.05, 4.05, 7.05, 10.05, 13.05, 16.05)
ROOM_WALLS_ABOVE_10 = (0.0, 3.0, 6.0, 7.2, 9.0, 12.0, 15.0, 18.0)
ROOM_WALLS_BELOW_10 = (0.0, 3.0, 6.0, 9.0, 12.0, 15.0, 18.0)
#: Each room's span in x: rooms 0-5 above (y 6-11; the passage x 6-7.2 is no room), 6-11 below (y 0-5).
ROOMS_10 = ((0.0, 3.0), (3.0, 6.0), (7.2, 9.0), (9.0, 12.0), (12.0, 15.0), (15.0, 18.0),
            (0.0, 3.0), (3.0, 6.0), (6.0, 9.0), (9.0, 12.0), (12.0, 15.0), (15.0, 18.0))
#: Persons per room (rooms 0-5 above, 6-11 below, left to right) and each room's exit (0: top, 1: right),
#: as JuPedSim's test assigns them: 23 persons, 15 to exit 1 and 8 to exit 2.
PERSONS_10 = (2, 2, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2)
EXIT_OF_ROOM_10 = (0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1)
DOOR = 0.9


def _gapped(start: float, end: float, gaps) -> list[tuple[float, float]]:
    """The pieces of [start, end] left between the gaps (sorted (from, to) pairs)."""
    pieces, at = [], start
    for low, high in gaps:
        pieces.append((at, low))
        at = high
    pieces.append((at, end))
    return [(a, b) for a, b in pieces if b - a > 1e-9]


def _floor_10(sim) -> tuple[np.ndarray, np.ndarray]:
    """Walls and sinks of RiMEA 10; returns the sinks, the persons' starts, their rooms and the walls."""
    walls = []
    above = sorted([(x, x + DOOR) for x in DOORS_ABOVE_10] + [(6.0, 7.2)])
    for a, b in _gapped(0.0, 18.0, above):
        walls.append([[a, 6.0], [b, 6.0]])
    for a, b in _gapped(0.0, 18.0, [(x, x + DOOR) for x in DOORS_BELOW_10]):
        walls.append([[a, 5.0], [b, 5.0]])
    for a, b in _gapped(0.0, 18.0, [(6.0, 7.2)]):  # exit 1 in the top wall
        walls.append([[a, 11.0], [b, 11.0]])
    walls.append([[0.0, 0.0], [18.0, 0.0]])
    for x in ROOM_WALLS_ABOVE_10:
        walls.append([[x, 6.0], [x, 11.0]])
    for x in ROOM_WALLS_BELOW_10:
        walls.append([[x, 0.0], [x, 5.0]])
    walls.append([[0.0, 5.0], [0.0, 6.0]])
    for wall in walls:
        sim.add_wall(wall)
    # Exit 2 is the corridor's open end at x = 18 (y 5 to 6). Sinks just beyond each exit, no deeper
    # than the exit is wide.
    sinks = [sim.add_sink([[6.0, 11.3], [7.2, 11.3], [7.2, 12.3], [6.0, 12.3]]),
             sim.add_sink([[18.3, 5.0], [19.2, 5.0], [19.2, 6.0], [18.3, 6.0]])]
    starts, rooms = [], []
    for room, count in enumerate(PERSONS_10):
        left, right = ROOMS_10[room]
        middle, y = (left + right) / 2.0, (8.5 if room < 6 else 2.5)
        xs = [middle] if count == 1 else [middle - 0.6, middle + 0.6]
        starts += [[x, y] for x in xs]
        rooms += [room] * count
    return np.array(sinks), np.array(starts), np.array(rooms), walls


def rimea_10(method="orca", *, seconds: float = 200.0, reevaluate: float | None = 2.0, seed: int = 0) -> TestResult:
    """RiMEA test 10: pedestrians leave through the exits assigned to them.

    23 pedestrians in 12 rooms on both sides of a 1 m corridor (JuPedSim's
    geometry, ``PERSONS_10``): those of rooms 0-3 and 6-9 (15) are
    assigned exit 1 at the top of a side passage, those of rooms 4, 5, 10
    and 11 (8) exit 2 at the corridor's end, although some of them are
    nearer the other. Each follows a path planned on a navigation mesh to
    its exit (``set_exits(choice="assigned", reevaluate=2.0)``: planned
    again every 2 s from where it is, so that one pushed through a side
    door finds its way back; None plans once), moving on from a path's
    corner once the next is in sight (``waypoint_advance="visible"``: no
    one turns back for a corner cut short), and leaves through a sink just
    beyond it.

    Seed 0 places each pedestrian on its room's spot; another seed moves
    each up to 0.15 m from it along both axes (the seed's draw).

    Criterion (the guideline's; JuPedSim checks the same): every pedestrian
    leaves through its assigned exit, within ``seconds`` (JuPedSim's run
    lasts 200 s); and nobody's centre crosses a wall (frame to frame).
    """
    method = method_of(method)
    seed = integer(seed, "seed", minimum=0)
    seconds = scalar(seconds, "seconds", minimum=TIME_STEP, maximum=3600.0)
    if reevaluate is not None:
        reevaluate = scalar(reevaluate, "reevaluate", minimum=TIME_STEP, maximum=3600.0)
    sim = simulator_for(method)
    sinks, starts, rooms, walls = _floor_10(sim)
    if seed:
        starts = starts + np.random.default_rng(seed).uniform(-0.15, 0.15, starts.shape)
    sim.add_agents(starts, pref_speed=SPEED, max_speed=SPEED, **PEDESTRIAN)
    assigned_index = np.array(EXIT_OF_ROOM_10)[rooms]
    assigned = sinks[assigned_index]
    sim.set_exits(sinks, choice="assigned", assignment=assigned, reevaluate=reevaluate, waypoint_advance="visible")
    traj = run_quietly(sim, int(np.ceil(seconds / TIME_STEP)), until_arrived=True)
    through = int(persons_through_walls(traj.positions, walls).sum())
    left_by = np.asarray(sim.exit_sink)
    right = int(np.sum(left_by == assigned))
    wrong = int(np.sum((left_by >= 0) & (left_by != assigned)))
    inside = len(starts) - right - wrong
    passed = right == len(starts) and through == 0
    times = np.asarray(sim.exit_time)
    last = float(np.max(times)) if right == len(starts) else float("inf")
    summary = f"{right}/{len(starts)} by their exit" + (f", last after {last:.0f} s" if right == len(starts) else
                                                       f", {wrong} by the other, {inside} still inside")
    if through:
        summary += f"; {through} through a wall"
    return TestResult("RiMEA 10", "assigned exits", method.name,
                      {"by_assigned_exit": right, "by_other_exit": wrong, "still_inside": inside,
                       "persons": len(starts), "evacuation_time_s": last, "persons_through_walls": through},
                      f"all {len(starts)} leave through their assigned exit within {seconds:g} s, nobody through "
                      "a wall", passed,
                      summary, data={"trajectory": traj, "route": np.where(left_by == assigned, assigned_index,
                                                                           np.where(left_by >= 0, 2, 3)),
                                     "route_names": ["exit 1 as assigned", "exit 2 as assigned",
                                                     "the other exit", "still inside"]})


#: RiMEA 11's room (JuPedSim's geometry): 30 m x 20 m, two 1 m exits in the top wall, x 21-22 (nearer the
#: crowd) and 27-28; the persons stand in x 2-15, y 2-18.
ROOM_11 = (30.0, 20.0)
EXITS_11 = ((21.0, 22.0), (27.0, 28.0))
AREA_11 = ((2.0, 15.0), (2.0, 18.0))


def rimea_11(method="orca", *, persons: int = 300, seed: int = 0, seconds: float = 600.0,
             reevaluate: float = 2.0) -> TestResult:
    """RiMEA test 11: pedestrians prefer the nearest exit, but some choose the other.

    ``persons`` pedestrians (300, as in JuPedSim's description of the test;
    its later runs place 1,000 smaller ellipses, more than discs of radius
    0.25 m fit in the start area) stand evenly spread over the left part of
    a 30 m x 20 m room with two 1 m exits in its top wall, 6 m apart
    (``EXITS_11``). They choose with ``set_exits(choice="quickest",
    reevaluate=...)``: path length / speed plus the queue at each exit,
    chosen again every ``reevaluate`` seconds, and leave through sinks just
    beyond the exits.

    Criterion (the guideline's, in numbers): everyone leaves within
    ``seconds``, more through the nearer exit than through the other, and
    some (at least one) through the other.
    """
    method = method_of(method)
    persons = integer(persons, "persons", minimum=2, maximum=600)
    seed = integer(seed, "seed", minimum=0)
    seconds = scalar(seconds, "seconds", minimum=TIME_STEP, maximum=3600.0)
    reevaluate = scalar(reevaluate, "reevaluate", minimum=TIME_STEP, maximum=3600.0)
    length, width = ROOM_11
    sim = simulator_for(method)
    sim.add_wall([[0.0, 0.0], [length, 0.0]])
    sim.add_wall([[0.0, 0.0], [0.0, width]])
    sim.add_wall([[length, 0.0], [length, width]])
    for a, b in _gapped(0.0, length, EXITS_11):
        sim.add_wall([[a, width], [b, width]])
    sinks = [sim.add_sink([[a, width + 0.3], [b, width + 0.3], [b, width + 1.2], [a, width + 1.2]])
             for a, b in EXITS_11]
    # Evenly: a jittered grid over the start area, one person per cell.
    (x0, x1), (y0, y1) = AREA_11
    columns = int(np.ceil(np.sqrt(persons * (x1 - x0) / (y1 - y0))))
    rows = int(np.ceil(persons / columns))
    rng = np.random.default_rng(seed)
    cells = np.sort(rng.permutation(columns * rows)[:persons])
    dx, dy = (x1 - x0) / columns, (y1 - y0) / rows
    starts = np.column_stack([x0 + dx * (cells % columns + 0.5), y0 + dy * (cells // columns + 0.5)])
    starts += rng.uniform(-1.0, 1.0, starts.shape) * np.maximum(0.0, np.array([dx, dy]) / 2 - RADIUS - 0.01)
    sim.add_agents(starts, pref_speed=SPEED, max_speed=SPEED, **PEDESTRIAN)
    sim.set_exits(sinks, choice="quickest", reevaluate=reevaluate)
    traj = run_quietly(sim, int(np.ceil(seconds / TIME_STEP)), until_arrived=True, record_every=10)
    left_by = np.asarray(sim.exit_sink)
    near, far = int(np.sum(left_by == sinks[0])), int(np.sum(left_by == sinks[1]))
    inside = persons - near - far
    passed = inside == 0 and near > far > 0
    times = np.asarray(sim.exit_time)
    last = float(np.max(times)) if inside == 0 else float("inf")
    summary = f"{near} by the near exit, {far} by the far" + (f", last after {last:.0f} s" if inside == 0 else
                                                               f", {inside} still inside")
    return TestResult("RiMEA 11", "choice of exit", method.name,
                      {"near_exit": near, "far_exit": far, "still_inside": inside, "persons": persons,
                       "evacuation_time_s": last},
                      f"all leave within {seconds:g} s, more by the nearer exit, some by the other", passed,
                      summary, data={"trajectory": traj,
                                     "route": np.where(left_by == sinks[0], 0, np.where(left_by == sinks[1], 1, 2)),
                                     "route_names": ["near exit", "far exit", "still inside"]})


#: RiMEA 14's floor in plan (JuPedSim's geometry): a start room (x 0-5) and an exit room (x 25-30, its
#: 2 m exit in the bottom wall at x 27-29), 20 m deep, joined by two ways: a short one, 2 m wide at
#: y 4-6, down 5 m of stairs (x 5-10), along the lower floor (x 10-20) and up 5 m of stairs (x 20-25);
#: and a long level corridor, 5 m wide at y 15-20.
STAIRS_14 = ((5.0, 10.0), (20.0, 25.0))
#: The via points that tell the routes apart: about the middle of the lower floor and of the corridor (the
#: exact middles, (15, 5) and (15, 17.5), give the same routes and evacuation time).
SHORT_VIA_14 = (14.5, 5.1)
LONG_VIA_14 = (14.5, 17.3)


def _floor_14(sim, stair_down: float, stair_up: float):
    """Walls, stairs (speed zones) and the exit's sink of RiMEA 14; returns the sink's id and the walls."""
    walls = []
    for wall in ([[5.0, 4.0], [5.0, 0.0], [0.0, 0.0], [0.0, 20.0], [5.0, 20.0]], [[5.0, 6.0], [5.0, 15.0]],
                 [[5.0, 15.0], [25.0, 15.0]], [[5.0, 20.0], [30.0, 20.0], [30.0, 0.0], [29.0, 0.0]],
                 [[27.0, 0.0], [25.0, 0.0], [25.0, 4.0]], [[25.0, 6.0], [25.0, 15.0]],
                 [[5.0, 4.0], [25.0, 4.0]], [[5.0, 6.0], [25.0, 6.0]]):
        sim.add_wall(wall)
        walls.append(wall)
    (a, b), (c, d) = STAIRS_14
    sim.add_speed_zone([[a, 4.0], [b, 4.0], [b, 6.0], [a, 6.0]], stair_down / SPEED)
    sim.add_speed_zone([[c, 4.0], [d, 4.0], [d, 6.0], [c, 6.0]], stair_up / SPEED)
    return sim.add_sink([[27.0, -0.3], [29.0, -0.3], [29.0, -1.5], [27.0, -1.5]]), walls


def rimea_14(method="orca", *, persons: int = 10, choice: str = "quickest", stair_down: float | None = None,
             stair_up: float | None = None, seconds: float = 300.0, seed: int = 0) -> TestResult:
    """RiMEA test 14: route choice, a short way over stairs or a longer level one.

    ``persons`` pedestrians stand in the start room (JuPedSim's geometry,
    ``STAIRS_14``) and leave by the one exit, either way: the short one
    (about 28 m) down a flight of stairs, along the lower floor and up
    again, or the long level corridor (about 46 m). Stairs are speed zones
    at Weidmann's horizontal stair speeds (0.694 m/s down, 0.610 m/s up,
    :data:`~vosim.validation.STAIR_SPEED_DOWN`, ``STAIR_SPEED_UP``), and the
    two ways are two routes to the same sink
    (``set_exits([exit, exit], via=[short, long], choice=choice)``):
    ``"quickest"`` weighs the stairs' slowness and the queue, ``"nearest"``
    the length alone.

    The guideline sets no pass criterion: it asks that the model's choice be
    documented as short, long, mixed or configurable; vosim's is
    configurable (``choice``), and the summary names what the persons did.
    Criterion used: everyone leaves within ``seconds``, each along the route
    it chose (its path crosses the lower floor or the corridor as chosen)
    and through no wall (its centre crosses none, frame to frame).
    Seed 0 stands the persons on a grid 1 m apart; another seed moves each
    up to 0.2 m from its spot along both axes.
    """
    method = method_of(method)
    seed = integer(seed, "seed", minimum=0)
    persons = integer(persons, "persons", minimum=1, maximum=100)
    seconds = scalar(seconds, "seconds", minimum=TIME_STEP, maximum=3600.0)
    stair_down = STAIR_SPEED_DOWN if stair_down is None else scalar(stair_down, "stair_down", minimum=0.0,
                                                                      strict=True, maximum=SPEED)
    stair_up = STAIR_SPEED_UP if stair_up is None else scalar(stair_up, "stair_up", minimum=0.0, strict=True,
                                                              maximum=SPEED)
    sim = simulator_for(method)
    exit_sink, walls = _floor_14(sim, stair_down, stair_up)
    # A column of persons in the start room, 1 m apart, clear of its walls.
    ys = 10.0 + (np.arange(persons) % 16 - 7.5) * 1.0
    xs = 2.5 + (np.arange(persons) // 16 - (persons - 1) // 32) * 1.0
    starts = np.column_stack([xs, ys])
    if seed:
        starts = starts + np.random.default_rng(seed).uniform(-0.2, 0.2, starts.shape)
    sim.add_agents(starts, pref_speed=SPEED, max_speed=SPEED, **PEDESTRIAN)
    sim.set_exits([exit_sink, exit_sink], choice=choice, via=[[SHORT_VIA_14], [LONG_VIA_14]], reevaluate=1.0)
    traj = run_quietly(sim, int(np.ceil(seconds / TIME_STEP)), until_arrived=True)
    through = persons_through_walls(traj.positions, walls)
    route = sim.chosen_route
    # Which way each went: its lowest y while crossing x = 15 (the lower floor lies below 7, the corridor above 15).
    xs_track, ys_track = traj.positions[..., 0], traj.positions[..., 1]
    middle = np.abs(xs_track - 15.0) < 2.0
    lowest = np.where(middle, ys_track, np.inf).min(axis=0)
    took = np.where(lowest < 7.0, 0, np.where(np.isfinite(lowest), 1, -1))
    left = np.asarray(sim.exit_sink) == exit_sink
    short, long_ = int(np.sum(took == 0)), int(np.sum(took == 1))
    as_chosen = int(np.sum(left & (took == route) & ~through))
    passed = as_chosen == persons
    kind = "short" if long_ == 0 and short else "long" if short == 0 and long_ else "mixed"
    times = np.asarray(sim.exit_time)
    last = float(np.max(times)) if left.all() else float("inf")
    summary = (f"{kind}: {short} over the stairs, {long_} the level way ({choice}; configurable)"
               + ("" if passed else f"; {persons - as_chosen} not out along their route")
               + (f" ({int(through.sum())} through a wall)" if through.any() else ""))
    return TestResult("RiMEA 14", "route choice, stairs vs level", method.name,
                      {"short_route": short, "long_route": long_, "as_chosen": as_chosen, "persons": persons,
                       "kind": kind, "choice": choice, "evacuation_time_s": last},
                      f"all leave within {seconds:g} s along the route they chose; the choice documented "
                      "(the guideline's: short, long, mixed or configurable)", passed, summary,
                      data={"trajectory": traj, "route": np.where(took >= 0, took, 2),
                            "route_names": ["over the stairs", "the level way", "neither"]})
