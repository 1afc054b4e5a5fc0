"""The per-agent fields, read from the engine's field table (``_core.AGENT_FIELDS``).

The table in ``cpp/core/state/agent_fields.hpp`` names every field once: its
type, width, accepted range, add_agents default and doc. Everything Python
shows of the fields (the view properties, their checks, add_agents'
signature, defaults and parameter docs) is built here from it.
"""

from __future__ import annotations

import inspect
import math
import textwrap
from dataclasses import dataclass

import numpy as np

from . import _core


@dataclass(frozen=True)
class Field:
    """One row of the engine's field table."""

    name: str
    dtype: str  # "float64", "int32", "int64", "int8" or "bool"
    width: int  # components per agent in the plane: 2 for vectors (3 in 3D), 1 for one value per agent
    role: str  # "input", "state", "hidden", "read-only" or "internal"
    minimum: float
    maximum: float
    default: float | None  # add_agents' default; None when required or derived from another argument
    doc: str
    is_vector: bool = False  # one component per dimension

    def components(self, dimensions: int = 2) -> int:
        """Values per agent in an engine of ``dimensions`` dimensions."""
        return dimensions if self.is_vector else self.width

    @property
    def checks(self) -> dict:
        """Keyword arguments of ``_checks.check_values`` accepting exactly the field's range."""
        if self.minimum == -self.maximum:
            return dict(magnitude=self.maximum)
        if math.isinf(self.maximum):
            return dict(minimum=self.minimum, infinity=True)
        whole = dict(whole=True) if self.dtype.startswith("int") else {}
        return dict(minimum=self.minimum, maximum=self.maximum, **whole)

    def shape_text(self) -> str:
        return "``(..., N, 2)`` (``(..., N, 3)`` in 3D)" if self.is_vector else "``(..., N)``"


FIELDS: dict[str, Field] = {
    row["name"]: Field(row["name"], row["dtype"], row["width"], row["role"], row["min"], row["max"],
                       row["default"], row["doc"], row["vector"])
    for row in _core.AGENT_FIELDS
}

#: Fields shown as attributes of Simulator and Batch (not the engine's internal or hidden ones).
VIEWS = tuple(name for name, f in FIELDS.items() if f.role not in ("internal", "hidden"))

# add_agents sets has_goal from goals; every other input field is one of its arguments.
_DERIVED_INPUTS = {"has_goal"}
INPUTS = tuple(name for name, f in FIELDS.items() if f.role == "input" and name not in _DERIVED_INPUTS)

#: add_agents' defaults of the fields that have a fixed one.
ADD_DEFAULTS = {name: FIELDS[name].default for name in INPUTS if FIELDS[name].default is not None}
ADD_DEFAULTS["kinematics"] = "holonomic"  # stored as 0; Python speaks of the names (_kinematics.py)
ADD_DEFAULTS.update({name: False for name in INPUTS if FIELDS[name].dtype == "bool"})  # flags: True or False

#: add_agents' defaults taken from another field: (field, source, scale), in the order they
#: are resolved; a field not given gets ``scale * values[source]`` (the engine's table).
DERIVED_DEFAULTS = tuple((field, source, float(scale)) for field, source, scale in _core.DERIVED_DEFAULTS)


def derive_defaults(values: dict, given) -> None:
    """Fill ``values`` with the derived default of each :data:`DERIVED_DEFAULTS` field that
    ``given(field)`` (the caller's checked value, or None) does not supply."""
    for field, source, scale in DERIVED_DEFAULTS:
        value = given(field)
        if value is None:
            value = values[source] if scale == 1.0 else scale * values[source]
        values[field] = value


#: Fields whose table default holds only while another argument is left at its
#: own (field: that argument); given that argument, they take its value. A
#: walker's preferred speed is below its top speed, but an agent given only a
#: top speed has always headed for its goal at it.
CONDITIONAL_DEFAULTS = {"pref_speed": "max_speed"}

#: Per-agent numbers of add_agents (one value per agent; what a scenario may set per agent).
PER_AGENT_NUMBERS = tuple(name for name in INPUTS if not FIELDS[name].is_vector)

# Bytes per agent slot of the engine's columns when each holds a value per
# agent (those of fields every agent has at one value take less: lazy
# columns, agent_fields.hpp), and at most what add_agents copies of its
# arguments (broadcast views; checks make temporary masks and per-agent
# arrays of other dtypes are converted through float64).
def bytes_per_agent(dimensions: int = 2) -> tuple[int, int]:
    """At most the bytes per agent slot of the engine's columns, and what add_agents copies."""
    engine = sum(np.dtype(f.dtype).itemsize * f.components(dimensions) for f in FIELDS.values())
    inputs = sum((1 if FIELDS[n].dtype == "bool" else 8) * FIELDS[n].components(dimensions)
                 for n in (*INPUTS, *_DERIVED_INPUTS))
    return engine, inputs


def _signature_default(name: str):
    field = FIELDS[name]
    if name == "kinematics" or field.dtype == "bool":
        return ADD_DEFAULTS[name]
    if field.is_vector or field.default is None or name in CONDITIONAL_DEFAULTS:
        return None
    if math.isinf(field.default):
        return math.inf
    return int(field.default) if field.dtype.startswith("int") else field.default


# Arguments of add_agents that are not fields of the table.
_EXTRA_PARAMETERS = {"waypoints": None, "waypoint_radius": None, "waypoint_advance": "distance", "strict": True}

ADD_AGENTS_SIGNATURE = inspect.Signature(
    [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
     inspect.Parameter("positions", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    + [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=_signature_default(name))
       for name in INPUTS if name != "positions"]
    + [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default)
       for name, default in _EXTRA_PARAMETERS.items()],
    return_annotation=np.ndarray,
)


def _range_text(field: Field) -> str:
    if field.name == "kinematics":
        return "one name per agent"
    if field.dtype == "bool":
        return "True or False"
    if field.minimum == -field.maximum:
        return f"each coordinate within +-{field.maximum:.15g}"
    if math.isinf(field.maximum):
        return f"from {field.minimum:.15g}, inf for none"
    whole = "a whole number " if field.dtype.startswith("int") else ""
    return f"{whole}from {field.minimum:.15g} to {field.maximum:.15g}"


def parameter_docs(vector_shape: str, scalar_shape: str) -> str:
    """The NumPy-style docs of add_agents' per-agent parameters (after ``positions``)."""
    lines = []
    for name in INPUTS:
        if name == "positions":
            continue
        field = FIELDS[name]
        shape = vector_shape if field.is_vector else scalar_shape
        default = ("" if field.default is None or field.is_vector and field.default == 0
                   else f"; {field.default:g} by default" if name in CONDITIONAL_DEFAULTS
                   else f"; {_signature_default(name)} by default")
        zero = "; zero by default" if field.is_vector and field.default == 0 else ""
        text = f"{shape}, {_range_text(field)}{default}{zero}. {field.doc}"
        lines.append(name + "\n" + textwrap.fill(text, width=88, initial_indent="    ", subsequent_indent="    "))
    return "\n".join(lines)
