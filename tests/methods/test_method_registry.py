"""The core's method registry is the one declaration of every method: the
Python classes, their checks, the aliases and the CLI's list come from it."""

import dataclasses
import inspect
import math
import subprocess
import sys

import numpy as np
import pytest

import vosim
from vosim import _core, methods

SPECS = {spec["name"]: spec for spec in _core.METHODS}
SHARED = [f.name for f in dataclasses.fields(vosim.Method)]


def test_every_registered_method_is_a_public_class_in_registry_order():
    assert list(methods.METHODS) == [spec["name"] for spec in _core.METHODS]
    for name, cls in methods.METHODS.items():
        assert getattr(vosim, name) is cls and name in vosim.__all__
        assert cls.name == name and issubclass(cls, vosim.Method)
        plane_only = {"HRVO", "GridSampling", "AdaptiveSampling", "AVO", "CollisionFreeSpeed", "SocialForce"}
        assert SPECS[name]["dimensions"] == ((2,) if name in plane_only else (2, 3))


@pytest.mark.parametrize("name", list(SPECS))
def test_fields_defaults_and_docs_follow_the_declaration(name):
    spec, cls = SPECS[name], methods.METHODS[name]
    declared = [p["name"] for p in spec["params"]]
    assert [f.name for f in dataclasses.fields(cls)] == SHARED + declared
    signature = inspect.signature(cls)
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in signature.parameters.values())
    for param in spec["params"]:
        default = signature.parameters[param["name"]].default
        assert default == param["default"] and type(default) is type(param["default"])
        assert f"\n    {param['name']}" in cls.__doc__ or f", {param['name']}" in cls.__doc__, param["name"]
    method = cls()
    assert methods.method_from_dict(method.to_dict()) == method
    assert method._make_core().name == name


def test_the_python_and_core_defaults_agree_where_they_used_to_differ():
    hrvo = {p["name"]: p["default"] for p in SPECS["HRVO"]["params"]}
    assert hrvo["hrvo_apex"] == vosim.HRVO().hrvo_apex == "symmetric"
    assert hrvo["selection"] == "geometric" and {p["name"]: p["default"] for p in SPECS["VO"]["params"]}[
        "selection"] == "sampling"
    # Grid sampling declares only what it uses (no adaptive pattern settings).
    assert "divs" not in {p["name"] for p in SPECS["GridSampling"]["params"]}


def bad_values(param):
    """(value, error type, text in the message) that the declaration refuses."""
    kind = param["kind"]
    if kind == "real":
        low = param["minimum"]
        yield (low if param["exclusive_minimum"] else math.nextafter(low, -math.inf)), ValueError, "must be"
        yield param["maximum"] * 2, ValueError, "must be <="
        yield math.nan, ValueError, "must be finite"
        yield "1", TypeError, "expected a real number"
    elif kind == "integer":
        yield int(param["minimum"]) - 1, ValueError, "must be >="
        yield int(param["maximum"]) + 1, ValueError, "must be <="
        yield 1.5, TypeError, "expected an integer"
    elif kind == "flag":
        yield 1, TypeError, "expected True or False"
    else:
        yield "nope", ValueError, "must be"


@pytest.mark.parametrize("name,param", [(name, p) for name, spec in SPECS.items() for p in spec["params"]],
                         ids=lambda x: x if isinstance(x, str) else x["name"])
def test_out_of_range_settings_are_refused_naming_argument_and_value(name, param):
    for value, error, text in bad_values(param):
        with pytest.raises(error, match=param["name"]) as caught:
            methods.METHODS[name](**{param["name"]: value})
        assert text in str(caught.value)
        if error is ValueError and not (isinstance(value, float) and math.isnan(value)):
            assert repr(value) in str(caught.value) or str(value) in str(caught.value)


def test_numpy_scalars_reach_the_core_as_plain_values():
    method = vosim.VO(samples=np.int64(10), safety_factor=np.float32(2.5))
    assert method._make_core().name == "VO"


def test_the_core_factory_refuses_what_the_registry_does_not_declare():
    with pytest.raises(ValueError, match="method is 'Nope'; must be one of ORCA, VO"):
        _core.make_method("Nope", {})
    with pytest.raises(ValueError, match="ORCA has no setting 'speed'"):
        _core.make_method("ORCA", {"speed": 1.0})
    with pytest.raises(ValueError, match="bisector_weight is -1; must be > 0"):
        _core.make_method("ORCA", {"bisector_weight": -1.0})
    with pytest.raises(ValueError, match="selection is 'x'; must be 'sampling' or 'geometric'"):
        _core.make_method("RVO", {"selection": "x"})
    with pytest.raises(ValueError, match="dimension is 3; HRVO works in dimension 2"):
        _core.make_method("HRVO", {}, dimension=3)
    with pytest.raises(ValueError, match="dimension is 3; VO with these settings does not work there"):
        _core.make_method("VO", {"selection": "geometric"}, dimension=3)
    assert _core.make_method("ORCA", {}, dimension=3).name == "ORCA"
    assert _core.make_method("ForceBased", {}).name == "ForceBased"


def test_aliases_and_cli_list_come_from_the_registry():
    assert methods.METHOD_ALIASES == {"adaptive": "AdaptiveSampling", "grid": "GridSampling", "force": "ForceBased",
                                     "csm": "CollisionFreeSpeed", "cfsm": "CollisionFreeSpeed",
                                     "sfm": "SocialForce", "social_force": "SocialForce"}
    assert methods.short_names() == ["orca", "vo", "rvo", "hrvo", "adaptive", "grid", "force", "avo", "csm", "sfm"]
    for short, name in zip(methods.short_names(), methods.METHODS):
        assert type(methods.method_from_name(short)).__name__ == name
    out = subprocess.run([sys.executable, "-m", "vosim", "compare", "--help"], capture_output=True, text=True,
                         check=True).stdout
    assert "orca, vo, rvo, hrvo, adaptive, grid, force, avo, csm, sfm" in " ".join(out.split())


def test_a_registered_method_without_a_class_statement_gets_one(monkeypatch):
    orca = SPECS["ORCA"]
    spec = {**orca, "name": "Sketch", "summary": "a sketch of a method",
            "params": orca["params"] + ({**orca["params"][0], "name": "gain", "doc": "a gain"},)}
    monkeypatch.setitem(methods._SPECS, "Sketch", spec)
    cls = methods._generated_class(spec)
    assert cls.__name__ == "Sketch" and cls.__module__ == "vosim.methods"
    assert [f.name for f in dataclasses.fields(cls)][-5:] == ["bisector_weight", "acceleration", "nonholonomic",
                                                            "time_gap", "gain"]
    assert "A sketch of a method." in cls.__doc__ and "\ngain\n    A gain." in cls.__doc__
    method = cls(gain=2.0)
    assert method.to_dict()["gain"] == 2.0 and repr(method).startswith("Sketch(perturbation=0.0")
    with pytest.raises(ValueError, match="gain is 0.0; must be > 0"):
        cls(gain=0.0)
    # The core has no such method: making it names the known ones.
    with pytest.raises(ValueError, match="method is 'Sketch'"):
        method._make_core()
