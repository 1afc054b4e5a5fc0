"""Pedestrians as RiMEA's tests model them, and the functions every test uses to build and run its scenario."""

from __future__ import annotations

import warnings

from ..methods import Method, method_from_name

#: Pedestrians as the guideline's tests model them.
RADIUS = 0.25
SPEED = 1.34
TIME_STEP = 0.1
# Agent settings shared by every test (for methods that use them): pedestrians see 5 m around them,
# look 2 s ahead at others and 1 s at walls.
PEDESTRIAN = dict(radius=RADIUS, neighbor_dist=5.0, max_neighbors=10, time_horizon=2.0, time_horizon_obst=1.0)

#: Horizontal walking speeds on stairs (m/s), Weidmann (1993, "Transporttechnik der Fussgaenger", his
#: table of mean speeds): 0.610 upwards, 0.694 downwards, against 1.34 on the level. RiMEA 2 and 3 express
#: the stairs, drawn in plan, as a speed zone whose factor is their ratio to the level speed.
STAIR_SPEED_UP = 0.610
STAIR_SPEED_DOWN = 0.694
#: RiMEA 2 and 3's staircase in plan (m): 10 m along the slope, 8 m across the floor and 6 m up, as in
#: JuPedSim's verification geometry.
STAIR_PLAN_LENGTH = 8.0


def method_of(method) -> Method:
    if isinstance(method, str):
        return method_from_name(method)
    if not isinstance(method, Method):
        raise TypeError(f"method: expected a vosim method or its name, got {type(method).__name__}")
    return method


def method_label(method) -> str:
    """The method's name, with its settings that differ from the defaults
    (``"ORCA, time_gap=0.5"``): what a table's column is headed with."""
    import dataclasses

    method = method_of(method)
    defaults = type(method)()
    changed = [f"{f.name}={getattr(method, f.name)!r}" for f in dataclasses.fields(method)
               if getattr(method, f.name) != getattr(defaults, f.name)]
    return ", ".join([method.name] + changed)


def simulator_for(method: Method):
    from ..simulator import Simulator

    return Simulator(time_step=TIME_STEP, method=method)


def run_quietly(sim, steps: int, **kwargs):
    with warnings.catch_warnings():  # stalls and unfinished runs are what the tests measure
        warnings.simplefilter("ignore")
        return sim.run(steps, **kwargs)
