"""The engine's metric table is the one list of run metrics: the dict a run
returns, the names vosim.metrics exports and its documented definitions all
follow it."""

import re

import numpy as np

import vosim
from vosim import _core, metrics

SCOPES = {"scene", "agent", "series", "timing"}


def test_table_rows_are_complete_and_unique():
    names = [row["name"] for row in metrics.TABLE]
    assert len(names) == len(set(names))
    for row in metrics.TABLE:
        assert row["scope"] in SCOPES, row
        assert row["unit"] and row["doc"].strip(), row


def test_exported_name_lists_follow_the_table():
    table = [row["name"] for row in metrics.TABLE]
    assert list(metrics.PER_SCENE + metrics.PER_AGENT + metrics.SERIES + metrics.TIMES) == table


def test_documentation_gives_every_definition_from_the_table():
    doc = " ".join(metrics.__doc__.split())
    documented = re.findall(r"``(\w+)`` \(([^)]*)\) ", doc)
    assert [name for name, _ in documented] == [row["name"] for row in metrics.TABLE]
    for row in metrics.TABLE:
        entry = f"``{row['name']}`` ({row['unit']}) " + " ".join(row["doc"].split())
        assert entry in doc, row["name"]


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
