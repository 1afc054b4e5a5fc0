"""The benchmark scripts run end to end (tiny sizes), so that they cannot rot."""

import importlib.util
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
HAVE_PYRVO = importlib.util.find_spec("pyrvo") is not None

# script, tiny arguments, whether it compares with pyrvo, text its output must hold
CASES = [
    ("bench_orca.py", ["--sizes", "64", "--steps", "2", "--warmup", "1"], True, "1 thread / pyrvo"),
    ("bench_metrics.py", ["--sizes", "64", "--steps", "5", "--repeats", "1"], False, "overhead"),
    ("bench_memory.py", ["--n", "2000", "--steps", "1"], True, "bytes/agent; target"),
    ("bench_memory.py", ["--n", "2000", "--steps", "1", "--sink-and-assignments", "--no-pyrvo"], False,
     "a sink nobody reaches"),
    ("bench_python_overhead.py", ["--n", "64", "--steps", "10", "--repeats", "1"], False, "overhead of run()"),
    ("bench_batch.py", ["--scenes", "6", "--agents", "4", "--steps", "2", "--warmup", "1"], True,
     "per batched step"),
    ("bench_obstacles.py", ["--copies", "1", "2", "--advance", "5", "--inner", "2", "--steps", "2",
                            "--warmup", "1", "--maze-vertices", "300", "--maze-agents", "50"], False,
     "(target < 1.0 s)"),
    ("bench_methods.py", ["--sizes", "64", "--steps", "1", "--warmup", "0"], False, "GridSampling"),
    ("bench_navigation.py", ["--pillars", "5", "--agents", "20"], False, "us/agent"),
    ("deadlock_options.py", ["--seeds", "1", "--scenarios", "headon_pair"], False, "| headon_pair | sidestep | 100 %"),
    ("acceleration_limits3d.py", ["--seeds", "1", "--scenes", "swarm_gate"], False,
     "| swarm_gate | ORCA-3D, limit in the linear program |"),
    ("bench_kinematics.py", ["--sizes", "64", "--steps", "2", "--warmup", "1", "--rounds", "1"], False,
     "NH-ORCA / ORCA-DD"),
    ("bench_metrics_one_spot.py", ["--sizes", "300"], False, "peak memory (MiB)"),
    ("bench_navmesh_star.py", ["--sizes", "200", "--timeout", "100"], False, "of which buffer (s)"),
    ("bench_scaling.py", ["--sizes", "600", "--steps", "2", "--rounds", "1"], False, "serial fraction"),
    ("bench_oversubscribed.py", ["--n", "600", "--steps", "2", "--rounds", "1", "--busy", "0", "1"], False,
     "| worst round"),
    ("bench_oversubscribed.py", ["--n", "600", "--steps", "2", "--rounds", "1", "--busy", "0", "--control"], False,
     "| 1 / 1 again, worst round"),
    ("bench_scene_features.py", ["--sizes", "600", "--steps", "2", "--rounds", "1"], False,
     "| 600 | a waiting area of 50 |"),
]

JSON_OPTION = {"bench_metrics.py": False, "deadlock_options.py": False, "acceleration_limits3d.py": False,
               "bench_kinematics.py": False,
               "bench_metrics_one_spot.py": False, "bench_navmesh_star.py": False}


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


# bench_navground.py compares with navground (pip install navground), a peer, not a dependency.
NAVGROUND_ARGS = ["--sizes", "30", "--steps", "2", "--warmup", "1", "--navground-steps", "2", "--navground-warmup", "1"]
HAVE_NAVGROUND = importlib.util.find_spec("navground") is not None


def hide_navground(tmp_path) -> dict:
    (tmp_path / "navground.py").write_text("raise ImportError('navground is hidden from this test')\n")
    path = os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path}


def test_bench_navground_says_when_navground_is_missing(tmp_path):
    json_path = tmp_path / "out.json"
    out = run_script("bench_navground.py", NAVGROUND_ARGS + ["--json", str(json_path)], env=hide_navground(tmp_path))
    assert out.count("navground is not installed (pip install navground)") == 1
    report = json.loads(json_path.read_text())
    assert report["navground"] is None
    assert {row["method"] for row in report["rows"]} == {"ORCA", "HRVO", "force-based", "ORCA, diff. drive"}
    assert all(row["navground_s"] is None and row["vosim_1_thread_s"] > 0 for row in report["rows"])
    assert {row["library"] for row in report["quality"]} == {"vosim"}
    # vosim's ORCA gets everyone across the circle; overlaps stay within millimetres (when the half-planes
    # leave no room, ORCA's fallback violates them least, in RVO2 too)
    orca = next(row for row in report["quality"] if row["method"] == "ORCA")
    assert orca["arrived"] == 1.0 and orca["last_arrival_s"] < 90 and orca["min_clearance_m"] > -0.02


