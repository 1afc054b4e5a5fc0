"""A warehouse: robots crossing between aisles of shelves, in both directions, through a cross aisle."""

from __future__ import annotations

import math

import numpy as np

from .._checks import integer, scalar
from .._kinematics import KINEMATICS
from ..methods import ORCA
from ._helpers import checked_seed, steps_for
from ._scenario import Scenario

# Mobile robots: 0.3 m radius, 1 m/s preferred, 1.2 m/s at most, reacting to
# neighbours within 4 m and 2 s and to shelves within 1 s; 10 steps a second.
ROBOT = dict(radius=0.3, max_speed=1.2, pref_speed=1.0, neighbor_dist=4.0, max_neighbors=10,
             time_horizon=2.0, time_horizon_obst=1.0)
# Their drive, unless holonomic: wheels 0.45 m apart, each at most max_speed,
# turning at most 3 rad/s (a unicycle: forward speed and turn rate apart);
# ORCA-DD's effective centre 0.1 m ahead of the axle, so that its disc
# (0.4 m) passes a robot standing in an aisle (the default, half the track,
# makes it 0.525 m, and robots then queue behind those standing).
DRIVE = dict(wheel_track=0.45, max_angular_speed=3.0, effective_center_distance=0.1)
ROBOT_TIME_STEP = 0.1
#: Depth of a shelf row, width of the cross aisle and of the end and side lanes (metres).
SHELF_DEPTH = 1.0
CROSS_AISLE = 3.0
END_LANE = 2.5
#: Start and goal slots lie on the aisles' centre lines, this far apart and
#: this far from the shelf ends, jittered by up to JITTER in x and y.
SLOT_GAP = 1.5
SLOT_MARGIN = 0.75
JITTER = 0.1
#: Robots keep right: this far off an aisle's centre line (x), and off the cross aisle's (y).
AISLE_LANE = 0.35
CROSS_LANE = 0.5
#: The narrowest aisle: a robot passes one standing on the centre line with 0.3 m to spare.
MIN_AISLE = 1.8
#: A robot moves on to its next waypoint within this distance of it.
WAYPOINT_RADIUS = 0.5


def _rectangle(x0: float, y0: float, x1: float, y1: float) -> np.ndarray:
    """A counter-clockwise rectangle."""
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])


