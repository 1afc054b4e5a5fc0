"""Ready-made 3D scenarios: RVO2-3D's Sphere example, drone swarms, layers, random fields.

Each returns a 3D :class:`Scenario` (positions ``(n, 3)``, obstacles as 3D
shapes). Those with randomness take a ``seed``. Start and goal slots are
at least an agent diameter plus a margin apart, and clear of every
obstacle, so all agents can arrive.
"""

from __future__ import annotations

import math

import numpy as np

from .._checks import integer, scalar
from ..shapes3d import Box, HalfSpace, ObstacleSet3D, Sphere
from ._helpers import checked_seed, steps_for
from ._scenario import Scenario

# Small drones: 0.25 m radius, 1.5 m/s preferred, 2 m/s at most, reacting to
# neighbours within 5 m and 2 s and to obstacles within 1 s; 10 steps a second.
DRONE = dict(radius=0.25, max_speed=2.0, pref_speed=1.5, neighbor_dist=5.0, max_neighbors=10,
             time_horizon=2.0, time_horizon_obst=1.0)
DRONE_TIME_STEP = 0.1
#: Distance between neighbouring drone slots, and the random jitter of each slot.
DRONE_SLOT = 1.2
DRONE_JITTER = 0.1
GROUND = HalfSpace(point=(0.0, 0.0, 0.0), normal=(0.0, 0.0, 1.0))


