"""Seams between parts of the API that a reader of the reference meets: a
Batch's ids in and out, words that agree with their numbers, the summary
after the repr, typos in add_agents, one unit for clearance on the command
line, and a command that lists what the others take by name."""

from __future__ import annotations

import re

import numpy as np
import pytest

import vosim
from vosim import cli, scenarios, validation
from vosim.methods import short_names


def _batch(scenes=2, agents=3):
    batch = vosim.Batch(scenes=scenes, time_step=0.1)
    starts = np.column_stack([np.arange(agents) * 3.0, np.zeros(agents)])
    ids = batch.add_agents(starts, goals=starts + (1.0, 0.0))
    return batch, ids


def test_a_batch_removes_the_ids_its_add_agents_returned():
    batch, ids = _batch()
    assert ids.shape == (2, 3)
    batch.remove_agents(ids[:, :1])                     # (B, 1): the first slot of every scene
    assert batch.num_agents == 2
    np.testing.assert_array_equal(batch.ids, ids[:, 1:])   # the later slots moved down
    np.testing.assert_array_equal(batch.positions[..., 0], [[3.0, 6.0], [3.0, 6.0]])
    batch.remove_agents(batch.ids[:, 1:])                # a slice of batch.ids, as the reference shows it
    np.testing.assert_array_equal(batch.ids, ids[:, 1:2])


def test_a_two_dimensional_removal_is_the_removal_of_its_ids_in_row_order():
    flat, ids = _batch()
    shaped, _ = _batch()
    flat.remove_agents(ids[:, [0, 2]].ravel())
    shaped.remove_agents(ids[:, [0, 2]])
    np.testing.assert_array_equal(flat.ids, shaped.ids)
    np.testing.assert_array_equal(flat.positions, shaped.positions)


def test_a_batch_still_refuses_bad_ids_whatever_their_shape():
    batch, ids = _batch()
    with pytest.raises(ValueError, match=r"ids\[1\]: no agent with id 99"):
        batch.remove_agents([[ids[0, 0], 99]])
    with pytest.raises(TypeError, match="integer agent ids"):
        batch.remove_agents(np.zeros((2, 1)))
    assert batch.num_agents == 3                         # nothing removed


def test_the_batch_docstring_says_what_removal_does():
    doc = vosim.Batch.__doc__
    assert "later slots move down" in doc and "inactive" in doc
    batch, ids = _batch()
    batch.remove_agents([ids[0, 0]])                     # from one scene only: an inactive slot there
    assert batch.num_agents == 3 and not batch.active[0, 0] and batch.ids[0, 0] == -1


def test_counts_agree_with_their_nouns():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0]], goals=[[0.05, 0.0]])
    traj = sim.run(1)
    assert repr(traj).startswith("Trajectory(ORCA, 1 agent, 1 step = 0.1 s, 1/1 arrived, 2 frames)")
    batch = vosim.Batch(scenes=1, time_step=0.1)
    batch.add_agents([[0.0, 0.0], [5.0, 0.0]])
    assert "1 scene x 2 agents, 3 steps" in repr(batch.run(3))
    unfinished = vosim.Simulator(time_step=0.1)
    unfinished.add_agents([[0.0, 0.0]], goals=[[50.0, 0.0]])
    assert "1 goal-seeking agent did not arrive within 1 step;" in unfinished.run(1).summary()


def test_the_summary_does_not_repeat_the_repr():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[-2.0, 0.0], [2.0, 0.1]], goals=[[2.0, 0.0], [-2.0, 0.1]])
    traj = sim.run(100, until_arrived=True)
    text = traj.summary()
    assert repr(traj) not in text
    assert text.splitlines()[0] == "Run summary"
    assert f"  agents             2 agents, {len(traj)} frames recorded" in text


def test_a_misspelt_add_agents_argument_names_the_close_ones():
    sim = vosim.Simulator()
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'goal'; did you mean 'goals'"):
        sim.add_agents([[0.0, 0.0]], goal=[[1.0, 0.0]])
    with pytest.raises(TypeError, match=r"'max_sped'; did you mean 'max_speed'"):
        vosim.Batch(scenes=2).add_agents([[0.0, 0.0]], max_sped=2.0)
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'zzz'$"):
        sim.add_agents([[0.0, 0.0]], zzz=1)
    assert sim.num_agents == 0


def test_the_command_line_gives_clearance_in_metres_everywhere(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    assert cli.main(["run", "--scenario", "headon_pair", "--quiet", "--deadlock", "sidestep"]) == 0
    run = capsys.readouterr().out
    assert re.search(r"minimum clearance [+-]\d+\.\d{4} m between agents \(negative: overlap\)", run), run
    cli.main(["demo", "--scenario", "blocks", "--max-steps", "5", "--quiet", "--out", str(tmp_path / "b.png")])
    demo = capsys.readouterr().out
    assert re.search(r"minimum clearance: [+-]\d+\.\d{4} m between agents \(negative: overlap\)", demo), demo
    assert re.search(r"[+-]\d+\.\d{4} m to obstacles", demo), demo


def test_vosim_list_names_every_scenario_method_and_test(capsys):
    assert cli.main(["list"]) == 0
    text = capsys.readouterr().out
    names = {line.split()[0] for line in text.splitlines() if line.startswith("  ")}
    assert set(scenarios.SCENARIOS) | set(scenarios.SCENARIOS_3D) <= names
    assert set(short_names()) <= names
    assert set(validation.TESTS) <= names
    assert "crossing with agents of two kinds" in text and ":func:" not in text   # docstrings as plain text
    assert cli.main(["list", "methods"]) == 0
    methods = capsys.readouterr().out
    assert "csm" in methods and "CollisionFreeSpeed" in methods and "bottleneck" not in methods
    with pytest.raises(SystemExit):
        cli.main(["list", "things"])
