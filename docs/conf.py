"""Sphinx configuration of vosim's documentation (``sphinx-build -W --keep-going -n docs docs/_build/html``)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
os.environ.setdefault("MPLBACKEND", "Agg")

import vosim  # noqa: E402  (the installed package, or python/ on PYTHONPATH)
import vosim_docs  # noqa: E402

# The generated pages are written before Sphinx looks for sources, so that
# autosummary sees the submodule pages it has to fill.
vosim_docs.generate()

project = "vosim"
author = "the vosim authors"
copyright = "the vosim authors, Apache-2.0"
release = vosim.__version__
version = release

extensions = [
    "myst_nb",                       # Markdown pages and the stored notebooks
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
    "sphinx.ext.mathjax",
    "sphinx_gallery.gen_gallery",
    "sphinx_copybutton",
]

source_suffix = {".rst": "restructuredtext", ".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "gallery/**", "auto_gallery/*.ipynb", "auto_gallery/*.py",
                    "methods/_params/**", "**.ipynb_checkpoints", "Thumbs.db", ".DS_Store"]

# MyST: $...$ and $$...$$ maths, ::: fences, heading anchors for [](#links).
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_heading_anchors = 3

# The notebooks are stored with their outputs (notebooks/execute.py) and the
# test suite executes them (tests/meta/test_notebooks.py): the site shows the
# stored outputs and does not run them a second time.
nb_execution_mode = "off"

# API reference: autosummary pages from numpydoc docstrings.
autosummary_generate = ["api/index.md"] + [f"api/modules/{name}.rst" for name in vosim_docs.PUBLIC_MODULES]
autosummary_imported_members = True
# A module's page lists its __all__, not the helpers it offers vosim's other packages.
autosummary_ignore_module_all = False
autodoc_typehints = "none"
# An undocumented override shows nothing rather than a base class's text written for another project.
autodoc_inherit_docstrings = False
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# Nitpicky for vosim's own references; types of other projects and the
# shorthand of docstrings (array-like, (N, 2) float64) are not documented here.
nitpicky = True
nitpick_ignore_regex = [
    (r"py:.*", r"(numpy|np|pandas|pd|matplotlib|mpl|shapely|gymnasium|pettingzoo|dask|distributed|scipy|pedpy|pyarrow)(\..*)?"),
    (r"py:.*", r"(collections\.abc|typing|types|pathlib|os|io|abc|enum|dataclasses|json)\..*"),
    (r"py:class", r"(optional|array[-_ ]like|array|ndarray|float|int|bool|str|dict|list|tuple|callable|Callable|object|"
                  r"None|Path|Sequence|Mapping|Iterable|Iterator|Figure|Axes|FuncAnimation|DataFrame|Series|ABC|"
                  r"function|path-like|file-like|sequence|mapping|iterable)"),
    (r"py:class", r"vosim\._core\..*"),     # the compiled core's classes are internals
    (r"py:attr", r"(observation_space|action_space|np_random_seed|np_random)"),   # gymnasium.Env's
]

html_theme = "pydata_sphinx_theme"
html_title = f"vosim {release}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "header_links_before_dropdown": 8,
    # The page's own table of contents on the right, except where wide tables need the room.
    "secondary_sidebar_items": {"**": ["page-toc"], "validation": [], "performance": [], "parity": [],
                                "benchmark_results": [],
                                **{f"methods/{page.stem}": [] for page in (HERE / "methods").glob("*.md")}},
}
html_static_path = ["_static"]
html_css_files = ["vosim.css"]
templates_path = ["_templates"]
# Pages without sub-pages get the width of the left column (the validation and speed tables need it).
html_sidebars = {page: [] for page in ("index", "getting_started", "validation", "parity", "performance",
                                       "benchmark_results", "migrating", "changelog")}

# The gallery: docs/gallery/plot_*.py run at build time, each ending in a figure.
sphinx_gallery_conf = {
    "examples_dirs": ["gallery"],
    "gallery_dirs": ["auto_gallery"],
    "filename_pattern": r"/plot_",
    "within_subsection_order": "vosim_docs.GalleryOrder",
    "download_all_examples": False,
    "remove_config_comments": True,
    "image_scrapers": (vosim_docs.TightScraper(),),
    "matplotlib_animations": False,
    "show_memory": False,
    "min_reported_time": 1,
    "reset_modules": ("matplotlib",),
    "capture_repr": (),
}

suppress_warnings = ["myst.header", "config.cache"]
smartquotes = False   # 'sampling' stays the string a user types