def _lattice(count: int, shape: tuple[int, int, int], spacing: float) -> np.ndarray:
    """The first ``count`` points of a centred ``shape`` lattice (x fastest), ``(count, 3)``."""
    nx, ny, nz = shape
    k = np.arange(count)
    return np.column_stack([(k % nx - (nx - 1) / 2), (k // nx % ny - (ny - 1) / 2),
                            (k // (nx * ny) - (nz - 1) / 2)]) * spacing


def _block_shape(count: int, depth: int) -> tuple[int, int, int]:
    """A block of ``count`` slots ``depth`` deep (x), as square as can be across (y, z)."""
    across = -(-count // depth)
    ny = math.ceil(math.sqrt(across))
    return depth, ny, -(-across // ny)


# ----------------------------------------------------------- RVO2-3D example
def sphere() -> Scenario:
    """RVO2-3D's Sphere example: 812 agents on rings of a sphere of radius 100 m, each to its antipode.

    Ring i = 0..31 lies at height ``100 cos(i / 10)`` with radius
    ``r = 100 sin(i / 10)`` and holds ``ceil(r / 2.5)`` agents evenly spaced
    (so neighbours start 2.5 m apart, closer than their 3 m diameter, as in
    the example). Parameters as in the example: radius 1.5, max speed 2,
    preferred speed 1, neighbour distance 15, 10 neighbours, time horizon
    10, time step 0.125; an agent counts as arrived within 3 m of its goal
    (the example stops when every agent is within two radii).
    """
    positions = []
    for ring in range(1, 32):  # ring 0 (the top) has radius 0 and no agents
        height, ring_radius = 100.0 * math.cos(ring / 10), 100.0 * math.sin(ring / 10)
        slots = math.ceil(ring_radius / 2.5)
        angles = np.arange(slots) * (2.0 * math.pi / (ring_radius / 2.5))
        positions.append(np.column_stack([ring_radius * np.cos(angles), ring_radius * np.sin(angles),
                                          np.full(slots, height)]))
    positions = np.concatenate(positions)
    return Scenario(
        name="sphere",
        positions=positions,
        goals=-positions,
        agent_params=dict(radius=1.5, max_speed=2.0, pref_speed=1.0, neighbor_dist=15.0, max_neighbors=10,
                          time_horizon=10.0, arrival_radius=3.0),
        time_step=0.125,
        max_steps=10_000,
    )


# ------------------------------------------------------------------- drones
def _wall_with_window(half_width: float, height: float, window: tuple[float, float], window_size: float,
                      thickness: float) -> list[Box]:
    """A wall in the plane x = 0 from y = -half_width to half_width, z = 0 to height, with a square window."""
    wy, wz = window
    h = window_size / 2
    t = thickness / 2
    return [
        Box.from_bounds((-t, -half_width, 0.0), (t, wy - h, height)),       # left of the window
        Box.from_bounds((-t, wy + h, 0.0), (t, half_width, height)),        # right of it
        Box.from_bounds((-t, wy - h, 0.0), (t, wy + h, wz - h)),           # below it
        Box.from_bounds((-t, wy - h, wz + h), (t, wy + h, height)),        # above it
    ]


def swarm_gate(n: int = 24, *, window_size: float = 4.0, seed: int = 0) -> Scenario:
    """Two drone swarms crossing through one square window in a wall, in opposite directions.

    A wall (0.4 m thick, 30 m wide, 15 m high, in the plane x = 0) stands on
    the ground with a ``window_size`` square window centred 6 m up. Swarm A
    (agents ``0..n-1``) starts in a block 14 m before the wall and flies to
    the same block 18 m behind it; swarm B (``n..2n-1``) does the opposite,
    so the swarms meet in the window. Drones: radius 0.25 m, 1.5 m/s
    preferred, 2 m/s at most, time step 0.1 s; slots 1.2 m apart with a
    seeded jitter of up to 0.1 m.

    Parameters
    ----------
    n
        Drones per swarm.
    window_size
        Side of the window in metres (at least 1 m).
    seed
        Seed of the jitter.
    """
    n = integer(n, "n", minimum=1, maximum=10_000)
    window_size = scalar(window_size, "window_size", minimum=1.0, maximum=12.0)
    rng = np.random.default_rng(checked_seed(seed))
    altitude = 6.0
    block = _lattice(n, _block_shape(n, 3), DRONE_SLOT)
    block[:, 2] += altitude
    jitter = lambda: rng.uniform(-DRONE_JITTER, DRONE_JITTER, (n, 3))  # noqa: E731
    start_a, goal_a = block + (-14.0, 0, 0) + jitter(), block + (18.0, 0, 0)
    start_b, goal_b = block * (-1, 1, 1) + (14.0, 0, 0) + jitter(), block * (-1, 1, 1) + (-18.0, 0, 0)
    obstacles = [GROUND, *_wall_with_window(15.0, 15.0, (0.0, altitude), window_size, 0.4)]
    return Scenario(
        name="swarm_gate",
        positions=np.vstack([start_a, start_b]),
        goals=np.vstack([goal_a, goal_b]),
        agent_params=dict(DRONE),
        obstacles=obstacles,
        time_step=DRONE_TIME_STEP,
        max_steps=steps_for(36.0, DRONE["pref_speed"], DRONE_TIME_STEP, factor=6.0),
        seed=seed,
    )


def layers_crossing(layers: int = 3, n: int = 16, *, layer_gap: float = 1.5, seed: int = 0) -> Scenario:
    """Groups of drones crossing at right angles on several altitudes, each layer turned 30 degrees.

    On layer k (height ``4 + k * layer_gap``) two groups of ``n`` drones cross
    the centre: one along the direction at ``30 k`` degrees, one at ``30 k +
    90``; each starts in a flat square block 15 m from the centre and flies
    to the mirrored block 15 m beyond it. Layers closer than the neighbour
    distance see each other, so the crossings interact across altitudes.
    Drones as in :func:`swarm_gate`.

    Parameters
    ----------
    layers
        Number of altitude layers.
    n
        Drones per group.
    layer_gap
        Height between layers in metres (at least a drone diameter plus 0.2 m).
    seed
        Seed of the jitter.
    """
    layers = integer(layers, "layers", minimum=1, maximum=100)
    n = integer(n, "n", minimum=1, maximum=10_000)
    layer_gap = scalar(layer_gap, "layer_gap", minimum=2 * DRONE["radius"] + 0.2, maximum=100.0)
    rng = np.random.default_rng(checked_seed(seed))
    side = math.ceil(math.sqrt(n))
    flat = _lattice(n, (side, side, 1), DRONE_SLOT)  # in the x-y plane
    positions, goals = [], []
    for layer in range(layers):
        height = 4.0 + layer * layer_gap
        for turn in (0.0, 90.0):
            angle = math.radians(30.0 * layer + turn)
            direction = np.array([math.cos(angle), math.sin(angle), 0.0])
            across = np.array([-math.sin(angle), math.cos(angle), 0.0])
            slots = flat[:, :1] * direction + flat[:, 1:2] * across + (0.0, 0.0, height)
            positions.append(slots - 15.0 * direction + rng.uniform(-DRONE_JITTER, DRONE_JITTER, (n, 3)))
            goals.append(slots + 15.0 * direction)
    return Scenario(
        name="layers_crossing",
        positions=np.vstack(positions),
        goals=np.vstack(goals),
        agent_params=dict(DRONE),
        time_step=DRONE_TIME_STEP,
        max_steps=steps_for(30.0, DRONE["pref_speed"], DRONE_TIME_STEP, factor=6.0),
        seed=seed,
    )


def _free_slots(rng, count: int, lo, hi, field: ObstacleSet3D, clearance: float, spacing: float,
                what: str) -> np.ndarray:
    """``count`` random points in the box [lo, hi], ``clearance`` from every obstacle and ``spacing`` apart."""
    chosen = np.zeros((0, 3))
    for _ in range(200):
        candidates = rng.uniform(lo, hi, size=(4 * count, 3))
        candidates = candidates[field.penetrating(candidates, clearance) < 0]
        for point in candidates:
            if len(chosen) == count:
                return chosen
            if not len(chosen) or np.min(np.linalg.norm(chosen - point, axis=1)) >= spacing:
                chosen = np.vstack([chosen, point])
        if len(chosen) == count:
            return chosen
    raise ValueError(f"{what}: found room for only {len(chosen)} of {count} agents among the obstacles; "
                     "use fewer agents, fewer obstacles or a larger size")


def random3d(n: int = 40, *, boxes: int = 4, spheres: int = 4, size=(30.0, 30.0, 15.0), seed: int = 0) -> Scenario:
    """Drones flying between random starts and goals in a box with random boxes and spheres in it.

    The space is ``[0, size]`` with a ground (z = 0) and a ceiling
    (z = size[2]) as half-spaces. ``boxes`` boxes (turned about z by a random
    angle) and ``spheres`` spheres of 1 to 3 m are placed at random; starts
    and goals are drawn uniformly at least 1 m from the sides, 0.5 m clear
    of every obstacle and 1.0 m apart. Drones as in :func:`swarm_gate`.

    Parameters
    ----------
    n
        Number of drones.
    boxes, spheres
        Number of obstacles of each kind.
    size
        Extent of the space in x, y, z (metres, each at least 5).
    seed
        Seed of the layout.
    """
    n = integer(n, "n", minimum=1, maximum=10_000)
    boxes = integer(boxes, "boxes", minimum=0, maximum=1000)
    spheres = integer(spheres, "spheres", minimum=0, maximum=1000)
    size = np.array([scalar(s, f"size[{k}]", minimum=5.0, maximum=1e4) for k, s in enumerate(np.ravel(size))])
    if size.shape != (3,):
        raise ValueError(f"size: expected 3 numbers, got {size.shape[0]}")
    rng = np.random.default_rng(checked_seed(seed))
    obstacles = [GROUND, HalfSpace(point=(0.0, 0.0, size[2]), normal=(0.0, 0.0, -1.0))]
    for _ in range(boxes):
        half = rng.uniform(0.5, 1.5, 3) * (1, 1, size[2] / 6)
        obstacles.append(Box(center=rng.uniform(0.2, 0.8, 3) * size, half_extents=half,
                             euler=(0.0, 0.0, rng.uniform(0, math.pi))))
    for _ in range(spheres):
        obstacles.append(Sphere(center=rng.uniform(0.2, 0.8, 3) * size, radius=rng.uniform(1.0, 3.0)))
    field = ObstacleSet3D(obstacles)
    lo, hi = np.ones(3), size - 1.0
    clearance = DRONE["radius"] + 0.5
    starts = _free_slots(rng, n, lo, hi, field, clearance, 1.0, "random3d starts")
    goals = _free_slots(rng, n, lo, hi, field, clearance, 1.0, "random3d goals")
    return Scenario(
        name="random3d",
        positions=starts,
        goals=goals,
        agent_params=dict(DRONE),
        obstacles=obstacles,
        time_step=DRONE_TIME_STEP,
        max_steps=steps_for(float(np.linalg.norm(size)), DRONE["pref_speed"], DRONE_TIME_STEP, factor=6.0),
        seed=seed,
    )


#: The 3D scenarios by name.
SCENARIOS_3D = {"sphere": sphere, "swarm_gate": swarm_gate, "layers_crossing": layers_crossing,
                "random3d": random3d}
