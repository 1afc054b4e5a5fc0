"""A short soak (benchmarks/soak.py runs the long one): every method through
random adds, removes, goal changes and obstacle turns, checkpointed and
resumed every 100 steps (pickle and save_state in turn), bit-identical to
the same run left uninterrupted."""

import subprocess
import sys
from pathlib import Path

SOAK = Path(__file__).resolve().parents[2] / "benchmarks" / "soak.py"


def test_resumed_runs_of_every_method_are_bit_identical_through_random_changes():
    done = subprocess.run([sys.executable, str(SOAK), "--agent-steps", "36000", "--agents", "20", "--seed", "5"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert "every resumed run bit-identical to the uninterrupted one" in lines[-1]
    rows = [line for line in lines[1:-1] if line.strip()]
    assert len(rows) == 9  # every method
    assert all(int(row.split()[-2]) == 2 for row in rows)  # two checkpoints each
