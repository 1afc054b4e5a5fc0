"""Weidmann's (1993) fundamental diagram of pedestrians on the level."""

from __future__ import annotations

import numpy as np

#: Free walking speed (m/s), jam density (persons/m^2) and shape of Weidmann's diagram.
FREE_SPEED = 1.34
JAM_DENSITY = 5.4
GAMMA = 1.913


def weidmann_speed(density) -> np.ndarray:
    """Weidmann's mean speed (m/s) at ``density`` (persons/m^2): ``v0 (1 - exp(-gamma (1/rho - 1/rho_max)))``.

    Zero at and above the jam density; the free speed at density 0.
    """
    rho = np.asarray(density, dtype=np.float64)
    with np.errstate(divide="ignore"):
        inverse = np.where(rho > 0, 1.0 / np.where(rho > 0, rho, 1.0), np.inf)
    return np.maximum(FREE_SPEED * (1.0 - np.exp(-GAMMA * (inverse - 1.0 / JAM_DENSITY))), 0.0)


def weidmann_specific_flow(density) -> np.ndarray:
    """Weidmann's specific flow (persons/(m s)): density times speed."""
    return np.asarray(density, dtype=np.float64) * weidmann_speed(density)
