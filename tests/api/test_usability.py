"""What a new user meets first: method names, attribute typos, per-scene
columns, lazy submodules, run summaries and warnings, honest metrics and
summaries, progress bars, saving and tables."""

from __future__ import annotations

import io
import subprocess
import sys
import warnings

import numpy as np
import pytest

import vosim
from vosim._progress import _PlainBar


def pair(method=None) -> vosim.Simulator:
    sim = vosim.Simulator(time_step=0.25, method=method)
    sim.add_agents([[-5.0, 0.0], [5.0, 0.0]], goals=[[5.0, 0.0], [-5.0, 0.0]], radius=0.5)
    return sim


# --------------------------------------------------------------- method names
@pytest.mark.parametrize("name, cls", [("orca", vosim.ORCA), ("HRVO", vosim.HRVO), (" adaptive ", vosim.AdaptiveSampling),
                                       ("GridSampling", vosim.GridSampling), ("force", vosim.ForceBased)])
def test_methods_by_name(name, cls):
    assert vosim.Simulator(method=name).method == cls()
    batch = vosim.Batch(2, method=name)
    assert batch.method == cls()
    batch.method = "rvo"
    assert batch.method == vosim.RVO()


def test_unknown_method_name():
    with pytest.raises(ValueError, match="method: unknown method .boids.; choose from adaptive, adaptivesampling, avo, cfsm, collisionfreespeed, csm, force"):
        vosim.Simulator(method="boids")


# ----------------------------------------------------------- attribute typos
def test_a_typo_is_refused_with_close_matches():
    sim = pair()
    max_speed = sim.max_speed.copy()
    with pytest.raises(AttributeError, match="Simulator has no attribute 'max_sped' to assign; did you mean 'max_speed'"):
        sim.max_sped = 3
    with pytest.raises(AttributeError, match="Batch has no attribute 'raduis'.*'radius'"):
        vosim.Batch(2).raduis = 1.0
    with pytest.raises(AttributeError, match="no attribute 'colour' to assign$"):
        sim.colour = "red"
    np.testing.assert_array_equal(sim.max_speed, max_speed)  # nothing changed


def test_fields_private_and_subclass_attributes_still_assign():
    sim = pair()
    sim.max_speed = 3.0
    sim.time_step = 0.1
    sim._note = "private"
    assert sim._note == "private" and np.all(sim.max_speed == 3.0)

    class Tagged(vosim.Simulator):
        label = ""

    tagged = Tagged()
    tagged.label = "mine"
    assert tagged.label == "mine"


# ------------------------------------------------------ per-scene broadcasts
def test_a_per_scene_column_broadcasts_over_the_agents():
    batch = vosim.Batch(scenes=3, time_step=0.1)
    starts = np.arange(3 * 4 * 2, dtype=float).reshape(3, 4, 2) * 3
    taus = np.array([1.0, 2.0, 5.0])
    batch.add_agents(starts, goals=starts + 1, time_horizon=taus[:, None], velocities=np.ones((3, 1, 2)))
    np.testing.assert_array_equal(batch.time_horizon, np.repeat(taus[:, None], 4, axis=1))
    np.testing.assert_array_equal(batch.velocities, 1.0)
    batch.radius = np.array([[0.5], [1.0], [1.5]])
    np.testing.assert_array_equal(batch.radius[:, 3], [0.5, 1.0, 1.5])


def test_a_wrong_column_names_the_accepted_shapes():
    batch = vosim.Batch(scenes=3)
    with pytest.raises(ValueError, match=r"time_horizon: expected a scalar or \(4,\) or \(3, 4\) or \(3, 1\), "
                                         r"got shape \(3, 2\)"):
        batch.add_agents(np.zeros((4, 2)) + np.arange(4)[:, None] * 4, time_horizon=np.ones((3, 2)))


