"""The benchmark scripts run end to end (tiny sizes), so that they cannot rot."""

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
HAVE_PYRVO = importlib.util.find_spec("pyrvo") is not None

# script, tiny arguments, whether it compares with pyrvo, text its output must hold
CASES = [
    ("bench_orca.py", ["--sizes", "64", "--steps", "2", "--warmup", "1"], True, "1 thread / pyrvo"),
    ("bench_metrics.py", ["--sizes", "64", "--steps", "5", "--repeats", "1"], False, "overhead"),
    ("bench_memory.py", ["--n", "2000", "--steps", "1"], True, "bytes/agent; target"),
    ("bench_python_overhead.py", ["--n", "64", "--steps", "10", "--repeats", "1"], False, "overhead of run()"),
    ("bench_batch.py", ["--scenes", "6", "--agents", "4", "--steps", "2", "--warmup", "1"], True,
     "per batched step"),
    ("bench_obstacles.py", ["--copies", "1", "2", "--advance", "5", "--inner", "2", "--steps", "2",
                            "--warmup", "1", "--maze-vertices", "300", "--maze-agents", "50"], False,
     "(target < 1.0 s)"),
    ("bench_methods.py", ["--sizes", "64", "--steps", "1", "--warmup", "0"], False, "GridSampling"),
    ("bench_navigation.py", ["--pillars", "5", "--agents", "20"], False, "us/agent"),
    ("deadlock_options.py", ["--seeds", "1", "--scenarios", "headon_pair"], False, "| headon_pair | sidestep | 100 %"),
    ("bench_kinematics.py", ["--sizes", "64", "--steps", "2", "--warmup", "1", "--rounds", "1"], False,
     "differential drive"),
    ("bench_nh_orca.py", ["--sizes", "64", "--steps", "2", "--warmup", "1", "--rounds", "1"], False,
     "NH-ORCA / ORCA-DD"),
]

JSON_OPTION = {"bench_metrics.py": False, "deadlock_options.py": False, "bench_kinematics.py": False,
               "bench_nh_orca.py": False}


def run_script(script: str, args: list[str], env: dict | None = None) -> str:
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *args], capture_output=True, text=True,
                          timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def cases(with_pyrvo: bool) -> list:
    return [pytest.param(script, args, compares, expected, id=script.removesuffix(".py"))
            for script, args, compares, expected in CASES if compares or not with_pyrvo]


@pytest.mark.parametrize("script, args, compares, expected", cases(with_pyrvo=False))
def test_script_runs_without_pyrvo(script, args, compares, expected, tmp_path):
    json_path = tmp_path / "out.json"
    writes_json = JSON_OPTION.get(script, True)
    extra = (["--no-pyrvo"] if compares else []) + (["--json", str(json_path)] if writes_json else [])
    out = run_script(script, args + extra)
    assert expected in out
    if writes_json:
        assert "machine" in json.loads(json_path.read_text())


@pytest.mark.skipif(not HAVE_PYRVO, reason="pyrvo is not installed (pip install pyrvo)")
@pytest.mark.parametrize("script, args, compares, expected", cases(with_pyrvo=True))
def test_script_runs_with_pyrvo(script, args, compares, expected):
    out = run_script(script, args)
    assert expected in out
    assert "pyrvo is not installed" not in out
    assert "n/a" not in out.splitlines()[-1]


@pytest.mark.parametrize("script, args, compares, expected", cases(with_pyrvo=True))
def test_script_says_when_pyrvo_is_missing(script, args, compares, expected, tmp_path):
    (tmp_path / "pyrvo.py").write_text("raise ImportError('pyrvo is hidden from this test')\n")
    path = os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path}
    out = run_script(script, args, env=env)
    assert "pyrvo is not installed" in out
    assert expected in out


# bench_orca3d.py compares with RVO2-3D (jt-pyrvo23d, module rvo23d) instead of pyrvo.
ORCA3D_ARGS = ["--sizes", "64", "--steps", "2", "--warmup", "1"]
HAVE_RVO2_3D = importlib.util.find_spec("rvo23d") is not None


def test_bench_orca3d_runs_without_rvo2_3d(tmp_path):
    out = run_script("bench_orca3d.py", ORCA3D_ARGS + ["--no-rvo2-3d", "--json", str(tmp_path / "out.json")])
    assert "1 thread / RVO2-3D" in out
    rows = json.loads((tmp_path / "out.json").read_text())["rows"]
    assert rows[0]["n"] == 64 and rows[0]["rvo2_3d_s"] is None


def test_bench_orca3d_says_when_rvo2_3d_is_missing(tmp_path):
    (tmp_path / "rvo23d.py").write_text("raise ImportError('rvo23d is hidden from this test')\n")
    path = os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))
    out = run_script("bench_orca3d.py", ORCA3D_ARGS, env={**os.environ, "PYTHONPATH": path})
    assert "jt-pyrvo23d is not installed" in out


@pytest.mark.skipif(not HAVE_RVO2_3D, reason="RVO2-3D is not installed (pip install jt-pyrvo23d)")
def test_bench_orca3d_compares_with_rvo2_3d():
    out = run_script("bench_orca3d.py", ORCA3D_ARGS)
    assert "not installed" not in out
    assert "n/a" not in out.splitlines()[-1]


def test_time_horizon_figure_measures_reaction_distance():
    """docs/time_horizon.py's left panel: a pair reacts 2 r + 2 v tau apart (within a step of travel)."""
    spec = importlib.util.spec_from_file_location("time_horizon", BENCHMARKS.parent / "docs" / "time_horizon.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for tau in (1.0, 3.0):
        expected = 2 * module.RADIUS + 2 * module.SPEED * tau
        assert abs(module.reaction_distance(tau) - expected) <= 2 * module.SPEED * module.TIME_STEP


def test_bench_obstacles3d_runs(tmp_path):
    out = run_script("bench_obstacles3d.py", ["--shapes", "10", "40", "--queries", "200", "--repeats", "1",
                                              "--json", str(tmp_path / "out.json")])
    assert "scan / grid" in out
    assert [row["shapes"] for row in json.loads((tmp_path / "out.json").read_text())["rows"]] == [10, 40]
