"""Run every notebook here and store it with its outputs, so that a browser of the repository sees them.

    python notebooks/execute.py [names ...]

Figures are stored as PNG at 72 dpi reduced to 64 colours, which keeps the
notebooks small (the test suite checks that together they stay under 2 MB). Each notebook is written to
a temporary file and renamed into place. The test suite executes the
notebooks again (tests/meta/test_notebooks.py), so stored outputs never hide a
notebook that no longer runs.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

# Run before the notebook's own cells; not stored.
SETUP = "%config InlineBackend.figure_formats = ['png']\n%config InlineBackend.rc = {'figure.dpi': 72}"


def _smaller_png(encoded: str) -> str:
    """A base64 PNG reduced to a 64-colour palette: about a quarter of the bytes, the same picture to the eye."""
    import base64
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(base64.b64decode(encoded))).convert("RGB")
    buffer = io.BytesIO()
    image.quantize(colors=64, method=Image.Quantize.MEDIANCUT).save(buffer, format="PNG", optimize=True)
    return base64.b64encode(buffer.getvalue()).decode("ascii") + "\n"


def execute(path: Path) -> None:
    import nbclient
    import nbformat

    notebook = nbformat.read(path, as_version=4)
    setup = nbformat.v4.new_code_cell(SETUP)
    notebook.cells.insert(0, setup)
    with tempfile.TemporaryDirectory() as scratch:  # files the notebooks write go here
        nbclient.NotebookClient(notebook, timeout=600, kernel_name="python3",
                                resources={"metadata": {"path": scratch}}).execute()
    notebook.cells.remove(setup)
    for number, cell in enumerate((c for c in notebook.cells if c.cell_type == "code"), start=1):
        cell.execution_count = number
        for output in cell.get("outputs", []):
            if "execution_count" in output:
                output["execution_count"] = number
            if output.get("name") == "stderr":
                # Warnings name the kernel's temporary file of the cell: machine-specific, and no help to a reader.
                output["text"] = re.sub(r"\S*ipykernel_\d+/\d+\.py:\d+: ", "", output["text"])
            data = output.get("data", {})
            if "image/png" in data:
                data["image/png"] = _smaller_png(data["image/png"])
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            nbformat.write(notebook, stream)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    print(f"{path.name}: {path.stat().st_size / 1024:.0f} KiB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", help="notebooks to run (default: all of notebooks/)")
    args = parser.parse_args()
    paths = [HERE / name for name in args.names] or sorted(HERE.glob("*.ipynb"))
    for path in paths:
        execute(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
