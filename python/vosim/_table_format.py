"""How tables of results are written: CSV files and printed columns."""

from __future__ import annotations

import math

#: Floats in CSV files: 10 significant digits. The metrics are sums and
#: products of doubles whose shortest exact form can carry round-off
#: (``13.100000000000001`` for 131 steps of 0.1 s); ten digits keep every
#: figure the metrics can vouch for and drop that noise.
CSV_FLOAT_FORMAT = "%.10g"


def column_formatters(frame, significant: int = 4, missing: str = "-") -> dict:
    """Per float column of ``frame``, a formatter with one number of decimals for the whole column.

    The decimals give ``significant`` digits to the column's largest
    magnitude, so a column reads ``1.000`` and ``0.958``, never ``1`` and
    ``0.9583``; NaN reads ``missing``.
    """
    formatters = {}
    for name in frame.columns:
        values = frame[name]
        if values.dtype.kind != "f":
            continue
        finite = [abs(float(v)) for v in values if math.isfinite(float(v))]
        largest = max(finite, default=0.0)
        leading = math.floor(math.log10(largest)) if largest > 0 else 0
        decimals = max(0, significant - 1 - leading)

        def formatter(value, decimals=decimals):
            return missing if value != value else f"{value:.{decimals}f}"

        formatters[name] = formatter
    return formatters
