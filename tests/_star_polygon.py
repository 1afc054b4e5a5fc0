"""A test polygon shared by the engine's and the navigation's tests of large maps."""

import numpy as np


def star(n, seed, centre=(0.0, 0.0), radius=50.0):
    """A simple (star-shaped) counter-clockwise polygon of n vertices with random radii: many concave corners."""
    rng = np.random.default_rng(seed)
    angles = np.sort(rng.choice(np.linspace(0, 2 * np.pi, 8 * n, endpoint=False), n, replace=False))
    radii = radius * rng.uniform(0.5, 1.0, n)
    return np.asarray(centre) + radii[:, None] * np.column_stack([np.cos(angles), np.sin(angles)])
