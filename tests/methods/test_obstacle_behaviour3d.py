"""3D agents and shapes, as test_obstacle_behaviour.py does in the plane:
an agent placed overlapping a shape is pushed out (never deeper), corners
too, corridors are passable without touching the walls, and a shape added
between steps acts on the next step."""

import math

import numpy as np
import pytest

import vosim

# ORCA-3D's obstacle planes are hard constraints; what remains is round-off.
PENETRATION_TOLERANCE = 1e-9


def clearance(shapes, positions, radius):
    """Distance from each position to the nearest shape, less the radius."""
    field = vosim.ObstacleSet3D(shapes)
    points = np.asarray(positions, dtype=float).reshape(-1, 3)
    return field.nearest(points).distances.reshape(np.shape(positions)[:-1]) - radius


SHAPES = {
    "ground": (vosim.HalfSpace((0.0, 0.0, 0.0), (0.0, 0.0, 1.0)), [0.0, 0.0, 0.25], [10.0, 0.0, 0.0]),
    "box": (vosim.Box((0.0, 0.0, -1.0), (3.0, 3.0, 1.0)), [0.0, 0.0, 0.2], [10.0, 0.0, -0.5]),
    "sphere": (vosim.Sphere((0.0, 0.0, 0.0), 2.0), [2.1, 0.0, 0.0], [-10.0, 0.0, 0.0]),
}


@pytest.mark.parametrize("name", SHAPES)
def test_an_agent_placed_overlapping_a_shape_is_pushed_out_not_deeper(name):
    """Was: on a ground plane at z = 0.25 (radius 0.5), heading for a goal
    below the surface, it sank to z = 0.10 over 30 steps."""
    shape, start, goal = SHAPES[name]
    sim = vosim.Simulator(0.1, dimensions=3)
    sim.add_obstacle(shape)
    sim.add_agents([start], goals=[goal], radius=0.5, max_speed=2.0, strict=False)
    depth = -clearance([shape], [start], 0.5)[0]
    assert depth > 0.1
    traj = sim.run(40, record_every=1)
    gaps = clearance([shape], traj.positions[:, 0], 0.5)
    assert np.all(np.diff(gaps) >= -PENETRATION_TOLERANCE), gaps[:5]  # never deeper
    # Out within the steps that 90 % of the max speed needs (one step for a
    # shallow overlap), and stays out.
    steps_out = math.ceil(depth / (0.9 * 2.0 * 0.1))
    assert gaps[steps_out:].min() >= -PENETRATION_TOLERANCE, gaps[: steps_out + 1]
    assert traj.metrics["max_obstacle_penetration"] == pytest.approx(depth)


def test_an_agent_overlapping_a_box_corner_never_goes_deeper():
    """Two faces at once: leaving both within a step may ask for more than the
    max speed; then neither is entered further."""
    box = vosim.Box((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
    sim = vosim.Simulator(0.1, dimensions=3)
    sim.add_obstacle(box)
    start = [1.3, 1.3, 0.0]  # 0.42 from the edge x = y = 1, radius 0.5
    sim.add_agents([start], goals=[[-5.0, -5.0, 0.0]], radius=0.5, max_speed=0.5, strict=False)
    traj = sim.run(30, record_every=1)
    gaps = clearance([box], traj.positions[:, 0], 0.5)
    assert gaps[0] < 0.0
    assert np.all(np.diff(gaps) >= -PENETRATION_TOLERANCE), gaps[:5]
    assert gaps[-1] >= -PENETRATION_TOLERANCE


@pytest.mark.parametrize("bidirectional", [False, True])
def test_a_corridor_between_two_boxes_is_passable_without_touching_them(bidirectional):
    walls = [vosim.Box((0.0, 3.0, 0.0), (20.0, 1.0, 5.0)), vosim.Box((0.0, -3.0, 0.0), (20.0, 1.0, 5.0))]
    sim = vosim.Simulator(0.1, dimensions=3, method=vosim.ORCA(perturbation=1e-4))
    for wall in walls:
        sim.add_obstacle(wall)
    rng = np.random.default_rng(0)
    n = 10
    left = np.column_stack([-18.0 - 1.2 * np.arange(n), rng.uniform(-1.2, 1.2, n), rng.uniform(-1.0, 1.0, n)])
    options = dict(radius=0.3, max_speed=1.5, pref_speed=1.2, time_horizon=2.0, time_horizon_obst=1.0,
                   neighbor_dist=5.0)
    sim.add_agents(left, goals=left + [40.0 + 1.2 * n, 0.0, 0.0], **options)
    if bidirectional:
        right = left * [-1.0, 1.0, 1.0]
        sim.add_agents(right, goals=right - [40.0 + 1.2 * n, 0.0, 0.0], **options)
    traj = sim.run(5000, until_arrived=True, record_every=5)
    assert traj.all_arrived
    assert clearance(walls, traj.positions, 0.3).min() >= -PENETRATION_TOLERANCE
    assert np.all(np.abs(traj.positions[..., 1]) < 2.0)  # nobody crossed a wall


def test_a_shape_added_between_steps_acts_on_the_next_step():
    sim = vosim.Simulator(0.1, dimensions=3)
    sim.add_agents([[0.0, 0.0, 0.0]], radius=0.5, max_speed=1.0, pref_velocities=[[1.0, 0.0, 0.0]],
                   time_horizon_obst=2.0)
    sim.step()
    assert sim.velocities[0, 0] == pytest.approx(1.0)
    sim.add_obstacle(vosim.Box((3.2, 0.0, 0.0), (2.0, 3.0, 3.0)))  # face at x = 1.2: within the horizon
    sim.step()
    assert sim.velocities[0, 0] < 0.5
    sim.run(100)
    assert sim.positions[0, 0] < 1.2 - 0.5 + PENETRATION_TOLERANCE
