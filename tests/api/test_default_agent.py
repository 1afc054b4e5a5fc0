"""The default agent is a walking adult, and behaves as one on small everyday scenes.

The former defaults (RVO2's Circle example: discs of 1.5 m looking 10 s ahead)
are kept here to show what the change fixes.
"""

import re
from pathlib import Path

import numpy as np
import pytest

import vosim
from vosim._fields import ADD_DEFAULTS

RVO2_CIRCLE = dict(radius=1.5, max_speed=2.0, neighbor_dist=15.0, time_horizon=10.0, time_horizon_obst=10.0)


def _crossing(**params):
    """Two files of five people, 1 m apart, crossing at right angles 8 m from the centre."""
    sim = vosim.Simulator(time_step=0.1)
    ys = np.linspace(-2.0, 2.0, 5)
    west = np.column_stack([np.full(5, -8.0), ys])
    south = np.column_stack([ys + 0.3, np.full(5, -8.0)])
    sim.add_agents(np.vstack([west, south]), goals=np.vstack([west * (-1, 1), south * (1, -1)]), **params)
    return sim


def _three_in_a_row(**params):
    """Three agents 4 m apart on a line, each heading for the far end."""
    sim = vosim.Simulator(time_step=0.1)
    start = np.array([[0.0, 0.0], [4.0, 0.0], [8.0, 0.0]])
    sim.add_agents(start, goals=start[::-1] + (0.0, 0.01), **params)
    return sim


def test_a_crossing_with_the_defaults_arrives_at_walking_pace_without_collisions():
    traj = _crossing().run(600, until_arrived=True)
    assert traj.all_arrived
    assert traj.metrics["collision_agent_steps"] == 0 and traj.min_clearance_per_frame().min() > 0
    # 16 m at 1.3 m/s is 12.3 s; the crossing costs a little, not a jam.
    assert 16.0 / 1.3 <= traj.metrics["makespan"] < 1.5 * 16.0 / 1.3
    assert np.max(np.linalg.norm(traj.velocities, axis=-1)) <= 1.8 + 1e-9


def test_the_same_crossing_with_the_former_defaults_overlaps_and_crawls():
    """Discs of 1.5 m do not fit people 1 m apart: what a new user got before."""
    traj = _crossing(**RVO2_CIRCLE).run(1000, until_arrived=True)
    assert traj.metrics["collision_agent_steps"] > 0 and traj.metrics["makespan"] > 3 * 16.0 / 1.3


def test_three_in_a_row_arrive_with_the_defaults_and_stalled_with_the_former_ones():
    with pytest.warns(RuntimeWarning, match="not at their goals|did not arrive|not arrived"):
        stalled = _three_in_a_row(**RVO2_CIRCLE).run(3000, until_arrived=True)
    assert not stalled.all_arrived and stalled.steps_run == 3000
    traj = _three_in_a_row().run(3000, until_arrived=True)
    assert traj.all_arrived and traj.metrics["makespan"] < 15.0
    assert traj.metrics["collision_agent_steps"] == 0


def test_3d_agents_take_the_same_defaults_and_cross_without_collisions():
    sim = vosim.Simulator(time_step=0.1, dimensions=3)
    start = np.array([[-6.0, 0.0, 1.0], [6.0, 0.2, 1.0], [0.0, -6.0, 1.2], [0.2, 6.0, 0.8]])
    sim.add_agents(start, goals=start * (-1, -1, 1))
    assert sim.radius[0] == 0.25 and sim.pref_speed[0] == 1.3 and sim.time_horizon[0] == 3.0
    traj = sim.run(400, until_arrived=True)
    assert traj.all_arrived and traj.metrics["collision_agent_steps"] == 0


def test_the_user_guide_states_the_defaults_the_engine_has():
    readme = (Path(__file__).resolve().parents[2] / "docs" / "guide" / "simulators.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `(\w+)` \| ([0-9.]+) (?:m/s|m|s)? ?\|", readme, re.M))
    rows.update(re.findall(r"^\| `(max_neighbors)` \| ([0-9]+) \|", readme, re.M))
    names = ("radius", "pref_speed", "max_speed", "time_horizon", "time_horizon_obst", "neighbor_dist",
             "max_neighbors")
    assert set(names) <= set(rows), rows
    for name in names:
        assert float(rows[name]) == ADD_DEFAULTS[name], name
