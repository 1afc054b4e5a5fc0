"""Every Python example of the documentation runs: README.md's ```python
blocks and the docstring examples (``>>>``) of the package.

Each README block runs on its own, in a fresh namespace named ``__main__``
(as a script saved from it would), in a temporary folder (files they write
land there): a reader can copy any one block, so each has its own imports.
A block that needs something no reader should have to see gets it from an
HTML comment right before it, which renders as nothing:

    <!-- readme-test setup: walkable_area = shapely.box(0, 0, 10, 10) -->

New blocks are picked up without changing this file.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
import warnings
from pathlib import Path

import pytest

import vosim

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCK = re.compile(r"(?:<!-- readme-test setup: (?P<setup>.*?) -->\s*\n)?```python\n(?P<code>.*?)```", re.S)


def readme_blocks() -> list[tuple[int, str, str]]:
    """(line number, setup code, code) of every ```python block of the README."""
    text = README.read_text(encoding="utf-8")
    return [(text.count("\n", 0, match.start("code")) + 1, match.group("setup") or "", match.group("code"))
            for match in BLOCK.finditer(text)]


def test_the_readme_has_python_examples():
    assert len(readme_blocks()) >= 3


def test_every_readme_block_runs(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    pytest.importorskip("pandas")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    monkeypatch.chdir(tmp_path)
    for line, setup, code in readme_blocks():
        namespace: dict = {"__name__": "__main__"}
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", RuntimeWarning)  # an example must not end in a surprise
                exec(compile(setup, f"README.md setup before line {line}", "exec"), namespace)
                exec(compile(code, f"README.md block at line {line}", "exec"), namespace)
        except Exception as error:
            pytest.fail(f"README.md, the block starting at line {line} fails: {type(error).__name__}: {error}")
        finally:
            plt.close("all")


def test_a_failing_block_is_reported_with_its_line(tmp_path, monkeypatch):
    """The mechanism itself: a broken block would not pass unnoticed."""
    monkeypatch.setattr(__import__(__name__), "README", tmp_path / "README.md")
    (tmp_path / "README.md").write_text("x\n\n```python\nundefined_name\n```\n", encoding="utf-8")
    assert readme_blocks() == [(4, "", "undefined_name\n")]
    with pytest.raises(pytest.fail.Exception, match="line 4 fails: NameError"):
        test_every_readme_block_runs(tmp_path, monkeypatch)


def package_modules() -> list[str]:
    # __main__ runs the command line when imported.
    return [info.name for info in pkgutil.walk_packages(vosim.__path__, "vosim.")
            if info.name != "vosim.__main__" and not info.name.split(".")[-1].startswith("_core")]


@pytest.mark.parametrize("name", package_modules())
def test_docstring_examples_run(name, tmp_path, monkeypatch):
    if name.startswith("vosim.plot"):
        pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(module, name, globs={}):
        if test.examples and test.name.startswith(name):
            runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} docstring example(s) of {name} failed (output above)"
