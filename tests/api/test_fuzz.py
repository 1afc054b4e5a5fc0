"""Property-based fuzzing of the public API.

Random shapes, dtypes (integers, floats of every width, bool, object,
complex, text), NaN/inf, huge (1e300) and tiny (1e-300) values, empty
arrays, repeated and unknown ids, and random sequences of calls. The
properties: nothing crashes or hangs; every refusal is a ValueError,
TypeError or RuntimeError whose message names the argument; after every
accepted call the state of the active agents is finite, and a step never
makes an agent faster than its max_speed.

The number of examples comes from the hypothesis profile (tests/conftest.py):
``ci`` by default, ``--hypothesis-profile=long`` for a longer search.
"""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
from hypothesis import given, note
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

import vosim
from vosim import scenarios

# Random runs with until_arrived=True and a few steps rarely arrive; run() says so each time.
pytestmark = pytest.mark.filterwarnings(r"ignore:run\(until_arrived=True\) ended:RuntimeWarning")

MAX = vosim._checks.MAX_MAGNITUDE
MIN_TIME = vosim._checks.MIN_TIME
DOCUMENTED = (ValueError, TypeError, RuntimeError)

# ------------------------------------------------------------------ oracle
# The rules the engine applies to active agents before every step, in the
# order it checks them: (view, name in messages, kind, only when has_goal).
FIELD_RULES = [  # in the order of the field table (cpp/core/state/agent_fields.hpp), which the check follows
    ("positions", "position", "coordinate", None),
    ("velocities", "velocity", "coordinate", None),
    ("pref_velocities", "pref_velocity", "coordinate", False),
    ("goals", "goal", "coordinate", True),
    ("radius", "radius", "nonnegative", None),
    ("max_speed", "max_speed", "nonnegative", None),
    ("pref_speed", "pref_speed", "nonnegative", True),
    ("neighbor_dist", "neighbor_dist", "nonnegative", None),
    ("max_neighbors", "max_neighbors", "count", None),
    ("time_horizon", "time_horizon", "time", None),
    ("time_horizon_obst", "time_horizon_obst", "time", None),
    ("arrival_radius", "arrival_radius", "nonnegative", True),
    ("priority", "priority", "nonnegative", None),
    ("max_acceleration", "max_acceleration", "limit", None),
    ("uncertainty_offset", "uncertainty_offset", "nonnegative", None),
]
RANGES = {"coordinate": (-MAX, MAX), "nonnegative": (0.0, MAX), "time": (MIN_TIME, MAX), "count": (0, 2**31 - 1),
          "limit": (0.0, np.inf)}
SAFE = {"coordinate": 0.0, "nonnegative": 1.0, "time": 1.0, "count": 3, "limit": np.inf}
VECTOR_FIELDS = ["positions", "velocities", "pref_velocities", "goals"]
SCALAR_FIELDS = ["radius", "max_speed", "pref_speed", "neighbor_dist", "max_neighbors", "time_horizon",
                 "time_horizon_obst", "arrival_radius", "priority", "max_acceleration", "uncertainty_offset"]

# Every method with each of its settings: (class, setting) pairs to set to
# random values, good or bad.
METHOD_SETTINGS = [
    (vosim.ORCA, "bisector_weight"), (vosim.ORCA, "perturbation"), (vosim.ORCA, "seed"),
    (vosim.VO, "samples"), (vosim.VO, "safety_factor"), (vosim.RVO, "truncate"), (vosim.RVO, "selection"),
    (vosim.HRVO, "hrvo_apex"), (vosim.HRVO, "escape_overlaps"), (vosim.AdaptiveSampling, "divs"),
    (vosim.AdaptiveSampling, "vel_bias"), (vosim.AdaptiveSampling, "weight_toi"), (vosim.GridSampling, "grid_size"),
    (vosim.GridSampling, "horiz_time"), (vosim.ForceBased, "steering_time"), (vosim.ForceBased, "avoidance_stiffness"),
]
SETTING_VALUES = st.one_of(st.integers(-3, 70), st.floats(allow_nan=True, allow_infinity=True), st.booleans(),
                           st.sampled_from(["geometric", "sampling", "symmetric", "library", "x"]), st.none())
