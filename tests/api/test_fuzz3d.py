"""Fuzzing of 3D simulators: extreme and degenerate states (coincident
agents, zero speeds and radii, huge and tiny coordinates, agents on
obstacle surfaces) for every 3D method. Properties: nothing crashes; every
accepted step leaves the active agents finite and no faster than their
max_speed; a bad value is refused by name."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import vosim

MAX = vosim._checks.MAX_MAGNITUDE
METHODS_3D = [vosim.ORCA(), vosim.ForceBased(), vosim.VO(samples=20), vosim.RVO(samples=20, truncate=True)]

coordinates = st.one_of(st.floats(-MAX, MAX), st.sampled_from([0.0, 1e-300, -1e-300, 1e15, -1e15, 0.5]))
vectors = st.lists(st.tuples(coordinates, coordinates, coordinates), min_size=1, max_size=6)
magnitudes = st.one_of(st.floats(0.0, 1e6), st.sampled_from([0.0, 1e-300, 1e15]))


@given(method=st.sampled_from(METHODS_3D), positions=vectors, velocities=vectors, prefs=vectors,
       radius=magnitudes, max_speed=magnitudes, time_step=st.sampled_from([1e-15, 0.1, 1.0, 1e6]),
       obstacle=st.booleans(), duplicate=st.booleans())
def test_3d_steps_stay_finite_and_within_max_speed(method, positions, velocities, prefs, radius, max_speed,
                                                    time_step, obstacle, duplicate):
    n = len(positions)
    positions = np.array(positions, dtype=float)
    if duplicate:
        positions[-1] = positions[0]  # coincident agents
    pick = lambda rows: np.array([rows[k % len(rows)] for k in range(n)], dtype=float)  # noqa: E731
    sim = vosim.Simulator(time_step=time_step, dimensions=3, method=method)
    if obstacle:
        sim.add_obstacle(vosim.Sphere((0.0, 0.0, 0.0), 1.0))
        sim.add_obstacle(vosim.HalfSpace((0.0, 0.0, -1e3), (0.0, 0.0, 1.0)))
    sim.add_agents(positions, velocities=pick(velocities), pref_velocities=pick(prefs), radius=radius,
                   max_speed=max_speed, strict=False)
    for _ in range(2):
        try:
            sim.step()
        except ValueError as error:  # a state that left the working range, named
            assert "position" in str(error) or "velocit" in str(error)
            return
        assert np.all(np.isfinite(sim.positions)) and np.all(np.isfinite(sim.velocities))
        speeds = np.linalg.norm(sim.velocities, axis=1)
        assert np.all(speeds <= max_speed * (1 + 1e-9) + 1e-300)


@pytest.mark.parametrize("value", [np.nan, np.inf, 2e15])
def test_bad_values_in_3d_views_are_refused_by_name(value):
    sim = vosim.Simulator(dimensions=3)
    ids = sim.add_agents([[0.0, 0.0, 0.0], [4.0, 0.0, 0.0]])
    for field in ("positions", "velocities", "pref_velocities"):
        view = getattr(sim, field)
        saved = view.copy()
        view[1, 2] = value
        with pytest.raises(ValueError, match=rf"id {ids[1]}"):
            sim.step()
        view[:] = saved
    sim.step()
