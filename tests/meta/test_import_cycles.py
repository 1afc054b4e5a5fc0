"""No import circles among vosim's modules, counting imports inside functions.

A circle hidden behind a function-level import still ties the modules
together (each needs the other to work, and reading one means reading the
other); this test parses every module's imports with ``ast`` and fails
naming the modules of any circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import vosim

PACKAGE = Path(vosim.__file__).resolve().parent
# Compiled: no source to parse, and it imports nothing of vosim.
EXTENSIONS = {"vosim._core"}


def module_files() -> dict[str, Path]:
    files = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        files[".".join(parts)] = path
    return files


def imports_of(name: str, path: Path, modules: set[str]) -> set[str]:
    """The vosim modules that ``name`` imports anywhere in its source (a package for names taken from it)."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            source = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                full = f"{source}.{alias.name}"
                if full not in EXTENSIONS:
                    found.add(full if full in modules else source)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {module for module in found if module in modules and module != name}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iteratively)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def import_graph() -> dict[str, set[str]]:
    files = module_files()
    return {name: imports_of(name, path, set(files)) for name, path in files.items()}


def test_the_import_graph_sees_function_level_imports():
    graph = import_graph()
    assert "vosim.simulator" in graph["vosim._simulation"] or "vosim._simulation" in graph["vosim.simulator"]
    # trajectory imports _io inside its methods only.
    assert "vosim._io" in graph["vosim.trajectory"]


def test_circles_are_found():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_vosim_has_no_import_circles():
    assert circles(import_graph()) == []
