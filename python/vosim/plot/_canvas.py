"""The size of a figure's canvas: resolutions and sizes checked before matplotlib allocates them.

matplotlib's Agg canvas holds 4 bytes (RGBA) per pixel, and a figure of
``w x h`` inches at ``dpi`` has ``w h dpi^2`` pixels; a resolution with no
bound ends in an allocation failure (``--dpi 100000``) or gigabytes of
memory. 1200 dpi is print quality; vosim's figures are at most about
14 x 8 inches, which at 1200 dpi is 161 million pixels (645 MB).
"""

from __future__ import annotations

from .._checks import scalar

#: Resolutions (dots per inch) a figure may be drawn at.
MIN_DPI = 1
MAX_DPI = 1200
#: The largest canvas a figure of a chosen size may have: 24 x 24 inches at 1200 dpi (about 3.3 GB).
MAX_PIXELS = 24 * 24 * MAX_DPI**2


def checked_dpi(dpi, name: str = "dpi") -> float:
    """``dpi`` as a number within ``[MIN_DPI, MAX_DPI]``; TypeError/ValueError naming ``name`` otherwise."""
    return scalar(dpi, name, minimum=MIN_DPI, maximum=MAX_DPI)


def checked_figsize(figsize, dpi: float, name: str = "figsize") -> tuple[float, float] | None:
    """``figsize`` (inches, or None) as a pair of positive sizes whose canvas at ``dpi`` has at most
    ``MAX_PIXELS`` pixels."""
    if figsize is None:
        return None
    try:
        width, height = figsize
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected (width, height) in inches, got {figsize!r}") from None
    width = scalar(width, f"{name}[0]", minimum=0.0, strict=True)
    height = scalar(height, f"{name}[1]", minimum=0.0, strict=True)
    pixels = width * height * dpi * dpi
    if pixels > MAX_PIXELS:
        raise ValueError(f"{name} is ({width:g}, {height:g}) inches at {dpi:g} dpi: {pixels:.3g} pixels; a figure "
                         f"may have at most {MAX_PIXELS:.3g} (24 x 24 inches at {MAX_DPI} dpi): make it smaller "
                         "or lower dpi")
    return width, height