# ------------------------------------------------------------ lazy imports
def test_submodules_without_importing_them_and_numpy_only_at_import():
    code = ("import sys, vosim; assert 'matplotlib' not in sys.modules; "
            "assert callable(vosim.plot.velocity_space) and callable(vosim.scenarios.crossing); "
            "assert 'plot' in dir(vosim); print('ok')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "ok", done.stderr
    with pytest.raises(AttributeError, match="module 'vosim' has no attribute 'plots'"):
        vosim.plots


# ------------------------------------------------------- summaries, warnings
def test_repr_is_one_line_and_summary_tells_the_run():
    traj = pair(vosim.ORCA(deadlock="sidestep")).run(400, until_arrived=True)
    assert repr(traj) == f"Trajectory(ORCA, 2 agents, {traj.steps_run} steps = {traj.steps_run * 0.25:g} s, " \
                         f"2/2 arrived, {len(traj)} frames)"
    text = traj.summary()
    for part in ("arrived            2 of 2 goal-seeking agents, the last after", "collisions         0 pairs",
                 "min clearance      +", "stalled agents", "fallbacks"):
        assert part in text
    assert "warning" not in text


def test_an_unfinished_run_warns_and_its_summary_says_so():
    sim = pair()
    with pytest.warns(RuntimeWarning, match=r"run\(until_arrived=True\) ended after 200 steps with 2 of 2 "
                                            r"goal-seeking agents that did not arrive \(2 stalled\).*"
                                            r"deadlock='sidestep'"):
        traj = sim.run(200, until_arrived=True)
    assert "0/2 arrived" in repr(traj)
    assert "warning            2 goal-seeking agents did not arrive within 200 steps" in traj.summary()


def test_no_warning_without_until_arrived_or_when_arrived():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pair().run(10)
        pair(vosim.ORCA(perturbation=0.01)).run(400, until_arrived=True)


def test_summary_of_a_batch_and_without_metrics():
    batch = vosim.Batch(scenes=2, time_step=0.25)
    batch.add_agents([[-5.0, 0.0], [5.0, 0.0]], goals=[[5.0, 0.0], [-5.0, 0.0]], radius=0.5)
    traj = batch.run(5, metrics=False)
    assert repr(traj).startswith("Trajectory(ORCA, 2 scenes x 2 agents, 5 steps")
    assert "not measured" in traj.summary()


# ------------------------------------------------------------ metrics honesty
def test_mean_speed_is_the_speed_until_arrival():
    """Scene 0 arrives after 5 m; scene 1 walks 40 m. Scene 0's speed is not
    diluted by the time it waits for scene 1."""
    batch = vosim.Batch(scenes=2, time_step=0.1)
    goals = np.array([[[5.0, 0.0]], [[40.0, 0.0]]])
    batch.add_agents(np.zeros((2, 1, 2)), goals=goals, max_speed=1.0, pref_speed=1.0, arrival_radius=0.05)
    traj = batch.run(1000, until_arrived=True)
    m = traj.metrics
    steps = m["arrival_step"][:, 0]
    assert steps[0] < steps[1] / 4
    np.testing.assert_allclose(m["agent_mean_speed"][0, 0], m["path_length"][0, 0] / (steps[0] * 0.1), rtol=0.02)  # path_length goes on to the goal
    assert m["mean_speed"][0] > 0.6 and m["mean_speed"][1] > 0.9
    assert m["path_length"][0, 0] / (traj.steps_run * 0.1) < 0.2  # what the whole run's duration gave


def test_compare_takes_a_number_of_seeds_and_summarize_never_averages_partial_makespans():
    pytest.importorskip("pandas")
    from vosim.comparison import summarize

    table = vosim.compare([vosim.ORCA()], ["headon_pair"], seeds=2, steps=20)
    assert table["seed"].tolist() == [0, 1]
    table.loc[0, "makespan"] = 5.0  # as if seed 0 had finished and seed 1 not
    summary = summarize(table)
    assert summary["finished"].iloc[0] == 0.5 and np.isnan(summary["makespan"].iloc[0])
    table.loc[1, "makespan"] = 7.0
    assert summarize(table)["makespan"].iloc[0] == 6.0
    with pytest.raises(TypeError, match="seeds: expected a number of seeds K"):
        vosim.compare([vosim.ORCA()], ["headon_pair"], seeds="3")
    with pytest.raises(ValueError, match="seeds is 0"):
        vosim.compare([vosim.ORCA()], ["headon_pair"], seeds=0)


# ----------------------------------------------------------------- progress
def test_a_bar_that_stops_early_keeps_its_total_and_says_why():
    stream = io.StringIO()
    bar = _PlainBar(1000, stream=stream, label="ORCA on crossing")
    bar.update(10)
    bar.close(347, note="all arrived")
    last = stream.getvalue().split("\r")[-1]
    assert last.startswith("ORCA on crossing: [") and "347/1000 steps" in last and "(all arrived)" in last


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_bar_redraws_one_line_on_a_terminal_and_writes_whole_lines_to_a_log(monkeypatch):
    from vosim import _progress

    clock = iter(range(0, 10_000, 3))  # 3 s between calls
    monkeypatch.setattr(_progress.time, "perf_counter", lambda: float(next(clock)))
    terminal, log = _Terminal(), io.StringIO()
    for stream in (terminal, log):
        bar = _PlainBar(100, stream=stream, label="run")
        for done in range(10, 100, 10):
            bar.update(done)
        bar.close(100)
    # A terminal: one line, redrawn in place on every update (at most five times a second), then a newline.
    assert terminal.getvalue().count("\n") == 1 and terminal.getvalue().count("\r") == 10
    # A log has no way back: no carriage returns, a whole line at most every 10 s, and the last line.
    lines = log.getvalue().splitlines()
    assert "\r" not in log.getvalue() and log.getvalue().endswith("\n")
    assert len(lines) == 3 and lines[-1].startswith("run: [") and "100/100 steps" in lines[-1]


def test_a_labelled_progress_bar_in_run(capsys):
    pair(vosim.ORCA(perturbation=0.01)).run(400, until_arrived=True, progress="head-on")
    err = capsys.readouterr().err
    assert "head-on" in err and "/400" in err


# ------------------------------------------------------- files and tables
@pytest.fixture
def crossing_run():
    from vosim import scenarios

    scenario = scenarios.crossing(4, seed=1)
    return scenario.build().run(scenario.max_steps, until_arrived=True)


def test_save_refuses_other_suffixes_and_adds_npz_to_bare_names(tmp_path, crossing_run):
    with pytest.raises(ValueError, match="path: trajectories are saved as .npz archives, got .*x.csv"):
        crossing_run.save(tmp_path / "x.csv")
    assert list(tmp_path.iterdir()) == []
    assert crossing_run.save(tmp_path / "run") == tmp_path / "run.npz"


def test_save_uncompressed_and_subsampled(tmp_path, crossing_run):
    plain = vosim.load(crossing_run.save(tmp_path / "plain.npz", compress=False))
    np.testing.assert_array_equal(plain.positions, crossing_run.positions)
    thin = vosim.load(crossing_run.save(tmp_path / "thin.npz", every=10))
    count = len(crossing_run)
    expected = np.unique(np.r_[np.arange(0, count, 10), count - 1])
    np.testing.assert_array_equal(thin.steps, crossing_run.steps[expected])
    np.testing.assert_array_equal(thin.positions, crossing_run.positions[expected])
    assert len(thin.metrics["min_clearance_series"]) == len(expected)
    np.testing.assert_array_equal(thin.metrics["arrival_step"], crossing_run.metrics["arrival_step"])
    with pytest.raises(ValueError, match="every is 0"):
        crossing_run.subsample(0)


def test_to_dataframe_picks_frames_and_agents(crossing_run):
    pytest.importorskip("pandas")
    full = crossing_run.to_dataframe()
    some = crossing_run.to_dataframe(frames=slice(None, None, 5), ids=crossing_run.ids[:3])
    assert set(some["id"]) == set(crossing_run.ids[:3].tolist())
    assert set(some["frame"]) == set(crossing_run.steps[::5].tolist())
    assert len(some) == 3 * len(crossing_run.steps[::5])
    expected = full[full["id"].isin(crossing_run.ids[:3]) & full["frame"].isin(crossing_run.steps[::5])]
    np.testing.assert_array_equal(some[["x", "y"]].to_numpy(), expected[["x", "y"]].to_numpy())
    assert len(crossing_run.to_dataframe(frames=[0, -1])) == 2 * len(crossing_run.ids)
    with pytest.raises(ValueError, match=r"ids\[1\]: no agent with id 999"):
        crossing_run.to_dataframe(ids=[0, 999])
    with pytest.raises(ValueError, match=r"frames\[0\] is 100000; the trajectory has"):
        crossing_run.to_dataframe(frames=[100000])
    with pytest.raises(TypeError, match="frames: expected a slice or a 1-D array of frame indices"):
        crossing_run.to_dataframe(frames=[0.5])


def test_force_based_agents_stop_at_their_goals():
    """Force-based agents crowding their goals used to push each other off them and drift: now
    each stands at its goal once there, so the run ends when the last arrives, without a warning."""
    from vosim import scenarios

    scenario = scenarios.crossing(10, seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        traj = scenario.build(vosim.ForceBased()).run(scenario.max_steps, until_arrived=True)
    assert traj.all_arrived and "20/20 arrived" in repr(traj)
    assert traj.steps_run < scenario.max_steps
    assert traj.steps_run == int(np.max(traj.metrics["arrival_step"]))  # stopped as the last arrived
    assert np.all(traj.arrived_per_frame()[-1][np.asarray(traj.has_goal)])  # and every one is still there
    assert "left goal" not in traj.summary()


def _pushed_off_scene():
    """Agent 0 sits on its goal (arrival radius 5 cm); agent 1's goal is the same spot, and ORCA's
    reciprocity pushes agent 0 off it for good."""
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0], [-4.0, 0.0]], goals=[[0.0, 0.0], [0.0, 0.0]], radius=0.5, max_speed=1.0,
                   pref_speed=1.0, time_horizon=2.0, arrival_radius=[0.05, 1.5])
    return sim


