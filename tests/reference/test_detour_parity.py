"""DetourCrowd's velocity samplers against the real library (dtObstacleAvoidanceQuery).

The reference (../shared/reference/detour, or the committed subset under
tests/data/detour) holds the library's chosen velocity ``nvel`` and sample
count ``ns`` for every case and parameter set. vosim computes in float64,
the library in float32, so a run may pick a different winner where two
candidates are within rounding of each other. The pass mark, per sampler and
parameter set:

- at least 99 % of the runs whose behaviour vosim keeps have ``nvel`` within
  1e-4 (the runs of the degenerate inputs vosim defines differently are
  counted apart: a neighbour on the agent's centre, and, for the adaptive
  sampler, a zero desired velocity);
- every run with a different ``nvel`` (beyond 1e-4) or ``ns`` is explained:
  by that degenerate input, by a near tie (penalty gap < 1e-4 at the first
  level where the winners differ, or ``min_gap`` < 1e-4 where the levels were
  not recorded), or, at that first level, by a winner that moves along a wall
  the agent touches, up to rounding (zero velocity included): the library
  counts such a velocity as an immediate collision or as free by the sign of
  float32 noise.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from _reference import DetourData, detour_full_available, f32, load_detour
from _local_kernels import detour_sample
from vosim import _core

TOLERANCE = 1e-4
PASS_SHARE = 0.99
NEAR_TIE = 1e-4
# Below this, a velocity component is float32 noise in the library.
ROUNDING_SPEED = 1e-5
PARAM_SETS = ["default", "demo_low", "demo_medium", "demo_good", "demo_high"]
GRID_PARAM_SETS = ["default", "demo_high"]
FULL_REASON = ("full DetourCrowd reference data not found in ../shared/reference/detour; set VOSIM_REFERENCE_DIR "
               "to a copy of the reference folder (docs/parity.md)")

_CACHE: dict[bool, DetourData] = {}


def detour_data(full: bool) -> DetourData:
    if full and not detour_full_available():
        pytest.skip(FULL_REASON)
    if full not in _CACHE:
        _CACHE[full] = load_detour(full=full)
    return _CACHE[full]


def sampler_params(entry: dict) -> dict:
    """A params.json entry as keyword arguments, with the float32 values the library used."""
    floats = {"vel_bias": "velBias", "weight_des_vel": "weightDesVel", "weight_cur_vel": "weightCurVel",
              "weight_side": "weightSide", "weight_toi": "weightToi", "horiz_time": "horizTime"}
    ints = {"grid_size": "gridSize", "adaptive_divs": "adaptiveDivs", "adaptive_rings": "adaptiveRings",
            "adaptive_depth": "adaptiveDepth"}
    params = {k: float(f32(entry[v])) for k, v in floats.items()}
    params.update({k: int(entry[v]) for k, v in ints.items()})
    return params


def degenerate_inputs(data: DetourData, mode: str) -> np.ndarray:
    """(C,) the inputs vosim defines differently from the library, by case row."""
    counts = np.diff(data.circle_start)
    case_of_circle = np.repeat(np.arange(len(counts)), counts)
    on_centre = np.all(data.circles[:, 0:2] == data.agent[case_of_circle, 0:2], axis=1)
    degenerate = np.zeros(len(counts), dtype=bool)
    degenerate[case_of_circle[on_centre]] = True
    if mode == "adaptive":
        degenerate |= np.all(data.agent[:, 4:6] == 0.0, axis=1)
    return degenerate


@dataclass
class Replay:
    rows: np.ndarray  # (R,) case rows
    nvel: np.ndarray  # (R, 2) vosim's
    ns: np.ndarray  # (R,)
    ref_nvel: np.ndarray
    ref_ns: np.ndarray
    error: np.ndarray  # (R,) |nvel - ref_nvel|
    degenerate: np.ndarray  # (R,) bool
    min_gap: np.ndarray  # (R,) the library's, nan where no competitor existed
    explanation: np.ndarray  # (R,) str, "" where vosim agrees or nothing explains the difference

    @property
    def disagrees(self) -> np.ndarray:
        return (self.error > TOLERANCE) | (self.ns != self.ref_ns)


def level_winners(record: dict, depth: int) -> np.ndarray:
    """(depth, 2) the winner of each adaptive level of a recorded run ((0, 0) when none)."""
    winners = np.zeros((depth, 2))
    for level in range(depth):
        at = record["level"] == level
        penalty = np.where(record["pruned"][at], np.inf, record["penalty"][at])
        if np.isfinite(penalty).any():
            winners[level] = record["velocity"][at][np.argmin(penalty)]
    return winners


def along_touching_wall(data: DetourData, row: int, velocities: np.ndarray) -> np.ndarray:
    """(n,) whether each velocity is parallel, up to rounding, to a wall the agent touches."""
    velocities = np.reshape(velocities, (-1, 2))
    span = slice(data.segment_start[row], data.segment_start[row + 1])
    touching = data.segments[span][data.segment_touch[span]]
    edge = touching[:, 2:4] - touching[:, 0:2]
    normal = np.stack([-edge[:, 1], edge[:, 0]], axis=1) / np.linalg.norm(edge, axis=1, keepdims=True)
    return np.any(np.abs(velocities @ normal.T) < ROUNDING_SPEED, axis=1)


def explain(data: DetourData, mode: str, param_set: str, row: int, min_gap: float, degenerate: bool) -> str:
    """Why vosim's run differs from the library's, or "" when nothing explains it."""
    if degenerate:
        return "degenerate input"
    levels = data.tables["levels_adaptive"]
    at = (levels["case_id"] == data.case_id[row]) & (levels["param_set"] == param_set)
    if mode != "adaptive" or not at.any():
        return "near tie" if min_gap < NEAR_TIE else ""
    params = sampler_params(data.params[param_set])
    _, _, record = detour_sample(**data.case_inputs(row), mode=mode, record=True, **params)
    mine = level_winners(record, params["adaptive_depth"])
    theirs = np.stack([levels["best_x"][at], levels["best_z"][at]], axis=1)
    differ = np.flatnonzero(np.linalg.norm(mine - theirs, axis=1) > TOLERANCE)
    if len(differ) == 0:
        return "near tie" if min_gap < NEAR_TIE else ""
    k = differ[0]
    if levels["gap"][at][k] < NEAR_TIE:
        return "near tie"
    if along_touching_wall(data, row, [mine[k], theirs[k]]).any():
        return "along a touching wall, up to rounding"
    return ""


def replay(data: DetourData, mode: str, param_set: str) -> Replay:
    table = data.tables[f"results_{mode}"]
    select = table["param_set"] == param_set
    rows = np.searchsorted(data.case_id, table["case_id"][select])
    params = sampler_params(data.params[param_set])
    nvel = np.empty((len(rows), 2))
    ns = np.empty(len(rows), dtype=np.int64)
    for k, row in enumerate(rows):
        velocity, ns[k], _ = detour_sample(**data.case_inputs(row), mode=mode, **params)
        nvel[k] = velocity
    ref_nvel = np.stack([table["nvel_x"][select], table["nvel_z"][select]], axis=1)
    result = Replay(rows, nvel, ns, ref_nvel, table["ns"][select], np.linalg.norm(nvel - ref_nvel, axis=1),
                    degenerate_inputs(data, mode)[rows], table["min_gap"][select],
                    np.full(len(rows), "", dtype=object))
    for k in np.flatnonzero(result.disagrees):
        result.explanation[k] = explain(data, mode, param_set, rows[k], result.min_gap[k], result.degenerate[k])
    return result


def check_pass_mark(data: DetourData, result: Replay) -> None:
    """The share within tolerance, over all runs vosim keeps the library's behaviour for
    (only on the full data: the subset is rich in near ties on purpose) and over those of
    them without a near tie; and an explanation for every difference."""
    defined = ~result.degenerate
    parts = {"runs without a near tie": defined & ~(result.min_gap < NEAR_TIE)}
    if data.full:
        parts["runs"] = defined
    for part, mask in parts.items():
        share = np.mean(result.error[mask] <= TOLERANCE)
        assert share >= PASS_SHARE, f"only {share:.3%} of the {part} within {TOLERANCE:g}"
    unexplained = result.disagrees & (result.explanation == "")
    details = [f"case {data.case_id[result.rows[k]]}: nvel {result.nvel[k]} vs {result.ref_nvel[k]}, "
               f"ns {result.ns[k]} vs {result.ref_ns[k]}" for k in np.flatnonzero(unexplained)]
    assert not details, "unexplained differences:\n" + "\n".join(details)
    assert np.isfinite(result.nvel).all()


RUNS = [("adaptive", p) for p in PARAM_SETS] + [("grid", p) for p in GRID_PARAM_SETS]


@pytest.mark.parametrize("mode,param_set", RUNS)
def test_committed_subset_matches_detour(mode, param_set):
    data = detour_data(full=False)
    result = replay(data, mode, param_set)
    assert len(result.rows) > (250 if mode == "adaptive" else 100)
    check_pass_mark(data, result)


@pytest.mark.slow
@pytest.mark.parametrize("mode,param_set", RUNS)
def test_full_reference_matches_detour(mode, param_set):
    data = detour_data(full=True)
    result = replay(data, mode, param_set)
    assert len(result.rows) == (2029 if mode == "adaptive" else 529)
    check_pass_mark(data, result)


def test_committed_subset_is_current():
    """The committed subset holds exactly the full data's values for its cases."""
    full = detour_data(full=True)
    subset = detour_data(full=False)
    again = full.subset(subset.case_id)
    for field in ("case_id", "agent", "circle_start", "circles", "segment_start", "segments", "segment_touch"):
        np.testing.assert_array_equal(getattr(again, field), getattr(subset, field), err_msg=field)
    for name, columns in again.tables.items():
        for column, values in columns.items():
            np.testing.assert_array_equal(values, subset.tables[name][column], err_msg=f"{name}.{column}")