def test_bench_navground_refuses_bad_sizes(tmp_path):
    done = subprocess.run([sys.executable, str(BENCHMARKS / "bench_navground.py"), "--sizes", "0", "--no-navground"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "--sizes must be at least 1, got 0" in done.stderr


@pytest.mark.skipif(not HAVE_NAVGROUND, reason="navground is not installed (pip install navground)")
def test_bench_navground_compares_with_navground(tmp_path):
    json_path = tmp_path / "out.json"
    out = run_script("bench_navground.py", NAVGROUND_ARGS + ["--max-social-force", "10", "--json", str(json_path)])
    assert "not installed" not in out and "different force models" in out
    report = json.loads(json_path.read_text())
    assert report["navground"]
    rows = {row["method"]: row for row in report["rows"]}
    for method in ("ORCA", "HRVO", "ORCA, diff. drive"):
        assert rows[method]["navground_s"] > 0 and rows[method]["ratio_vosim_vs_navground"] > 0
    assert rows["force-based"]["navground_s"] is None  # 30 agents > --max-social-force 10
    assert "--max-social-force" in out
    quality = {(row["method"], row["library"]): row for row in report["quality"]}
    assert len(quality) == 8
    # navground's ORCA also gets its circle across: the scenes really are the same task
    assert quality[("ORCA", "navground")]["arrived"] > 0.5


def test_bench_navground_measures_arrival_and_clearance():
    spec = importlib.util.spec_from_file_location("bench_navground", BENCHMARKS / "bench_navground.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    goals = [[10.0, 0.0], [0.0, 0.0]]
    # two agents pass 1.2 m apart (clearance 0.2 m with radii 0.5); the first arrives at frame 2, the second never
    frames = [[[0.0, 0.0], [10.0, 0.0]], [[5.0, 0.0], [5.0, 1.2]], [[9.9, 0.0], [3.0, 1.2]]]
    result = module.arrival_and_clearance(module.np.array(frames), module.np.array(goals))
    assert result["arrived"] == 0.5 and result["last_arrival_s"] is None
    assert abs(result["min_clearance_m"] - (1.2 - 2 * module.RADIUS)) < 1e-12
    frames.append([[10.0, 0.1], [0.2, 0.0]])
    result = module.arrival_and_clearance(module.np.array(frames), module.np.array(goals))
    assert result["arrived"] == 1.0 and abs(result["last_arrival_s"] - 3 * module.TIME_STEP) < 1e-12


# bench_rvo2_lto.py times a peer program (RVO2 built with link-time optimisation) beside vosim; here
# a stand-in peer checks the crowd file it is given and reports a fixed step time.
FAKE_PEER = """#!{python}
import struct, sys
path, threads = sys.argv[1], int(sys.argv[2])
data = open(path, "rb").read()
(n,) = struct.unpack("<q", data[:8])
if len(data) != 8 + 32 * n:
    sys.exit("wrong size")
print("{line}".format(n=n, threads=threads))
"""


def fake_peer(tmp_path: Path, line: str = "{n} {threads} 0.010000 0.0") -> Path:
    peer = tmp_path / "peer"
    peer.write_text(FAKE_PEER.format(python=sys.executable, line=line))
    peer.chmod(0o755)
    return peer


def load_bench_rvo2_lto():
    spec = importlib.util.spec_from_file_location("bench_rvo2_lto", BENCHMARKS / "bench_rvo2_lto.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bench_rvo2_lto_times_builds_and_peer_in_the_same_rounds(tmp_path):
    json_path = tmp_path / "out.json"
    out = run_script("bench_rvo2_lto.py", ["--rvo2", str(fake_peer(tmp_path)), "--sizes", "64", "--rounds", "2",
                                           "--build", f"a={sys.executable}", "--build", f"b={sys.executable}",
                                           "--json", str(json_path)])
    assert "| 64 | " in out and "a / RVO2 | b / RVO2" in out
    report = json.loads(json_path.read_text())
    (row,) = report["rows"]
    assert row["step_seconds"]["RVO2 LTO"] == [0.01, 0.01]
    for label in ("a", "b"):
        seconds = row["step_seconds"][label]
        assert len(seconds) == 2 and all(s > 0 for s in seconds)
        assert row["over_rvo2"][label] == pytest.approx(0.01 / statistics.median(seconds))


def test_bench_rvo2_lto_writes_the_crowd_in_the_peers_format(tmp_path):
    module = load_bench_rvo2_lto()
    module.write_crowd(7, tmp_path / "crowd.bin")
    data = (tmp_path / "crowd.bin").read_bytes()
    assert int.from_bytes(data[:8], "little", signed=True) == 7
    import numpy as np

    rows = np.frombuffer(data[8:], dtype="<f8").reshape(7, 4)
    start, goals = module.grid_crowd(7)
    assert np.array_equal(rows[:, :2], start) and np.array_equal(rows[:, 2:], goals)


@pytest.mark.parametrize("line, message", [
    ("garbage", "RVO2 LTO printed 'garbage'"),
    ("{n} {threads} 0.0 0.0", "step time of 0.0"),
    ("5 {threads} 0.01 1.0", "reported n=5, threads=1; asked for n=64, threads=1"),
])
def test_bench_rvo2_lto_refuses_a_peer_that_breaks_the_protocol(tmp_path, line, message):
    done = subprocess.run([sys.executable, str(BENCHMARKS / "bench_rvo2_lto.py"), "--rvo2",
                           str(fake_peer(tmp_path, line)), "--sizes", "64", "--rounds", "1"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and message in done.stderr


def test_bench_rvo2_lto_refuses_bad_arguments(tmp_path):
    for args, message in ((["--rvo2", str(tmp_path / "missing")], "is not an executable file"),
                          (["--rvo2", str(fake_peer(tmp_path)), "--sizes", "0"], "0 must be >= 1"),
                          (["--rvo2", str(fake_peer(tmp_path)), "--build", "nolabel"], "expected LABEL=PYTHON"),
                          (["--rvo2", str(fake_peer(tmp_path)), "--timeout", "nan"], "nan must be a finite"),
                          (["--rvo2", str(fake_peer(tmp_path)), "--timeout", "-1"], "-1.0 must be a finite")):
        done = subprocess.run([sys.executable, str(BENCHMARKS / "bench_rvo2_lto.py"), *args],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and message in done.stderr, done.stderr


def test_bench_builds_times_each_build_in_turn(tmp_path):
    import vosim

    here = str(Path(vosim.__file__).resolve().parents[1])  # the directory that holds the package
    json_path = tmp_path / "builds.json"
    out = run_script("bench_builds.py", ["--build", f"a={here}", "--build", f"b={here}", "--methods", "ORCA", "VO",
                                         "--sizes", "64", "--rounds", "2", "--steps", "1", "--warmup", "0",
                                         "--json", str(json_path)])
    assert "b speed-up" in out and "|               VO |" in out
    written = json.loads(json_path.read_text())
    assert [row["method"] for row in written["results"]] == ["ORCA", "VO"]
    for row in written["results"]:
        assert len(row["seconds"]["a"]) == 2 and len(row["seconds"]["b"]) == 2  # one step per round


def test_bench_builds_refuses_one_build_and_a_directory_without_vosim(tmp_path):
    for args, message in ((["--build", f"a={tmp_path}", "--build", f"b={tmp_path}"], "holds no vosim package"),
                          (["--build", "a"], "expected LABEL=DIR")):
        done = subprocess.run([sys.executable, str(BENCHMARKS / "bench_builds.py"), *args], capture_output=True,
                              text=True, timeout=60)
        assert done.returncode == 2 and message in done.stderr


def test_bench_compare_times_each_build_in_turn(tmp_path):
    import vosim

    here = str(Path(vosim.__file__).resolve().parents[1])
    json_path = tmp_path / "compare.json"
    out = run_script("bench_compare.py", ["--build", f"a={here}", "--build", f"b={here}", "--rounds", "2",
                                          "--warm", "1", "--json", str(json_path)])
    assert "| b |" in out and "speed-up warm" in out
    written = json.loads(json_path.read_text())
    for label in ("a", "b"):
        runs = written["results"][label]
        assert len(runs) == 2  # one run per round
        assert all(run["rows"] == 8 and len(run["warm"]) == 1 for run in runs)  # 2 methods x 4 seeds


def test_bench_compare_times_no_compiling_of_sources(tmp_path):
    """A first, untimed run writes each build's bytecode, even where the environment says not to."""
    import shutil

    import vosim

    build = tmp_path / "build"
    shutil.copytree(Path(vosim.__file__).resolve().parent, build / "vosim",
                    ignore=shutil.ignore_patterns("__pycache__"))
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run([sys.executable, str(BENCHMARKS / "bench_compare.py"), "--build", f"a={build}", "--build",
                           f"b={build}", "--rounds", "1", "--warm", "1"], capture_output=True, text=True, timeout=300,
                          env=env)
    assert done.returncode == 0, done.stderr
    compiled = list((build / "vosim" / "__pycache__").glob("*.pyc"))
    assert any(path.name.startswith("simulator.") for path in compiled), compiled


def test_bench_compare_needs_no_vosim_in_its_own_process(tmp_path):
    """Each build runs in its child; the parent only describes the machine."""
    import vosim

    here = str(Path(vosim.__file__).resolve().parents[1])
    hidden = tmp_path / "hidden" / "vosim"
    hidden.mkdir(parents=True)
    (hidden / "__init__.py").write_text('raise ImportError("no vosim in the parent")\n')
    env = dict(os.environ, PYTHONPATH=str(tmp_path / "hidden"))
    done = subprocess.run([sys.executable, str(BENCHMARKS / "bench_compare.py"), "--build", f"a={here}", "--build",
                           f"b={here}", "--rounds", "1", "--warm", "1"], capture_output=True, text=True, timeout=300,
                          env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "no vosim in this process" in done.stdout and "| b |" in done.stdout