def test_arrival_is_the_first_step_at_the_goal_and_stays_counted():
    """One definition everywhere: all_arrived, until_arrived, arrival_step, repr, summary; an agent
    pushed off its goal after arriving stays arrived and is reported as having left it."""
    sim = _pushed_off_scene()
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        traj = sim.run(500, until_arrived=True)
    steps = traj.metrics["arrival_step"]
    assert steps[0] == 1 and steps[1] > 1
    assert traj.steps_run == steps[1]  # until_arrived stopped as agent 1 arrived
    assert traj.all_arrived and "2/2 arrived" in repr(traj)
    assert not sim.arrived[0]  # agent 0 is off its goal now
    summary = traj.summary()
    assert "arrived            2 of 2 goal-seeking agents" in summary
    assert "left goal          1 of the agents that arrived" in summary
    assert traj.metrics["arrival_rate"] == 1.0 and np.isfinite(traj.metrics["makespan"])


def test_without_metrics_all_arrived_is_the_same():
    traj = _pushed_off_scene().run(500, until_arrived=True, metrics=False)
    assert traj.all_arrived and "2/2 arrived" in repr(traj)


def test_peak_angular_speed_is_nan_for_holonomic_agents():
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents([[0.0, 0.0], [0.0, 3.0]], goals=[[-3.0, 0.0], [0.0, 6.0]], radius=0.3, max_speed=1.0,
                   kinematics=["holonomic", "differential_drive"], wheel_track=0.4)
    sim.velocities[0] = [1.0, 0.0]  # agent 0 reverses: its heading turns by pi in one step
    sim.headings[:] = 0.0
    traj = sim.run(40)  # agent 1, facing +x, turns to its goal in +y
    peaks = traj.metrics["peak_angular_speed"]
    assert np.isnan(peaks[0]) and np.isfinite(peaks[1]) and peaks[1] > 0


