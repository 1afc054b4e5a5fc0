"""RiMEA tests 6 (movement around a corner) and 12 (effect of bottlenecks), on JuPedSim's verification geometries.

Both take any method and return a :class:`~vosim.validation.TestResult`;
pedestrians as in every RiMEA test (:mod:`._pedestrians`: radius 0.25 m,
1.34 m/s, time step 0.1 s).
"""

from __future__ import annotations

import numpy as np

from .._checks import integer, scalar
from ._result import TestResult
from ._walls import persons_through_walls
from ._pedestrians import PEDESTRIAN, RADIUS, SPEED, TIME_STEP, method_of, run_quietly, simulator_for

#: RiMEA 6's L-shaped corridor (m), as JuPedSim's verification geometry: 12 m along x and 2 m
#: wide, turning left at its end into 10 m more along y, 2 m wide; the exit is its open top end.
CORNER_6 = ((0.0, 2.0), (0.0, 0.0), (12.0, 0.0), (12.0, 12.0))  # outer wall
INNER_6 = ((0.0, 2.0), (10.0, 2.0), (10.0, 12.0))  # inner wall, round the convex corner (10, 2)
#: Where RiMEA 6's persons start: the first 6 m of the corridor.
START_6 = ((0.0, 0.0), (6.0, 2.0))

#: RiMEA 12's rooms (m), as JuPedSim's verification geometry moved to the origin: room 1 of
#: 10 m x 10 m, a corridor 5 m long and 1 m wide on its axis, room 2 of 10 m x 10 m, and room 2's
#: exit, 1 m wide, opposite the corridor.
ROOM_12 = 10.0
CORRIDOR_12 = (5.0, 1.0)


