"""Command-line arguments are read as what they are and refused before anything runs."""

import dataclasses

import numpy as np
import pytest

import vosim
from vosim import cli

pytest.importorskip("matplotlib")


def _as_text(value) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def test_every_setting_of_every_method_reads_back_from_its_text():
    # Each setting written as a user writes it (its default) comes back as the same value and type:
    # integers as integers (seed=3 was read as 3.0 and refused), flags as flags.
    for name in vosim.methods.short_names():
        method = vosim.methods.method_from_name(name)
        for field in dataclasses.fields(method):
            value = getattr(method, field.name)
            parsed = cli._method(f"{name}:{field.name}={_as_text(value)}")
            assert getattr(parsed, field.name) == value, (name, field.name)
            assert type(getattr(parsed, field.name)) is type(value), (name, field.name)


def test_integer_settings_are_integers_on_the_command_line(capsys):
    assert cli._method("orca:seed=3").seed == 3
    assert cli._method("vo:samples=50:seed=7") == vosim.VO(samples=50, seed=7)
    assert cli._method("hrvo:truncate=false").truncate is False
    assert cli.main(["validate", "--methods", "orca:seed=3", "--tests", "1"]) == 0
    assert "ORCA" in capsys.readouterr().out
    for text, message in [("orca:seed=3.5", "seed: expected an integer, got '3.5'"),
                          ("orca:time_gap=fast", "time_gap: expected a real number, got 'fast'"),
                          ("hrvo:truncate=maybe", "truncate: expected true or false, got 'maybe'"),
                          ("orca:truncate=1", "ORCA has no setting 'truncate'")]:
        with pytest.raises(SystemExit):
            cli.main(["validate", "--methods", text, "--tests", "1"])
        assert message in capsys.readouterr().err


def test_run_takes_an_integer_setting(tmp_path):
    assert cli.main(["run", "--scenario", "headon_pair", "--method", "orca:seed=3", "--steps", "5", "--quiet"]) == 1


def _no_test_may_run(monkeypatch):
    def refuse(*args, **kwargs):
        raise AssertionError("a test ran before the arguments were checked")

    monkeypatch.setattr("vosim.validation.run_all", refuse)


def test_validate_refuses_a_plot_folder_that_cannot_be_written_before_any_test_runs(tmp_path, monkeypatch, capsys):
    _no_test_may_run(monkeypatch)
    a_file = tmp_path / "figures.png"
    a_file.write_bytes(b"not a folder")
    assert cli.main(["validate", "--tests", "1", "--plot", str(a_file)]) == 2
    assert f"--plot: {str(a_file)!r} is a file, not a folder" in capsys.readouterr().err
    assert cli.main(["validate", "--tests", "1", "--plot", str(a_file / "inside")]) == 2
    assert "--plot: cannot make the folder" in capsys.readouterr().err
    assert a_file.read_bytes() == b"not a folder"


def test_run_and_compare_refuse_unusable_figure_paths_before_running(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("vosim.comparison.compare", lambda *a, **k: pytest.fail("compare ran"))
    a_file = tmp_path / "f"
    a_file.write_text("")
    for arguments, message in [
        (["run", "--scenario", "headon_pair", "--plot", str(tmp_path / "paths.xyz")],
         "--plot: cannot tell the image format of"),
        (["run", "--scenario", "headon_pair", "--plot", str(a_file / "paths.png")], "is a file, not a folder"),
        (["run", "--scenario", "headon_pair", "--plot", str(tmp_path / "missing" / "p.png")], "does not exist"),
        (["compare", "--scenario", "headon_pair", "--methods", "orca", "--plot", str(a_file / "r.png")],
         "--plot: "),
        (["demo", "--out", str(a_file / "circle.png")], "--out: "),
    ]:
        assert cli.main(arguments) == 2
        err = capsys.readouterr().err
        assert message in err, (arguments, err)


@pytest.mark.parametrize("command", [["validate"], ["run", "--scenario", "headon_pair"], ["demo"],
                                     ["compare", "--scenario", "headon_pair"]])
def test_dpi_has_a_range(command, capsys):
    with pytest.raises(SystemExit):
        cli.build_parser().parse_args([*command, "--dpi", "100000"])
    assert "argument --dpi: 100000 is outside 1 to 1200 dots per inch" in capsys.readouterr().err
    assert cli.build_parser().parse_args([*command, "--dpi", "1200"]).dpi == 1200


def test_animations_refuse_a_canvas_of_gigabytes(tmp_path):
    sim = vosim.Simulator()
    sim.add_agents([[0.0, 0.0]], goals=[[1.0, 0.0]])
    traj = sim.run(3)
    sim3d = vosim.Simulator(dimensions=3)
    sim3d.add_agents([[0.0, 0.0, 0.0]], goals=[[1.0, 0.0, 0.0]])
    traj3d = sim3d.run(3)
    with pytest.raises(ValueError, match=r"dpi is 100000\.0; must be <= 1200"):
        vosim.plot.animate(traj, dpi=100_000)
    with pytest.raises(ValueError, match=r"figsize is \(100, 100\) inches at 1200 dpi"):
        vosim.plot.animate(traj, dpi=1200, figsize=(100, 100))
    with pytest.raises(ValueError, match=r"figsize\[1\] is -1\.0"):
        vosim.plot.animate3d(traj3d, figsize=(5, -1))
    with pytest.raises(TypeError, match="dpi: expected a real number"):
        vosim.plot.animate(traj, dpi="high")
    assert np.isfinite(traj.positions).all()


def test_run_sets_the_agent_count_of_a_scenario_that_takes_one(tmp_path, capsys):
    out = tmp_path / "run.npz"
    cli.main(["run", "--scenario", "circle", "--agents", "12", "--steps", "3", "--quiet", "--out", str(out)])
    assert vosim.load(out).positions.shape[1] == 12
    cli.main(["run", "--scenario", "crossing", "--agents", "8", "--steps", "3", "--quiet", "--out", str(out)])
    assert vosim.load(out).positions.shape[1] == 8  # two groups of 4


@pytest.mark.parametrize("argv, message", [
    (["run", "--scenario", "blocks", "--agents", "10"], "--agents is 10; scenario blocks has a fixed set of agents"),
    (["run", "--scenario", "crossing", "--agents", "9"], "--agents is 9; scenario crossing has 2 groups"),
])
def test_run_refuses_an_agent_count_the_scenario_cannot_take(argv, message, capsys):
    assert cli.main(argv + ["--steps", "2", "--quiet"]) == 2
    assert message in capsys.readouterr().err


def test_validate_quiet_prints_the_table_alone(capsys):
    assert cli.main(["validate", "--methods", "orca", "--tests", "1", "--seeds", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "RiMEA 1" in out and "criteria:" not in out and "verdicts:" not in out
    assert cli.main(["validate", "--methods", "orca", "--tests", "1", "--seeds", "1"]) == 0
    assert "criteria:" in capsys.readouterr().out  # what --quiet leaves out


def test_validate_takes_methods_as_compare_does_and_still_reads_method(capsys):
    assert cli.main(["validate", "--method", "orca", "--tests", "1", "--seeds", "1", "--quiet"]) == 0
    captured = capsys.readouterr()
    assert "--method is deprecated; use --methods" in captured.err and "ORCA" in captured.out
