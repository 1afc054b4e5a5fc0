"""A module's underscore names are its own: no module of the package imports
another's (a helper that others need gets a public name in its module).
The simulator classes' private bases are the exception."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "python" / "vosim"
# The private bases the simulator classes are assembled from.
BASES = {"_Simulation"}


def test_no_module_imports_another_modules_underscore_names():
    modules = {path.stem for path in PACKAGE.rglob("*.py")} | {path.name for path in PACKAGE.rglob("*")
                                                                if path.is_dir()}
    modules |= {"_core"}  # the compiled extension
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                for alias in node.names:
                    name = alias.name
                    if name.startswith("_") and not name.startswith("__") and name not in modules | BASES:
                        found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: {name} from {node.module}")
    assert found == []