def warehouse(n: int = 24, *, aisles: int = 4, shelf_length: float = 6.0, aisle_width: float = 2.8,
              kinematics: str = "differential_drive", seed: int = 0) -> Scenario:
    """Differential-drive robots crossing a warehouse: aisles between rows of shelves, a cross aisle,
    traffic both ways.

    ``aisles + 1`` rows of shelves (1 m deep) stand side by side with an
    aisle ``aisle_width`` wide between each two; a cross aisle (3 m) cuts
    every row into two shelves ``shelf_length`` long, and lanes (2.5 m at the
    ends, ``aisle_width`` at the sides) run round them inside the walls.
    Half of the robots start in the lower halves of the aisles and go to
    the upper halves, the others the other way, each into another aisle
    (when there are two or more): along its aisle, through the cross aisle
    and up or down the other, keeping right (waypoints 0.35 m right of an
    aisle's centre line and 0.5 m right of the cross aisle's: where it
    enters the cross aisle, where it leaves it, and where it enters the
    goal's aisle, each passed within 0.5 m). Start and goal
    slots lie on the aisles' centre lines, 1.5 m apart, jittered by up to
    0.1 m. Robots: radius 0.3 m, 1 m/s preferred, 1.2 m/s at most, time
    step 0.1 s; differential drives with wheels 0.45 m apart, each at most
    1.2 m/s, turning at most 3 rad/s, steered by ORCA-DD through a point
    0.1 m ahead of the axle, facing their first waypoint. Opposing robots meet head-on in the aisles, so the scenario
    carries a perturbation of 0.05 m/s, as :func:`corridor` does. ORCA
    completes it within ``max_steps`` (tested for several seeds and
    sizes): holonomic robots always, without entering a shelf;
    differential drives in 11 of seeds 0-11 with the defaults (in the
    twelfth a robot stays stuck behind others), and squeezed at the
    shelves' ends by oncoming robots they may graze a corner by a few
    centimetres. With most slots of many aisles taken (120 robots in 10
    aisles of 12 m, or 48 in 6 of 6 m for differential drives), the one
    cross aisle jams.

    Parameters
    ----------
    n
        Number of robots; at most two per slot pair: ``2 * aisles * k`` for
        the ``k`` slots in each half-aisle (4 with the default length).
    aisles
        Number of aisles between shelf rows (1 to 50).
    shelf_length
        Length of each shelf (m), 2 to 100: room for at least one slot.
    aisle_width
        Width of the aisles and side lanes (m): from 1.8 (a holonomic robot
        passes one standing on the centre line; differential drives need
        about 2.6) to 10.
    kinematics
        The robots' drive: ``"differential_drive"``, ``"unicycle"`` (the
        same speed and turn limits) or ``"holonomic"`` (moving in any
        direction, to compare with).
    seed
        Seed of the slots drawn, the routes and the jitter.
    """
    n = integer(n, "n", minimum=1, maximum=10_000)
    aisles = integer(aisles, "aisles", minimum=1, maximum=50)
    shelf_length = scalar(shelf_length, "shelf_length", minimum=2 * SLOT_MARGIN + 0.5, maximum=100.0)
    aisle_width = scalar(aisle_width, "aisle_width", minimum=MIN_AISLE, maximum=10.0)
    if not isinstance(kinematics, str) or kinematics not in KINEMATICS:
        raise ValueError(f"kinematics is {kinematics!r}; must be one of {', '.join(map(repr, KINEMATICS))}")
    seed = checked_seed(seed)
    rng = np.random.default_rng(seed)

    pitch = SHELF_DEPTH + aisle_width
    width = 2 * aisle_width + (aisles + 1) * SHELF_DEPTH + aisles * aisle_width
    height = 2 * END_LANE + 2 * shelf_length + CROSS_AISLE
    x0, y0 = -width / 2, -height / 2
    lower = (y0 + END_LANE, y0 + END_LANE + shelf_length)          # y extent of the lower shelves
    upper = (lower[1] + CROSS_AISLE, lower[1] + CROSS_AISLE + shelf_length)
    cross_y = lower[1] + CROSS_AISLE / 2
    obstacles = [("boundary", _rectangle(x0, y0, x0 + width, y0 + height))]
    for row in range(aisles + 1):
        left = x0 + aisle_width + row * pitch
        for bottom, top in (lower, upper):
            obstacles.append(("polygon", _rectangle(left, bottom, left + SHELF_DEPTH, top)))
    aisle_x = x0 + aisle_width + SHELF_DEPTH + np.arange(aisles) * pitch + aisle_width / 2

    per_half = int(math.floor((shelf_length - 2 * SLOT_MARGIN) / SLOT_GAP + 1e-9)) + 1
    offsets = SLOT_MARGIN + SLOT_GAP * np.arange(per_half)
    northbound, southbound = n - n // 2, n // 2
    capacity = aisles * per_half
    if northbound > capacity:
        raise ValueError(f"n is {n}; {aisles} aisle(s) with {per_half} slot(s) per half hold at most "
                         f"{2 * capacity} robots (more aisles or longer shelves hold more)")
    # Slots as (aisle, y) for each half; each direction draws its starts
    # from one half and its goals from the other.
    aisle_of = np.repeat(np.arange(aisles), per_half)
    lower_y = np.tile(lower[0] + offsets, aisles)
    upper_y = np.tile(upper[1] - offsets, aisles)
    positions, goals, waypoints = [], [], []
    for count, start_y, goal_y, heading in ((northbound, lower_y, upper_y, 1.0),
                                            (southbound, upper_y, lower_y, -1.0)):
        starts = rng.permutation(capacity)[:count]
        free = list(rng.permutation(capacity))
        for slot in starts:
            a = aisle_of[slot]
            # Another aisle's slot where one is free (the first in the drawn order), else this aisle's.
            pick = next((k for k, g in enumerate(free) if aisle_of[g] != a), 0)
            goal = free.pop(pick)
            b = aisle_of[goal]
            start_point = np.array([aisle_x[a], start_y[slot]])
            goal_point = np.array([aisle_x[b], goal_y[goal]])
            lane = AISLE_LANE * heading  # right of the centre line when heading +y is +x
            side = -CROSS_LANE * np.sign(b - a)  # heading +x keeps to -y
            # Into the cross aisle, along it, and into the goal's aisle at the shelves' end (so that a
            # robot pushed aside in the cross aisle does not head up the wrong aisle).
            route = [(aisle_x[a] + lane, cross_y + side)]
            if b != a:
                route.append((aisle_x[b] + lane, cross_y + side))
            route.append((aisle_x[b] + lane, upper[0] if heading > 0 else lower[1]))
            positions.append(start_point)
            goals.append(goal_point)
            waypoints.append(route)
    positions = np.array(positions) + rng.uniform(-JITTER, JITTER, (n, 2))
    goals = np.array(goals) + rng.uniform(-JITTER, JITTER, (n, 2))
    waypoints = [np.vstack([route, goal]) for route, goal in zip(waypoints, goals)]
    # Robots start facing their first waypoint: along their aisle.
    ahead = np.array([route[0] for route in waypoints]) - positions
    headings = np.arctan2(ahead[:, 1], ahead[:, 0])
    longest = max(float(np.sum(np.linalg.norm(np.diff(np.vstack([start, w]), axis=0), axis=1)))
                  for start, w in zip(positions, waypoints))
    return Scenario(
        name="warehouse",
        positions=positions,
        goals=goals,
        waypoints=waypoints,
        agent_params=dict(ROBOT, waypoint_radius=WAYPOINT_RADIUS, kinematics=[kinematics] * n, headings=headings,
                          **({} if kinematics == "holonomic" else DRIVE)),
        obstacles=obstacles,
        time_step=ROBOT_TIME_STEP,
        # Crowded aisles slow robots down: 2 s more per robot.
        max_steps=steps_for(longest, ROBOT["pref_speed"], ROBOT_TIME_STEP, factor=4.0) + 20 * n,
        method=ORCA(perturbation=0.05, seed=seed),
        seed=seed,
    )
