"""Every Python example of the documentation runs: the ```python blocks of
README.md and of the documentation's Markdown pages (docs/**/*.md), and the
docstring examples (``>>>``) of the package.

Each block runs on its own, in a fresh namespace named ``__main__`` (as a
script saved from it would), in a temporary folder (files they write land
there): a reader can copy any one block, so each has its own imports. A
block that needs something no reader should have to see gets it from an
HTML comment right before it, which renders as nothing:

    <!-- readme-test setup: walkable_area = shapely.box(0, 0, 10, 10) -->

New blocks and new pages are picked up without changing this file.
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

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
# Folders of docs/ that the documentation build writes (never hand-written pages).
GENERATED = ("_build", "auto_gallery", "generated", "_params", "modules")
BLOCK = re.compile(r"(?:<!-- readme-test setup: (?P<setup>.*?) -->\s*\n)?```python\n(?P<code>.*?)```", re.S)


def markdown_blocks(path: Path) -> list[tuple[int, str, str]]:
    """(line number, setup code, code) of every ```python block of a Markdown file."""
    text = path.read_text(encoding="utf-8")
    return [(text.count("\n", 0, match.start("code")) + 1, match.group("setup") or "", match.group("code"))
            for match in BLOCK.finditer(text)]


def readme_blocks() -> list[tuple[int, str, str]]:
    return markdown_blocks(README)


def documentation_pages() -> list[Path]:
    """README.md and every hand-written Markdown page of docs/."""
    pages = sorted(page for page in DOCS.rglob("*.md")
                   if not set(page.relative_to(DOCS).parts[:-1]) & set(GENERATED))
    return [README] + pages


def test_the_readme_has_python_examples():
    assert len(readme_blocks()) >= 1


def test_the_documentation_has_python_examples():
    """The pages that took the README's 22 examples still hold them, with the new README's and Getting started's."""
    assert sum(len(markdown_blocks(page)) for page in documentation_pages()) >= 25


def run_blocks(path: Path, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    pytest.importorskip("pandas")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    monkeypatch.chdir(tmp_path)
    name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    for line, setup, code in markdown_blocks(path):
        namespace: dict = {"__name__": "__main__"}
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", RuntimeWarning)  # an example must not end in a surprise
                exec(compile(setup, f"{name} setup before line {line}", "exec"), namespace)
                exec(compile(code, f"{name} block at line {line}", "exec"), namespace)
        except Exception as error:
            pytest.fail(f"{name}, the block starting at line {line} fails: {type(error).__name__}: {error}")
        finally:
            plt.close("all")


def test_every_readme_block_runs(tmp_path, monkeypatch):
    run_blocks(README, tmp_path, monkeypatch)


@pytest.mark.parametrize("page", [page for page in documentation_pages() if page != README],
                         ids=lambda page: str(page.relative_to(DOCS)))
def test_every_documentation_block_runs(page, tmp_path, monkeypatch):
    run_blocks(page, tmp_path, monkeypatch)


def test_a_failing_block_is_reported_with_its_line(tmp_path, monkeypatch):
    """The mechanism itself: a broken block would not pass unnoticed."""
    page = tmp_path / "page.md"
    page.write_text("x\n\n```python\nundefined_name\n```\n", encoding="utf-8")
    assert markdown_blocks(page) == [(4, "", "undefined_name\n")]
    with pytest.raises(pytest.fail.Exception, match="line 4 fails: NameError"):
        run_blocks(page, tmp_path, monkeypatch)


def test_generated_folders_are_left_out_and_pages_in_subfolders_are_found(tmp_path, monkeypatch):
    monkeypatch.setattr(__import__(__name__), "DOCS", tmp_path)
    for relative in ("index.md", "guide/new_page.md", "_build/html/_sources/index.md", "api/generated/x.md"):
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text("# page\n", encoding="utf-8")
    assert documentation_pages()[1:] == [tmp_path / "guide" / "new_page.md", tmp_path / "index.md"]


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
