"""The engine's metric table is the one list of run metrics: the dict a run
returns, the names vosim.metrics exports and its documented definitions all
follow it."""

import re

import numpy as np

import vosim
from vosim import _core, metrics

SCOPES = {"scene", "agent", "series", "timing"}
SCOPE_ORDER = ("scene", "agent", "series", "timing")


def test_table_rows_are_complete_and_unique():
    names = [row["name"] for row in metrics.TABLE]
    assert len(names) == len(set(names))
    for row in metrics.TABLE:
        assert row["scope"] in SCOPES, row
        assert row["unit"] and row["doc"].strip(), row


# The run metrics a user may rely on, by scope, written out here rather than
# read from the table: dropping, renaming or re-scoping a metric in the
# engine fails this test until the change is made here too (and, for users,
# in CHANGELOG.md).
PROMISED = {
    "scene": ["collision_agent_steps", "collision_pairs", "collision_pairs_capped", "max_penetration",
              "obstacle_agent_steps", "max_obstacle_penetration", "min_clearance", "arrival_rate", "makespan",
              "mean_travel_time", "mean_path_length", "path_efficiency", "mean_speed", "sum_abs_dv", "sum_abs_da",
              "stalled_agents", "fallbacks", "exits", "last_exit_time"],
    "agent": ["arrival_step", "exit_step", "path_length", "agent_path_efficiency", "agent_mean_speed",
              "longest_stall", "peak_acceleration", "peak_angular_speed"],
    "series": ["min_clearance_series", "collisions_series"],
    "timing": ["time_neighbors", "time_velocities", "time_integration"]
              + [f"time_phase_{phase}" for phase in ("goals", "index", "velocities", "integrate", "resolve",
                                                     "observe", "exits", "features", "wrap",
                                                     "obstacle_motion")],
}


def test_the_exported_lists_hold_the_promised_metrics_by_scope():
    assert list(metrics.PER_SCENE) == PROMISED["scene"]
    assert list(metrics.PER_AGENT) == PROMISED["agent"]
    assert list(metrics.SERIES) == PROMISED["series"]
    assert list(metrics.TIMES) == PROMISED["timing"]


def test_documentation_gives_every_definition_from_the_table():
    doc = " ".join(metrics.__doc__.split())
    documented = re.findall(r"``(\w+)`` \(([^)]*)\) ", doc)
    assert [name for name, _ in documented] == [name for scope in SCOPE_ORDER for name in PROMISED[scope]]
    for row in metrics.TABLE:
        entry = f"``{row['name']}`` ({row['unit']}) " + " ".join(row["doc"].split())
        assert entry in doc, row["name"]
    # Definitions a reader relies on, stated here in words of their own.
    assert "``min_clearance`` (m) " in doc and "``makespan`` (s) " in doc and "``mean_speed`` (m/s) " in doc
    assert "distance travelled until arrival" in doc


def _run(sim):
    sim.add_agents(positions=[[0.0, 0.0], [4.0, 0.0]], goals=[[4.0, 0.0], [0.0, 0.0]], radius=0.4,
                   max_speed=1.0)
    return sim.run(steps=20)


def test_a_run_returns_exactly_the_table():
    trajectory = _run(vosim.Simulator(time_step=0.1))
    assert set(trajectory.metrics) == {row["name"] for row in metrics.TABLE}
    for row in metrics.TABLE:
        value = np.asarray(trajectory.metrics[row["name"]])
        expected = {"scene": 0, "agent": 1, "series": 1, "timing": 0}[row["scope"]]
        assert value.ndim == expected, row["name"]
    assert trajectory.metrics["collision_pairs_capped"].dtype == bool


def test_a_batch_run_returns_the_table_per_scene():
    batch = vosim.Batch(scenes=2, time_step=0.1)
    batch.add_agents(positions=np.zeros((2, 1, 2)), goals=np.ones((2, 1, 2)), radius=0.4, max_speed=1.0)
    trajectory = batch.run(steps=5)
    assert set(trajectory.metrics) == {row["name"] for row in metrics.TABLE}
    assert trajectory.metrics["path_length"].shape == (2, 1)
    assert len(_core.RUN_METRICS) == len(metrics.TABLE)
