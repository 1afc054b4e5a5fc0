"""The documentation site keeps up with the package: the API reference names
every public name, the generated page of public names covers them with their
kind, every method has a page with its settings, every public submodule has
its page. (CI builds the site itself with warnings as errors: .ci/run.)"""

from __future__ import annotations

import importlib
import pkgutil
import re
import sys
from pathlib import Path

import pytest

import vosim
from vosim import _core

DOCS = Path(__file__).resolve().parents[2] / "docs"
sys.path.insert(0, str(DOCS / "_ext"))
import vosim_docs  # noqa: E402

API_PAGE = DOCS / "api" / "index.md"
# Modules documented through the names they export at the top level (vosim.Simulator is
# vosim.simulator.Simulator) or elsewhere (the command line has its own --help).
# (vosim.view: the module is the callable vosim.view, listed among vosim's names; its guide is docs/guide/viewer.md)
DOCUMENTED_ELSEWHERE = {"vosim.simulator", "vosim.batch", "vosim.trajectory", "vosim.cli", "vosim.compat",
                        "vosim.view"}


def autosummary_entries(text: str) -> set[str]:
    """The names listed in the autosummary directives of a page."""
    names = set()
    for block in re.findall(r"\.\. autosummary::\n((?:[ \t]+.*\n|\n)+)", text):
        for line in block.splitlines():
            entry = line.strip()
            if entry and not entry.startswith(":"):
                names.add(entry)
    return names


def test_the_api_reference_lists_every_name_of_vosim_all():
    text = API_PAGE.read_text(encoding="utf-8")
    listed = autosummary_entries(text)
    missing = [name for name in vosim.__all__ if name != "__version__" and name not in listed]
    assert not missing, f"add these names of vosim.__all__ to docs/api/index.md: {missing}"
    assert "`vosim.__version__`" in text


def test_autosummary_entries_are_read_from_the_page():
    """The reader above: an entry missing from a page is reported missing."""
    page = ".. autosummary::\n   :toctree: generated\n\n   Simulator\n   Batch\n\nText Trajectory\n"
    assert autosummary_entries(page) == {"Simulator", "Batch"}


def test_the_api_reference_has_a_page_per_public_submodule():
    text = API_PAGE.read_text(encoding="utf-8")
    public = {info.name for info in pkgutil.iter_modules(vosim.__path__, "vosim.")
              if not info.name.rsplit(".", 1)[-1].startswith("_") and info.name != "vosim.__main__"}
    public |= {"vosim.compat.rvo2"}
    undocumented = sorted(public - set(vosim_docs.PUBLIC_MODULES) - DOCUMENTED_ELSEWHERE)
    assert not undocumented, f"add these modules to PUBLIC_MODULES in docs/_ext/vosim_docs.py: {undocumented}"
    for module in vosim_docs.PUBLIC_MODULES:
        assert f"modules/{module}\n" in text, module


def test_the_public_names_page_covers_every_public_name_with_its_kind():
    pytest.importorskip("gymnasium")   # vosim.envs: otherwise listed without its names
    rows = {name: (kind, returns) for name, kind, returns in vosim_docs.public_names()}
    for name in vosim.__all__:
        assert f"vosim.{name}" in rows, name
    for module in vosim_docs.PUBLIC_MODULES:
        for name in getattr(importlib.import_module(module), "__all__", []):
            assert f"{module}.{name}" in rows, f"{module}.{name}"
    assert rows["vosim.Simulator"][0] == "class" and rows["vosim.load"][0] == "function"
    assert rows["vosim.scenarios.SCENARIOS"][0] == "constant" and rows["vosim.plot"][0] == "module"
    assert rows["vosim.load"][1] == "Trajectory"                     # from the docstring's Returns section
    assert rows["vosim.get_num_threads"][1] == "``int``"            # from the return annotation
    assert rows["vosim.metrics.steerbench"][0] == "function"        # re-exported from its own private module
    for name, (kind, returns) in rows.items():
        if kind == "function":
            assert returns, f"{name}: no return type found"
    page = vosim_docs.public_names_page()
    assert page.count("\n| `vosim.") == len(rows)


def test_every_method_has_a_page_with_its_settings_from_the_registry():
    pages = "".join(page.read_text(encoding="utf-8") for page in (DOCS / "methods").glob("*.md"))
    for entry in _core.METHODS:
        assert f"{{include}} _params/{entry['name']}.md" in pages, entry["name"]
        table = vosim_docs.method_parameter_table(entry["name"])
        for param in entry["params"]:
            assert f"| `{param['name']}` |" in table, (entry["name"], param["name"])


def test_the_settings_tables_show_defaults_and_ranges():
    assert "| `vel_bias` | `0.4` | [0, 1] |" in vosim_docs.method_parameter_table("AdaptiveSampling")
    assert "| `horiz_time` | `2.5` | (0, ∞) |" in vosim_docs.method_parameter_table("AdaptiveSampling")
    assert "| `selection` | `'geometric'` | 'sampling', 'geometric' |" in vosim_docs.method_parameter_table("HRVO")
    assert "| `truncate` | `False` | True, False |" in vosim_docs.method_parameter_table("VO")
    assert "| `grid_size` | `33` | [2, 4096] |" in vosim_docs.method_parameter_table("GridSampling")
    with pytest.raises(KeyError):
        vosim_docs.method_parameter_table("NoSuchMethod")


def test_the_gallery_has_at_least_twelve_scripts_each_with_a_title_and_a_figure():
    scripts = sorted((DOCS / "gallery").glob("plot_*.py"))
    assert len(scripts) >= 12
    for script in scripts:
        text = script.read_text(encoding="utf-8")
        assert re.match(r'"""\n.+\n=+\n', text), f"{script.name}: sphinx-gallery needs a title in its docstring"
        assert "plot." in text or "plt." in text or "figures(" in text, script.name
