"""Tables give each scene's peak turn rate: the largest peak_angular_speed of its agents."""

import functools

import numpy as np
import pytest

pd = pytest.importorskip("pandas")

import vosim  # noqa: E402
from vosim import scenarios  # noqa: E402
from vosim.metrics import scene_peaks  # noqa: E402


def test_metrics_table_and_compare_rows_give_each_scenes_peak_turn_rate():
    warehouse = functools.partial(scenarios.warehouse, 4, aisles=2)
    traj = scenarios.batch(warehouse, seeds=[0, 1]).run(40)
    per_agent = traj.metrics["peak_angular_speed"]
    assert per_agent.shape == (2, 4)
    table = traj.metrics_table()
    np.testing.assert_array_equal(table["peak_angular_speed"], per_agent.max(axis=1))
    rows = vosim.compare([vosim.ORCA()], [warehouse], seeds=[0, 1], steps=40)
    np.testing.assert_array_equal(rows["peak_angular_speed"], per_agent.max(axis=1))
    assert (rows["peak_angular_speed"] <= 3.0 * (1 + 1e-9)).all()   # the robots' max_angular_speed


def test_a_single_simulators_peak_and_a_scene_without_agents():
    traj = scenarios.warehouse(4, aisles=2, seed=2).build().run(20)
    assert traj.metrics_table()["peak_angular_speed"].tolist() == [traj.metrics["peak_angular_speed"].max()]
    peaks = scene_peaks({"peak_angular_speed": np.zeros((3, 0))})
    assert np.isnan(peaks["peak_angular_speed"]).all() and peaks["peak_angular_speed"].shape == (3,)
    assert scene_peaks({}) == {}
