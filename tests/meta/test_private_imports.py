"""No module imports another package's private module.

The rule: a module of vosim may import a private module (a name starting
with one underscore) of its own package or of a package enclosing it
(``vosim._checks`` from anywhere), never of a sibling or a child package:
what one package offers the others, it offers from its ``__init__``.
"""

import ast
from pathlib import Path

import vosim

PACKAGE = Path(vosim.__file__).resolve().parent


def _target(module_parts: list[str], node: ast.ImportFrom) -> list[list[str]]:
    """The dotted paths below ``vosim`` that ``node`` imports, for a module at ``module_parts``."""
    if node.level:
        base = module_parts[:-node.level]
    elif node.module and (node.module == "vosim" or node.module.startswith("vosim.")):
        base, node_module = [], node.module.split(".")[1:]
        return [node_module] if node_module else [[alias.name] for alias in node.names]
    else:
        return []
    module = node.module.split(".") if node.module else []
    return [base + module] if module else [base + [alias.name] for alias in node.names]


def private_imports(root: Path = PACKAGE) -> list[str]:
    """Every ``from`` import of another package's private module, as ``file:line: target``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        package = parts[:-1]  # the importing module's package, below vosim
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            for target in _target(parts, node):
                for depth, name in enumerate(target):
                    if name.startswith("_") and not name.startswith("__"):
                        owner = target[:depth]  # the package that holds the private module
                        if owner != package[:len(owner)]:
                            found.append(f"{path.relative_to(root)}:{node.lineno}: {'.'.join(target)}")
                        break
    return found


def test_no_module_imports_another_packages_private_module():
    assert private_imports() == []


def test_the_check_finds_such_an_import(tmp_path):
    package = tmp_path / "vosim"
    (package / "plot").mkdir(parents=True)
    (package / "comparison").mkdir()
    (package / "plot" / "_common.py").write_text("x = 1\n")
    (package / "comparison" / "_figures.py").write_text(
        "from ..plot._common import x\nfrom ..plot import x\nfrom ._own import y\nfrom .. import _checks\n")
    (package / "_simulation.py").write_text("from .navigation._goals import GoalMethods\n")
    assert private_imports(package) == ["_simulation.py:1: navigation._goals", "comparison/_figures.py:1: plot._common"]
