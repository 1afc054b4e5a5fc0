"""The standalone page: the viewer's module and one scene inlined into a single HTML file."""

from __future__ import annotations

import base64
import html
import json
from importlib import resources
from pathlib import Path

import numpy as np

from .._atomic import atomic_path
from ._scene import ViewScene, size_text

#: Byte alignment of each typed array in the blob (a Float32Array or Int32Array view needs 4).
ALIGN = 8
SUFFIXES = (".html", ".htm")


def module_source() -> str:
    """The text of ``viewer.js``, the front end shared by the page and the widget."""
    return resources.files(__package__).joinpath("viewer.js").read_text(encoding="utf-8")


def pack(scene: ViewScene) -> tuple[dict, bytes]:
    """The scene's meta with ``layout`` (name -> [type, offset, length]) and its arrays as one blob."""
    layout, parts, offset = {}, [], 0
    for name, array in scene.buffers.items():
        array = np.ascontiguousarray(array)
        layout[name] = [array.dtype.name, offset, int(array.size)]
        data = array.astype(array.dtype.newbyteorder("<"), copy=False).tobytes()
        padding = -len(data) % ALIGN
        parts.append(data + b"\0" * padding)
        offset += len(data) + padding
    return {**scene.meta, "layout": layout}, b"".join(parts)


def check_page_path(path) -> Path:
    if not isinstance(path, (str, Path)):
        raise TypeError(f"path: expected a str or pathlib.Path, got {type(path).__name__}")
    path = Path(path)
    if path.suffix.lower() not in SUFFIXES:
        raise ValueError(f"path is {str(path)!r}; expected a file name ending in .html or .htm")
    if not path.parent.is_dir():
        raise ValueError(f"path is {str(path)!r}; its folder {str(path.parent)!r} does not exist")
    return path


def page_text(scene: ViewScene) -> str:
    """The page: the scene's meta as JSON, its blob as base64, the module, and the lines that start it."""
    meta, blob = pack(scene)
    encoded = base64.b64encode(blob).decode("ascii")
    # "</" would end the script element early; JSON reads "<\/" as "</".
    meta_json = json.dumps(meta, separators=(",", ":"), allow_nan=False).replace("</", "<\\/")
    module = module_source()
    title = html.escape(meta["title"])

    def assemble(size: str) -> str:
        return (
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{title}</title>\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n</head>\n"
            "<body style=\"margin:12px\">\n<div id=\"vosim-app\"></div>\n"
            f"<script type=\"application/json\" id=\"vosim-meta\">{meta_json}</script>\n"
            f"<script type=\"application/octet-stream\" id=\"vosim-data\">{encoded}</script>\n"
            f"<script type=\"module\">\n{module}\n"
            "const scene = sceneFromDocument(document);\n"
            "// (#renderer=2d in the address draws with the 2D canvas, as where WebGL is missing)\n"
            "const renderer = new URLSearchParams(location.hash.slice(1)).get(\"renderer\");\n"
            "createViewer(document.getElementById(\"vosim-app\"), scene,"
            f" {{ pageSize: {json.dumps(size)}, renderer }});\n"
            "</script>\n</body>\n</html>\n"
        )

    # The page states its own size: measured with a first guess, then with the size it has.
    size = size_text(len(assemble("0 B").encode("utf-8")))
    return assemble(size_text(len(assemble(size).encode("utf-8"))))


def write_page(scene: ViewScene, path) -> Path:
    """Write the page to ``path`` atomically (a temporary file in the same folder, then renamed)."""
    path = check_page_path(path)
    text = page_text(scene)
    with atomic_path(path) as temporary:
        temporary.write_text(text, encoding="utf-8")
    return path
