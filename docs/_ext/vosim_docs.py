"""Pages of the documentation generated from the package itself at build time.

- ``api/public_names.md``: every public name (``vosim.__all__`` and the
  ``__all__`` of the public submodules) with its kind and what it returns;
- ``methods/_params/<Method>.md``: each method's settings, defaults and
  ranges, read from the core's method registry (``vosim._core.METHODS``);
- ``tutorials/notebooks/``: a copy of ``notebooks/*.ipynb`` (stored with their
  outputs) for the tutorials section.

The functions return text, so the test suite can check what the pages will
say without Sphinx (``tests/meta/test_docs.py``).
"""

from __future__ import annotations

import importlib
import inspect
import re
import shutil
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1]
REPOSITORY = DOCS.parent

#: The submodules a user imports; their ``__all__`` (or public names) join the public names page.
PUBLIC_MODULES = ("vosim.methods", "vosim.scenarios", "vosim.plot", "vosim.navigation", "vosim.measurement",
                  "vosim.metrics", "vosim.comparison", "vosim.sweeps", "vosim.validation", "vosim.envs",
                  "vosim.shapes3d", "vosim.compat.rvo2")

_RETURNS = re.compile(r"\n\s*Returns\n\s*-+\n\s*(?P<first>[^\n]+)")


def module_names(module_name: str) -> list[str]:
    """The public names of a module: its ``__all__``, else what it defines without a leading underscore."""
    module = importlib.import_module(module_name)
    if hasattr(module, "__all__"):
        return [name for name in module.__all__ if not name.startswith("__")]
    source = inspect.getsource(module)
    names = []
    for name, value in vars(module).items():
        if name.startswith("_") or inspect.ismodule(value):
            continue
        home = getattr(value, "__module__", None)
        if inspect.isclass(value) or inspect.isfunction(value):
            # Defined here, or the one function of a private module of its own name (metrics.steerbench).
            if home == module_name or (home or "").rsplit(".", 1)[-1] == f"_{name}":
                names.append(name)
        elif name.isupper() and re.search(rf"^{name}\b[^=\n]*=", source, re.M):   # a constant assigned here
            names.append(name)
    return sorted(names)


def kind_of(value) -> str:
    if inspect.isclass(value):
        return "exception" if issubclass(value, BaseException) else "class"
    if inspect.isfunction(value) or inspect.isbuiltin(value):
        return "function"
    if inspect.ismodule(value):
        return "module"
    return "constant"


def returns_of(value) -> str:
    """What calling the name gives: its return annotation, else its docstring's Returns section."""
    if inspect.isclass(value):
        return f"an instance of ``{value.__name__}``"
    if not callable(value):
        return f"``{type(value).__name__}``"
    try:
        annotation = inspect.signature(value).return_annotation
    except (TypeError, ValueError):
        annotation = inspect.Signature.empty
    if annotation is not inspect.Signature.empty and annotation is not None:
        text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))
        return f"``{text}``"
    match = _RETURNS.search(inspect.getdoc(value) and "\n" + inspect.getdoc(value) or "")
    if match:
        first = match.group("first").strip()
        return first.split(" : ", 1)[1] if " : " in first else first
    return "``None``"


def public_names() -> list[tuple[str, str, str]]:
    """(qualified name, kind, returns) of every public name, ``vosim`` first, then each public submodule."""
    import vosim

    rows = [(f"vosim.{name}", kind_of(getattr(vosim, name)), returns_of(getattr(vosim, name)))
            for name in vosim.__all__ if not name.startswith("__")]
    rows.append(("vosim.__version__", "constant", "``str``"))
    for module_name in PUBLIC_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ImportError:  # an optional extra missing: the module is still listed
            rows.append((module_name, "module", "(needs an optional extra)"))
            continue
        rows.append((module_name, "module", ""))
        for name in module_names(module_name):
            value = getattr(module, name)
            rows.append((f"{module_name}.{name}", kind_of(value), returns_of(value)))
    return rows


def public_names_page() -> str:
    lines = ["# Every public name", "",
             "Generated from the package when the documentation is built: each public name, its kind",
             "and what calling it returns (for a class, an instance; from the return annotation or the",
             "docstring's *Returns* section otherwise).", "",
             "| name | kind | returns |", "|---|---|---|"]
    for name, kind, returns in public_names():
        cell = returns.replace("|", "\\|").replace("\n", " ")
        lines.append(f"| `{name}` | {kind} | {cell} |")
    return "\n".join(lines) + "\n"


def module_page(module_name: str) -> str:
    """reST page of one public submodule: its docstring, then an autosummary of its public names."""
    module = importlib.import_module(module_name)
    names = module_names(module_name)
    title = f"``{module_name}``"
    lines = [title, "=" * len(title), "", f".. automodule:: {module_name}", "   :no-members:", "",
             f".. currentmodule:: {module_name}", ""]
    groups = {"Classes": [], "Functions": [], "Constants": []}
    for name in names:
        kind = kind_of(getattr(module, name))
        groups["Classes" if kind in ("class", "exception") else "Functions" if kind == "function" else "Constants"].append(name)
    for heading, members in groups.items():
        if not members:
            continue
        lines += [heading, "-" * len(heading), ""]
        if heading == "Constants":
            for name in members:
                lines += [f".. autodata:: {name}", "   :no-value:", ""]
            continue
        lines += [".. autosummary::", "   :toctree: ../generated", "   :nosignatures:", ""]
        lines += [f"   {name}" for name in members] + [""]
    return "\n".join(lines)


