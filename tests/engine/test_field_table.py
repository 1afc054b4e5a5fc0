"""The per-agent field table (cpp/core/agent_fields.hpp) drives storage, add_agents,
the per-step check, the views and Python's field list: they all agree with it."""

import inspect
import math

import numpy as np
import pytest

import vosim
from vosim import _core
from vosim._fields import ADD_DEFAULTS, CONDITIONAL_DEFAULTS, FIELDS, INPUTS, VIEWS

# (kinematics is given and shown by name: tests/methods/test_differential_drive.py.)
NUMBER_FIELDS = [f for f in FIELDS.values() if f.role == "input" and f.dtype != "bool" and f.name != "kinematics"]


def test_table_rows_are_complete_and_unique():
    names = [row["name"] for row in _core.AGENT_FIELDS]
    assert len(names) == len(set(names))
    for row in _core.AGENT_FIELDS:
        assert row["dtype"] in ("float64", "int32", "int64", "int8", "bool"), row
        assert row["width"] in (1, 2), row
        assert row["role"] in ("input", "state", "hidden", "read-only", "internal"), row
        assert row["min"] <= row["max"], row
        assert row["doc"].endswith("."), row
        if row["default"] is not None and math.isnan(row["default"]):
            assert row["role"] == "read-only", row  # not set yet (exit_time)
        elif row["default"] is not None:
            assert row["min"] <= row["default"] <= row["max"], row


@pytest.mark.parametrize("cls", [vosim.Simulator, vosim.Batch])
def test_every_field_with_a_view_is_a_documented_property(cls):
    for name in VIEWS:
        prop = getattr(cls, name)
        assert isinstance(prop, property), name
        assert FIELDS[name].doc in prop.__doc__
        assert (prop.fset is None) == (FIELDS[name].role == "read-only"), name
    for name, field in FIELDS.items():
        if field.role in ("internal", "hidden"):  # the engine's own columns are no attributes
            assert not hasattr(cls, name), name


@pytest.mark.parametrize("cls", [vosim.Simulator, vosim.Batch])
def test_add_agents_signature_and_docs_come_from_the_table(cls):
    parameters = inspect.signature(cls.add_agents).parameters
    assert set(parameters) == {"self", *INPUTS, "waypoints", "waypoint_radius", "waypoint_advance", "strict"}
    for name, default in ADD_DEFAULTS.items():
        if FIELDS[name].width == 1:
            # A default that depends on another argument shows as None (add_agents resolves it).
            assert parameters[name].default == (None if name in CONDITIONAL_DEFAULTS else default), name
        assert f"\n        {name}\n" in cls.add_agents.__doc__, name


def test_defaults_land_in_the_views():
    sim = vosim.Simulator()
    sim.add_agents([[0.0, 0.0], [5.0, 0.0]])
    for name, default in ADD_DEFAULTS.items():
        np.testing.assert_array_equal(getattr(sim, name), np.broadcast_to(default, getattr(sim, name).shape))
    np.testing.assert_array_equal(sim.arrival_radius, sim.radius)  # derived defaults


def test_a_given_max_speed_is_also_the_default_pref_speed():
    """pref_speed's table default holds while max_speed is left at its own; given max_speed, it follows it."""
    sim = vosim.Simulator()
    sim.add_agents([[0.0, 0.0], [5.0, 0.0]], max_speed=[2.5, 0.7])
    np.testing.assert_array_equal(sim.pref_speed, [2.5, 0.7])
    sim.add_agents([[10.0, 0.0]], max_speed=2.5, pref_speed=1.0)
    assert sim.pref_speed[2] == 1.0
    sim.add_agents([[15.0, 0.0]])
    assert sim.pref_speed[3] == ADD_DEFAULTS["pref_speed"] < sim.max_speed[3] == ADD_DEFAULTS["max_speed"]