def _jittered_lattice(rng, count: int, low, high, rows: int) -> np.ndarray:
    """``count`` points spread uniformly over the box low..high: a lattice of ``rows`` rows, a random
    choice of its cells, each point jittered within its cell while keeping two radii from the others."""
    low, high = np.asarray(low, float), np.asarray(high, float)
    columns = int(np.ceil(count / rows))
    cell = (high - low) / np.array([columns, rows])
    chosen = np.sort(rng.permutation(columns * rows)[:count])
    points = low + (np.column_stack([chosen % columns, chosen // columns]) + 0.5) * cell
    return points + rng.uniform(-1.0, 1.0, points.shape) * np.maximum(0.0, cell / 2 - RADIUS - 0.01)


def rimea_6(method="orca", *, persons: int = 20, seed: int = 0, seconds: float = 60.0) -> TestResult:
    """RiMEA test 6: pedestrians walk round a left-hand corner without passing through walls.

    ``persons`` pedestrians (the guideline: 20, at most 20 here) start at
    random, uniformly (a jittered lattice of two rows), in the first 6 m of a 2 m wide corridor that turns left after 12 m
    into 10 m more (``CORNER_6``, JuPedSim's geometry). Each heads for a
    waypoint in the bend, then out through the open end, where a line sink
    takes it out of the simulation; it moves on to the open end as soon as
    that is in sight past the inner wall (``waypoint_advance="visible"``),
    so the walls, not the waypoint, keep it round the corner.

    Criterion (RiMEA 4.1.1; JuPedSim's check): no pedestrian's centre ever
    enters the area beyond the walls (the square inside the bend, x < 10
    and 2 < y <= 12, or elsewhere outside the corridor), and all leave
    through its open end within ``seconds``
    s. The deepest reach of a body into a wall is reported too.
    """
    method = method_of(method)
    persons = integer(persons, "persons", minimum=1, maximum=20)
    rng = np.random.default_rng(integer(seed, "seed", minimum=0))
    seconds = scalar(seconds, "seconds", minimum=TIME_STEP, maximum=600.0)
    sim = simulator_for(method)
    sim.add_wall([list(p) for p in CORNER_6])
    sim.add_wall([list(p) for p in INNER_6])
    (x0, y0), (x1, y1) = START_6
    margin = RADIUS + 0.05
    starts = _jittered_lattice(rng, persons, (x0 + margin, y0 + margin), (x1 - margin, y1 - margin), rows=2)
    # The bend's waypoint lies so that every centre crossing into the second leg (y = 2, 10.25 <= x <=
    # 11.75) comes within 0.9 m of it: it cannot be missed, and no one turns back for it.
    # Each moves on to the open end as soon as it sees it (``waypoint_advance="visible"``), as people
    # take a corner: the walls, not the waypoint, keep it out of the bend's inside.
    sim.add_agents(starts, waypoints=[[[11.0, 1.5], [11.0, 14.0]]] * persons, waypoint_radius=1.0,
                   waypoint_advance="visible", pref_speed=SPEED, max_speed=SPEED, **PEDESTRIAN)
    sim.add_sink([[9.0, 12.5], [13.0, 12.5]])
    traj = run_quietly(sim, int(round(seconds / TIME_STEP)), until_arrived=True)
    x, y = traj.positions[..., 0], traj.positions[..., 1]
    eps = 1e-9
    inside = y <= 12.0  # beyond the open end is outside the building, not through a wall
    outside = inside & ((x < -eps) | (y < -eps) | (x > 12.0 + eps) | ((x < 10.0 - eps) & (y > 2.0 + eps)))
    crossed = int(outside.any(axis=0).sum())
    left = int(np.isfinite(np.asarray(sim.exit_time)).sum())
    into_wall = float(np.asarray(traj.metrics["max_obstacle_penetration"]))
    passed = crossed == 0 and left == persons
    summary = f"{crossed}/{persons} crossed a wall, {left}/{persons} out; into walls {into_wall * 100:.1f} cm"
    return TestResult("RiMEA 6", "movement around a corner", method.name,
                      {"persons_through_wall": crossed, "persons_out": left, "persons": persons,
                       "max_wall_penetration_m": into_wall},
                      f"no centre beyond the walls and all {persons} round the corner within {seconds:g} s",
                      passed, summary, data={"trajectory": traj, "walls": [CORNER_6, INNER_6]})


def _flow(traj, x: float) -> float:
    """Persons per second past the line at ``x`` (across the whole building), from the first crossing to
    the last: (crossings - 1) / (last - first crossing time), as JuPedSim's test 12 measures it. Persons
    who left through the sink stay where they left, so the first frame beyond ``x`` is the crossing."""
    beyond = traj.positions[..., 0] >= x
    crossed = beyond.any(axis=0) & ~beyond[0]
    frames = np.sort(np.argmax(beyond[:, crossed], axis=0))
    if len(frames) < 2 or frames[-1] == frames[0]:
        return float("nan")
    return float((len(frames) - 1) / (traj.times[frames[-1]] - traj.times[frames[0]]))


def _peak_density(traj, x: float, depth: float = 2.0, half_width: float = 1.0) -> float:
    """The highest density (persons/m^2) over the run in the ``depth`` x 2 ``half_width`` m box just ahead of
    the opening at ``x`` on the axis (centres inside it)."""
    px, py = traj.positions[..., 0], traj.positions[..., 1]
    inside = (px >= x - depth) & (px < x) & (np.abs(py) < half_width)
    return float(inside.sum(axis=1).max() / (depth * 2 * half_width))


def rimea_12_starts(persons: int, rng: np.random.Generator) -> np.ndarray:
    """RiMEA 12's starts, ``(persons, 2)``: evenly over the first room, a jittered grid of one person per cell,
    clear of the walls (the room spans x 0 to ROOM_12, y -ROOM_12/2 to ROOM_12/2)."""
    room = ROOM_12
    side = int(np.ceil(np.sqrt(persons)))
    cells = np.sort(rng.permutation(side * side)[:persons])
    margin = RADIUS + 0.05
    step = (room - 2 * margin) / side
    starts = np.column_stack([cells % side, cells // side]) * step + margin + step / 2
    starts[:, 1] -= room / 2
    starts += rng.uniform(-1.0, 1.0, starts.shape) * max(0.0, step / 2 - RADIUS - 0.01)
    return starts


def rimea_12(method="orca", *, persons: int = 150, seed: int = 0, seconds: float = 400.0,
             tolerance: float = 0.05) -> TestResult:
    """RiMEA test 12: a bottleneck between two rooms; the crowd jams before it, not at the exit beyond.

    ``persons`` pedestrians (the guideline: 150) stand evenly spread over a
    10 m x 10 m room; a corridor 5 m long and 1 m wide leads from the middle
    of its right wall to a second room of the same size, whose exit, 1 m
    wide, faces the corridor (JuPedSim's geometry). Each walks through the
    corridor and out of the exit, where a sink takes it out of the
    simulation. The flow out of the corridor and the flow 1 m before the
    exit are (crossings - 1) / (last - first crossing time), as JuPedSim's
    test measures them.

    Criterion (RiMEA 4.1.1: a jam forms at the bottleneck, none at the
    exit): the flow before the exit is at most the flow out of the
    corridor plus ``tolerance`` persons/s (JuPedSim's quantification: the
    corridor limits the flow), nobody's centre crosses a wall (frame to
    frame), the peak density in the 2 m x 2 m box ahead
    of the exit stays below that ahead of the corridor (vosim's reading of
    "no jam at the exit": those flows alone are equal whenever everyone
    gets through), and every person leaves within ``seconds`` s.
    """
    method = method_of(method)
    persons = integer(persons, "persons", minimum=2, maximum=300)
    rng = np.random.default_rng(integer(seed, "seed", minimum=0))
    seconds = scalar(seconds, "seconds", minimum=TIME_STEP, maximum=3600.0)
    tolerance = scalar(tolerance, "tolerance", minimum=0.0, maximum=10.0)
    room, (length, width) = ROOM_12, CORRIDOR_12
    half, end = width / 2.0, room + length
    far = end + room
    sim = simulator_for(method)
    walls = []
    for side in (1.0, -1.0):  # each half of the outline, mirrored about the axis
        walls.append([[room, side * half], [room, side * room / 2], [0.0, side * room / 2], [0.0, 0.0]])
        walls.append([[room, side * half], [end, side * half], [end, side * room / 2], [far, side * room / 2],
                      [far, side * half]])
    for wall in walls:
        sim.add_wall(wall)
    starts = rimea_12_starts(persons, rng)
    waypoints = [[[room + 0.5, 0.0], [end + 0.5, 0.0], [far + 3.0, 0.0]]] * persons
    sim.add_agents(starts, waypoints=waypoints, waypoint_radius=0.5, pref_speed=SPEED, max_speed=SPEED,
                   **PEDESTRIAN)
    sim.add_sink([[far + 0.3, -2.0], [far + 4.0, -2.0], [far + 4.0, 2.0], [far + 0.3, 2.0]])
    traj = run_quietly(sim, int(np.ceil(seconds / TIME_STEP)), until_arrived=True)
    through = int(persons_through_walls(traj.positions, walls).sum())
    j_bottleneck, j_exit = _flow(traj, end), _flow(traj, far - 1.0)
    left = int(np.isfinite(np.asarray(sim.exit_time)).sum())
    into_wall = float(np.asarray(traj.metrics["max_obstacle_penetration"]))
    jam_corridor, jam_exit = _peak_density(traj, room), _peak_density(traj, far)
    passed = bool(left == persons and np.isfinite(j_exit) and j_exit <= j_bottleneck + tolerance
                  and jam_exit < jam_corridor and through == 0)
    summary = (f"flow out of the corridor {j_bottleneck:.2f} /s, before the exit {j_exit:.2f} /s; peak density "
               f"{jam_corridor:.1f}/m² before the corridor, {jam_exit:.1f}/m² before the exit; {left}/{persons} out; "
               f"into walls {into_wall * 100:.1f} cm" + (f"; {through} through a wall" if through else ""))
    return TestResult("RiMEA 12", "effect of bottlenecks", method.name,
                      {"flow_bottleneck_per_s": j_bottleneck, "flow_exit_per_s": j_exit,
                       "peak_density_before_corridor": jam_corridor, "peak_density_before_exit": jam_exit,
                       "persons_out": left,
                       "persons": persons, "max_wall_penetration_m": into_wall, "persons_through_walls": through},
                      f"flow before the exit <= flow out of the corridor + {tolerance:g} /s, peak density before "
                      f"the exit < before the corridor, all {persons} out within {seconds:g} s, nobody through a wall",
                      passed, summary,
                      data={"trajectory": traj, "walls": walls})