FLAG_FIELDS = ["active", "has_goal"]


def full(sim, name: str) -> np.ndarray:
    """A view with its scene axis, whatever the simulator."""
    view = getattr(sim, name)
    return view if isinstance(sim, vosim.Batch) else view[None]


def bad_values(sim, view: str, kind: str, with_goal) -> np.ndarray:
    """Which (scene, slot) break the rule of `view`, as the engine sees them."""
    values = full(sim, view)
    lo, hi = RANGES[kind]
    with np.errstate(invalid="ignore"):
        bad = ~((values >= lo) & (values <= hi))
    if bad.ndim == 3:
        bad = bad.any(axis=2)
    bad &= full(sim, "active")
    if with_goal is not None:
        bad &= full(sim, "has_goal") == with_goal
    return bad


def first_violation(sim):
    """(agent id, field name) of the first bad agent in storage order, or None."""
    bad = [bad_values(sim, view, kind, goal) for view, _, kind, goal in FIELD_RULES]
    any_bad = np.logical_or.reduce(bad) if bad else None
    if any_bad is None or not any_bad.any():
        return None
    scene, slot = np.argwhere(any_bad)[0]
    field = next(name for (_, name, _, _), b in zip(FIELD_RULES, bad) if b[scene, slot])
    return int(full(sim, "ids")[scene, slot]), field


def repair(sim) -> None:
    """Replace every value the engine would refuse by a safe one."""
    for view, _, kind, goal in FIELD_RULES:
        bad = bad_values(sim, view, kind, goal)
        full(sim, view)[bad] = SAFE[kind]


def check_state_is_finite(sim) -> None:
    active = full(sim, "active")
    for name in ("positions", "velocities"):
        values = full(sim, name)[active]
        assert np.isfinite(values).all(), f"{name} not finite after an accepted call: {values}"


def check_speeds(sim) -> None:
    """After a step every active agent's velocity is within its max_speed (GridSampling keeps DetourCrowd's
    speeds beyond it, acceleration-limited: not checked)."""
    if isinstance(sim.method, vosim.GridSampling):
        return
    active = full(sim, "active")
    speed = np.hypot(*np.moveaxis(full(sim, "velocities")[active], -1, 0))
    limit = full(sim, "max_speed")[active]
    assert np.all(speed <= limit * (1 + 1e-9) + 1e-300), (speed, limit)


def run_a_little(sim, steps: int) -> None:
    """Run a few steps of a valid state: every step is accepted, except that
    a position carried out of the working range (a huge time step) stops
    the run before the step that would use it."""
    ok, error = attempt(lambda: sim.run(steps), "position")
    if not ok:
        assert isinstance(error, ValueError) and "position is" in str(error), str(error)
        assert error.trajectory.steps_run == sim.step_count >= 1
    check_state_is_finite(sim)
    if sim.step_count:
        check_speeds(sim)


def attempt(call, *names: str):
    """Run call(); a refusal must be documented and name one of `names`.

    Returns (True, result) or (False, the exception).
    """
    try:
        return True, call()
    except DOCUMENTED as error:
        message = str(error)
        assert any(name in message for name in names), (
            f"{type(error).__name__} does not name any of {names}: {message}")
        return False, error


