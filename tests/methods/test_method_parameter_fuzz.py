"""Every method's parameter space, within the ranges its registry states:
steps finish with finite state or stop with a documented refusal, never
with an internal error, a crash or NaN.

Values are drawn at the edges of each range (the minimum, or just above an
exclusive one; the maximum) and across it (tiny, ordinary, huge), on small
scenes with agents on one spot, overlapping, far apart, and an obstacle.
Counts (samples, divisions, rings) are drawn small enough to keep the test
quick; their ranges' upper ends are a cost, not a danger to finiteness.
"""

import math

import numpy as np
import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

import vosim
from vosim import _core

PLANE_SPECS = [spec for spec in _core.METHODS if 2 in spec["dimensions"]]
COUNT_CAP = 300  # the largest count drawn (samples, grid size, divisions)


def values_of(param):
    """A strategy over one parameter's accepted values, edges included."""
    kind = param["kind"]
    if kind == "choice":
        return st.sampled_from(param["choices"])
    if kind == "flag":
        return st.booleans()
    lo, hi = param["minimum"], param["maximum"]
    if kind == "integer":
        low = int(lo) + (1 if param["exclusive_minimum"] else 0)
        return st.integers(low, min(int(hi), max(low, COUNT_CAP)))
    low = math.nextafter(lo, math.inf) if param["exclusive_minimum"] else lo
    inside = [v for v in (1e-300, 1e-12, 1e-3, 0.5, 1.0, 10.0, 1e6, 1e12) if low <= v <= hi]
    return st.one_of(st.sampled_from([low, hi, param["default"], *inside]),
                     st.floats(low, hi, allow_nan=False, allow_infinity=False))


@st.composite
def method_settings(draw):
    spec = draw(st.sampled_from(PLANE_SPECS))
    chosen = {}
    for param in spec["params"]:
        if draw(st.booleans()):
            chosen[param["name"]] = draw(values_of(param))
    return spec["name"], chosen


SCENES = {
    "one spot": np.zeros((4, 2)),
    "overlapping": np.array([[0.0, 0.0], [0.1, 0.0], [0.0, 0.1], [-0.1, -0.1]]),
    "crossing": np.array([[-3.0, 0.0], [3.0, 0.0], [0.0, -3.0], [0.0, 3.0]]),
    "far apart": np.array([[-1e6, 0.0], [1e6, 0.0], [0.0, 1e6], [5.0, 5.0]]),
}


@settings(max_examples=150, deadline=None)
@given(method_settings(), st.sampled_from(sorted(SCENES)), st.sampled_from([0.01, 0.1, 1.0]), st.booleans())
def test_every_parameter_within_its_range_keeps_the_state_finite(setting, scene, time_step, obstacle):
    name, params = setting
    note(f"{name}({params}), {scene}, dt {time_step}, obstacle {obstacle}")
    method = getattr(vosim, name)(**params)
    sim = vosim.Simulator(time_step=time_step, method=method)
    starts = SCENES[scene]
    sim.add_agents(starts, goals=-starts[::-1] + 1.0, max_acceleration=20.0)
    if obstacle:
        sim.add_obstacle([[1.0, -0.5], [2.0, -0.5], [2.0, 0.5], [1.0, 0.5]], strict=False)
    try:
        sim.run(3)
    except ValueError as error:  # documented refusals only, naming what to change
        message = str(error)
        assert "internal error" not in message, message
        assert "agent id" in message or "method" in message or name in message, message
        return
    assert np.isfinite(sim.positions).all() and np.isfinite(sim.velocities).all()