@pytest.mark.parametrize("run", ["default/adaptive", "demo_high/adaptive"])
def test_penalty_terms_match_library_samples(run):
    """Recorded samples and penalty terms against the library's debug data (cases 0-48),
    level by level until the two runs' samples part (a flipped near tie)."""
    data = detour_data(full=False)
    samples = data.tables["samples_debug"]
    param_set = run.split("/")[0]
    params = sampler_params(data.params[param_set])
    zero_desired = np.all(data.agent[:, 4:6] == 0.0, axis=1)
    degenerate = degenerate_inputs(data, "adaptive")
    compared = total = 0
    for case_id in np.unique(samples["case_id"]):
        row = data.row_of(case_id)
        at = (samples["case_id"] == case_id) & (samples["run"] == run)
        if zero_desired[row]:
            continue  # vosim orients the pattern differently
        # On a coincident neighbour only level 0 is common: the library then picks nothing.
        total += 0 if degenerate[row] else at.sum()
        _, ns, record = detour_sample(**data.case_inputs(row), record=True, **params)
        assert ns == len(record["level"])
        theirs_v = np.stack([samples["vx"][at], samples["vz"][at]], axis=1)
        theirs_terms = np.stack([samples[k][at] for k in ("penalty", "vpen", "vcpen", "spen", "tpen")], axis=1)
        mine_terms = np.stack([record[k] for k in ("penalty", "vpen", "vcpen", "spen", "tpen")], axis=1)
        for level in np.unique(samples["level"][at]):
            mine_at, theirs_at = record["level"] == level, samples["level"][at] == level
            if mine_at.sum() != theirs_at.sum():
                break
            if np.abs(record["velocity"][mine_at] - theirs_v[theirs_at]).max() > 1e-5:
                break
            t, m = theirs_terms[theirs_at], mine_terms[mine_at]
            comparable = np.isfinite(t)  # the library's side term is NaN for a neighbour on its centre
            # A touching wall counts a velocity along it as a collision or as free by the sign of noise.
            skip_toi = along_touching_wall(data, row, theirs_v[theirs_at])
            comparable[skip_toi, 0] = comparable[skip_toi, 4] = False
            np.testing.assert_allclose(m[comparable], t[comparable], rtol=1e-4, atol=1e-4,
                                       err_msg=f"case {case_id}, level {level}")
            assert np.isfinite(m).all()
            compared += 0 if degenerate[row] else mine_at.sum()
    assert compared >= 0.95 * total, f"only {compared} of {total} samples compared"


