"""Every notebook in notebooks/ runs from top to bottom without errors."""

import json
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("matplotlib")

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))


@pytest.fixture(scope="module")
def kernel_dir(tmp_path_factory, monkeypatch_module=None):
    """A kernelspec that runs this very interpreter, whatever else is installed."""
    root = tmp_path_factory.mktemp("jupyter")
    spec = root / "kernels" / "vosim-test"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "vosim tests", "language": "python",
    }))
    return root


def test_there_are_notebooks():
    assert NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path, kernel_dir, monkeypatch, tmp_path):
    monkeypatch.setenv("JUPYTER_PATH", str(kernel_dir))
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(notebook, kernel_name="vosim-test", timeout=600,
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    errors = [o for c in notebook.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebooks_are_stored_with_their_outputs(path):
    """A browser of the repository sees the figures: every code cell was run
    (python notebooks/execute.py) and its figures are kept."""
    notebook = nbformat.read(path, as_version=4)
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert all(c.execution_count is not None for c in code), f"{path.name}: run python notebooks/execute.py"
    assert any("image/png" in o.get("data", {}) for c in code for o in c.get("outputs", []))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_stored_notebooks_show_no_warnings(path):
    """A warning in a stored output is either a problem to fix or noise a reader must learn to ignore."""
    notebook = nbformat.read(path, as_version=4)
    warned = [o.get("text", "") for c in notebook.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("name") == "stderr" and "Warning" in o.get("text", "")]
    assert not warned, f"{path.name}: {warned[0][:200]}"


def test_stored_notebooks_stay_small():
    assert sum(path.stat().st_size for path in NOTEBOOKS) < 2 * 1024**2
