"""The ready-made scenarios: RVO2's examples and classic crowd layouts.

Each function returns a :class:`Scenario`. Those with randomness take a
``seed`` (the same seed gives the same scenario), so ``scenarios.batch``
can fill the scenes of a Batch with variants. Every goal slot is at least
one agent diameter (plus a margin) from every other, so all agents can
arrive; RVO2's Blocks and Roadmap examples, where a whole group shares
one goal, give that group an arrival radius the group fits into instead.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np

from .._checks import MAX_AGENTS, MAX_MAGNITUDE, integer, scalar
from ..methods import AVO, ORCA
from ._helpers import checked_seed, steps_for
from ._scenario import Scenario

# Pedestrians: 0.3 m radius, 1.2 m/s preferred, 1.5 m/s at most, reacting to
# neighbours within 4 m and 2 s and to walls within 1 s; 10 steps a second.
PEDESTRIAN = dict(radius=0.3, max_speed=1.5, pref_speed=1.2, neighbor_dist=4.0, max_neighbors=10,
                  time_horizon=2.0, time_horizon_obst=1.0)
PEDESTRIAN_TIME_STEP = 0.1
# Distance between neighbouring start and goal slots of pedestrians: the
# diameter plus 0.4 m, so random jitter of up to 0.15 m keeps them apart.
SLOT = 1.0
JITTER = 0.15
# Goal slots where agents arrive in no particular order are wider apart, so
# that late agents fit between those already standing (gaps of 0.7 m).
WIDE_SLOT = 1.6


def _grid(count: int, columns: int, spacing: float = SLOT) -> np.ndarray:
    """``count`` offsets on a centred grid of ``columns`` columns (x) and as many rows (y) as needed."""
    rows = -(-count // columns)
    k = np.arange(count)
    return np.column_stack([(k % columns - (columns - 1) / 2) * spacing,
                            (k // columns - (rows - 1) / 2) * spacing])


# ------------------------------------------------------------- RVO2 examples
def circle(n: int = 250, radius: float = 200.0, *, seed: int | None = None) -> Scenario:
    """RVO2's Circle example: ``n`` agents evenly on a circle, each heading for its antipode.

    Parameters as in the example: radius 1.5, max speed 2, preferred speed 1,
    neighbour distance 15, 10 neighbours, time horizons 10, time step 0.25.

    Parameters
    ----------
    n
        Number of agents.
    radius
        Radius of the circle; start (and goal) slots must be at least an
        agent diameter (3 m) apart.
    seed
        None: the exact example. A seed nudges every start by a uniform
        random offset of up to 1e-4 m in each coordinate (the goals stay
        the exact antipodes), which is enough to change the chaotic run.
    """
    n = integer(n, "n", minimum=1, maximum=MAX_AGENTS)
    radius = scalar(radius, "radius", minimum=0.0, strict=True, maximum=MAX_MAGNITUDE)
    agent_radius = 1.5
    if n > 1 and 2.0 * radius * math.sin(math.pi / n) < 2.0 * agent_radius:
        needed = agent_radius / math.sin(math.pi / n)
        raise ValueError(f"radius is {radius}; {n} agents of radius {agent_radius} need a circle of radius at "
                         f"least {needed:.4g} so that neighbouring slots are a diameter apart")
    angles = np.arange(n) * (2.0 * np.pi / n)
    goals_of = radius * np.column_stack([np.cos(angles), np.sin(angles)])
    positions = goals_of.copy()
    if seed is not None:
        positions += np.random.default_rng(checked_seed(seed)).uniform(-1e-4, 1e-4, positions.shape)
    return Scenario(
        name=f"circle{n}",
        positions=positions,
        goals=-goals_of,
        agent_params=dict(radius=agent_radius, max_speed=2.0, pref_speed=1.0, neighbor_dist=15.0,
                          max_neighbors=10, time_horizon=10.0, time_horizon_obst=10.0),
        time_step=0.25,
        max_steps=max(10_000, steps_for(2 * radius, 1.0, 0.25, factor=6.0)),
        seed=seed,
    )


_BLOCK_SQUARES = [
    [(-10.0, 40.0), (-40.0, 40.0), (-40.0, 10.0), (-10.0, 10.0)],
    [(10.0, 40.0), (10.0, 10.0), (40.0, 10.0), (40.0, 40.0)],
    [(10.0, -40.0), (40.0, -40.0), (40.0, -10.0), (10.0, -10.0)],
    [(-10.0, -40.0), (-10.0, -10.0), (-40.0, -10.0), (-40.0, -40.0)],
]


def _blocks_agents() -> tuple[np.ndarray, np.ndarray]:
    positions, goals = [], []
    for i in range(5):
        for j in range(5):
            for sx, sy in ((1, 1), (-1, 1), (1, -1), (-1, -1)):  # the example's order
                positions.append((sx * (55.0 + 10.0 * i), sy * (55.0 + 10.0 * j)))
                goals.append((-75.0 * sx, -75.0 * sy))
    return np.array(positions), np.array(goals)


_BLOCKS_PARAMS = dict(radius=2.0, max_speed=2.0, pref_speed=1.0, neighbor_dist=15.0, max_neighbors=10,
                      time_horizon=5.0, time_horizon_obst=5.0, arrival_radius=20.0)


def blocks(*, seed: int = 1) -> Scenario:
    """RVO2's Blocks example: four groups of 25 agents cross between four square obstacles.

    Each group starts in a 5 x 5 block in one corner and heads for the
    opposite corner. Parameters as in the example: radius 2, max speed 2,
    preferred speed 1, neighbour distance 15, 10 neighbours, time horizons
    5, time step 0.25; an agent counts as arrived within 20 m of its goal
    (the example's stopping rule). The layout is symmetric, so, as in the
    example, preferred velocities get a perturbation of 1e-4.

    The number of steps to completion is chaotic and depends on the
    perturbation's seed: over seeds 0 to 11 the median is 3690 steps (RVO2's
    own run: 3785), most runs take 3100 to 5200, and seed 0 jams for 13795
    steps. The default, seed 1, is a typical run (3780 steps).
    """
    seed = checked_seed(seed)
    positions, goals = _blocks_agents()
    return Scenario(
        name="blocks",
        positions=positions,
        goals=goals,
        agent_params=dict(_BLOCKS_PARAMS),
        obstacles=[("polygon", np.array(square)) for square in _BLOCK_SQUARES],
        time_step=0.25,
        max_steps=20_000,
        method=ORCA(perturbation=1e-4, seed=seed),
        seed=seed,
    )


# RVO2's Roadmap example: points 2 m off the blocks' corners.
ROADMAP_POINTS = np.array([(x, y) for x in (-42.0, -8.0, 8.0, 42.0) for y in (-42.0, -8.0, 8.0, 42.0)])


def roadmap(*, seed: int = 1, waypoint_radius: float = 6.0) -> Scenario:
    """RVO2's Roadmap example: the Blocks scenario with roadmap guidance.

    Agents, parameters and obstacles are those of :func:`blocks`. The
    roadmap has the example's 16 points, 2 m off the corners of the blocks;
    each agent's waypoints are its shortest path from its start over the
    points it can see (with a clearance of its radius from every obstacle)
    to its goal, planned by :class:`vosim.navigation.Roadmap` (which needs
    shapely: ``pip install "vosim[navigation]"``). The example re-plans towards the best visible point every
    step; here the path is planned once, and an agent moves on to its next
    waypoint within ``waypoint_radius``.

    Parameters
    ----------
    seed
        Seed of the 1e-4 perturbation, as in :func:`blocks`.
    waypoint_radius
        Distance to a roadmap point within which an agent heads for the next.
    """
    seed = checked_seed(seed)
    waypoint_radius = scalar(waypoint_radius, "waypoint_radius", minimum=0.0, strict=True, maximum=MAX_MAGNITUDE)
    positions, goals = _blocks_agents()
    obstacles = [("polygon", np.array(square)) for square in _BLOCK_SQUARES]
    from ..navigation import Roadmap

    waypoints = Roadmap(ROADMAP_POINTS, obstacles, radius=_BLOCKS_PARAMS["radius"]).plan(positions, goals)
    return Scenario(
        name="roadmap",
        positions=positions,
        goals=goals,
        waypoints=waypoints,
        agent_params=dict(_BLOCKS_PARAMS, waypoint_radius=waypoint_radius),
        obstacles=obstacles,
        time_step=0.25,
        max_steps=20_000,
        method=ORCA(perturbation=1e-4, seed=seed),
        seed=seed,
    )


# ---------------------------------------------------------- crowd layouts
def headon_pair(distance: float = 10.0, *, seed: int = 0) -> Scenario:
    """Two pedestrians walking straight at each other.

    Exactly head-on, reciprocal methods stall (each waits for the other to
    choose a side), so the scenario carries a perturbation of 1e-3 m/s
    whose ``seed`` decides which way they pass.

    Parameters
    ----------
    distance
        Distance between the two starts (> 1 m, twice the diameter).
    """
    distance = scalar(distance, "distance", minimum=4 * PEDESTRIAN["radius"], strict=True, maximum=1e6)
    seed = checked_seed(seed)
    positions = np.array([[-distance / 2, 0.0], [distance / 2, 0.0]])
    return Scenario(
        name="headon_pair",
        positions=positions,
        goals=positions[::-1].copy(),
        agent_params=dict(PEDESTRIAN),
        time_step=PEDESTRIAN_TIME_STEP,
        max_steps=steps_for(distance, PEDESTRIAN["pref_speed"], PEDESTRIAN_TIME_STEP),
        method=ORCA(perturbation=1e-3, seed=seed),
        seed=seed,
    )


def crossing(n_per_group: int = 16, *, seed: int = 0) -> Scenario:
    """Two groups of pedestrians crossing at right angles.

    One group walks east, the other north; each starts as a square block
    (1 m spacing, jittered by up to 0.15 m) and every agent keeps its place
    in the block, so goal slots are as far apart as start slots.

    Parameters
    ----------
    n_per_group
        Agents in each group (1 to 2500).
    seed
        Seed of the jitter.
    """
    n = integer(n_per_group, "n_per_group", minimum=1, maximum=2500)
    seed = checked_seed(seed)
    rng = np.random.default_rng(seed)
    columns = math.ceil(math.sqrt(n))
    block = _grid(n, columns)
    reach = columns * SLOT + 3.0  # block centres this far from the crossing point
    east = block + (-reach, 0.0)
    north = block + (0.0, -reach)
    positions = np.vstack([east, north])
    goals = np.vstack([east + (2 * reach, 0.0), north + (0.0, 2 * reach)])
    positions += rng.uniform(-JITTER, JITTER, positions.shape)
    goals += rng.uniform(-JITTER, JITTER, goals.shape)
    return Scenario(
        name="crossing",
        positions=positions,
        goals=goals,
        agent_params=dict(PEDESTRIAN),
        time_step=PEDESTRIAN_TIME_STEP,
        max_steps=steps_for(2 * reach, PEDESTRIAN["pref_speed"], PEDESTRIAN_TIME_STEP),
        method=ORCA(seed=seed),
        seed=seed,
    )


def mixed_acceleration_crossing(n_per_group: int = 16, *, seed: int = 0) -> Scenario:
    """:func:`crossing` with agents of two kinds of inertia, run with AVO.

    The group walking east is agile (``max_acceleration`` 3 m/s^2, reached
    through a controller of ``acceleration_interval`` 0.3 s); the group
    walking north is sluggish (0.5 m/s^2, 1 s), as a crowd of pedestrians
    meeting one of heavy carts would be. AVO lets the agile agents take the
    larger share of each pair's avoidance.

    Parameters
    ----------
    n_per_group, seed
        As for :func:`crossing`.
    """
    base = crossing(n_per_group, seed=seed)
    n = base.num_agents // 2
    params = dict(base.agent_params)
    params["max_acceleration"] = np.repeat([3.0, 0.5], n)
    params["acceleration_interval"] = np.repeat([0.3, 1.0], n)
    return dataclasses.replace(base, name="mixed_acceleration_crossing", agent_params=params,
                               max_steps=2 * base.max_steps, method=AVO(seed=base.seed))


def bottleneck(n: int = 40, door_width: float = 1.2, *, seed: int = 0) -> Scenario:
    """Pedestrians leaving a room through one door.

    The crowd stands in a block (1 m spacing, jittered) in a room closed by
    walls; the door, centred in its east wall, leads to one goal slot per
    agent in a block beyond it (1.6 m apart, so that agents fit between
    those already standing). The agents nearest the door get the farthest
    slots. Agents first head for a point 1 m past the door (moving on
    within 1 m of it, so only once through), then for their slot.

    Parameters
    ----------
    n
        Number of agents (1 to 2500).
    door_width
        Width of the door (m): more than an agent's diameter (0.6 m).
    seed
        Seed of the jitter.

    Its :attr:`~vosim.scenarios.Scenario.geometry` names ``"room"`` (the
    room's floor, a rectangle whose east side holds the door), ``"door"``
    (the door's two posts, the line to count the flow through) and
    ``"measurement_area"`` (the floor in front of the door: as wide as the
    door, 2 m deep, where the crowd queues).
    """
    n = integer(n, "n", minimum=1, maximum=2500)
    diameter = 2 * PEDESTRIAN["radius"]
    door_width = scalar(door_width, "door_width", minimum=diameter, strict=True, maximum=1000.0)
    seed = checked_seed(seed)
    rng = np.random.default_rng(seed)
    rows = math.ceil(math.sqrt(n))
    columns = math.ceil(n / rows)
    crowd = _grid(n, columns) + (-2.0 - columns * SLOT / 2, 0.0)
    half_height = max(rows * SLOT / 2 + 1.0, door_width / 2 + 1.0)
    depth = columns * SLOT + 3.0
    wall = np.array([[0.0, door_width / 2], [0.0, half_height], [-depth, half_height],
                     [-depth, -half_height], [0.0, -half_height], [0.0, -door_width / 2]])
    slots = _grid(n, columns, WIDE_SLOT) + (3.0 + columns * WIDE_SLOT / 2, 0.0)
    positions = crowd + rng.uniform(-JITTER, JITTER, crowd.shape)
    goals = slots + rng.uniform(-JITTER, JITTER, slots.shape)
    past_door = np.array([1.0, 0.0])
    # Those through the door first go farthest, leaving the way free.
    by_distance = np.argsort(np.linalg.norm(positions - past_door, axis=1), kind="stable")
    farthest_first = np.argsort(-np.linalg.norm(goals - past_door, axis=1), kind="stable")
    assigned = np.empty_like(goals)
    assigned[by_distance] = goals[farthest_first]
    waypoints = [np.vstack([past_door, goal]) for goal in assigned]
    flow = 1.3 * max(door_width - diameter, 0.2)  # agents per second, roughly
    geometry = {
        "room": np.array([[-depth, -half_height], [0.0, -half_height], [0.0, half_height], [-depth, half_height]]),
        "door": np.array([[0.0, -door_width / 2], [0.0, door_width / 2]]),
        "measurement_area": np.array([[-2.0, -door_width / 2], [0.0, -door_width / 2], [0.0, door_width / 2],
                                      [-2.0, door_width / 2]]),
    }
    return Scenario(
        name="bottleneck",
        geometry=geometry,
        positions=positions,
        goals=assigned,
        waypoints=waypoints,
        agent_params=dict(PEDESTRIAN, waypoint_radius=1.0),
        obstacles=[("wall", wall)],
        time_step=PEDESTRIAN_TIME_STEP,
        max_steps=steps_for(depth + 8.0, PEDESTRIAN["pref_speed"], PEDESTRIAN_TIME_STEP)
        + int(math.ceil(3 * n / flow / PEDESTRIAN_TIME_STEP)),
        method=ORCA(seed=seed),
        seed=seed,
    )


def corridor(n: int = 40, *, bidirectional: bool = True, length: float = 20.0, width: float = 4.0,
             seed: int = 0) -> Scenario:
    """Pedestrians walking the length of a straight corridor, in one direction or both.

    Each group starts as a block at one end (1 m spacing, jittered) and
    walks to the other end, keeping its place in the block (so the front
    rows go farthest); with ``bidirectional``
    half of the agents walk each way. Opposing streams meet head-on, and
    reciprocal methods then stall in symmetric stand-offs, so a
    bidirectional corridor carries a perturbation of 0.05 m/s (4 % of the
    preferred speed), as :class:`vosim.Method` advises for such jams.

    Parameters
    ----------
    n
        Number of agents (1 to 2500).
    bidirectional
        Half of the agents start at each end (the first half at the west end).
    length
        Length of the corridor (m); long enough for both blocks.
    width
        Width of the corridor (m), at least 1 m.
    seed
        Seed of the jitter.

    Its :attr:`~vosim.scenarios.Scenario.geometry` names ``"corridor"``
    (the floor between the walls, ``length`` long), ``"measurement_area"``
    (its middle 4 m, or all of it when shorter) and ``"measurement_line"``
    (across it, half-way).
    """
    n = integer(n, "n", minimum=1, maximum=2500)
    if not isinstance(bidirectional, (bool, np.bool_)):
        raise TypeError(f"bidirectional: expected True or False, got {bidirectional!r}")
    width = scalar(width, "width", minimum=1.0, maximum=1000.0)
    length = scalar(length, "length", minimum=0.0, strict=True, maximum=10_000.0)
    seed = checked_seed(seed)
    rng = np.random.default_rng(seed)
    margin = PEDESTRIAN["radius"] + JITTER + 0.05
    rows = int(math.floor((width - 2 * margin) / SLOT + 1e-9)) + 1
    groups = [n - n // 2, n // 2] if bidirectional else [n]
    columns = math.ceil(groups[0] / rows)
    needed = 2 * columns * SLOT + 2.0
    if length < needed:
        raise ValueError(f"length is {length}; {n} agents in a corridor {width} m wide need at least {needed:g} m")
    spacing_y = 0.0 if rows == 1 else (width - 2 * margin) / (rows - 1)

    def block(count: int, x_first: float, step: float) -> np.ndarray:
        k = np.arange(count)
        return np.column_stack([x_first + step * (k // rows) * SLOT,
                                -(width / 2 - margin) + (k % rows) * spacing_y if rows > 1 else np.zeros(count)])

    # The front column of each block starts 1 m inside its end of the
    # corridor and ends 1 m short of the far end, the rest following.
    west = -length / 2 + (columns - 1) * SLOT + 1.0
    east = length / 2 - (columns - 1) * SLOT - 1.0
    shift = east - west + (columns - 1) * SLOT
    positions = [block(groups[0], west, -1.0)]
    goals = [positions[0] + (shift, 0.0)]
    if bidirectional and groups[1]:
        positions.append(block(groups[1], east, 1.0))
        goals.append(positions[1] - (shift, 0.0))
    positions = np.vstack(positions)
    goals = np.vstack(goals)
    positions += rng.uniform(-JITTER, JITTER, positions.shape)
    goals += rng.uniform(-JITTER, JITTER, goals.shape)
    reach = length / 2 + 2.0
    walls = [("wall", np.array([[-reach, y], [reach, y]])) for y in (-width / 2, width / 2)]
    middle = min(2.0, length / 2)
    geometry = {
        "corridor": np.array([[-length / 2, -width / 2], [length / 2, -width / 2], [length / 2, width / 2],
                              [-length / 2, width / 2]]),
        "measurement_area": np.array([[-middle, -width / 2], [middle, -width / 2], [middle, width / 2],
                                      [-middle, width / 2]]),
        "measurement_line": np.array([[0.0, -width / 2], [0.0, width / 2]]),
    }
    return Scenario(
        geometry=geometry,
        name="corridor" if bidirectional else "corridor_oneway",
        positions=positions,
        goals=goals,
        agent_params=dict(PEDESTRIAN),
        obstacles=walls,
        time_step=PEDESTRIAN_TIME_STEP,
        max_steps=steps_for(length, PEDESTRIAN["pref_speed"], PEDESTRIAN_TIME_STEP, factor=6.0),
        method=ORCA(perturbation=0.05 if bidirectional else 0.0, seed=seed),
        seed=seed,
    )


def random_crowd(n: int = 50, density: float = 0.5, *, seed: int = 0) -> Scenario:
    """Pedestrians at random places, each heading for another random place in the same square.

    Starts and goals are random cells of a square lattice with one cell per
    ``1 / density`` square metres (jittered within their cells), so agents
    start apart and goal slots are at least a diameter apart.

    Parameters
    ----------
    n
        Number of agents (1 to 10000).
    density
        Agents per square metre of the lattice, at most 2 (cells of 0.7 m:
        an agent's diameter plus 0.1 m).
    seed
        Seed of the places.

    Its :attr:`~vosim.scenarios.Scenario.geometry` names ``"room"`` (the
    square floor) and each exit by its wall, ``"exit_east"`` and so on (the
    exit's two posts, the line to count the flow through).
    """
    n = integer(n, "n", minimum=1, maximum=10_000)
    smallest_cell = 2 * PEDESTRIAN["radius"] + 0.1
    density = scalar(density, "density", minimum=0.0, strict=True, maximum=1.0 / smallest_cell**2)
    seed = checked_seed(seed)
    rng = np.random.default_rng(seed)
    cell = 1.0 / math.sqrt(density)
    side = math.ceil(math.sqrt(n))
    lattice = _grid(side * side, side, spacing=cell)
    jitter = (cell - smallest_cell) / 2
    positions = lattice[rng.permutation(len(lattice))[:n]] + rng.uniform(-jitter, jitter, (n, 2))
    goals = lattice[rng.permutation(len(lattice))[:n]] + rng.uniform(-jitter, jitter, (n, 2))
    return Scenario(
        name="random_crowd",
        positions=positions,
        goals=goals,
        agent_params=dict(PEDESTRIAN),
        time_step=PEDESTRIAN_TIME_STEP,
        max_steps=steps_for(side * cell * math.sqrt(2), PEDESTRIAN["pref_speed"], PEDESTRIAN_TIME_STEP,
                             factor=4.0),
        method=ORCA(seed=seed),
        seed=seed,
    )


_SIDES = {  # outward normal of each wall of the room
    "east": (1.0, 0.0),
    "west": (-1.0, 0.0),
    "north": (0.0, 1.0),
    "south": (0.0, -1.0),
}


def room_evacuation(n: int = 50, exits=1, *, exit_width: float = 1.2, room_size: float = 10.0,
                    seed: int = 0) -> Scenario:
    """Pedestrians leaving a square room through one or more exits.

    Agents stand at random cells of a 1 m lattice inside the room (jittered)
    and each leaves by the nearest exit: first to a point 1 m outside it
    (moving on within 1 m of it, so only once outside), then to a goal slot
    in a block beyond it (1.6 m apart). The agents nearest an exit get its
    farthest slots, so those who leave first do not block the others.

    Parameters
    ----------
    n
        Number of agents: at most one per lattice cell.
    exits
        The number of exits (1 to 4: east, west, north, south walls in that
        order) or a sequence of wall names (``"east"``, ...). Each exit is in
        the middle of its wall.
    exit_width
        Width of each exit (m): more than an agent's diameter (0.6 m) and at
        most the room size minus 2 m.
    room_size
        Side of the square room (m), at least 3.
    seed
        Seed of the places.

    Its :attr:`~vosim.scenarios.Scenario.geometry` names ``"room"`` (the
    square floor) and each exit by its wall, ``"exit_east"`` and so on (the
    exit's two posts, the line to count the flow through).
    """
    n = integer(n, "n", minimum=1, maximum=10_000)
    if isinstance(exits, (str, bytes)):
        raise TypeError(f"exits: expected a number or a sequence of wall names, got {exits!r}")
    try:
        count = integer(exits, "exits", minimum=1, maximum=4)
        sides = list(_SIDES)[:count]
    except TypeError:
        sides = list(exits)
        for k, side in enumerate(sides):
            if side not in _SIDES:
                raise ValueError(f"exits[{k}] is {side!r}; must be one of {', '.join(_SIDES)}") from None
            if side in sides[:k]:
                raise ValueError(f"exits[{k}] is {side!r} again; each wall has at most one exit") from None
        if not sides:
            raise ValueError("exits: expected at least one exit") from None
    room_size = scalar(room_size, "room_size", minimum=3.0, maximum=1000.0)
    diameter = 2 * PEDESTRIAN["radius"]
    exit_width = scalar(exit_width, "exit_width", minimum=diameter, strict=True, maximum=room_size - 2.0)
    seed = checked_seed(seed)
    rng = np.random.default_rng(seed)
    half = room_size / 2
    margin = 0.8
    per_side = int(math.floor((room_size - 2 * margin) / SLOT + 1e-9)) + 1
    if n > per_side**2:
        raise ValueError(f"n is {n}; a room of {room_size} m holds at most {per_side**2} agents 1 m apart")
    lattice = _grid(per_side**2, per_side)
    positions = lattice[rng.permutation(len(lattice))[:n]] + rng.uniform(-JITTER, JITTER, (n, 2))

    walls = []
    geometry = {"room": np.array([[-half, -half], [half, -half], [half, half], [-half, half]])}
    corners = {"east": ((half, -half), (half, half)), "north": ((half, half), (-half, half)),
               "west": ((-half, half), (-half, -half)), "south": ((-half, -half), (half, -half))}
    for side, (a, b) in corners.items():
        a, b = np.array(a), np.array(b)
        if side in sides:
            centre = (a + b) / 2
            along = (b - a) / np.linalg.norm(b - a)
            walls.append(("wall", np.array([a, centre - along * exit_width / 2])))
            walls.append(("wall", np.array([centre + along * exit_width / 2, b])))
            geometry[f"exit_{side}"] = np.array([centre - along * exit_width / 2, centre + along * exit_width / 2])
        else:
            walls.append(("wall", np.array([a, b])))

    normals = np.array([_SIDES[s] for s in sides])
    doors = normals * half
    nearest = np.argmin(np.linalg.norm(positions[:, None] - doors[None], axis=2), axis=1)
    goals = np.empty_like(positions)
    waypoints: list = [None] * n
    columns = 5
    for e, side in enumerate(sides):
        mine = np.flatnonzero(nearest == e)
        if len(mine) == 0:
            continue
        normal = normals[e]
        tangent = np.array([-normal[1], normal[0]])
        offsets = _grid(len(mine), columns, WIDE_SLOT)
        rows_out = offsets[:, 1] - offsets[:, 1].min()
        slots = doors[e] + np.outer(3.0 + rows_out, normal) + np.outer(offsets[:, 0], tangent)
        slots += rng.uniform(-JITTER, JITTER, slots.shape)
        by_distance = mine[np.argsort(np.linalg.norm(positions[mine] - doors[e], axis=1), kind="stable")]
        farthest_first = np.argsort(-np.linalg.norm(slots - doors[e], axis=1), kind="stable")
        goals[by_distance] = slots[farthest_first]
        for i in mine:
            waypoints[i] = np.vstack([doors[e] + normal, goals[i]])
    flow = 1.3 * max(exit_width - diameter, 0.2) * len(sides)
    return Scenario(
        name="room_evacuation",
        geometry=geometry,
        positions=positions,
        goals=goals,
        waypoints=waypoints,
        agent_params=dict(PEDESTRIAN, waypoint_radius=1.0),
        obstacles=walls,
        time_step=PEDESTRIAN_TIME_STEP,
        max_steps=steps_for(room_size + 3.0 + WIDE_SLOT * n / columns, PEDESTRIAN["pref_speed"],
                             PEDESTRIAN_TIME_STEP)
        + int(math.ceil(3 * n / flow / PEDESTRIAN_TIME_STEP)),
        method=ORCA(seed=seed),
        seed=seed,
    )


# Every scenario function of this module by name (the catalogue adds the
# warehouse, which has a module of its own, to make SCENARIOS).
LIBRARY = {
    "circle": circle,
    "blocks": blocks,
    "roadmap": roadmap,
    "headon_pair": headon_pair,
    "crossing": crossing,
    "mixed_acceleration_crossing": mixed_acceleration_crossing,
    "bottleneck": bottleneck,
    "corridor": corridor,
    "random_crowd": random_crowd,
    "room_evacuation": room_evacuation,
}
