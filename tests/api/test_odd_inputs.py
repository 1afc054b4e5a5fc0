"""Small things that failed silently or with the wrong error: a writable
copy of kinematics, an overflowing holonomic action, save()'s every and
compress, a repeated id in set_goals, method names in environments."""

import numpy as np
import pytest

import vosim


def test_kinematics_is_a_read_only_copy_and_assigning_the_attribute_works():
    sim = vosim.Simulator(0.1)
    sim.add_agents([[0.0, 0.0], [2.0, 0.0]])
    with pytest.raises(ValueError, match="read-only"):
        sim.kinematics[0] = "unicycle"  # did nothing, silently
    sim.kinematics = ["unicycle", "holonomic"]
    assert sim.kinematics.tolist() == ["unicycle", "holonomic"]


def test_save_checks_every_and_compress(tmp_path):
    sim = vosim.Simulator(0.1)
    sim.add_agents([[0.0, 0.0]], goals=[[1.0, 0.0]])
    traj = sim.run(5)
    with pytest.raises(TypeError, match="every: expected an integer, got bool"):
        traj.save(tmp_path / "a.npz", every=True)
    with pytest.raises(TypeError, match="compress: expected True or False, got str 'no'"):
        traj.save(tmp_path / "a.npz", compress="no")
    with pytest.raises(ValueError, match="every is 0"):
        traj.save(tmp_path / "a.npz", every=0)
    kept = traj.subsample(10**20)  # was IndexError
    np.testing.assert_array_equal(kept.steps, [0, 5])
    traj.save(tmp_path / "b.npz", every=10**20)


def test_set_goals_refuses_a_repeated_id():
    sim = vosim.Simulator(0.1)
    sim.add_agents([[0.0, 0.0], [2.0, 0.0]])
    before = np.array(sim.goals)
    with pytest.raises(ValueError, match=r"ids\[2\]: id 0 is given twice \(also ids\[0\]\)"):
        sim.set_goals([0, 1, 0], [[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
    np.testing.assert_array_equal(sim.goals, before)  # nothing changed


gymnasium = pytest.importorskip("gymnasium")
from vosim.envs import CrowdNavigation  # noqa: E402


def test_environments_take_method_names():
    env = CrowdNavigation(humans=2, method="hrvo")
    assert isinstance(env.config.method, vosim.HRVO)
    with pytest.raises(ValueError, match="method: "):
        CrowdNavigation(humans=2, method="no-such-method")
    with pytest.raises(TypeError, match="a name such as 'orca'"):
        CrowdNavigation(humans=2, method=3)


def test_an_overflowing_holonomic_action_moves_at_full_speed():
    env = CrowdNavigation(humans=1)
    env.reset(seed=0)
    b = env.unwrapped.batch
    b.positions[0, 1:] = [[100.0, 100.0]]
    b.goals[0, 1:] = b.positions[0, 1:]
    b.velocities[0] = 0.0
    b.positions[0, 0] = (0.0, -4.0)
    observation, *_ = env.step(np.array([1e200, 0.0]))  # |action| overflows: stood still
    np.testing.assert_allclose(observation[2:4], [1.0, 0.0], rtol=1e-12)
    np.testing.assert_allclose(observation[:2], [0.25, -4.0], rtol=1e-12)


@pytest.mark.parametrize("corner", [(0.0, 0.0, 0.0), (5.0, 5.0, 5.0)])
def test_a_nanometre_tetrahedron_is_a_solid(corner):
    pytest.importorskip("scipy")
    tetra = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]) * 1e-9 + corner
    shape = vosim.ConvexPolyhedron.from_vertices(tetra)  # was refused: tolerances of 1e-9 m
    sim = vosim.Simulator(0.1, dimensions=3)
    sim.add_obstacle(shape)
    field = vosim.ObstacleSet3D([shape])
    far = np.array([corner]) + [[0.0, 0.0, -1.0]]
    assert field.nearest(far).distances[0] == pytest.approx(1.0, rel=1e-9)


def test_a_nearly_flat_hull_is_not_called_unbounded():
    pytest.importorskip("scipy")
    with pytest.raises(ValueError, match="too thin") as error:
        vosim.ConvexPolyhedron.from_vertices([[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 1e-9]])
    assert "unbounded" not in str(error.value) and "bounded solid" not in str(error.value)
