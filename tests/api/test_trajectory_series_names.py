"""The per-frame series of a Trajectory are named ``*_per_frame``; the old
names, which read like the run's single metric, still work with a warning."""

import warnings

import numpy as np
import pytest

import vosim


@pytest.fixture(scope="module")
def traj():
    sim = vosim.Simulator(time_step=0.25)
    sim.add_obstacle([(-1.0, 1.0), (6.0, 1.0)])
    sim.add_agents([[0.0, 0.0], [4.0, 0.0]], goals=[[4.0, 0.0], [0.0, 0.0]])
    return sim.run(40)


@pytest.mark.parametrize("old, new", [("min_clearance", "min_clearance_per_frame"),
                                      ("arrived", "arrived_per_frame"),
                                      ("min_obstacle_clearance", "min_obstacle_clearance_per_frame")])
def test_an_old_name_warns_naming_the_new_one_and_returns_the_same(traj, old, new):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        current = getattr(traj, new)()
    with pytest.warns(DeprecationWarning, match=rf"Trajectory\.{old}\(\) is now Trajectory\.{new}\(\)"):
        before = getattr(traj, old)()
    np.testing.assert_array_equal(before, current)
    assert current.shape[0] == len(traj)


def test_the_series_and_the_single_values_agree(traj):
    # The run's minimum over every step is at most the minimum over the recorded frames
    # (here every step is recorded, so they are equal).
    assert traj.metrics["min_clearance"] == pytest.approx(traj.min_clearance_per_frame().min())
    assert traj.all_arrived == bool(traj.arrived_per_frame().any(axis=0).all())
