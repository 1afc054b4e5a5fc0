"""Helbing's social force model (Helbing, Farkas, Vicsek 2000, as JuPedSim
implements it): the published parameter set, relaxation to v0 with time
constant tau, the equilibrium distances the parameters fix (pair and wall),
a head-on pass, a corridor, a bottleneck, edge cases, determinism, checks."""

import numpy as np
import pytest

import vosim
from vosim import scenarios

from _pedestrian_models import (assert_agents_stay_inside_a_corridor, bottleneck_bytes_per_thread_count,
                                deepest_overlap)

# Helbing, Farkas & Vicsek 2000 (Nature 407), and JuPedSim's defaults.
PUBLISHED = {"mass": 80.0, "reaction_time": 0.5, "agent_scale": 2000.0, "obstacle_scale": 2000.0,
             "force_distance": 0.08, "body_force": 1.2e5, "friction": 2.4e5}


def walkers(starts, goals, time_step=0.1, method=None, **fields):
    sim = vosim.Simulator(time_step=time_step, method=method or vosim.SocialForce())
    fields = {"radius": 0.25, "max_speed": 2.0, "pref_speed": 1.34, "neighbor_dist": 5.0, **fields}
    sim.add_agents(starts, goals=goals, **fields)
    return sim


def test_defaults_are_the_published_parameter_set():
    settings = vosim.SocialForce().to_dict()
    assert {name: settings[name] for name in PUBLISHED} == PUBLISHED


@pytest.mark.parametrize("time_step", [0.01, 0.1])
def test_free_walking_relaxes_to_v0_with_time_constant_tau(time_step):
    sim = walkers([[0.0, 0.0]], [[1000.0, 0.0]], time_step=time_step)
    for step in range(1, int(2.0 / time_step) + 1):
        sim.step()
        # Explicit steps of dv/dt = (v0 - v) / tau from rest.
        expected = 1.34 * (1.0 - (1.0 - time_step / 0.5) ** step)
        assert sim.velocities[0, 0] == pytest.approx(expected, rel=1e-12)
    # Over one tau the exact solution reaches 1 - 1/e of v0; small steps follow it.
    fine = walkers([[0.0, 0.0]], [[1000.0, 0.0]], time_step=0.001)
    for _ in range(500):
        fine.step()
    assert fine.velocities[0, 0] == pytest.approx(1.34 * (1.0 - np.exp(-1.0)), rel=2e-3)


def test_opposing_pair_stands_where_driving_balances_repulsion():
    # Exactly head-on, each pushing towards the other: at rest the driving
    # force m v0 / tau equals A exp((r_ij - d) / B), so
    # d = r_ij - B ln(m v0 / (tau A)) = 0.5 + 0.08 ln(1000 / 107.2) = 0.6786 m.
    sim = walkers([[-3.0, 0.0], [3.0, 0.0]], [[50.0, 0.0], [-50.0, 0.0]])
    for _ in range(200):
        sim.step()
    expected = 0.5 - 0.08 * np.log(80.0 * 1.34 / (0.5 * 2000.0))
    assert np.linalg.norm(sim.positions[0] - sim.positions[1]) == pytest.approx(expected, abs=1e-6)
    assert np.abs(sim.velocities).max() < 1e-5


def test_agent_pressed_against_a_wall_stands_where_forces_balance():
    # Same balance against a wall. Every wall segment near the agent pushes,
    # as in JuPedSim, also the slab's far face 0.2 m behind the near one:
    # A_W (exp((r - d) / B) + exp((r - d - 0.2) / B)) = m v0 / tau, so
    # d - r = B ln(A_W tau (1 + exp(-0.2 / B)) / (m v0)) = 0.1850 m.
    sim = walkers([[5.0, 0.0]], [[5.0, 50.0]])
    sim.add_obstacle([[0.0, 1.0], [30.0, 1.0], [30.0, 1.2], [0.0, 1.2]])
    for _ in range(200):
        sim.step()
    gap = 1.0 - sim.positions[0, 1] - 0.25
    assert gap == pytest.approx(0.08 * np.log(2000.0 * 0.5 * (1 + np.exp(-0.2 / 0.08)) / (80.0 * 1.34)), abs=1e-6)


