"""Refusing to start worker processes from a script without ``if __name__ == "__main__":``.

Worker processes start by importing the main script again. A script whose
sweep is not under the guard would start it again in every worker, which
Dask reports only as ``Nanny failed to start``; this says what to change
before any process starts.
"""

from __future__ import annotations

import ast
import sys


def _is_main_test(node: ast.expr) -> bool:
    """Whether ``node`` is ``__name__ == "__main__"`` (either way round)."""
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq)):
        return False
    sides = [node.left, node.comparators[0]]
    names = [s for s in sides if isinstance(s, ast.Name) and s.id == "__name__"]
    texts = [s for s in sides if isinstance(s, ast.Constant) and s.value == "__main__"]
    return len(names) == 1 and len(texts) == 1


def _guarded(source: str, line: int) -> bool:
    """Whether ``line`` of the module ``source`` lies in the body of a ``__main__`` guard."""
    try:
        tree = ast.parse(source)
    except SyntaxError:  # pragma: no cover - the script runs, so it parses
        return True
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_main_test(node.test) and node.body:
            if node.body[0].lineno <= line <= (node.body[-1].end_lineno or node.body[-1].lineno):
                return True
    return False


def unguarded_line() -> tuple[str, int] | None:
    """The main script and its line that is running without the guard, or None.

    None unless this call comes from the top level of a main script (not an
    interactive session, a notebook or ``python -c``) outside
    ``if __name__ == "__main__":``. In a worker process that is importing
    the script again (``__mp_main__``) any top-level line is unguarded.
    """
    main = sys.modules.get("__main__")
    file = getattr(main, "__file__", None)
    if main is None or not file:
        return None
    frame = sys._getframe(1)
    while frame is not None and not (frame.f_globals is vars(main) and frame.f_code.co_name == "<module>"):
        frame = frame.f_back
    if frame is None:
        return None
    if main.__name__ == "__mp_main__":
        return file, frame.f_lineno
    try:
        with open(file, encoding="utf-8") as handle:
            source = handle.read()
    except (OSError, UnicodeDecodeError):
        return None
    return None if _guarded(source, frame.f_lineno) else (file, frame.f_lineno)


def require_guard(what: str) -> None:
    """Raise RuntimeError naming the fix if ``what`` would start processes from an unguarded script."""
    found = unguarded_line()
    if found is None:
        return
    file, line = found
    raise RuntimeError(
        f"{what} starts worker processes, which import the main script {file} again; its line {line} "
        f"runs outside `if __name__ == \"__main__\":`. Put the script's work under that guard "
        f"(see 'Sweeps on a cluster' in the user guide), or run in this process (client=None)")
