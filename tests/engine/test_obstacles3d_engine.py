"""3D obstacle shapes in the engine: ORCA-3D's hard planes, placement
checks, inspection, batches and checkpoints."""

import pickle

import numpy as np
import pytest

import vosim


def obstacle_field(seed=0):
    """Boxes (axis-aligned and turned) and spheres in the slab -20 < x < 20."""
    rng = np.random.default_rng(seed)
    shapes = []
    for k in range(24):
        center = [rng.uniform(-15, 15), rng.uniform(-25, 25), rng.uniform(-25, 25)]
        if k % 3 == 0:
            shapes.append(vosim.Sphere(center, rng.uniform(2.0, 5.0)))
        else:
            euler = rng.uniform(0, np.pi, size=3) if k % 3 == 2 else None
            shapes.append(vosim.Box(center, rng.uniform(1.0, 4.0, size=3), euler=euler))
    return shapes


def test_a_thousand_agents_crossing_boxes_and_spheres_never_penetrate():
    rng = np.random.default_rng(1)
    n = 1000
    start = np.column_stack([rng.uniform(-60, -35, n), rng.uniform(-30, 30, n), rng.uniform(-30, 30, n)])
    goals = start * [-1.0, 1.0, 1.0]
    sim = vosim.Simulator(time_step=0.1, dimensions=3)
    shapes = obstacle_field()
    for shape in shapes:
        sim.add_obstacle(shape)
    sim.add_agents(start, goals=goals, radius=0.4, max_speed=2.0, neighbor_dist=5.0, time_horizon=3.0,
                   time_horizon_obst=2.0, strict=False)
    traj = sim.run(400)
    field = vosim.ObstacleSet3D(shapes)
    distance = field.nearest(traj.positions.reshape(-1, 3)).distances.reshape(traj.positions.shape[:2])
    clearance = distance - 0.4
    assert clearance.min() >= -1e-9
    assert traj.metrics["obstacle_agent_steps"] == 0
    # They do get through the field (not merely stand still).
    assert np.mean(traj.positions[-1, :, 0] > 20.0) > 0.5


def test_agents_starting_inside_an_obstacle_are_refused():
    sim = vosim.Simulator(dimensions=3)
    sim.add_obstacle(vosim.Box((0.0, 0.0, 0.0), (1.0, 1.0, 1.0)))
    with pytest.raises(ValueError, match=r"positions\[1\] \(with their radius\) overlap an obstacle"):
        sim.add_agents([[5.0, 0.0, 0.0], [0.0, 0.0, 0.0]])
    with pytest.raises(ValueError, match=r"positions\[0\]"):
        sim.add_agents([[1.2, 0.0, 0.0]], radius=0.5)  # overlapping the surface
    sim.add_agents([[1.2, 0.0, 0.0]], radius=0.5, strict=False)
    with pytest.raises(ValueError, match="would overlap it"):
        sim.add_obstacle(vosim.Sphere((1.5, 0.0, 0.0), 0.5))


def test_a_sphere_obstacle_is_passed_without_touching_it():
    sim = vosim.Simulator(time_step=0.1, dimensions=3)
    sim.add_obstacle(vosim.Sphere((0.0, 0.0, 0.0), 3.0))
    sim.add_agents([[-10.0, 0.5, 0.0]], goals=[[10.0, 0.5, 0.0]], radius=0.5)
    traj = sim.run(300)
    clearance = np.linalg.norm(traj.positions[:, 0], axis=1) - 3.0 - 0.5
    assert clearance.min() >= -1e-9
    assert traj.positions[-1, 0, 0] > 0.0  # it went round, it did not stop


def test_a_ground_plane_keeps_a_falling_agent_above_it():
    sim = vosim.Simulator(time_step=0.25, dimensions=3)
    sim.add_obstacle(vosim.HalfSpace((0.0, 0.0, 0.0), (0.0, 0.0, 1.0)))
    sim.add_agents([[0.0, 0.0, 5.0]], pref_velocities=[[0.0, 0.0, -2.0]], radius=1.0, time_horizon_obst=0.1)
    traj = sim.run(40)
    assert traj.positions[:, 0, 2].min() >= 1.0 - 1e-9


