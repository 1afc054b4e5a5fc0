"""The lane kernels give the same bits at every instruction-set level.

VO, RVO, AdaptiveSampling and GridSampling evaluate several neighbours at a
time, and AVO several samples of its envelope (``vosim.simd_level()``). Each level must choose the same velocities,
bit for bit, as the others; the C++ tests compare each kernel with the
one-at-a-time code it replaced.
"""

from __future__ import annotations

import numpy as np
import pytest

import vosim

LEVELS = ["scalar", "sse2", "avx2"]


def available_levels() -> list[str]:
    best = vosim._core.best_simd_level()
    return LEVELS[: LEVELS.index(best) + 1]


@pytest.fixture(autouse=True)
def best_level_afterwards():
    yield
    vosim.set_simd_level(None)


def crowd_run(method: str) -> np.ndarray:
    """A crowd crossing a walled square: every neighbour and wall path taken."""
    rng = np.random.default_rng(3)
    n = 48
    angle = np.linspace(0.0, 2.0 * np.pi, n, endpoint=False)
    start = 6.0 * np.column_stack([np.cos(angle), np.sin(angle)]) + rng.uniform(-0.2, 0.2, (n, 2))
    sim = vosim.Simulator(time_step=0.1, method=getattr(vosim, method)())
    sim.add_agents(start, goals=-start, radius=0.35, max_speed=1.5, pref_speed=1.2, neighbor_dist=4.0,
                   max_neighbors=12)
    sim.add_boundary([(-9.0, -9.0), (9.0, -9.0), (9.0, 9.0), (-9.0, 9.0)])
    sim.add_obstacle([(-0.6, -0.6), (0.6, -0.6), (0.6, 0.6), (-0.6, 0.6)])
    trajectory = sim.run(60)
    return np.concatenate([trajectory.positions.ravel(), sim.velocities.ravel()])


@pytest.mark.parametrize("method", ["VO", "RVO", "AdaptiveSampling", "GridSampling", "AVO"])
def test_every_level_gives_the_same_bits(method):
    runs = {}
    for level in available_levels():
        vosim.set_simd_level(level)
        assert vosim.simd_level() == level
        runs[level] = crowd_run(method)
    reference = runs["scalar"]
    moved = np.abs(reference[: reference.size // 2]).max()
    assert moved > 0
    for level, values in runs.items():
        assert values.tobytes() == reference.tobytes(), f"{method}: {level} differs from scalar"


def test_the_best_level_is_the_default():
    vosim.set_simd_level("scalar")
    vosim.set_simd_level(None)
    assert vosim.simd_level() == vosim._core.best_simd_level()
    assert vosim.simd_level() in LEVELS


@pytest.mark.parametrize("bad, message", [("avx512", "level 'avx512' is not one of"), ("", "level '' is not one of")])
def test_an_unknown_level_is_refused_by_name(bad, message):
    before = vosim.simd_level()
    with pytest.raises(ValueError, match=message):
        vosim.set_simd_level(bad)
    assert vosim.simd_level() == before


def test_a_level_that_is_not_a_string_is_refused():
    with pytest.raises(TypeError, match="level must be"):
        vosim.set_simd_level(2)
