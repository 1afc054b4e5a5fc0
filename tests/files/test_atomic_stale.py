"""A save killed half way leaves a temporary file that a later save into the same folder removes."""

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from vosim import _atomic

# A child that saves a simulator's state and is stopped for good just before the temporary file would be
# moved into place (the whole state written, as a SIGKILL would find it at the worst moment).
KILLED_SAVE = textwrap.dedent("""
    import os, sys, time
    import vosim

    def stuck(source, target):
        print("written", flush=True)
        time.sleep(600)

    os.replace = stuck
    sim = vosim.Simulator()
    sim.add_agents([[float(k), 0.0] for k in range(2000)])
    sim.save_state(sys.argv[1])
""")

LATER_SAVE = textwrap.dedent("""
    import sys
    import vosim

    sim = vosim.Simulator()
    sim.add_agents([[0.0, 0.0]])
    sim.save_state(sys.argv[1])
""")


def _python(script: str, *args: str, **options):
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    return subprocess.Popen([sys.executable, "-c", script, *args], env=environment, **options)


def _killed_save(path) -> list:
    """Kill a child half way through saving to ``path``; the temporary files it left."""
    child = _python(KILLED_SAVE, str(path), stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "written\n"
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=30)
    return [p for p in path.parent.iterdir() if p.name != path.name]


def _age(path, seconds: float) -> None:
    then = time.time() - seconds
    os.utime(path, (then, then))


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL and process ids as on POSIX")
def test_a_later_save_removes_what_a_killed_save_left(tmp_path):
    target = tmp_path / "state.npz"
    left = _killed_save(target)
    assert len(left) == 1 and left[0].name.startswith(".state.npz.vosim-") and left[0].stat().st_size > 10_000
    assert not target.exists()
    # Left just now: kept (a process of the same number in another PID namespace might still be writing it).
    young = [p for p in _killed_save(tmp_path / "other.npz") if p not in left]
    _age(left[0], _atomic.STALE_SECONDS + 60)
    keep = tmp_path / ".notes.txt.tmp"  # not one of vosim's: never touched
    keep.write_text("mine")

    saved = _python(LATER_SAVE, str(target))
    assert saved.wait(timeout=120) == 0
    assert target.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([".notes.txt.tmp", young[0].name, "state.npz"])


def test_only_dead_writers_files_are_removed(tmp_path):
    alive = os.getppid()  # this process's parent runs: its temporary files are in use
    names = {
        "mine": f".a.npz.vosim-{_atomic._HOST}-{os.getpid()}-0123456789ab.tmp.npz",
        "parent": f".b.npz.vosim-{_atomic._HOST}-{alive}-0123456789ab.tmp.npz",
        "elsewhere": f".c.npz.vosim-ffffffff-{2**22 + 7}-0123456789ab.tmp.npz",
        "dead": f".d.npz.vosim-{_atomic._HOST}-{2**22 + 7}-0123456789ab.tmp.npz",
    }
    if _atomic._HOST == "ffffffff":  # pragma: no cover - one machine in four billion
        pytest.skip("this machine's digest is the other machine's")
    for name in names.values():
        (tmp_path / name).write_bytes(b"half")
        _age(tmp_path / name, _atomic.STALE_SECONDS + 60)
    removed = _atomic.remove_stale_temporaries(tmp_path)  # pid 2**22 + 7 is above Linux's largest
    assert [p.name for p in removed] == [names["dead"]]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(v for k, v in names.items() if k != "dead")


def test_the_first_save_of_a_process_into_a_folder_sweeps_it(tmp_path, monkeypatch):
    monkeypatch.setattr(_atomic, "_swept", set())
    stale = tmp_path / f".old.csv.vosim-{_atomic._HOST}-{2**22 + 7}-0123456789ab.tmp.csv"
    stale.write_text("half")
    _age(stale, _atomic.STALE_SECONDS + 60)
    with _atomic.atomic_path(tmp_path / "new.csv") as temporary:
        temporary.write_text("whole")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.csv"]