def test_every_input_field_reaches_its_column():
    sim = vosim.Batch(2)
    values = {f.name: np.full((2, 3), 0.25 if f.dtype == "float64" else 3) for f in NUMBER_FIELDS
              if f.width == 1 and f.minimum <= 0.25 <= f.maximum}
    values.update(velocities=[0.5, -0.5], pref_velocities=[1.0, 2.0], goals=[[3.0, 4.0]] * 3)
    sim.add_agents(np.zeros((3, 2)), **values)
    for name, value in values.items():
        np.testing.assert_array_equal(getattr(sim, name), np.broadcast_to(value, getattr(sim, name).shape), name)
    assert sim.has_goal.all() and sim.active.all()


def test_unknown_argument_is_a_type_error():
    with pytest.raises(TypeError, match="colour"):
        vosim.Simulator().add_agents([[0.0, 0.0]], colour=1.0)


def test_engine_add_agents_names_missing_and_unknown_fields():
    engine = _core.Engine(1, 0.1)
    arrays = {name: np.zeros((1, 1, 2) if FIELDS[name].width == 2 else (1, 1)) for name in (*INPUTS, "has_goal")}
    arrays["has_goal"] = arrays["has_goal"].astype(np.uint8)
    arrays["max_neighbors"] = arrays["max_neighbors"].astype(np.int32)
    with pytest.raises(ValueError, match="no radius given"):
        engine.add_agents(1, {k: v for k, v in arrays.items() if k != "radius"})
    with pytest.raises(ValueError, match="no input field named 'colour'"):
        engine.add_agents(1, {**arrays, "colour": np.zeros((1, 1))})
    assert engine.count == 0
    engine.add_agents(1, arrays)
    assert engine.count == 1


def _outside(field):
    """A value just outside the field's range."""
    if math.isinf(field.maximum):
        return field.minimum - 1.0
    return np.nextafter(field.maximum, np.inf) if field.dtype == "float64" else -1


@pytest.mark.parametrize("field", [f for f in NUMBER_FIELDS if f.width == 1], ids=lambda f: f.name)
def test_the_step_checks_each_field_against_its_range(field):
    sim = vosim.Simulator()
    sim.add_agents([[0.0, 0.0], [5.0, 0.0]], goals=[[1.0, 0.0], [6.0, 0.0]])
    sim.step()
    sim._view(field.name)[1] = _outside(field)
    with pytest.raises(ValueError, match=f"agent id 1 .*: {field.name} is"):
        sim.step()
    with pytest.raises(ValueError, match=field.name):
        setattr(sim, field.name, _outside(field))


def test_derived_defaults_follow_their_source_fields():
    from vosim._fields import DERIVED_DEFAULTS

    resolved = {name for name in INPUTS if FIELDS[name].default is not None}
    for field, source, scale in DERIVED_DEFAULTS:
        assert field in INPUTS and FIELDS[field].default is None, field
        assert source in resolved, (field, source)  # given a value before this row needs it
        resolved.add(field)
    sim = vosim.Simulator(time_step=0.1)
    sim.add_agents(positions=[[0.0, 0.0], [5.0, 0.0]], radius=[0.3, 0.7], max_speed=[1.5, 2.5],
                   kinematics="differential_drive")
    for field, source, scale in DERIVED_DEFAULTS:
        np.testing.assert_array_equal(getattr(sim, field), scale * getattr(sim, source), err_msg=field)


# The defaults of add_agents that users and the docs rely on, written out here
# rather than read from the table: a change to the engine's table fails this
# test until it is made here too (and in CHANGELOG.md).
PROMISED_DEFAULTS = {"radius": 0.25, "max_speed": 1.8, "pref_speed": 1.3, "neighbor_dist": 10.0, "max_neighbors": 10,
                     "time_horizon": 3.0, "time_horizon_obst": 3.0, "start_time": 0.0, "remove_at_goal": False,
                     "priority": 1.0, "max_acceleration": math.inf, "max_angular_speed": math.inf}


def test_an_agent_added_with_no_settings_gets_the_promised_defaults():
    sim = vosim.Simulator()
    sim.add_agents([[0.0, 0.0]], goals=[[10.0, 0.0]])
    for name, value in PROMISED_DEFAULTS.items():
        assert getattr(sim, name)[0] == value, name
