"""The velocity-obstacle kernel (VO, RVO, HRVO cones; sampling and geometric
selection) on small cases whose answer is known: cone geometry, pairs of
agents, static segments, overlaps, determinism of the sampling, and the
checks of bad configurations."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from _local_kernels import vo_velocity
from vosim import _core

CONES = ["vo", "rvo", "hrvo"]
SELECTIONS = ["sampling", "geometric"]
METHODS = list(itertools.product(CONES, SELECTIONS))


def velocity(position, vel, pref, neighbors=(), segments=(), *, radius=0.5, max_speed=1.5, time_step=0.1,
             diagnostics=False, **kwargs):
    return vo_velocity(position, vel, pref, radius=radius, max_speed=max_speed,
                       neighbors=np.asarray(neighbors, dtype=float).reshape(-1, 7),
                       segments=np.asarray(segments, dtype=float).reshape(-1, 4),
                       time_step=time_step, diagnostics=diagnostics, **kwargs)


def det(a, b) -> float:
    return a[0] * b[1] - a[1] * b[0]


def simulate(starts, goals, *, cone, selection, steps=300, time_step=0.1, radius=0.5, max_speed=1.5,
             pref_speed=1.0, **kwargs):
    """Agents driven by the kernel towards their goals (the HRVO library's
    preferred velocity rule); returns final positions, the smallest centre
    distance seen and every velocity chosen."""
    p = np.array(starts, dtype=float)
    goals = np.asarray(goals, dtype=float)
    v = np.zeros_like(p)
    smallest = np.inf
    chosen = []
    for step in range(steps):
        to_goal = goals - p
        dist = np.linalg.norm(to_goal, axis=1, keepdims=True)
        pref = np.where(dist > pref_speed * time_step, pref_speed * to_goal / np.maximum(dist, 1e-300),
                        to_goal / time_step)
        new = np.empty_like(v)
        for i in range(len(p)):
            others = [[*p[j], *v[j], *pref[j], radius] for j in range(len(p)) if j != i]
            new[i] = velocity(p[i], v[i], pref[i], others, radius=radius, max_speed=max_speed,
                              time_step=time_step, cone=cone, selection=selection, agent_id=i, step=step,
                              **kwargs)
        v = new
        chosen.append(v.copy())
        p = p + v * time_step
        for i, j in itertools.combinations(range(len(p)), 2):
            smallest = min(smallest, np.linalg.norm(p[i] - p[j]))
    return p, smallest, np.array(chosen)


PAIRS = {
    "head-on": ([(-5, 0), (5, 0)], [(5, 0), (-5, 0)]),
    "head-on, offset": ([(-5, 0.1), (5, 0)], [(5, 0.1), (-5, 0)]),
    "crossing": ([(-5, 0), (0, -6)], [(5, 0), (0, 5)]),
    "oblique": ([(-5, -5), (5, -4)], [(5, 5), (-5, 4)]),
}


# ----------------------------------------------------------------- pairs


@pytest.mark.parametrize("cone, selection", METHODS)
@pytest.mark.parametrize("pair", list(PAIRS))
def test_two_agents_reach_their_goals_with_finite_velocities(cone, selection, pair):
    starts, goals = PAIRS[pair]
    final, smallest, chosen = simulate(starts, goals, cone=cone, selection=selection)
    assert np.all(np.isfinite(chosen))
    assert np.all(np.linalg.norm(chosen, axis=2) <= 1.5 * (1 + 1e-9))
    np.testing.assert_allclose(final, goals, atol=0.05)
    assert smallest > 0.5  # never more than half a combined radius of overlap, whatever the method


@pytest.mark.parametrize("truncate", [False, True])
@pytest.mark.parametrize("pair", list(PAIRS))
def test_hrvo_geometric_pair_never_collides(pair, truncate):
    """With a horizon of 5 s (50 steps) the pair sees the conflict early enough."""
    starts, goals = PAIRS[pair]
    _, smallest, _ = simulate(starts, goals, cone="hrvo", selection="geometric", truncate=truncate,
                              time_horizon=5.0)
    assert smallest >= 1.0 - 1e-9


@pytest.mark.parametrize("cone, selection", METHODS)
def test_free_agent_keeps_its_preferred_velocity(cone, selection):
    pref = np.array([0.6, -0.8])
    far = [[50.0, 50.0, 0.0, 0.0, 0.0, 0.0, 0.5]]
    np.testing.assert_array_equal(velocity([0, 0], [0, 0], pref, far, cone=cone, selection=selection), pref)
    # Faster than allowed: shortened to the maximum speed.
    np.testing.assert_allclose(velocity([0, 0], [0, 0], 3 * pref, cone=cone, selection=selection), 1.5 * pref)


@pytest.mark.parametrize("cone, selection", METHODS)
def test_agent_on_collision_course_deviates(cone, selection):
    neighbor = [[3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.5]]  # at rest, straight ahead
    v, diag = velocity([0, 0], [1, 0], [1, 0], neighbor, cone=cone, selection=selection, diagnostics=True)
    assert np.linalg.norm(v - [1, 0]) > 0.05
    chosen = diag["chosen"]
    assert np.array_equal(diag["candidates"][chosen], v)
    if selection == "geometric":
        assert diag["blocking_cone"][chosen] == -1 and not diag["used_fallback"]
    else:
        assert diag["penalty"][chosen] == diag["penalty"].min()


# --------------------------------------------------------- cone geometry


def one_cone(cone, *, p_b=(4.0, 1.0), v_a=(1.0, 0.8), v_b=(-0.5, 0.3), pref_a=(1.0, 0.0), pref_b=(-1.0, 0.0),
             radius_a=0.5, radius_b=0.7, **kwargs):
    neighbor = [[*p_b, *v_b, *pref_b, radius_b]]
    _, diag = velocity([0, 0], v_a, pref_a, neighbor, radius=radius_a, cone=cone, selection="geometric",
                       diagnostics=True, **kwargs)
    return diag


def test_cone_legs_are_the_tangents_to_the_combined_disc():
    diag = one_cone("vo")
    rel, combined = np.array([4.0, 1.0]), 1.2
    half_angle = np.arcsin(combined / np.linalg.norm(rel))
    for leg, sign in ((diag["right_leg"][0], -1), (diag["left_leg"][0], 1)):
        assert np.linalg.norm(leg) == pytest.approx(1.0)
        assert np.dot(leg, rel) / np.linalg.norm(rel) == pytest.approx(np.cos(half_angle))
        assert np.sign(det(rel, leg)) == sign  # right leg clockwise of the centre line
    assert diag["cone_kind"] == ["agent"]


def test_vo_apex_is_the_neighbours_velocity():
    np.testing.assert_allclose(one_cone("vo")["apex"][0], [-0.5, 0.3])


def test_rvo_apex_is_the_mean_velocity():
    np.testing.assert_allclose(one_cone("rvo")["apex"][0], [0.25, 0.55])


@pytest.mark.parametrize("pref_b, vo_leg, rvo_leg", [((-1.0, -1.0), "right_leg", "left_leg"),
                                                     ((-1.0, 1.0), "left_leg", "right_leg")])
def test_hrvo_apex_joins_a_vo_leg_and_the_other_rvo_leg(pref_b, vo_leg, rvo_leg):
    """The side comes from det(p_B - p_A, pref_A - pref_B) (here
    det((4, 1), (2, 1)) = 2 > 0 and det((4, 1), (2, -1)) = -6): > 0 passes
    with the neighbour on the right (VO's right leg, RVO's left leg)."""
    diag = one_cone("hrvo", pref_b=pref_b, hrvo_apex="symmetric")
    apex = diag["apex"][0]
    assert det(diag[vo_leg][0], apex - [-0.5, 0.3]) == pytest.approx(0.0, abs=1e-12)
    assert det(diag[rvo_leg][0], apex - [0.25, 0.55]) == pytest.approx(0.0, abs=1e-12)


def test_library_hrvo_apex_reflects_the_right_hand_crossing_through_v_b():
    v_b = np.array([-0.5, 0.3])
    # Neighbour on the right: both constructions agree.
    right = one_cone("hrvo", pref_b=(-1.0, -1.0), hrvo_apex="library")["apex"][0]
    np.testing.assert_allclose(right, one_cone("hrvo", pref_b=(-1.0, -1.0), hrvo_apex="symmetric")["apex"][0])
    symmetric = one_cone("hrvo", pref_b=(-1.0, 1.0), hrvo_apex="symmetric")["apex"][0]
    library = one_cone("hrvo", pref_b=(-1.0, 1.0), hrvo_apex="library")["apex"][0]
    assert np.linalg.norm(symmetric - v_b) > 0.1
    np.testing.assert_allclose(library - v_b, -(symmetric - v_b))


@pytest.mark.parametrize("cone", CONES)
def test_uncertainty_offset_moves_the_apex_back(cone):
    plain = one_cone(cone)["apex"][0]
    offset = one_cone(cone, uncertainty_offset=0.1)["apex"][0]
    np.testing.assert_allclose(offset, plain - 0.1 / 1.2 * np.array([4.0, 1.0]))


@pytest.mark.parametrize("cone, scale", [("vo", 1.0), ("rvo", 2.0), ("hrvo", 2.0)])
def test_truncation_cap(cone, scale):
    diag = one_cone(cone, truncate=True, time_horizon=2.0)
    apex = diag["apex"][0]
    assert diag["scale"][0] == scale and diag["horizon"][0] == 2.0
    np.testing.assert_allclose(diag["cap_a"][0], apex + np.array([4.0, 1.0]) / (scale * 2.0))
    assert diag["cap_radius"][0] == pytest.approx(1.2 / (scale * 2.0))
    untruncated = one_cone(cone)
    assert np.isinf(untruncated["horizon"][0]) and np.isnan(untruncated["cap_radius"][0])


def test_truncation_ignores_collisions_beyond_the_horizon():
    """A neighbour at rest 10 m ahead: 9 s away at 1 m/s."""
    neighbor = [[10.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.5]]
    for selection in SELECTIONS:
        short = velocity([0, 0], [1, 0], [1, 0], neighbor, cone="vo", selection=selection, truncate=True,
                         time_horizon=5.0)
        np.testing.assert_array_equal(short, [1, 0])
        long = velocity([0, 0], [1, 0], [1, 0], neighbor, cone="vo", selection="geometric", truncate=True,
                        time_horizon=20.0)
        assert np.linalg.norm(long - [1, 0]) > 1e-3


@pytest.mark.parametrize("cone, horizon", [("vo", 3.0), ("rvo", 1.5), ("hrvo", 1.5)])
@pytest.mark.parametrize("pref", [(0.95, 0.05), (1.0, 0.0)])
def test_geometric_choice_lies_on_the_truncated_cone_boundary(cone, horizon, pref):
    """Through the cap, not along the legs: the cap is the disc of radius 1/3
    around (1, 0) (both agents at rest), and the nearest admissible velocity
    to a preferred velocity inside it is on the cap's near side, also from
    its very centre."""
    neighbor = [[3.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.5]]
    pref = np.array(pref)
    v, diag = velocity([0, 0], [0, 0], pref, neighbor, cone=cone, selection="geometric", truncate=True,
                       time_horizon=horizon, diagnostics=True)
    np.testing.assert_allclose(diag["cap_a"][0], [1.0, 0.0])
    centre, radius = diag["cap_a"][0], diag["cap_radius"][0]
    assert np.linalg.norm(pref - centre) < radius  # v_pref inside the cap disc
    assert np.linalg.norm(v - centre) == pytest.approx(radius)
    assert np.linalg.norm(v - pref) == pytest.approx(radius - np.linalg.norm(pref - centre))
    assert v[0] < 1.0


# ---------------------------------------------------------------- segments


WALL = [[3.0, -1.0, 3.0, 1.0]]


def test_segment_cone_is_tangent_to_the_end_discs():
    _, diag = velocity([0, 0], [1, 0], [1, 0], segments=WALL, cone="vo", selection="geometric", diagnostics=True)
    assert diag["cone_kind"] == ["segment"]
    np.testing.assert_array_equal(diag["apex"][0], [0, 0])
    for leg, end, turn in ((diag["right_leg"][0], (3.0, -1.0), -1), (diag["left_leg"][0], (3.0, 1.0), 1)):
        angle = np.arctan2(end[1], end[0]) + turn * np.arcsin(0.5 / np.hypot(*end))
        np.testing.assert_allclose(leg, [np.cos(angle), np.sin(angle)])


@pytest.mark.parametrize("cone, selection", METHODS)
def test_segment_ahead_makes_the_agent_deviate(cone, selection):
    v, diag = velocity([0, 0], [1, 0], [1, 0], segments=WALL, cone=cone, selection=selection, diagnostics=True)
    assert np.linalg.norm(v - [1, 0]) > 0.1
    if selection == "geometric":
        assert np.isinf(diag["time_to_collision"][diag["chosen"]])
    # The direction of a segment does not matter.
    reversed_wall = [[3.0, 1.0, 3.0, -1.0]]
    np.testing.assert_allclose(velocity([0, 0], [1, 0], [1, 0], segments=reversed_wall, cone=cone,
                                        selection=selection), v, atol=1e-12)


@pytest.mark.parametrize("cone, selection", METHODS)
def test_agent_walks_around_a_wall(cone, selection):
    p, v = np.array([0.0, 0.2]), np.zeros(2)
    goal = np.array([6.0, 0.0])
    for step in range(200):
        to_goal = goal - p
        pref = to_goal / max(np.linalg.norm(to_goal), 0.1)
        v = velocity(p, v, pref, segments=WALL, cone=cone, selection=selection, step=step)
        p = p + 0.1 * v
        assert _distance_to_segment(p, WALL[0]) > 0.5 - 1e-9
    assert np.linalg.norm(p - goal) < 0.2


def _distance_to_segment(p, segment):
    a, b = np.array(segment[:2]), np.array(segment[2:])
    t = np.clip(np.dot(p - a, b - a) / np.dot(b - a, b - a), 0, 1)
    return np.linalg.norm(p - (a + t * (b - a)))


@pytest.mark.parametrize("cone, selection", METHODS)
def test_agent_overlapping_a_segment_moves_out(cone, selection):
    # Centre 0.45 from the wall x = 3, radius 0.5: out within the step at 0.5 m/s.
    v = velocity([2.55, 0.0], [0, 0], [1, 0], segments=WALL, cone=cone, selection=selection)
    if selection == "geometric":
        np.testing.assert_allclose(v, [-0.5, 0.0], atol=1e-12)  # the nearest such velocity to v_pref
    else:
        assert v[0] <= -0.5
    # 0.2 deep: leaving within the step would need 2 m/s, more than max_speed.
    v = velocity([2.7, 0.0], [0, 0], [1, 0], segments=WALL, cone=cone, selection=selection)
    if selection == "geometric":
        np.testing.assert_allclose(v, [-1.5, 0.0], atol=1e-12)  # the escape candidate
        stuck = velocity([2.7, 0.0], [0, 0], [1, 0], segments=WALL, cone=cone, selection=selection,
                         escape_overlaps=False)
        np.testing.assert_array_equal(stuck, [1.0, 0.0])  # the library's fallback: into the wall
    else:
        assert v[0] < -1.4


def test_agent_centred_on_a_segment_leaves_to_its_right():
    """Solid on the left of a -> b: the wall from (3, -1) to (3, 1) is solid
    towards -x, so the agent leaves towards +x."""
    v = velocity([3.0, 0.0], [0, 0], [0, 0], segments=WALL, cone="vo", selection="geometric")
    assert v[0] > 0


# ---------------------------------------------------------------- overlaps


@pytest.mark.parametrize("cone, selection", METHODS)
def test_overlapping_pair_separates(cone, selection):
    a = velocity([0, 0], [0.5, 0], [1, 0], [[0.8, 0.0, -0.5, 0.0, -1.0, 0.0, 0.5]], cone=cone, selection=selection)
    b = velocity([0.8, 0], [-0.5, 0], [-1, 0], [[0.0, 0.0, 0.5, 0.0, 1.0, 0.0, 0.5]], cone=cone, selection=selection)
    assert np.all(np.isfinite(a)) and np.all(np.isfinite(b))
    assert (b - a)[0] > 0  # moving apart


@pytest.mark.parametrize("cone, selection", METHODS)
def test_coincident_agents_split(cone, selection):
    a = velocity([0, 0], [0.2, 0], [0, 0], [[0.0, 0.0, -0.2, 0.0, 0.0, 0.0, 0.5]], cone=cone, selection=selection)
    b = velocity([0, 0], [-0.2, 0], [0, 0], [[0.0, 0.0, 0.2, 0.0, 0.0, 0.0, 0.5]], cone=cone, selection=selection)
    assert np.all(np.isfinite(a)) and np.all(np.isfinite(b))
    assert a[0] > 0 > b[0]


def test_overlap_half_plane_for_hrvo_follows_the_library():
    """apex = (v_A + v_B)/2 - (offset + (r_A + r_B - d) / (2 dt)) * unit(p_B - p_A)."""
    _, diag = velocity([0, 0], [0.4, 0.1], [1, 0], [[0.6, 0.8, -0.2, 0.3, 0.0, 0.0, 0.7]], radius=0.5,
                       cone="hrvo", selection="geometric", uncertainty_offset=0.05, time_step=0.25,
                       diagnostics=True)
    assert diag["cone_kind"] == ["agent_overlap"]
    expected = np.array([0.1, 0.2]) - (0.05 + (1.2 - 1.0) / 0.5) * np.array([0.6, 0.8])
    np.testing.assert_allclose(diag["apex"][0], expected)
    np.testing.assert_allclose(diag["right_leg"][0], [0.8, -0.6])
    np.testing.assert_allclose(diag["left_leg"][0], [-0.8, 0.6])


def test_surrounded_agent_takes_the_fallback():
    ring = [[2 * np.cos(a), 2 * np.sin(a), -np.cos(a), -np.sin(a), 0.0, 0.0, 0.9]
            for a in np.linspace(0, 2 * np.pi, 8, endpoint=False)]
    v, diag = velocity([0, 0], [0, 0], [1, 0], ring, cone="vo", selection="geometric", diagnostics=True)
    assert diag["used_fallback"]
    assert np.all(np.isfinite(v)) and np.linalg.norm(v) <= 1.5 * (1 + 1e-9)


def test_sampling_penalty_is_finite_when_every_candidate_collides():
    ring = [[0.9 * np.cos(a), 0.9 * np.sin(a), 0.0, 0.0, 0.0, 0.0, 0.5]
            for a in np.linspace(0, 2 * np.pi, 6, endpoint=False)]
    v, diag = velocity([0, 0], [0, 0], [1, 0], ring, cone="rvo", selection="sampling", diagnostics=True)
    assert np.all(np.isfinite(diag["penalty"])) and np.all(np.isfinite(v))
    assert np.all(diag["time_to_collision"] == 0.0)


# ------------------------------------------------------------ determinism


def crowded(seed, step=0, agent_id=0):
    neighbors = [[2.0, 0.3, -1.0, 0.0, -1.0, 0.0, 0.5], [1.5, -1.2, -0.3, 0.8, 0.0, 1.0, 0.5]]
    return velocity([0, 0], [1, 0], [1, 0], neighbors, cone="rvo", selection="sampling", seed=seed, step=step,
                    agent_id=agent_id, diagnostics=True)


def test_sampling_is_reproducible():
    v1, d1 = crowded(7)
    v2, d2 = crowded(7)
    np.testing.assert_array_equal(v1, v2)
    np.testing.assert_array_equal(d1["candidates"], d2["candidates"])
    np.testing.assert_array_equal(d1["penalty"], d2["penalty"])
    assert len(d1["candidates"]) == 251
    np.testing.assert_array_equal(d1["candidates"][0], [1, 0])  # the preferred velocity comes first
    assert np.all(np.linalg.norm(d1["candidates"], axis=1) <= 1.5)


@pytest.mark.parametrize("change", [dict(seed=8), dict(step=1), dict(agent_id=1)])
def test_sampling_streams_differ(change):
    base, d_base = crowded(**{"seed": 7, **{k: 0 for k in ("step", "agent_id")}})
    other, d_other = crowded(**{"seed": 7, "step": 0, "agent_id": 0, **change})
    assert not np.array_equal(d_base["candidates"][1:], d_other["candidates"][1:])
    assert not np.array_equal(base, other)


def test_samples_cover_the_disc_uniformly():
    _, diag = velocity([0, 0], [0, 0], [0, 0], cone="vo", selection="sampling", samples=4000, max_speed=2.0,
                       diagnostics=True)
    r = np.linalg.norm(diag["candidates"][1:], axis=1)
    assert r.max() <= 2.0
    # Uniform in area: P(r < 2 * sqrt(q)) = q.
    for q in (0.25, 0.5, 0.75):
        assert np.mean(r < 2.0 * np.sqrt(q)) == pytest.approx(q, abs=0.03)


# --------------------------------------------------------------- robustness

finite = st.floats(-5, 5, allow_nan=False)


@given(
    agent=st.tuples(finite, finite, finite, finite, finite, finite),
    neighbors=st.lists(st.tuples(finite, finite, finite, finite, finite, finite, st.floats(0, 1.5)), max_size=5),
    segments=st.lists(st.tuples(finite, finite, finite, finite), max_size=3),
    radius=st.floats(0, 1.5),
    max_speed=st.floats(0, 3),
    offset=st.floats(0, 0.2),
    truncate=st.booleans(),
    method=st.sampled_from(METHODS),
)
def test_any_input_gives_a_finite_velocity_within_the_speed_limit(agent, neighbors, segments, radius, max_speed,
                                                                  offset, truncate, method):
    cone, selection = method
    v, diag = velocity(agent[:2], agent[2:4], agent[4:], neighbors, segments, radius=radius, max_speed=max_speed,
                       uncertainty_offset=offset, truncate=truncate, time_horizon=2.0, cone=cone,
                       selection=selection, samples=20, diagnostics=True)
    assert np.all(np.isfinite(v))
    assert np.hypot(*v) <= max_speed * (1 + 1e-9)
    for key in ("apex", "right_leg", "left_leg", "candidates", "penalty"):
        assert np.all(np.isfinite(diag[key])), key
    assert len(diag["apex"]) == len(neighbors) + len(segments)


# ------------------------------------------------------------- acceleration


@pytest.mark.parametrize("max_accel, expected", [(np.inf, [2.0, 0.0]), (10.0, [2.0, 0.0]), (5.0, [1.5, 0.0]),
                                                 (0.0, [1.0, 0.0])])
def test_acceleration_limit(max_accel, expected):
    out = _core.vo_limit_acceleration([1.0, 0.0], [2.0, 0.0], max_accel=max_accel, time_step=0.1)
    np.testing.assert_allclose(out, expected)


# ------------------------------------------------------------------ checks


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(samples=-1), "samples is -1; must be >= 0"),
        (dict(safety_factor=-1.0), "safety_factor is -1; must be >= 0"),
        (dict(safety_factor=np.nan), "safety_factor is nan"),
        (dict(safety_factor=np.inf), "safety_factor is inf"),
        (dict(cone="orca"), "method is 'orca'; must be one of"),
        (dict(selection="best"), "selection is 'best'"),
        (dict(hrvo_apex="left"), "hrvo_apex is 'left'"),
        (dict(time_step=0.0), "time_step is 0; must be finite and > 0"),
        (dict(time_step=np.nan), "time_step is nan"),
        (dict(radius=-0.5), "radius is -0.5"),
        (dict(max_speed=np.inf), "max_speed is inf"),
        (dict(uncertainty_offset=-0.1), "uncertainty_offset is -0.1"),
        (dict(truncate=True, time_horizon=0.0), "time_horizon is 0; must be finite and > 0"),
        (dict(truncate=True, time_horizon_obst=-1.0), "time_horizon_obst is -1"),
        (dict(pref_velocity=[np.nan, 0.0]), r"pref_velocity\[0\] is nan"),
        (dict(position=[0.0, 0.0, 0.0]), r"position: expected 2 values, got shape \(3,\)"),
        (dict(neighbors=np.zeros((2, 6))), r"neighbors: expected shape \(k, 7\), got \(2, 6\)"),
        (dict(neighbors=[[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, np.nan]]), r"neighbors\[0\]\.radius is nan"),
        (dict(segments=[[0.0, np.inf, 1.0, 1.0]]), r"segments\[0\]\.a\[1\] is inf"),
    ],
)
def test_bad_configuration_is_refused(kwargs, message):
    args = dict(position=[0.0, 0.0], velocity=[0.0, 0.0], pref_velocity=[1.0, 0.0], radius=0.5, max_speed=1.0,
                time_step=0.1)
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        vo_velocity(**args)


def test_truncation_parameters_are_only_checked_when_used():
    v = vo_velocity([0, 0], [0, 0], [1, 0], radius=0.5, max_speed=1.0, time_step=0.1, time_horizon=0.0)
    np.testing.assert_array_equal(v, [1, 0])