def test_a_wall_line_pushes_once_from_the_side_the_agent_faces():
    # A wall drawn as a line (its two edges fold back on each other) is one
    # segment: the balance of a single face, d - r = B ln(A_W tau / (m v0)).
    sim = walkers([[5.0, 0.0]], [[5.0, 50.0]])
    sim.add_wall([[0.0, 1.0], [15.0, 1.0], [30.0, 1.0]])
    for _ in range(200):
        sim.step()
    gap = 1.0 - sim.positions[0, 1] - 0.25
    assert gap == pytest.approx(0.08 * np.log(2000.0 * 0.5 / (80.0 * 1.34)), abs=1e-6)


def test_head_on_pair_passes_keeping_its_distance():
    sim = walkers([[-5.0, 0.05], [5.0, -0.05]], [[5.0, 0.05], [-5.0, -0.05]], time_step=0.01)
    closest = np.inf
    for _ in range(1500):
        sim.step()
        closest = min(closest, np.linalg.norm(sim.positions[0] - sim.positions[1]))
    # The bodies never touch (r_ij = 0.5); side by side they pass closer than
    # the 0.6786 m at which an exactly head-on pair stops (see above), since
    # the repulsion there pushes sideways, not against the driving force.
    assert 0.5 < closest < 0.6786
    assert sim.positions[0, 0] > 4.0 and sim.positions[1, 0] < -4.0


def test_agents_stay_inside_a_corridor():
    assert_agents_stay_inside_a_corridor("sfm")


def test_bottleneck_is_passed_with_bounded_overlaps():
    sim = scenarios.bottleneck(40).build(vosim.SocialForce())
    start = sim.positions.copy()
    worst = deepest_overlap(sim, 300)
    assert np.all(np.isfinite(sim.positions))
    assert worst < 0.25  # bodies are soft (k = 1.2e5 kg/s^2): they overlap under pressure, never pass through
    assert np.linalg.norm(sim.positions - start, axis=1).mean() > 3.0


def test_coincident_agents_and_an_agent_on_a_wall_stay_finite():
    sim = walkers([[0.0, 0.0], [0.0, 0.0], [5.0, 1.0]], [[10.0, 0.0], [10.0, 0.0], [5.0, 5.0]])
    sim.add_obstacle([[0.0, 1.0], [30.0, 1.0], [30.0, 1.2], [0.0, 1.2]])
    for _ in range(20):
        sim.step()
        assert np.all(np.isfinite(sim.positions)) and np.all(np.isfinite(sim.velocities))
        assert np.all(np.linalg.norm(sim.velocities, axis=1) <= 2.0 + 1e-12)
    assert sim.positions[0, 0] < sim.positions[1, 0]  # pushed apart, the lower slot towards -x first


def test_inspect_reports_the_forces():
    sim = walkers([[0.0, 0.0]], [[10.0, 0.0]])
    record = sim.inspect(0)
    forces = record["forces"]
    assert np.allclose(forces["driving"], [1.34 / 0.5, 0.0])
    assert np.allclose(forces["agents"], 0.0) and np.allclose(forces["walls"], 0.0)
    # In a crowd beside a wall, inspection computes exactly the next step.
    crowd = scenarios.bottleneck(30).build(vosim.SocialForce())
    crowd.run(20)
    seen = [crowd.inspect(int(i))["new_velocity"] for i in crowd.ids]
    crowd.step()
    np.testing.assert_array_equal(np.array(seen), crowd.velocities)


def test_bit_identical_for_any_thread_count():
    if not vosim.have_threads():
        pytest.skip("built without threads")
    results = bottleneck_bytes_per_thread_count(vosim.SocialForce)
    assert results[0] == results[1] == results[2]


def test_the_registry_knows_it():
    assert vosim.methods.METHOD_ALIASES["sfm"] == "SocialForce"
    assert vosim.methods.METHOD_ALIASES["social_force"] == "SocialForce"
    assert isinstance(vosim.Simulator(method="sfm").method, vosim.SocialForce)


@pytest.mark.parametrize("name, value", [("mass", 0.0), ("mass", np.nan), ("reaction_time", -1.0),
                                         ("agent_scale", -1.0), ("obstacle_scale", np.inf),
                                         ("force_distance", 0.0), ("body_force", -5.0), ("friction", np.nan)])
def test_bad_parameters_are_refused_by_name(name, value):
    with pytest.raises(ValueError, match=name):
        vosim.SocialForce(**{name: value})