def test_import_loads_the_comparison_sweeps_and_version_only_when_used():
    code = ("import sys, vosim\n"
            "late = ('vosim.comparison', 'vosim.sweeps', 'vosim.scenarios', 'vosim._version', 'importlib.metadata')\n"
            "assert not [m for m in late if m in sys.modules], [m for m in late if m in sys.modules]\n"
            "from vosim import compare, sweep\n"
            "assert compare.__module__ == 'vosim.comparison' and sweep.__module__ == 'vosim.sweeps'\n"
            "assert vosim.__version__ and 'compare' in dir(vosim) and '__version__' in dir(vosim)\n"
            "assert 'compare' in vars(vosim)  # kept after the first use\n"
            "print('ok')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "ok", done.stderr


def test_import_and_compare_leave_the_xml_parser_and_difflib_until_needed():
    # Only reading a SteerSuite file needs the XML parser, only a misspelt
    # name difflib: neither is imported with vosim or its comparison.
    code = ("import sys, vosim, vosim.comparison, vosim.scenarios\n"
            "late = ('xml.etree.ElementTree', 'difflib')\n"
            "assert not [m for m in late if m in sys.modules], [m for m in late if m in sys.modules]\n"
            "sim = vosim.Simulator()\n"
            "try:\n"
            "    sim.agent_radius = 1.0\n"
            "except AttributeError as error:\n"
            "    assert 'did you mean' in str(error), error\n"
            "print('ok')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "ok", done.stderr
