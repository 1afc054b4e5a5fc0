"""A measured fundamental diagram: the Jülich uni-directional corridor experiments.

The data (``data/juelich_uo_corridor.csv``; provenance in ``data/README.md``)
are the classic density and mean speed in a 1.8 x 2 m area of a 1.8 m wide
corridor, once a second over the steady state of nine runs, computed with
PedPy.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

_DATA = Path(__file__).with_name("data") / "juelich_uo_corridor.csv"


@lru_cache(maxsize=1)
def _table() -> tuple:
    names = np.loadtxt(_DATA, delimiter=",", skiprows=1, usecols=0, dtype=str)
    values = np.loadtxt(_DATA, delimiter=",", skiprows=1, usecols=(1, 2, 3), dtype=np.float64)
    return names, values


def juelich_corridor() -> dict:
    """The measured points: one per second of each run's steady state.

    Returns
    -------
    dict
        ``experiment`` (run names, e.g. ``"uo-180-180-070"``), ``time``
        (s since the steady state began), ``density`` (persons/m^2) and
        ``speed`` (m/s), arrays of equal length (fresh copies).
    """
    names, values = _table()
    return {"experiment": names.copy(), "time": values[:, 0].copy(), "density": values[:, 1].copy(),
            "speed": values[:, 2].copy()}


def juelich_speed(density, *, bin_width: float = 0.25, min_samples: int = 10) -> np.ndarray:
    """The measured mean speed (m/s) at each ``density`` (persons/m^2).

    The mean of the measured speeds whose density falls in the same bin
    of ``bin_width`` (bins ``(k w, (k+1) w]``); NaN where the bin holds
    fewer than ``min_samples`` points (the experiments reach about 3.5
    persons/m^2).
    """
    if not (np.isfinite(bin_width) and bin_width > 0):
        raise ValueError(f"bin_width must be a positive number, got {bin_width!r}")
    if int(min_samples) != min_samples or min_samples < 1:
        raise ValueError(f"min_samples must be a positive whole number, got {min_samples!r}")
    rho = np.asarray(density, dtype=np.float64)
    data = juelich_corridor()
    bins = np.ceil(data["density"] / bin_width).astype(np.int64)
    wanted = np.ceil(np.where(np.isfinite(rho), rho, -1.0) / bin_width).astype(np.int64)
    out = np.full(rho.shape, np.nan)
    for k in np.unique(wanted[wanted > 0]):
        speeds = data["speed"][bins == k]
        if speeds.size >= min_samples:
            out[wanted == k] = speeds.mean()
    return out
