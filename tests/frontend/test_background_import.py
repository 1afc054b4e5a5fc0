"""compare's table module loads on a thread while the runs go on (vosim._background_import)."""

import os
import subprocess
import sys
import textwrap

import pytest

from vosim._background_import import import_soon


def write_module(folder, name: str, body: str) -> None:
    (folder / f"{name}.py").write_text(textwrap.dedent(body))


def test_a_module_is_imported_once_on_its_own_thread(tmp_path, monkeypatch):
    write_module(tmp_path, "slow_module_a", """
        import threading, time
        IMPORTED_ON = threading.current_thread().name
        time.sleep(0.2)
        LOADS = 1
    """)
    monkeypatch.syspath_prepend(str(tmp_path))
    thread = import_soon("slow_module_a")
    assert thread is not None
    for _ in range(1000):  # until the thread is inside the module (it sleeps there)
        if "slow_module_a" in sys.modules:
            break
        thread.join(timeout=0.01)
    import slow_module_a  # waits for the thread's import, rather than running the module again

    assert slow_module_a.IMPORTED_ON == "vosim-import-slow_module_a"
    assert slow_module_a.LOADS == 1
    thread.join(timeout=10)
    assert import_soon("slow_module_a") is None  # already imported: no thread
    monkeypatch.delitem(sys.modules, "slow_module_a")


def test_a_failing_import_is_reported_by_the_calling_thread(tmp_path, monkeypatch):
    write_module(tmp_path, "broken_module_b", "raise RuntimeError('broken_module_b cannot load')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    thread = import_soon("broken_module_b")
    thread.join(timeout=10)
    assert "broken_module_b" not in sys.modules
    with pytest.raises(RuntimeError, match="broken_module_b cannot load"):
        import broken_module_b  # noqa: F401


def test_compare_says_it_needs_pandas_before_running_anything(monkeypatch):
    import vosim

    monkeypatch.setitem(sys.modules, "pandas", None)  # as if pandas were not installed
    with pytest.raises(ImportError, match=r'compare needs pandas: pip install "vosim\[pandas\]"'):
        vosim.compare({"ORCA": vosim.ORCA()}, ["headon_pair"], seeds=1, steps=2)


CHILD = """
import sys, threading
seen = []

class Watch:
    # Notes which thread imports pandas, then lets the usual finders load it.
    def find_spec(self, name, path=None, target=None):
        if name == "pandas":
            seen.append(threading.current_thread().name)
        return None

sys.meta_path.insert(0, Watch())
import vosim
table = vosim.compare({"ORCA": vosim.ORCA()}, ["headon_pair"], seeds=2, steps=5)
print(len(table), seen)
"""


def test_compare_imports_pandas_on_a_thread_of_its_own():
    pytest.importorskip("pandas")
    env = dict(os.environ)
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[:1] == ["2"]
    # The calling thread only asks whether pandas is there; the import itself is the thread's.
    assert "['MainThread', 'vosim-import-pandas']" in done.stdout, done.stdout
