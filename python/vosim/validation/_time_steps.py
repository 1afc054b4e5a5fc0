"""The time step each method is validated at, and the door scene that chooses it.

Most methods give the same results at 0.1 s as at finer steps (the time
step of JuPedSim's verification suite and of RiMEA's tests here). A
pedestrian model integrated explicitly with forces (the social force model)
does not: its door flow changes with the step until the step resolves the
forces. Such a method is validated at the largest step of
:data:`CANDIDATE_STEPS` whose door flow (:func:`door_flow`, mean over seeds)
lies within :data:`RESOLVED_WITHIN` of the flow at the finest;
``tools/time_step_resolution.py`` measures it, and the table in
``docs/guide/validation.md`` records the figures.
"""

from __future__ import annotations

import warnings

import numpy as np

from .._checks import integer, scalar
from ._pedestrians import PEDESTRIAN, SPEED, method_of

#: The steps (s) tried, coarsest first; the finest is the reference.
CANDIDATE_STEPS = (0.1, 0.05, 0.02, 0.01)
#: A step resolves a method when its door flow is within this share of the finest step's.
RESOLVED_WITHIN = 0.02
#: The door scene: a square room (side, m) with a door (width, m) in the middle of its right wall.
ROOM = 10.0
DOOR = 1.0


def door_flow(method, *, time_step: float, persons: int = 60, seed: int = 0, seconds: float = 300.0) -> float:
    """Persons per second through a 1 m door between the 10th and the 90th percentile exit.

    ``persons`` pedestrians (radius 0.25 m, 1.34 m/s) spread evenly over a
    10 x 10 m room leave through a 1 m door in the middle of its right wall
    (through the door's middle, then on) into a sink 0.3 m past it, at
    ``time_step`` s. Returns 0.8 persons / (t90 - t10), or NaN when fewer
    than 10 leave within ``seconds``.
    """
    from ..simulator import Simulator
    from ._imo import spread_persons

    method = method_of(method)
    time_step = scalar(time_step, "time_step", minimum=1e-4, maximum=1.0)
    persons = integer(persons, "persons", minimum=10, maximum=150)
    seconds = scalar(seconds, "seconds", minimum=1.0, maximum=3600.0)
    rng = np.random.default_rng(integer(seed, "seed", minimum=0))
    low, high = (ROOM - DOOR) / 2, (ROOM + DOOR) / 2
    sim = Simulator(time_step=time_step, method=method)
    sim.add_wall([[ROOM, low], [ROOM, 0.0], [0.0, 0.0], [0.0, ROOM], [ROOM, ROOM], [ROOM, high]])
    starts = spread_persons(persons, 0.0, ROOM, 0.0, ROOM, rng)
    route = [[ROOM, ROOM / 2], [ROOM + 5.0, ROOM / 2]]
    sim.add_agents(starts, waypoints=[route] * persons, waypoint_radius=0.5, pref_speed=SPEED, max_speed=SPEED,
                   **PEDESTRIAN)
    sim.add_sink([[ROOM + 0.3, -2.0], [ROOM + 6.0, -2.0], [ROOM + 6.0, ROOM + 2.0], [ROOM + 0.3, ROOM + 2.0]])
    with warnings.catch_warnings():  # a jammed door is what this measures
        warnings.simplefilter("ignore")
        sim.run(int(np.ceil(seconds / time_step)), until_arrived=True, record_every=10**6)
    times = np.sort(np.asarray(sim.exit_time, dtype=np.float64))
    times = times[np.isfinite(times)]
    if len(times) < 10:
        return float("nan")
    t10, t90 = np.percentile(times, [10, 90])
    return float(0.8 * len(times) / (t90 - t10)) if t90 > t10 else float("inf")

