"""The command line and vosim.compare() on the 3D scenarios."""

import functools
import subprocess
import sys

import numpy as np
import pytest

import vosim
from vosim import scenarios
from vosim.cli import main


def _vosim(*args, timeout=300):
    return subprocess.run([sys.executable, "-m", "vosim", *args], capture_output=True, text=True, timeout=timeout)


def test_run_of_a_3d_scenario_saves_a_3d_trajectory_and_draws_views(tmp_path):
    pytest.importorskip("matplotlib")
    out, picture = tmp_path / "g.npz", tmp_path / "g.png"
    result = _vosim("run", "--scenario", "swarm_gate", "--out", str(out), "--plot", str(picture))
    assert result.returncode == 0, result.stderr
    assert "seed 0: 48 of 48 arrived" in result.stdout
    traj = vosim.load(out)
    assert traj.positions.shape[1:] == (48, 3) and traj.all_arrived
    assert traj.metadata["scenario"]["dimensions"] == 3
    assert picture.stat().st_size > 10_000


def test_run_animates_a_3d_scenario_in_3d_axes(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from vosim import plot

    drawn = {}
    animate3d = plot.animate3d

    def spy(traj, **options):
        drawn.update(options)
        return animate3d(traj, **options)

    monkeypatch.setattr(plot, "animate3d", spy)
    movie = tmp_path / "g.gif"
    assert main(["run", "--scenario", "swarm_gate", "--steps", "6", "--quiet", "--animate", str(movie)]) == 1
    assert drawn["path"] == str(movie) and len(drawn["obstacles"].obstacle_shapes) == 5
    assert movie.stat().st_size > 10_000


def test_run_draws_the_top_and_side_views_with_the_shapes(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from vosim import plot

    drawn = {}
    projections = plot.projections

    def spy(traj, **options):
        drawn.update(options, positions=traj.positions.shape)
        return projections(traj, **options)

    monkeypatch.setattr(plot, "projections", spy)
    code = main(["run", "--scenario", "random3d", "--steps", "20", "--quiet", "--plot", str(tmp_path / "r.png")])
    assert code == 1  # 20 steps are not enough to arrive
    assert drawn["positions"][1:] == (40, 3)
    assert len(drawn["obstacles"].obstacle_shapes) == len(scenarios.random3d().obstacles)  # the simulator's shapes


def test_run_of_several_seeds_of_a_3d_scenario_is_one_batch(tmp_path):
    result = _vosim("run", "--scenario", "layers_crossing", "--method", "force", "--seeds", "2", "--steps", "15",
                    "--quiet", "--out", str(tmp_path / "b.npz"))
    assert result.returncode == 1
    assert [line.split(":")[0] for line in result.stdout.splitlines() if line.startswith("seed")] == \
        ["seed 0", "seed 1"]
    assert vosim.load(tmp_path / "b.npz").positions.shape[1:] == (2, 96, 3)


def test_the_fixed_sphere_runs_once(capsys):
    assert main(["run", "--scenario", "sphere", "--steps", "2", "--quiet"]) == 1
    assert "sphere, 812 agents, 1 seed(s), ORCA, time step 0.125 s" in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["run", "--scenario", "random3d", "--method", "hrvo"],
     "vosim: error: --method: method HRVO does not support dimensions=3 (HRVO's passing sides are plane geometry); "
     "scenario random3d is 3D: choose from orca, vo, rvo, force"),
    (["run", "--scenario", "swarm_gate", "--method", "avo"], "--method: method AVO does not support dimensions=3"),
    (["run", "--scenario", "swarm_gate", "--color-by", "time"],
     "vosim: error: --color-by: the views of 3D scenario swarm_gate colour the paths by agent"),
    (["run", "--scenario", "sphere", "--seeds", "3"],
     "vosim: error: --seeds is 3; scenario sphere has one fixed layout (it takes no seed): use --seeds 1"),
    (["compare", "--scenario", "crossing", "--scenario", "swarm_gate", "--methods", "orca,grid"],
     "vosim: error: --methods: method GridSampling does not support dimensions=3 (it works in the plane only); "
     "scenario swarm_gate is 3D"),
])
def test_planar_methods_and_bad_options_are_refused_before_running(args, message, capsys):
    assert main(args) == 2
    captured = capsys.readouterr()
    assert message in captured.err
    assert "steps:" not in captured.out and "arrival_rate" not in captured.out  # nothing ran