def test_inspect_lists_contacts_and_hard_planes_first():
    sim = vosim.Simulator(time_step=0.1, dimensions=3)
    sim.add_obstacle(vosim.Box((3.0, 0.0, 0.0), (1.0, 1.0, 1.0)))
    # Discs of 1.5 m, the box 0.5 m beyond, seen 10 s ahead (RVO2's Circle values).
    sim.add_agents([[0.0, 0.0, 0.0], [0.0, 2.0, 0.0]], pref_velocities=[[2.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
                   radius=1.5, max_speed=2.0, time_horizon_obst=10.0)
    info = sim.inspect(0)
    contacts = info["obstacle_contacts"]
    assert list(contacts["obstacle"]) == [0]
    np.testing.assert_allclose(contacts["point"][0], [2.0, 0.0, 0.0])
    np.testing.assert_allclose(contacts["normal"][0], [-1.0, 0.0, 0.0])
    assert list(info["planes"]["obstacle"]) == [True, False]
    # The hard plane: at most (distance - radius) / time_horizon_obst towards the box.
    assert info["new_velocity"][0] <= (2.0 - 1.5) / 10.0 + 1e-12


def test_batch_scenes_have_their_own_and_shared_obstacles():
    batch = vosim.Batch(2, time_step=0.1, dimensions=3)
    batch.add_obstacle(vosim.Sphere((0.0, 0.0, 0.0), 1.0))
    assert batch.add_obstacle(vosim.Box((5.0, 0.0, 0.0), (1.0, 1.0, 1.0)), scene=1) == 0
    batch.add_agents([[5.0, 0.0, 3.0]], pref_velocities=[0.0, 0.0, -1.0], radius=0.5, time_horizon_obst=0.5)
    traj = batch.run(50)
    assert traj.positions[-1, 0, 0, 2] < 0.0  # scene 0: nothing in its way
    assert traj.positions[:, 1, 0, 2].min() >= 1.5 - 1e-9  # scene 1: stopped above its box
    assert [(p.scene, p.id) for p in batch.obstacle_shapes] == [(None, 0), (1, 0)]


def test_checkpoints_carry_the_shapes_and_resume_bit_identically(tmp_path):
    sim = vosim.Simulator(time_step=0.1, dimensions=3)
    for shape in obstacle_field(2)[:6]:
        sim.add_obstacle(shape)
    sim.remove_obstacle(1)
    start = np.column_stack([np.full(30, -30.0), np.linspace(-20, 20, 30), np.zeros(30)])
    sim.add_agents(start, goals=start * [-1, 1, 1], radius=0.5, strict=False)
    sim.run(20)
    copies = [pickle.loads(pickle.dumps(sim)), vosim.load_state(sim.save_state(tmp_path / "state"))]
    expected = sim.run(60).positions
    for copy in copies:
        assert [(p.id, p.shape) for p in copy.obstacle_shapes] == [(p.id, p.shape) for p in sim.obstacle_shapes]
        np.testing.assert_array_equal(copy.run(60).positions, expected)
    with pytest.raises(ValueError):
        copies[0].remove_obstacle(1)  # still removed
    # Each copy keeps its own shapes: one added to a copy is not the original's.
    shown = len(sim.obstacle_shapes)
    assert copies[1].add_obstacle(vosim.Sphere((50.0, 0.0, 0.0), 1.0)) == 6
    assert len(copies[1].obstacle_shapes) == shown + 1
    assert len(sim.obstacle_shapes) == len(copies[0].obstacle_shapes) == shown


def test_shapes_and_polygons_do_not_mix():
    with pytest.raises(TypeError, match="3D shape needs a 3D simulator"):
        vosim.Simulator().add_obstacle(vosim.Sphere((0.0, 0.0, 0.0), 1.0))
    with pytest.raises(TypeError, match="a 3D simulator's obstacles are 3D shapes"):
        vosim.Simulator(dimensions=3).add_obstacle([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]])
