"""The command line, as a user runs it."""

import subprocess
import sys

import pytest

pytest.importorskip("matplotlib")


def test_demo_writes_a_plot_and_a_summary(tmp_path):
    out = tmp_path / "circle.png"
    result = subprocess.run(
        [sys.executable, "-m", "vosim", "demo", "--agents", "100", "--out", str(out)],
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr
    for line in ("steps:", "simulated time:", "wall time:", "agents arrived:    100 of 100", "minimum clearance:"):
        assert line in result.stdout
    assert out.stat().st_size > 10_000
    assert "step" in result.stderr  # the progress bar


def test_help_explains_the_demo():
    result = subprocess.run([sys.executable, "-m", "vosim", "demo", "--help"], capture_output=True, text=True)
    assert result.returncode == 0
    assert "--out" in result.stdout and "--scenario" in result.stdout and "blocks" in result.stdout


def test_bad_arguments_give_a_clean_error(tmp_path):
    result = subprocess.run([sys.executable, "-m", "vosim", "demo", "--agents", "0", "--out", str(tmp_path / "x.png")],
                            capture_output=True, text=True)
    assert result.returncode == 2
    assert "vosim: error: n is 0; must be >= 1" in result.stderr


def _vosim(*args, timeout=300):
    return subprocess.run([sys.executable, "-m", "vosim", *args], capture_output=True, text=True, timeout=timeout)


def test_run_saves_plots_and_animates(tmp_path):
    import vosim

    out, picture, movie = tmp_path / "t.npz", tmp_path / "t.png", tmp_path / "t.gif"
    result = _vosim("run", "--scenario", "headon_pair", "--method", "orca", "--out", str(out),
                    "--plot", str(picture), "--animate", str(movie))
    assert result.returncode == 0, result.stderr
    assert "seed 0: 2 of 2 arrived" in result.stdout
    assert "step" in result.stderr  # the progress bar
    traj = vosim.load(out)
    assert traj.all_arrived and traj.method["method"] == "ORCA"
    assert traj.metadata["scenario"]["name"] == "headon_pair"
    assert picture.stat().st_size > 10_000 and movie.stat().st_size > 10_000


def test_run_several_seeds_as_a_batch(tmp_path):
    import vosim

    result = _vosim("run", "--scenario", "crossing", "--method", "HRVO", "--seeds", "3", "--steps", "30",
                    "--quiet", "--out", str(tmp_path / "b.npz"))
    assert result.returncode == 1  # 30 steps are not enough to arrive
    assert [line.split(":")[0] for line in result.stdout.splitlines() if line.startswith("seed")] == \
        ["seed 0", "seed 1", "seed 2"]
    assert result.stderr == ""
    assert vosim.load(tmp_path / "b.npz").positions.shape[1:3] == (3, 32)


@pytest.mark.parametrize("args, message", [
    (["run", "--scenario", "nowhere"], "argument --scenario: unknown scenario 'nowhere'; choose from circle"),
    (["run", "--scenario", "crossing", "--method", "boids"], "argument --method: unknown method 'boids'"),
    (["run", "--scenario", "crossing", "--seeds", "0"], "argument --seeds: must be at least 1, got 0"),
    (["run", "--scenario", "crossing", "--steps", "ten"], "argument --steps: expected a whole number, got 'ten'"),
    (["run"], "the following arguments are required: --scenario"),
    (["compare", "--scenario", "crossing", "--methods", "orca,,nope"], "argument --methods: unknown method 'nope'"),
])
def test_bad_options_are_named(args, message):
    result = _vosim(*args)
    assert result.returncode == 2
    assert message in result.stderr


def test_a_bad_output_path_is_a_clean_error(tmp_path):
    result = _vosim("run", "--scenario", "headon_pair", "--quiet", "--animate", str(tmp_path / "x.avi"))
    assert result.returncode == 2
    assert "vosim: error: --animate: cannot tell the format" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("command", ["run", "compare"])
def test_help_explains_every_option(command):
    result = _vosim(command, "--help")
    assert result.returncode == 0
    options = {"run": ["--scenario", "--method", "--steps", "--seeds", "--out", "--plot", "--color-by", "--animate",
                       "--dpi", "--quiet"],
               "compare": ["--scenario", "--methods", "--seeds", "--steps", "--out", "--plot", "--dpi", "--quiet"]}
    for option in options[command]:
        assert option in result.stdout
    assert "room_evacuation" in result.stdout


def test_version():
    import vosim

    result = _vosim("--version")
    assert result.returncode == 0 and result.stdout.strip() == f"vosim {vosim.__version__}"


@pytest.mark.parametrize("args, message", [
    (["--out", "x.csv"], "vosim: error: --out: trajectories are saved as .npz archives, got "),
    (["--animate", "x.mp4"], "vosim: error: --animate: writing .mp4 needs ffmpeg"),
])
def test_unusable_output_paths_are_refused_before_the_run(tmp_path, args, message):
    if "x.mp4" in args:
        from matplotlib import animation

        if animation.writers.is_available("ffmpeg"):
            pytest.skip("ffmpeg is installed: MP4 can be written")
    args = [args[0], str(tmp_path / args[1])]
    result = _vosim("run", "--scenario", "headon_pair", "--quiet", *args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "steps:" not in result.stdout  # nothing was run
    assert list(tmp_path.iterdir()) == []


def test_demo_of_blocks_writes_blocks_png(tmp_path):
    result = subprocess.run([sys.executable, "-m", "vosim", "demo", "--scenario", "blocks", "--quiet"],
                            capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "plot written to blocks.png" in result.stdout and (tmp_path / "blocks.png").exists()
    assert not (tmp_path / "circle.png").exists()


def test_a_stalled_run_says_so_and_names_the_option():
    result = _vosim("run", "--scenario", "crossing", "--steps", "30", "--quiet")
    assert result.returncode == 1
    assert "not every agent arrived within 30 steps" in result.stdout and "--deadlock sidestep" in result.stdout
    assert result.stderr == ""


def test_the_deadlock_hint_is_not_given_to_a_run_that_took_it():
    result = _vosim("run", "--scenario", "crossing", "--steps", "30", "--quiet", "--deadlock", "sidestep")
    assert result.returncode == 1
    assert "not every agent arrived within 30 steps" in result.stdout and "--deadlock" not in result.stdout


def test_compare_writes_csv_without_round_off_and_prints_even_columns(tmp_path):
    import csv

    out = tmp_path / "results.csv"
    result = _vosim("compare", "--scenario", "headon_pair", "--methods", "orca,force", "--seeds", "2",
                    "--quiet", "--out", str(out))
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 4
    for row in rows:
        for name, text in row.items():
            try:
                value = float(text)
            except ValueError:
                continue
            assert len(text.lstrip("-").replace(".", "").split("e")[0].lstrip("0")) <= 10, (name, text)
            assert float(f"{value:.10g}") == value
    lines = [line.split() for line in result.stdout.splitlines() if any(m in line.split() for m in ("ORCA", "ForceBased"))]
    values = [line[next(k for k, t in enumerate(line) if t in ("ORCA", "ForceBased")) + 1:] for line in lines]
    assert len(values) == 2 and len(values[0]) == len(values[1]) >= 3
    for column in zip(*values):  # arrival_rate, finished, makespan, ...
        decimals = {len(text.partition(".")[2]) for text in column if text != "-"}
        assert len(decimals) <= 1, column


def test_compare_reports_finished_seeds_and_no_partial_makespan(tmp_path):
    result = _vosim("compare", "--scenario", "headon_pair", "--methods", "orca", "--seeds", "2", "--steps", "20",
                    "--quiet")
    assert result.returncode == 0, result.stderr
    row = next(line for line in result.stdout.splitlines() if line.startswith("headon_pair"))
    assert row.split()[2:5] == ["0.000", "0.000", "-"]  # arrival_rate, finished, makespan
    assert "makespan (s) only where all seeds finished" in result.stdout