def test_unknown_scenarios_name_the_3d_ones_too():
    result = _vosim("run", "--scenario", "cube")
    assert result.returncode == 2
    assert "unknown scenario 'cube'; choose from circle" in result.stderr and "swarm_gate" in result.stderr
    assert "random3d" in _vosim("compare", "--help").stdout


def test_compare_on_a_3d_scenario_leaves_the_planar_defaults_out(capsys, tmp_path):
    pd = pytest.importorskip("pandas")
    out = tmp_path / "r.csv"
    assert main(["compare", "--scenario", "swarm_gate", "--seeds", "2", "--steps", "30", "--quiet",
                 "--out", str(out)]) == 0
    assert "leaving out HRVO, AdaptiveSampling: planar only, and a scenario is 3D" in capsys.readouterr().out
    table = pd.read_csv(out)
    assert table["method"].drop_duplicates().tolist() == ["ORCA", "RVO", "ForceBased"]
    assert table["seed"].tolist() == [0, 1] * 3 and (table["agents"] == 48).all()


def test_compare_runs_3d_scenes_as_batches():
    pd = pytest.importorskip("pandas")
    gate = functools.partial(scenarios.swarm_gate, 4)
    table = vosim.compare({"ORCA": vosim.ORCA(), "RVO": vosim.RVO(samples=40)}, [gate, "crossing"],
                          seeds=[1, 3], steps=300)
    assert len(table) == 2 * 2 * 2
    gate_rows = table[table["scenario"] == "swarm_gate"]
    assert set(gate_rows["agents"]) == {8}
    assert (gate_rows[gate_rows["method"] == "ORCA"]["arrival_rate"] == 1.0).all()
    # a row holds what the batch of its seeds measured for its scene
    traj = scenarios.build_batch([gate(seed=s) for s in (1, 3)], method=vosim.ORCA()).run(
        300, record_every=300, until_arrived=True)
    row = gate_rows[(gate_rows["method"] == "ORCA") & (gate_rows["seed"] == 3)].iloc[0]
    for name in ("makespan", "mean_path_length", "collision_agent_steps", "min_clearance"):
        assert row[name] == pytest.approx(np.asarray(traj.metrics[name])[1], nan_ok=True), name
    assert isinstance(table, pd.DataFrame)


def test_compare_of_the_fixed_sphere_runs_it_once():
    pytest.importorskip("pandas")
    table = vosim.compare([vosim.ORCA()], ["sphere"], seeds=3, steps=2)
    assert len(table) == 1 and table["seed"].isna().all() and table["agents"].iloc[0] == 812


@pytest.mark.parametrize("method, reason", [
    (vosim.HRVO(), "method HRVO does not support dimensions=3"),
    (vosim.VO(selection="geometric"), "method VO does not support dimensions=3 (in 3D only selection='sampling')"),
    (vosim.AdaptiveSampling(), "method AdaptiveSampling does not support dimensions=3"),
])
def test_compare_refuses_planar_methods_on_3d_scenarios_before_running(method, reason, monkeypatch):
    pytest.importorskip("pandas")
    import vosim.comparison

    def never(*args, **kwargs):
        raise AssertionError("a cell ran")

    monkeypatch.setattr(vosim.comparison, "run_cell", never)
    with pytest.raises(ValueError, match=r"methods\['planar'\]: " + reason.replace("(", r"\(").replace(")", r"\)")
                       + r".*; scenarios\[1\] \('random3d'\) is 3D"):
        vosim.compare({"ORCA": vosim.ORCA(), "planar": method}, ["crossing", "random3d"], seeds=1)


def test_unsupported_names_the_engines_reason_or_none():
    from vosim.comparison import unsupported

    assert unsupported(vosim.ORCA(), 3) is None and unsupported(vosim.HRVO(), 2) is None
    assert unsupported(vosim.GridSampling(), 3) == "method GridSampling does not support dimensions=3 " \
                                                   "(it works in the plane only)"
