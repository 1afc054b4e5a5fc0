"""The sweep and environment benchmarks run end to end at tiny sizes, so that they cannot rot."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _run(script: str, args: list[str]) -> str:
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), *args], capture_output=True, text=True,
                          timeout=180)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_bench_envs_runs(tmp_path):
    pytest.importorskip("gymnasium")
    out = _run("bench_envs.py", ["--envs", "4", "--humans", "2", "--steps", "3", "--sync-steps", "2",
                                 "--warmup", "1", "--json", str(tmp_path / "out.json")])
    assert "vector / SyncVectorEnv" in out
    assert json.loads((tmp_path / "out.json").read_text())["ratio"] > 0


def test_bench_sweep_runs(tmp_path):
    pytest.importorskip("distributed")
    pytest.importorskip("pyarrow")
    out = _run("bench_sweep.py", ["--seeds", "1", "--agents", "2", "--workers", "1",
                                  "--json", str(tmp_path / "out.json")])
    assert "tables equal: True" in out
    assert "local_cluster" in json.loads((tmp_path / "out.json").read_text())["seconds"]