def _number(value: float) -> str:
    if value >= 1e15:
        return "∞"
    return f"{value:g}"


def _range(param: dict) -> str:
    kind = param["kind"]
    if kind == "choice":
        return ", ".join(repr(choice) for choice in param["choices"])
    if kind == "flag":
        return "True, False"
    low = "(" if param["exclusive_minimum"] else "["
    high = ")" if param["maximum"] >= 1e15 else "]"
    minimum, maximum = _number(param["minimum"]), _number(param["maximum"])
    if kind == "integer" and param["maximum"] >= 2**31 - 1:
        maximum = "2³¹ − 1"
    return f"{low}{minimum}, {maximum}{high}"


def method_parameter_table(name: str) -> str:
    """Markdown table of one method's own settings from the core's registry (name, default, range, doc)."""
    from vosim import _core

    entry = next((m for m in _core.METHODS if m["name"] == name), None)
    if entry is None:
        raise KeyError(f"no method {name!r} in the registry")
    dims = " and ".join(f"{d}D" for d in entry["dimensions"])
    aliases = ", ".join(f'`"{a}"`' for a in entry["aliases"])
    lines = [f"`vosim.{name}()`: {entry['summary']}. Works in {dims}.",
             f" Also `method=\"{name.lower()}\"`" + (f" or {aliases}" if aliases else "") + ".", ""]
    if entry["params"]:
        lines += ["```{table}", ":class: vosim-settings", "", "| setting | default | range | meaning |", "|---|---|---|---|"]
        for param in entry["params"]:
            default = param["default"]
            shown = f"`{default!r}`" if not isinstance(default, float) else f"`{default:g}`"
            lines.append(f"| `{param['name']}` | {shown} | {_range(param)} | {param['doc'].replace('|', '/')} |")
        lines.append("```")
    lines += ["", "Every method also takes the shared settings of {class}`vosim.Method` "
                  "(`perturbation`, `seed`, `deadlock` and its timings)."]
    return "\n".join(lines) + "\n"


def method_names() -> list[str]:
    from vosim import _core

    return [m["name"] for m in _core.METHODS]


#: The gallery's order: a first run, comparisons, what methods see, scene features, robots, 3D, studies.
GALLERY_ORDER = (
    "plot_circle.py", "plot_compare_methods.py", "plot_methods_side_by_side.py", "plot_velocity_space.py",
    "plot_velocity_space_hrvo.py", "plot_bottleneck_flow.py", "plot_speed_zones_and_sinks.py",
    "plot_navigation.py", "plot_differential_drive.py", "plot_warehouse.py", "plot_swarm_3d.py",
    "plot_batch_sweep.py", "plot_rl_environment.py", "plot_validation_fundamental_diagram.py",
)


class GalleryOrder:
    """sphinx-gallery's sort key of the gallery's scripts: GALLERY_ORDER, then any other by name."""

    def __init__(self, src_dir):
        self.src_dir = src_dir

    def __call__(self, filename: str):
        name = Path(filename).name
        return (GALLERY_ORDER.index(name), "") if name in GALLERY_ORDER else (len(GALLERY_ORDER), name)

    def __repr__(self) -> str:   # sphinx-gallery keys its cache on this
        return "GalleryOrder()"


class TightScraper:
    """sphinx-gallery's matplotlib scraper saving the whole drawing: vosim's plots put legends under
    their axes, outside the figure's box, where a notebook's inline figures (cut tight) show them too."""

    def __call__(self, block, block_vars, gallery_conf, **kwargs):
        from sphinx_gallery.scrapers import matplotlib_scraper

        return matplotlib_scraper(block, block_vars, gallery_conf, bbox_inches="tight", **kwargs)

    def __repr__(self) -> str:
        return "TightScraper()"


def _write_if_changed(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def generate(app=None) -> None:
    """Write the generated pages (``docs/conf.py`` calls this before Sphinx reads the sources)."""
    _write_if_changed(DOCS / "api" / "public_names.md", public_names_page())
    for module_name in PUBLIC_MODULES:
        _write_if_changed(DOCS / "api" / "modules" / f"{module_name}.rst", module_page(module_name))
    for name in method_names():
        _write_if_changed(DOCS / "methods" / "_params" / f"{name}.md", method_parameter_table(name))
    target = DOCS / "tutorials" / "notebooks"
    target.mkdir(parents=True, exist_ok=True)
    for notebook in sorted((REPOSITORY / "notebooks").glob("*.ipynb")):
        copy = target / notebook.name
        if not copy.exists() or copy.read_bytes() != notebook.read_bytes():
            shutil.copyfile(notebook, copy)

