"""Bad input to the 3D API is refused naming the argument, the index and the value."""

import numpy as np
import pytest

import vosim
from vosim import shapes3d


@pytest.mark.parametrize("make", [vosim.Simulator, lambda **kw: vosim.Batch(2, **kw)])
@pytest.mark.parametrize("value, error, message", [
    (4, ValueError, "dimensions is 4; must be <= 3"),
    (1, ValueError, "dimensions is 1; must be >= 2"),
    ("3", TypeError, "dimensions: expected an integer, got str"),
    (2.5, TypeError, "dimensions: expected an integer, got float"),
    (True, TypeError, "dimensions: expected an integer, got bool"),
])
def test_bad_dimensions_are_refused(make, value, error, message):
    with pytest.raises(error, match=message):
        make(dimensions=value)


@pytest.mark.parametrize("data, message", [
    ({"type": "sphere"}, "shape of type 'sphere'.*center"),
    ({"type": "sphere", "center": [0, 0, 0], "radius": -1}, "radius is -1"),
    ({"type": "torus"}, "shape type is 'torus'"),
    ([1, 2], "expected a dict with a 'type' key"),
])
def test_bad_shape_dicts_are_refused(data, message):
    with pytest.raises(ValueError, match=message):
        shapes3d.shape_from_dict(data)


def _sim3(n=2):
    sim = vosim.Simulator(dimensions=3)
    sim.add_agents(np.zeros((n, 3)) + np.arange(n)[:, None] * 3.0)
    return sim


@pytest.mark.parametrize("waypoints, message", [
    ([np.zeros((3, 2))], r"waypoints\[0\]: expected shape \(k, 3\).*dimensions=3.*got \(3, 2\)"),
    ([np.array([[0.0, 0.0, np.nan]])], r"waypoints\[0\]\[0, 2\] is nan"),
    ([np.zeros((0, 3))], r"waypoints\[0\]: expected shape \(k, 3\) with k >= 1"),
    ([np.full((1, 3), 1e20)], r"waypoints\[0\]\[0, 0\] is 1e\+20"),
])
def test_bad_3d_waypoints_are_refused(waypoints, message):
    sim = _sim3()
    before = sim.positions.copy()
    with pytest.raises(ValueError, match=message):
        sim.set_waypoints([0], waypoints)
    sim.step()  # the refused call left nothing behind: agents without goals stay put
    np.testing.assert_array_equal(sim.positions, before)


def test_3d_batch_refuses_planar_positions():
    batch = vosim.Batch(2, dimensions=3)
    with pytest.raises(ValueError, match=r"positions: expected shape \(2, n, 3\) or \(n, 3\).*dimensions=3"):
        batch.add_agents(np.zeros((2, 2, 2)))
    assert batch.num_agents == 0


def test_3d_state_written_with_nan_is_refused_before_a_step():
    sim = _sim3(1)
    sim.positions[0, 2] = np.nan
    with pytest.raises(ValueError, match="agent id 0.*position is nan.*Nothing was advanced"):
        sim.step()
