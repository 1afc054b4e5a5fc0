"""Untrusted files as a property: damaged and crafted state files, pickles, trajectory files and sweep parts.

Each kind is fuzzed by tests/_fuzz_files.py in a fresh interpreter (a crash
fails this test, not the suite) with its address space limited, so that an
allocation for a count a file claims but does not carry fails too. The
property: a damaged file loads equal to the original or is refused with a
ValueError naming it (a sweep part: is run again, with a warning naming it);
a forged one (checksum recomputed) is refused or loads and then steps or
summarises cleanly. Never another exception.

Cases per kind: ``VOSIM_FUZZ_FILE_CASES`` (default 250; sweep parts, which
run a cell each, a third of it; a fifth under the sanitizers).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import vosim

WORKER = Path(__file__).resolve().parents[1] / "_fuzz_files.py"
CASES = int(os.environ.get("VOSIM_FUZZ_FILE_CASES", "250"))


def _cases(kind: str) -> int:
    cases = CASES // 3 if kind == "sweep_part" else CASES
    return max(cases // 5 if vosim._core.SANITIZED else cases, 4)


@pytest.mark.parametrize("kind", ["state", "pickle", "trajectory", "sweep_part"])
def test_damaged_and_crafted_files_are_refused_or_load_equal(kind, tmp_path):
    if kind == "sweep_part":
        pytest.importorskip("pandas")
        pytest.importorskip("pyarrow")
    cases = _cases(kind)
    done = subprocess.run([sys.executable, str(WORKER), kind, str(cases), "23", str(tmp_path)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"the fuzz of {kind} files ended with {done.returncode}:\n{done.stderr[-4000:]}"
    report = json.loads(done.stdout.strip().splitlines()[-1])
    print(json.dumps(report))  # (shown with -s: the counts per outcome)
    assert report["unexpected"] == [], report
    assert sum(report["outcomes"].values()) == cases, report
    assert not any(outcome.endswith(":unexpected") for outcome in report["outcomes"]), report
    # Every way of damage was tried and most were refused: the fuzz reaches the checks.
    modes = {outcome.split(":")[0] for outcome in report["outcomes"]}
    assert modes == ({"bytes", "crafted"} if kind == "sweep_part" else {"bytes", "crafted", "forged"}), report