# -------------------------------------------------------------- strategies
NASTY_FLOATS = st.one_of(
    st.sampled_from([0.0, -0.0, 1.0, -1.0, 0.5, 3.0, 1e-300, -1e-300, 5e-324, 1e300, -1e300, 1.7e308,
                     1e15, -1e15, 1.0000000000000002e15, 1e-15, 9e-16, 1e12, -1e12, 2.0**31, 2.0**63,
                     np.nan, np.inf, -np.inf]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.floats(-50, 50),
)
DTYPES = ["float64", "float32", "float16", "int8", "int32", "int64", "uint8", "uint64", "bool", "complex128",
          "object", "U8", "datetime64[s]"]


def write_into(view: np.ndarray, index: int, value: float) -> bool:
    """view.flat[index] = value, unchecked; False when NumPy itself refuses
    the value for the view's dtype (NaN or 1e300 into int32)."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            view.reshape(-1)[index] = value
        except (OverflowError, ValueError):
            return False
    return True


def as_dtype(values: np.ndarray, dtype: str) -> np.ndarray:
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if dtype == "object":
            return values.astype(object)
        if dtype == "U8":
            return values.astype("U8")
        if dtype == "datetime64[s]":
            return np.nan_to_num(values, posinf=0, neginf=0).clip(-1e9, 1e9).astype("int64").astype(dtype)
        return values.astype(dtype)


@st.composite
def shapes_near(draw, shape: tuple[int, ...]) -> tuple[int, ...]:
    """The expected shape, often; a neighbouring or empty one, sometimes."""
    choice = draw(st.integers(0, 9))
    if choice < 6:
        return shape
    if choice == 6:
        return ()
    if choice == 7:
        return shape[:-1] if shape else (0,)
    if choice == 8:
        return (*shape, 2)
    return tuple(draw(st.integers(0, 4)) for _ in shape) or (0,)


@st.composite
def nasty(draw, shape: tuple[int, ...], *, dtypes=None, elements=NASTY_FLOATS):
    """Something to pass where an array of `shape` is expected."""
    kind = draw(st.sampled_from(["array"] * 8 + ["list", "ragged", "scalar", "none", "text", "nested object"]))
    if kind == "ragged":
        return [[1.0, 2.0], [3.0]]
    if kind == "none":
        return None
    if kind == "text":
        return draw(st.sampled_from(["1.0", "", "radius"]))
    if kind == "nested object":
        return [object(), 1.0]
    if kind == "scalar":
        return draw(st.one_of(elements, st.integers(-2**70, 2**70), st.booleans(), st.complex_numbers()))
    the_shape = draw(shapes_near(shape))
    values = np.array(draw(st.lists(elements, min_size=int(np.prod(the_shape)),
                                    max_size=int(np.prod(the_shape)))), dtype=np.float64).reshape(the_shape)
    array = as_dtype(values, draw(st.sampled_from(dtypes or DTYPES)))
    return array.tolist() if kind == "list" else array


def good_positions(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.uniform(-20, 20, (n, 2))


# ------------------------------------------------------------------- tests
@given(time_step=st.one_of(NASTY_FLOATS, st.integers(-2**70, 2**70), st.booleans(), st.none(), st.text(max_size=3),
                           st.just(np.array([0.1]))),
       scenes=st.one_of(st.integers(-3, 4), st.integers(2**31 - 2, 2**40), st.floats(0, 4), st.none()),
       batch=st.booleans())
def test_constructors(time_step, scenes, batch):
    if batch:
        ok, sim = attempt(lambda: vosim.Batch(scenes=scenes, time_step=time_step), "scenes", "time_step")
        if ok:
            assert sim.scenes == scenes
    else:
        ok, sim = attempt(lambda: vosim.Simulator(time_step=time_step), "time_step")
    if ok:
        assert MIN_TIME <= sim.time_step <= MAX and sim.time_step == float(time_step)
        sim.step()


@given(data=st.data(), n=st.integers(0, 6), scenes=st.integers(1, 3), batch=st.booleans())
def test_add_agents_positions(data, n, scenes, batch):
    sim = vosim.Batch(scenes=scenes) if batch else vosim.Simulator()
    shape = (scenes, n, 2) if batch and data.draw(st.booleans()) else (n, 2)
    positions = data.draw(nasty(shape))
    ok, ids = attempt(lambda: sim.add_agents(positions), "positions")
    if ok:
        stored = full(sim, "positions")
        np.testing.assert_array_equal(stored, np.broadcast_to(np.asarray(positions, dtype=float), stored.shape))
        assert np.all(np.abs(stored) <= MAX)
        sim.step()
        check_state_is_finite(sim)
    else:
        assert sim.num_agents == 0


@given(data=st.data(), n=st.integers(1, 5), name=st.sampled_from(SCALAR_FIELDS + ["velocities", "pref_velocities",
                                                                                  "goals"]))
def test_add_agents_parameters(data, n, name):
    sim = vosim.Simulator(time_step=data.draw(st.sampled_from([1e-15, 0.1, 1.0, 1e15])))
    shape = (n, 2) if name in VECTOR_FIELDS else (n,)
    value = data.draw(nasty(shape))
    ok, _ = attempt(lambda: sim.add_agents(good_positions(n, 0), **{name: value}), name)
    if ok:
        assert sim.num_agents == n
        assert first_violation(sim) is None  # what add_agents accepts, the engine accepts
        run_a_little(sim, 3)
    else:
        assert sim.num_agents == 0


@given(data=st.data(), n=st.integers(0, 5), name=st.sampled_from(VECTOR_FIELDS + SCALAR_FIELDS + FLAG_FIELDS),
       batch=st.booleans())
def test_assigning_fields(data, n, name, batch):
    sim = vosim.Batch(scenes=2, time_step=0.1) if batch else vosim.Simulator(time_step=0.1)
    sim.add_agents(good_positions(n, 1), goals=good_positions(n, 2), pref_speed=1.0)
    width = (2,) if name in VECTOR_FIELDS else ()
    shape = data.draw(st.sampled_from([(), (n,), (2, n)] if batch else [(), (n,)])) + width
    value = data.draw(nasty(shape))
    before = full(sim, name).copy()
    ok, _ = attempt(lambda: setattr(sim, name, value), name)
    if ok:
        assert first_violation(sim) is None
        run_a_little(sim, 2)
    else:
        np.testing.assert_array_equal(full(sim, name), before)


@given(data=st.data(), n=st.integers(1, 6), name=st.sampled_from(VECTOR_FIELDS + SCALAR_FIELDS + FLAG_FIELDS),
       value=NASTY_FLOATS, with_goals=st.booleans())
def test_values_written_into_views(data, n, name, value, with_goals):
    sim = vosim.Simulator(time_step=0.25)
    sim.add_agents(good_positions(n, 3), goals=good_positions(n, 4) if with_goals else None,
                   pref_velocities=(0.5, 0.0))
    view = getattr(sim, name)
    index = data.draw(st.integers(0, view.size - 1))
    write_into(view, index, value)  # no checks here: the next step must catch it
    expected = first_violation(sim)
    before = sim.positions.copy()
    ok, error = attempt(sim.step, "agent id")
    if expected is None:
        assert ok, f"refused a valid state: {error}"
        check_state_is_finite(sim)
        check_speeds(sim)
    else:
        agent, field = expected
        assert not ok and isinstance(error, ValueError)
        assert re.search(rf"agent id {agent} \(.*\): {field} is ", str(error)), (expected, str(error))
        np.testing.assert_array_equal(sim.positions, before)
        assert sim.step_count == 0


@given(steps=st.one_of(st.integers(-2, 30), st.integers(2**62, 2**64), st.floats(0, 5), st.none(), st.text(max_size=2)),
       record_every=st.one_of(st.integers(-1, 40), st.just(2**70), st.just(1.5), st.none()),
       until_arrived=st.one_of(st.booleans(), st.integers(0, 1), st.none(), st.just(np.array([True]))),
       progress=st.one_of(st.booleans(), st.none(), st.just("yes"), st.just(lambda done, total: None)),
       with_goals=st.booleans())
def test_run_arguments(steps, record_every, until_arrived, progress, with_goals):
    sim = vosim.Simulator(time_step=0.5)
    sim.add_agents(good_positions(4, 5), goals=good_positions(4, 6) if with_goals else None)
    ok, traj = attempt(lambda: sim.run(steps, record_every=record_every, until_arrived=until_arrived,
                                       progress=progress),
                       "steps", "record_every", "until_arrived", "progress")
    if ok:
        assert traj.steps_run == sim.step_count <= steps
        assert traj.steps[0] == 0 and traj.steps[-1] == traj.steps_run
        check_state_is_finite(sim)
        np.testing.assert_array_equal(traj.positions[-1], sim.positions)
    else:
        assert sim.step_count == 0


@given(data=st.data(), n=st.integers(0, 6), batch=st.booleans())
def test_remove_agents(data, n, batch):
    sim = vosim.Batch(scenes=2) if batch else vosim.Simulator()
    ids = np.asarray(sim.add_agents(np.zeros((n, 2)) + np.arange(n)[:, None])).reshape(-1)
    known = st.sampled_from(list(ids)) if n else st.integers(0, 3)
    chosen = data.draw(st.lists(st.one_of(known, st.integers(-3, 20), st.integers(2**62, 2**64)), max_size=5))
    shape = data.draw(st.sampled_from([None, "2d", "scalar"]))
    dtype = data.draw(st.sampled_from([None, "int32", "uint64", "float64", "bool", "object"]))
    value = chosen
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if dtype is not None:
            try:
                value = np.array(chosen).astype(dtype)
            except OverflowError:
                value = np.array(chosen, dtype=object)
        if shape == "2d":
            value = np.reshape(value, (1, -1))
        elif shape == "scalar" and len(chosen) == 1:
            value = chosen[0]
    before = full(sim, "ids").copy()
    ok, _ = attempt(lambda: sim.remove_agents(value), "ids")
    live = set(before[before >= 0].tolist())
    after = full(sim, "ids")
    if ok:
        removed = set(int(i) for i in np.asarray(value).reshape(-1))
        assert removed <= live and len(removed) == np.size(value)  # only known ids, each once
        assert set(after[after >= 0].tolist()) == live - removed
    else:
        np.testing.assert_array_equal(after, before)  # nothing removed


@given(threads=st.one_of(st.integers(-2, 3), st.integers(10**4, 2**70), st.floats(-1, 3), st.booleans(), st.none()),
       weight=st.one_of(NASTY_FLOATS, st.booleans(), st.none(), st.text(max_size=2)),
       n=st.one_of(st.integers(-1, 30), st.floats(0, 5), st.none()),
       radius=st.one_of(NASTY_FLOATS, st.none()))
def test_module_level_calls(threads, weight, n, radius):
    before = vosim.get_num_threads()
    ok, _ = attempt(lambda: vosim.set_num_threads(threads), "num_threads")
    # None goes back to the default count (the default here: nothing set before).
    expected = before if threads is None or not ok else threads
    assert vosim.get_num_threads() == expected
    vosim.set_num_threads(before)
    ok, method = attempt(lambda: vosim.ORCA(bisector_weight=weight), "bisector_weight")
    sim = vosim.Simulator()
    if ok:
        sim.method = method
    ok, scenario = attempt(lambda: scenarios.circle(n, radius=radius), "n", "radius")
    if ok:
        run_a_little(scenario.build(method=sim.method), 2)


@st.composite
def extreme_scenes(draw):
    """Valid but extreme scenes: agents on one spot, huge coordinates, tiny
    or zero radii, zero speeds, horizons shorter than the step, values at the
    edges of the working range."""
    n = draw(st.integers(0, 60))
    layout = draw(st.sampled_from(["one spot", "two spots", "line", "cloud", "far apart", "edge of range"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    offset = draw(st.sampled_from([0.0, 1e6, 1e12, -1e14]))
    scale = draw(st.sampled_from([1e-300, 1e-9, 1.0, 1e3, 1e9]))
    if layout == "one spot":
        positions = np.zeros((n, 2))
    elif layout == "two spots":
        positions = rng.integers(0, 2, (n, 2)) * scale
    elif layout == "line":
        positions = np.column_stack([np.arange(n) * scale, np.zeros(n)])
    elif layout == "cloud":
        positions = rng.normal(0.0, scale, (n, 2))
    elif layout == "far apart":
        positions = rng.uniform(-1e14, 1e14, (n, 2))
    else:
        positions = rng.choice([-MAX, MAX, 0.0], (n, 2))
    positions = np.clip(positions + offset, -MAX, MAX)
    values = st.sampled_from([0.0, 1e-300, 1e-12, 0.5, 1.0, 10.0, 1e6, MAX])
    times = st.sampled_from([MIN_TIME, 1e-9, 0.01, 0.1, 2.0, 1e6, MAX])

    def per_agent(elements):
        return draw(st.one_of(elements, st.lists(elements, min_size=n, max_size=n)))

    params = dict(
        radius=per_agent(values), max_speed=per_agent(values), neighbor_dist=per_agent(values),
        max_neighbors=per_agent(st.sampled_from([0, 1, 10, 2**31 - 1])), time_horizon=per_agent(times),
        pref_speed=per_agent(values), arrival_radius=per_agent(values),
        velocities=np.clip(rng.normal(0.0, draw(values), (n, 2)), -MAX, MAX),
    )
    goal_kind = draw(st.sampled_from(["none", "same", "antipodes", "far"]))
    if goal_kind == "same":
        params["goals"] = positions
    elif goal_kind == "antipodes":
        params["goals"] = np.clip(-positions, -MAX, MAX)
    elif goal_kind == "far":
        params["goals"] = rng.choice([-MAX, MAX], (n, 2))
    else:
        params["pref_velocities"] = np.clip(rng.normal(0.0, draw(values), (n, 2)), -MAX, MAX)
    time_step = draw(times)
    return positions, params, time_step


@given(extreme_scenes(), st.integers(1, 4))
def test_extreme_but_valid_scenes_stay_finite(scene, steps):
    positions, params, time_step = scene
    note(f"positions {positions[:4]}..., time_step {time_step}, {params}")
    sim = vosim.Simulator(time_step=time_step)
    sim.add_agents(positions, **params)
    for _ in range(steps):
        ok, error = attempt(sim.step, "agent id")
        if not ok:
            # Only a position that has left the working range may stop a
            # later step, and it is reported as such.
            assert isinstance(error, ValueError) and "position is" in str(error), str(error)
            assert np.isfinite(sim.positions).all()
            return
        check_state_is_finite(sim)
        check_speeds(sim)


# Every method of the plane with its defaults, for the kernel fuzz below.
PLANE_METHODS = [vosim.ORCA, vosim.VO, vosim.RVO, vosim.HRVO, vosim.AdaptiveSampling, vosim.GridSampling,
                 vosim.ForceBased, vosim.AVO, vosim.CollisionFreeSpeed, vosim.SocialForce]
EVERYWHERE = [[-MAX, -MAX], [MAX, -MAX], [MAX, MAX], [-MAX, MAX]]


@given(extreme_scenes(), st.integers(1, 3), st.sampled_from(PLANE_METHODS),
       st.lists(st.sampled_from([0.25, 1.0, 4.0]), max_size=600))
def test_every_method_survives_extreme_but_valid_scenes(scene, steps, method, zone_factors):
    """Any finite input within the documented ranges, for every method, with
    speed zones of any factor stacked over the scene: steps finish with finite
    state, or stop with one of the documented refusals (a position or a
    preferred velocity carried out of the working range), never with an
    internal error or a crash."""
    positions, params, time_step = scene
    note(f"{method.__name__}, zones {zone_factors[:5]}... ({len(zone_factors)}), time_step {time_step}, {params}")
    sim = vosim.Simulator(time_step=time_step, method=method())
    sim.add_agents(positions, **params)
    for factor in zone_factors:
        sim.add_speed_zone(EVERYWHERE, factor)
    for _ in range(steps):
        ok, error = attempt(sim.step, "agent id")
        if not ok:
            message = str(error)
            assert isinstance(error, ValueError), message
            assert "internal error" not in message, message
            assert "position is" in message or "preferred velocity from its goal" in message, message
            assert np.isfinite(sim.positions).all()
            return
        check_state_is_finite(sim)
        check_speeds(sim)


class SimulatorMachine(RuleBasedStateMachine):
    """Random sequences of add / remove / step / run / writes into the views /
    assignments on one simulator or batch, checked against a model of which
    ids live and of which values the engine must refuse."""

    @initialize(scenes=st.one_of(st.none(), st.integers(1, 3)), time_step=st.sampled_from([0.05, 0.25, 1.0]))
    def create(self, scenes, time_step):
        self.sim = vosim.Simulator(time_step=time_step) if scenes is None else vosim.Batch(scenes, time_step)
        self.scenes = 1 if scenes is None else scenes
        self.live: set[int] = set()
        self.steps = 0

    def expect_step(self, call):
        """Call a step or run; refused exactly when the model says the state is bad."""
        expected = first_violation(self.sim)
        ok, result = attempt(call, "agent id", "steps")
        if expected is None and not ok:
            # Only a run may fail on a valid start: when its steps carry a
            # position out of the working range. It stops before the step
            # that would use it, keeping what it recorded.
            assert isinstance(result, ValueError) and "position is" in str(result), str(result)
            assert first_violation(self.sim)[1] == "position"
            assert result.trajectory.steps_run == self.sim.step_count - self.steps
            self.steps = self.sim.step_count
            check_state_is_finite(self.sim)
            repair(self.sim)
        elif expected is None:
            check_state_is_finite(self.sim)
        else:
            agent, field = expected
            assert not ok and isinstance(result, ValueError)
            assert f"agent id {agent} " in str(result) and f": {field} is " in str(result), (expected, str(result))
            repair(self.sim)
        return ok, result

    @rule(n=st.integers(0, 8), seed=st.integers(0, 1000), spread=st.sampled_from([0.0, 1e-6, 1.0, 30.0]),
          goals=st.booleans(), per_scene=st.booleans())
    def add(self, n, seed, spread, goals, per_scene):
        rng = np.random.default_rng(seed)
        shape = (self.scenes, n, 2) if per_scene and isinstance(self.sim, vosim.Batch) else (n, 2)
        positions = rng.uniform(-spread, spread, shape)
        # (strict=False: an obstacle added earlier may cover the spot; refusing
        # such agents is tested in test_obstacles.py)
        ids = self.sim.add_agents(positions, goals=-positions if goals else None,
                                  radius=rng.choice([0.0, 0.3, 1.0]), max_speed=rng.choice([0.0, 1.0, 2.0]),
                                  strict=False)
        new = set(np.asarray(ids).reshape(-1).tolist())
        assert not new & self.live  # ids are never reused
        self.live |= new

    @rule(data=st.data())
    def add_nasty(self, data):
        name = data.draw(st.sampled_from(["positions"] + SCALAR_FIELDS + ["velocities", "goals"]))
        n = data.draw(st.integers(0, 3))
        value = data.draw(nasty((n, 2) if name in VECTOR_FIELDS else (n,)))
        kwargs = {} if name == "positions" else {name: value}
        positions = value if name == "positions" else good_positions(n, 7)
        before = self.sim.num_agents
        ok, ids = attempt(lambda: self.sim.add_agents(positions, strict=False, **kwargs), name)
        if ok:
            self.live |= set(np.asarray(ids).reshape(-1).tolist())
        else:
            assert self.sim.num_agents == before

    @precondition(lambda self: self.live)
    @rule(data=st.data())
    def remove(self, data):
        chosen = data.draw(st.lists(st.sampled_from(sorted(self.live)), min_size=1, max_size=4, unique=True))
        self.sim.remove_agents(chosen)
        self.live -= set(chosen)

    @rule(ids=st.lists(st.integers(-2, 60), max_size=4))
    def remove_maybe_unknown(self, ids):
        ok, _ = attempt(lambda: self.sim.remove_agents(ids), "ids")
        assert ok == (set(ids) <= self.live and len(set(ids)) == len(ids))
        if ok:
            self.live -= set(ids)

    @rule()
    def step(self):
        ok, _ = self.expect_step(self.sim.step)
        if ok:
            self.steps += 1
            check_speeds(self.sim)

    @rule(steps=st.integers(0, 6), record_every=st.integers(1, 4), until_arrived=st.booleans())
    def run(self, steps, record_every, until_arrived):
        if until_arrived and not np.any(full(self.sim, "has_goal") & full(self.sim, "active")):
            ok, _ = attempt(lambda: self.sim.run(steps, until_arrived=True), "until_arrived")
            assert not ok
            return
        ok, traj = self.expect_step(lambda: self.sim.run(steps, record_every=record_every,
                                                         until_arrived=until_arrived))
        if ok:
            self.steps += traj.steps_run
            assert traj.steps_run <= steps
            if traj.steps_run:
                check_speeds(self.sim)
            np.testing.assert_array_equal(traj.positions[-1], self.sim.positions)
            assert not np.isnan(traj.min_clearance_per_frame()).any()

    @precondition(lambda self: self.sim.num_agents > 0)
    @rule(data=st.data(), name=st.sampled_from(VECTOR_FIELDS + SCALAR_FIELDS + FLAG_FIELDS), value=NASTY_FLOATS)
    def write_into_view(self, data, name, value):
        view = getattr(self.sim, name)
        write_into(view, data.draw(st.integers(0, view.size - 1)), value)

    @rule(data=st.data(), name=st.sampled_from(VECTOR_FIELDS + SCALAR_FIELDS + FLAG_FIELDS))
    def assign(self, data, name):
        width = (2,) if name in VECTOR_FIELDS else ()
        value = data.draw(nasty(width, dtypes=["float64", "int64", "bool", "object", "complex128"]))
        before = full(self.sim, name).copy()
        ok, _ = attempt(lambda: setattr(self.sim, name, value), name)
        if not ok:
            np.testing.assert_array_equal(full(self.sim, name), before)

    @rule(value=NASTY_FLOATS)
    def set_time_step(self, value):
        before = self.sim.time_step
        ok, _ = attempt(lambda: setattr(self.sim, "time_step", value), "time_step")
        assert self.sim.time_step == (value if ok else before)

    @rule(choice=st.sampled_from(METHOD_SETTINGS), value=SETTING_VALUES)
    def set_method(self, choice, value):
        kind, setting = choice
        if kind in (vosim.VO, vosim.RVO, vosim.HRVO) and setting != "samples":
            value_kwargs = {setting: value, "samples": 8}  # keep sampling cheap
        else:
            value_kwargs = {setting: min(value, 64) if setting in ("samples", "divs", "grid_size")
                            and isinstance(value, int) and not isinstance(value, bool) else value}
        ok, method = attempt(lambda: kind(**value_kwargs), setting, "samples")
        if ok:
            self.sim.method = method

    @rule(data=st.data(), kind=st.sampled_from(["obstacle", "wall", "boundary"]), strict=st.booleans())
    def add_obstacle(self, data, kind, strict):
        n = data.draw(st.integers(0, 6))
        vertices = data.draw(st.one_of(
            nasty((n, 2)),
            st.lists(st.tuples(st.integers(-6, 6), st.integers(-6, 6)), min_size=0, max_size=6).map(
                lambda points: np.array(points, dtype=float).reshape(-1, 2))))
        scene = data.draw(st.one_of(st.none(), st.integers(-1, self.scenes))) if isinstance(self.sim, vosim.Batch) \
            else None
        adder = {"obstacle": self.sim.add_obstacle, "wall": self.sim.add_wall, "boundary": self.sim.add_boundary}[kind]
        kwargs = {} if scene is None else {"scene": scene}
        if kind != "wall":
            kwargs["strict"] = strict
        before = len(self.sim.obstacles)
        ok, _ = attempt(lambda: adder(vertices, **kwargs), "vertices", "points", "scene", "agents with ids")
        assert len(self.sim.obstacles) == before + (1 if ok else 0)

    @precondition(lambda self: self.live)
    @rule(data=st.data())
    def inspect(self, data):
        agent = data.draw(st.sampled_from(sorted(self.live)))
        ok, seen = attempt(lambda: self.sim.inspect(agent), "agent id")
        if ok:
            assert np.isfinite(seen["new_velocity"]).all()
        else:
            repair(self.sim)

    @rule()
    def neighbors(self):
        ok, table = attempt(self.sim.neighbors, "agent id")
        if ok:
            found = table[table >= 0]
            assert set(found.tolist()) <= self.live
        else:
            repair(self.sim)

    @invariant()
    def ids_match_the_model(self):
        ids = full(self.sim, "ids")
        assert ids.shape[:2] == (self.scenes, self.sim.num_agents)
        assert set(ids[ids >= 0].tolist()) == self.live
        assert self.sim.step_count == self.steps


TestSimulatorMachine = SimulatorMachine.TestCase
