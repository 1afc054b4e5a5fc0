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
