"""inspect() has the same keys for every method of a dimension: each method's own entries
(recorded by the method in C++) and the empty ones of the others (vosim._inspection) share
one layout."""

import numpy as np
import pytest

import vosim
from vosim import _core
from vosim._inspection import empty_method_entries
from vosim.methods import METHODS


def _dimensions(name):
    return next(tuple(spec["dimensions"]) for spec in _core.METHODS if spec["name"] == name)


def _cases():
    return [(name, d) for name in METHODS for d in _dimensions(name)]


def _inspected(name, dimensions):
    method = METHODS[name]()
    if name in ("VO", "RVO") and dimensions == 3:
        method = METHODS[name](selection="sampling")
    sim = vosim.Simulator(method=method, dimensions=dimensions)
    rng = np.random.default_rng(1)
    positions = rng.uniform(0.0, 4.0, (6, dimensions))
    sim.add_agents(positions, goals=positions[::-1].copy(), max_acceleration=5.0)
    if dimensions == 2:
        sim.add_obstacle([[1.0, 1.0], [2.0, 1.0], [2.0, 2.0]])
    sim.run(3)
    return sim.inspect(0)


def _layout(value):
    """What must agree between a recorded entry and its empty stand-in: keys, dtypes, trailing shapes."""
    if isinstance(value, dict):
        return {key: _layout(item) for key, item in value.items()}
    if isinstance(value, np.ndarray):
        return (value.dtype.str, value.shape[1:])
    return type(value).__name__


@pytest.mark.parametrize("name, dimensions", _cases())
def test_every_method_has_the_same_keys(name, dimensions):
    reference = _inspected("ORCA", dimensions)
    assert set(_inspected(name, dimensions)) == set(reference)
    assert set(empty_method_entries(dimensions)) <= set(reference)


@pytest.mark.parametrize("name, dimensions", _cases())
def test_recorded_entries_have_the_empty_layout(name, dimensions):
    seen = _inspected(name, dimensions)
    for key, empty in empty_method_entries(dimensions).items():
        if key == "forces":  # named by the method: a dict of 2-vectors
            assert all(np.shape(v) == (2,) for v in seen[key].values())
            continue
        assert _layout(seen[key]) == _layout(empty), key


def test_methods_record_their_own_entries():
    assert len(_inspected("ORCA", 2)["lines"]["point"]) > 0
    assert len(_inspected("ORCA", 3)["planes"]["point"]) > 0
    assert len(_inspected("VO", 2)["cones"]["apex"]) > 0
    assert len(_inspected("AdaptiveSampling", 2)["levels"]) > 0
    assert set(_inspected("ForceBased", 2)["forces"]) == {"steering", "separation", "avoidance", "obstacles", "total"}
