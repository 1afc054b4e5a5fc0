"""ISO 20414 component 7: faster pedestrians overtake a slow person with a movement disability in a corridor."""

from __future__ import annotations

import numpy as np

from .. import measurement
from .._checks import integer, scalar
from ._pedestrians import PEDESTRIAN, RADIUS, SPEED, TIME_STEP, method_of, run_quietly, simulator_for
from ._result import TestResult

#: The corridor (length, width in m), where the slow person starts (m from the entrance), and its speed (m/s).
CORRIDOR_7 = (40.0, 2.0)
SLOW_START_7 = 10.0
SLOW_SPEED_7 = 0.5


def iso_7(method="orca", *, faster: int = 5, slow_speed: float = SLOW_SPEED_7, tolerance: float = 0.1,
          seed: int = 0) -> TestResult:
    """ISO 20414 basic component 7: overtaking a person with a movement disability.

    One person walking at ``slow_speed`` (0.5 m/s by default) starts 10 m
    into a corridor 40 m long and 2 m wide, on its axis; ``faster`` persons
    at 1.34 m/s start behind it (between 1 and 8 m in, spread across the
    width) and all head for the far end. Times are taken when each centre
    crosses the end line.

    Source: ISO 20414:2020 section 5.2 lists the component (JuPedSim issue
    #1570); its geometry and numbers could not be checked here, so the
    corridor, the speeds and the criterion are vosim's.

    Criterion: every faster person reaches the end before the slow one
    (they overtake it), and the slow one's time to walk its 30 m is within
    ``tolerance`` (10 %) of its free walking time (the faster ones do not
    block or push it).
    """
    method = method_of(method)
    faster = integer(faster, "faster", minimum=1, maximum=12)
    slow_speed = scalar(slow_speed, "slow_speed", minimum=0.1, maximum=SPEED / 1.5)
    tolerance = scalar(tolerance, "tolerance", minimum=0.0, strict=True, maximum=1.0)
    rng = np.random.default_rng(integer(seed, "seed", minimum=0))
    length, width = CORRIDOR_7
    margin = RADIUS + 0.1
    # Faster ones on a staggered grid 1 to 8 m in (two across), jittered along the corridor.
    columns = int(np.ceil(faster / 2))
    xs = np.linspace(1.0, SLOW_START_7 - 2.0, columns)
    starts = [[xs[k // 2] + rng.uniform(-0.2, 0.2), margin if k % 2 == 0 else width - margin] for k in range(faster)]
    starts = np.array([[SLOW_START_7, width / 2]] + starts)
    speeds = np.array([slow_speed] + [SPEED] * faster)
    sim = simulator_for(method)
    sim.add_wall([[0.0, 0.0], [length, 0.0]])
    sim.add_wall([[0.0, width], [length, width]])
    sim.add_wall([[0.0, 0.0], [0.0, width]])
    sim.add_agents(starts, goals=starts * [0.0, 1.0] + [length + 5.0, 0.0], pref_speed=speeds, max_speed=speeds,
                   **PEDESTRIAN)
    free = (length - SLOW_START_7) / slow_speed
    traj = run_quietly(sim, int(np.ceil(free * 1.5 / TIME_STEP)), record_every=1)
    frames = measurement.crossing_frames(traj, measurement.MeasurementLine([length, 0.0], [length, width]))
    times = np.where(frames >= 0, traj.times[np.maximum(frames, 0)] - traj.times[0], np.inf)
    slow, fast = float(times[0]), times[1:]
    overtaken = int(np.sum(fast < slow))
    passed = bool(np.isfinite(slow) and overtaken == faster and abs(slow - free) <= tolerance * free)
    summary = (f"{overtaken}/{faster} overtook; slow person {slow:.1f} s (free {free:.0f} s)" if np.isfinite(slow)
               else f"slow person not at the end in {free * 1.5:.0f} s; {int(np.isfinite(fast).sum())}/{faster} faster")
    return TestResult("ISO 7", "overtaking a person with a movement disability", method.name,
                      {"overtook": overtaken, "faster": faster, "slow_time_s": slow, "slow_free_time_s": free,
                       "faster_times_s": [float(t) for t in fast]},
                      f"every faster person ends before the slow one, whose time is within {tolerance:.0%} of "
                      "its free walk", passed, summary, data={"trajectory": traj})
