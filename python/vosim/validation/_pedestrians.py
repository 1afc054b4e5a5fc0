"""Pedestrians as RiMEA's tests model them, and the functions every test uses to build and run its scenario."""

from __future__ import annotations

import dataclasses
import math
import warnings

import numpy as np

from ..methods import Method, method_from_name
from ..metrics import SERIES

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


#: Methods that 0.1 s does not resolve, and the step (s) each is validated at instead: the largest
#: step whose door flow lies within 2 % of the finest's (``validation.door_flow``; the measurement and
#: its command are in docs/guide/validation.md). Every other method runs at :data:`TIME_STEP`.
METHOD_TIME_STEPS = {"SocialForce": 0.05, "CollisionFreeSpeed": 0.01}


def time_step_of(method) -> float:
    """The time step (s) the tests run ``method`` at: :data:`METHOD_TIME_STEPS`, else :data:`TIME_STEP`."""
    return METHOD_TIME_STEPS.get(method_of(method).name, TIME_STEP)


def simulator_for(method: Method):
    """An empty simulator for one test's scene: the method at its time step, with the active broken
    variant's changes to the scene (``validation.broken``), if any."""
    from ._variants import simulator_class

    return simulator_class()(time_step=time_step_of(method), method=method)


def substeps(sim) -> int:
    """How many of the simulator's steps make one :data:`TIME_STEP` (1 at 0.1 s, 10 at 0.01 s)."""
    factor = round(TIME_STEP / sim.time_step)
    if factor < 1 or not math.isclose(factor * sim.time_step, TIME_STEP, rel_tol=1e-9):
        raise ValueError(f"time_step: {sim.time_step!r} must divide {TIME_STEP} s evenly")
    return factor


def run_quietly(sim, steps: int, *, record_every: int = 1, **kwargs):
    """Run ``steps`` steps of :data:`TIME_STEP` s, recording every ``record_every`` of them, whatever
    the simulator's own step: at a finer step the run takes proportionally more of its steps, and the
    frames stay ``record_every * TIME_STEP`` s apart, so every test measures the same frames."""
    factor = substeps(sim)
    with warnings.catch_warnings():  # stalls and unfinished runs are what the tests measure
        warnings.simplefilter("ignore")
        traj = sim.run(steps * factor, record_every=record_every * factor, **kwargs)
    every = record_every * factor
    if factor > 1 and len(traj.steps) > 2 and (traj.steps[-1] - traj.steps[0]) % every:
        # A run at a finer step that ended between frames (everybody arrived) records its last state off
        # the 0.1 s grid, which measurements need evenly spaced: that state is left out.
        keep = len(traj.times) - 1
        traj = dataclasses.replace(traj, positions=traj.positions[:keep], velocities=traj.velocities[:keep],
                                   times=traj.times[:keep], steps=traj.steps[:keep],
                                   headings=None if traj.headings is None else traj.headings[:keep],
                                   metrics={name: (np.asarray(value)[:keep] if name in SERIES else value)
                                            for name, value in (traj.metrics or {}).items()})
    return traj
