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
#: How far beside the slow one's axis (m) the faster ones start, at most: in its lane.
LANE_OFFSET_7 = 0.3
#: Overtaking goes round the slow person: no faster body may overlap its body deeper than this (m).
MAX_OVERLAP_7 = 0.1


def iso_7(method="orca", *, faster: int = 5, slow_speed: float = SLOW_SPEED_7, tolerance: float = 0.1,
          seed: int = 0) -> TestResult:
    """ISO 20414 basic component 7: overtaking a person with a movement disability.

    One person walking at ``slow_speed`` (0.5 m/s by default) starts 10 m
    into a corridor 40 m long and 2 m wide, on its axis; ``faster`` persons
    at 1.34 m/s start behind it in its lane, one behind the other between
    1 and 8 m in, each 0 to 0.3 m beside the axis (the seed's draw, either
    side), and all head straight along the corridor for the far end: each
    faster one must leave the lane to pass. Times are taken when each
    centre crosses the end line.

    Source: ISO 20414:2020 section 5.2 lists the component (JuPedSim issue
    #1570); its geometry and numbers could not be checked here, so the
    corridor, the speeds and the criterion are vosim's.

    Criterion: every faster person reaches the end before the slow one
    (they overtake it) and goes round it (no faster body overlaps the slow
    one's by more than 0.1 m, ``MAX_OVERLAP_7``), and the slow one's time to walk its 30 m is within
    ``tolerance`` (10 %) of its free walking time (the faster ones do not
    block or push it).
    """
    method = method_of(method)
    faster = integer(faster, "faster", minimum=1, maximum=12)
    slow_speed = scalar(slow_speed, "slow_speed", minimum=0.1, maximum=SPEED / 1.5)
    tolerance = scalar(tolerance, "tolerance", minimum=0.0, strict=True, maximum=1.0)
    rng = np.random.default_rng(integer(seed, "seed", minimum=0))
    length, width = CORRIDOR_7
    # Faster ones in the slow one's lane, one behind the other 1 to 8 m in (at least 0.6 m apart along
    # the corridor, 0.64 m for 12: never overlapping), each 0 to 0.3 m off the axis.
    xs = np.linspace(1.0, SLOW_START_7 - 2.0, faster) if faster > 1 else np.array([SLOW_START_7 - 2.0])
    offsets = rng.uniform(0.0, LANE_OFFSET_7, faster) * rng.choice([-1.0, 1.0], faster)
    starts = np.array([[SLOW_START_7, width / 2]] + [[x, width / 2 + dy] for x, dy in zip(xs, offsets)])
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
    # Passing means going round: the deepest overlap of a faster body with the slow one's, over every frame.
    gap = np.linalg.norm(traj.positions[:, 1:] - traj.positions[:, :1], axis=-1) - 2 * RADIUS
    through = float(max(0.0, -np.nanmin(gap)))
    overtaken = int(np.sum(fast < slow))
    passed = bool(np.isfinite(slow) and overtaken == faster and abs(slow - free) <= tolerance * free
                  and through <= MAX_OVERLAP_7)
    summary = (f"{overtaken}/{faster} overtook; slow person {slow:.1f} s (free {free:.0f} s)" if np.isfinite(slow)
               else f"slow person not at the end in {free * 1.5:.0f} s; {int(np.isfinite(fast).sum())}/{faster} faster")
    if through > MAX_OVERLAP_7:
        summary += f"; bodies overlapped the slow one's by up to {100 * through:.0f} cm"
    return TestResult("ISO 7", "overtaking a person with a movement disability", method.name,
                      {"overtook": overtaken, "faster": faster, "slow_time_s": slow, "slow_free_time_s": free,
                       "faster_times_s": [float(t) for t in fast], "deepest_overlap_with_slow_m": through},
                      f"every faster person ends before the slow one, whose time is within {tolerance:.0%} of "
                      f"its free walk, and passes round it (no body overlaps the slow one's by more than "
                      f"{MAX_OVERLAP_7:g} m)", passed, summary, data={"trajectory": traj})