@pytest.mark.parametrize("param_set", ["demo_low", "demo_medium"])
def test_early_out_breaks_ties_as_the_library_does(param_set):
    """Case 1508: two mirror-image samples tie within 2.4e-7; the library's early-out
    (not the full penalties) decides which one wins, and vosim's does the same."""
    data = detour_data(full=False)
    table = data.tables["results_adaptive"]
    at = (table["case_id"] == 1508) & (table["param_set"] == param_set)
    velocity, ns, record = detour_sample(**data.case_inputs(data.row_of(1508)), record=True,
                                               **sampler_params(data.params[param_set]))
    np.testing.assert_allclose(velocity, [table["nvel_x"][at][0], table["nvel_z"][at][0]], atol=1e-6)
    assert ns == table["ns"][at][0]
    assert record["pruned"].any()


# --- Behaviour where the library is undefined or degenerate -----------------

AGENT = dict(position=[0.0, 0.0], velocity=[3.5, 0.0], desired_velocity=[3.5, 0.0], radius=0.6, max_speed=3.5)


def ring_angles(velocities: np.ndarray, centre: np.ndarray) -> np.ndarray:
    offset = velocities - centre
    return np.arctan2(offset[:, 1], offset[:, 0])


@pytest.mark.parametrize("divs", [2, 4, 6, 8, 32])
@pytest.mark.parametrize("rings", [1, 2, 3])
def test_even_divisions_give_evenly_spaced_symmetric_rings(divs, rings):
    desired = np.array([2.0, 1.0])
    _, ns, record = detour_sample(**{**AGENT, "velocity": desired, "desired_velocity": desired},
                                        record=True, adaptive_divs=divs, adaptive_rings=rings, adaptive_depth=1)
    assert ns == 1 + rings * divs
    centre = desired * 0.4
    v = record["velocity"]
    np.testing.assert_allclose(v[0], centre)
    heading = np.arctan2(desired[1], desired[0])
    radius = 3.5 * 0.6
    for j in range(rings):
        ring = v[1 + j * divs:1 + (j + 1) * divs]
        np.testing.assert_allclose(np.linalg.norm(ring - centre, axis=1), radius * (rings - j) / rings)
        start = heading + (j % 2) * np.pi / divs
        steps = (ring_angles(ring, centre) - start) / (2 * np.pi / divs)
        # start, right 1, left 1, right 2, left 2, ..., and the point opposite the start last
        expected = [0] + [s * k for k in range(1, divs // 2 + 1) for s in (-1, 1)][:divs - 2] + [divs // 2]
        np.testing.assert_allclose(np.remainder(steps - expected + 0.5, divs) - 0.5, 0.0, atol=1e-9)


@pytest.mark.parametrize("divs", [2, 4, 6, 8])
def test_even_divisions_are_mirror_symmetric(divs):
    """A scene mirrored about the desired direction gives the mirrored velocity."""
    def run(sign):
        circles = [[3.0, 0.4 * sign, -2.0, 0.3 * sign, -3.0, 0.0]]
        segments = [[-1.0, 1.5 * sign, 6.0, 1.5 * sign]]
        velocity, ns, _ = detour_sample(**AGENT, circles=circles, circle_radii=[0.5], segments=segments,
                                              adaptive_divs=divs, adaptive_rings=2, adaptive_depth=5)
        return velocity, ns

    (v_up, ns_up), (v_down, ns_down) = run(1.0), run(-1.0)
    assert np.isfinite(v_up).all() and ns_up == ns_down
    np.testing.assert_allclose(v_down, v_up * [1.0, -1.0], atol=1e-9)
    assert abs(v_up[1]) > 0.1  # it did steer, so the check means something


def test_divisions_and_rings_above_the_library_limits_are_clamped():
    many = detour_sample(**AGENT, adaptive_divs=40, adaptive_rings=9, adaptive_depth=1)
    limit = detour_sample(**AGENT, adaptive_divs=32, adaptive_rings=4, adaptive_depth=1)
    assert many[1] == limit[1] == 1 + 32 * 4
    np.testing.assert_array_equal(many[0], limit[0])


@pytest.mark.parametrize("mode", ["adaptive", "grid"])
def test_coincident_neighbour_has_no_side_term_and_a_continuous_time_term(mode):
    def run(offset):
        circles = [[offset, 0.0, 0.5, 0.2, 0.0, 0.0]]
        return detour_sample(**AGENT, circles=circles, circle_radii=[0.6], mode=mode, adaptive_depth=1,
                                   record=True)

    velocity, ns, record = run(0.0)
    assert np.isfinite(velocity).all() and np.isfinite(record["penalty"]).all()
    assert ns > 0 and np.all(record["spen"] == 0.0)
    assert np.ptp(record["tpen"]) > 1.0  # the overlap still shapes the choice
    _, _, nearby = run(1e-9)
    assert np.any(nearby["spen"] > 0.0)
    np.testing.assert_allclose(record["tpen"], nearby["tpen"], rtol=1e-6)


def test_coincident_neighbour_is_left_out_of_the_side_average():
    other = [4.0, 0.3, -3.0, 0.0, -3.0, 0.0]
    alone = detour_sample(**AGENT, circles=[other], circle_radii=[0.5], record=True, adaptive_depth=1)[2]
    both = detour_sample(**AGENT, circles=[other, [0.0, 0.0, 3.5, 0.0, 3.5, 0.0]], circle_radii=[0.5, 0.6],
                               record=True, adaptive_depth=1)[2]
    assert np.any(alone["spen"] > 0.0)
    np.testing.assert_allclose(both["spen"], alone["spen"])


def test_zero_desired_velocity_orients_the_pattern_along_the_current_velocity():
    agent = {**AGENT, "velocity": [0.0, -2.0], "desired_velocity": [0.0, 0.0]}
    _, _, record = detour_sample(**agent, record=True, adaptive_depth=1)
    start = record["velocity"][1]
    np.testing.assert_allclose(start / np.linalg.norm(start), [0.0, -1.0], atol=1e-12)


def test_zero_desired_and_current_velocity_orient_the_pattern_along_x():
    agent = {**AGENT, "velocity": [0.0, 0.0], "desired_velocity": [0.0, 0.0]}
    _, ns, record = detour_sample(**agent, record=True, adaptive_depth=1)
    assert ns == 15
    np.testing.assert_allclose(record["velocity"][1], [3.5 * 0.6, 0.0])


def test_zero_desired_velocity_lets_a_standing_agent_step_aside():
    agent = {**AGENT, "velocity": [0.0, 0.0], "desired_velocity": [0.0, 0.0]}
    oncoming = [[1.6, 0.1, -3.0, 0.0, -3.0, 0.0]]
    velocity, _, _ = detour_sample(**agent, circles=oncoming, circle_radii=[0.6])
    assert np.isfinite(velocity).all() and np.linalg.norm(velocity) > 0.1
    quiet, _, _ = detour_sample(**agent)
    np.testing.assert_array_equal(quiet, [0.0, 0.0])  # nothing to avoid: it stays


@pytest.mark.parametrize("mode", ["adaptive", "grid"])
def test_many_neighbours_and_walls_beyond_the_inline_storage(mode):
    """40 copies of a neighbour and of a wall act as one of each (the side term is an average)."""
    circle = [2.5, 0.3, -2.0, 0.0, -2.0, 0.0]
    wall = [1.0, -1.0, 1.0, 1.0]
    one, ns_one, _ = detour_sample(**AGENT, circles=[circle], circle_radii=[0.5], segments=[wall],
                                         mode=mode, grid_size=15)
    many, ns_many, _ = detour_sample(**AGENT, circles=[circle] * 40, circle_radii=[0.5] * 40,
                                           segments=[wall] * 40, mode=mode, grid_size=15)
    assert ns_one == ns_many
    np.testing.assert_allclose(many, one, atol=1e-9)


# --- Parameters, inputs, recording -------------------------------------------

@pytest.mark.parametrize("name,value,shown", [
    ("vel_bias", -0.1, "-0.1"), ("vel_bias", 1.5, "1.5"), ("vel_bias", float("nan"), "nan"),
    ("weight_des_vel", -1.0, "-1"), ("weight_cur_vel", float("nan"), "nan"), ("weight_side", -0.5, "-0.5"),
    ("weight_toi", float("inf"), "inf"), ("horiz_time", 0.0, "0"), ("horiz_time", -1.0, "-1"),
    ("horiz_time", float("nan"), "nan"),
])
@pytest.mark.parametrize("mode", ["adaptive", "grid"])
def test_bad_parameters_raise_naming_the_parameter(name, value, shown, mode):
    with pytest.raises(ValueError, match=rf"^{name} is {shown};"):
        detour_sample(**AGENT, mode=mode, **{name: value})


@pytest.mark.parametrize("mode,name,registered,value,shown", [
    ("grid", "grid_size", "grid_size", 1, "1"), ("adaptive", "adaptive_divs", "divs", 0, "0"),
    ("adaptive", "adaptive_rings", "rings", -2, "-2"), ("adaptive", "adaptive_depth", "depth", 0, "0"),
])
def test_bad_sampler_settings_raise_naming_the_setting(mode, name, registered, value, shown):
    """Each sampler's own settings, under their registered names."""
    with pytest.raises(ValueError, match=rf"^{registered} is {shown};"):
        detour_sample(**AGENT, mode=mode, **{name: value})


@pytest.mark.parametrize("change,message", [
    (dict(position=[np.nan, 0.0]), r"agent position is \(nan, 0\)"),
    (dict(max_speed=-1.0), "agent max_speed is -1"),
    (dict(circles=[[1.0, 2.0, 0.0, 0.0, 0.0, 0.0]], circle_radii=[-0.5]), r"circles\[0\] radius is -0.5"),
    (dict(segments=[[0.0, 1.0, np.inf, 1.0]]), r"segments\[0\] q is \(inf, 1\)"),
    (dict(circles=[[1.0, 2.0, 0.0, 0.0]], circle_radii=[0.5]), r"neighbors: expected shape \(k, 7\)"),
    (dict(circles=[[1.0, 2.0, 0.0, 0.0, 0.0, 0.0]]), "circle_radii"),
    (dict(segments=[[0.0, 1.0, 2.0]]), r"segments: expected shape \(k, 4\)"),
    (dict(position=[0.0, 0.0, 0.0]), r"position: expected 2 values, got shape \(3,\)"),
    (dict(mode="ring"), "method is 'ring'; must be one of"),
])
def test_bad_inputs_raise(change, message):
    with pytest.raises(ValueError, match=message):
        detour_sample(**{**AGENT, **change})


def test_recording_does_not_change_the_result_and_pruned_samples_could_not_win():
    data = detour_data(full=False)
    for row in range(0, len(data.case_id), 7):
        for mode in ("adaptive", "grid"):
            plain = detour_sample(**data.case_inputs(row), mode=mode, grid_size=9)
            velocity, ns, record = detour_sample(**data.case_inputs(row), mode=mode, grid_size=9, record=True)
            np.testing.assert_array_equal(plain[0], velocity)
            assert plain[1] == ns == len(record["penalty"])
            for level in np.unique(record["level"]):
                at = record["level"] == level
                penalty, pruned = record["penalty"][at], record["pruned"][at]
                best_before = np.minimum.accumulate(np.where(pruned, np.inf, penalty))
                best_before = np.concatenate([[np.inf], best_before[:-1]])
                assert np.all(penalty[pruned] >= best_before[pruned] - 1e-9)


coordinate = st.floats(-5.0, 5.0, allow_nan=False, width=32)
point = st.tuples(coordinate, coordinate)
speed_point = st.one_of(point, st.just((0.0, 0.0)))


@given(
    agent=st.tuples(point, point, speed_point, st.floats(0.1, 1.0), st.floats(0.0, 4.0)),
    # a circle position of None puts the neighbour on the agent's centre
    circles=st.lists(st.tuples(st.one_of(point, st.none()), speed_point, speed_point, st.floats(0.1, 1.0)),
                     max_size=6),
    segments=st.lists(st.tuples(point, point), max_size=3),
    mode=st.sampled_from(["adaptive", "grid"]),
    divs=st.integers(1, 9),
)
def test_any_scene_gives_a_finite_velocity_within_the_speed_limit(agent, circles, segments, mode, divs):
    position, velocity, desired, radius, max_speed = agent
    kwargs = dict(position=position, velocity=velocity, desired_velocity=desired, radius=radius,
                  max_speed=max_speed,
                  circles=[[*(position if p is None else p), *v, *d] for p, v, d, _ in circles] or None,
                  circle_radii=[r for *_, r in circles] or None,
                  segments=[[*p, *q] for p, q in segments] or None, mode=mode, adaptive_divs=divs, grid_size=9)
    chosen, ns, _ = detour_sample(**kwargs)
    assert np.isfinite(chosen).all()
    slack = 0.001 if mode == "adaptive" else max_speed * 2 * 0.6 / 8 / 2
    assert np.linalg.norm(chosen) <= max_speed + slack + 1e-12
    again, ns_again, _ = detour_sample(**kwargs)
    np.testing.assert_array_equal(again, chosen)
    assert ns_again == ns
