"""Metrics of a run, computed in the engine while it steps.

Every ``run()`` fills ``Trajectory.metrics``, a dict of NumPy arrays. In a
Batch the first axis of each is the scene; a Simulator's have no scene axis.
The definitions, in one place:

Arrival
-------
An agent has *arrived* at the first step after which it is within its
arrival radius of its final goal (no waypoints left), and stays counted
even if it is pushed off its goal later. ``arrival_step`` and everything
below that counts arrivals, ``Trajectory.all_arrived``, ``summary()``,
``repr``, the command line, :func:`vosim.compare` and
``run(until_arrived=True)`` (which stops once every goal-seeking agent has
arrived) use this definition. ``summary()`` reports the agents that arrived
and were then no longer at their goals at the end as having *left* them.
``Simulator.arrived`` is different: whether each agent is at its goal now.

Per scene
---------
``collision_agent_steps``
    Agent-states in which the agent overlaps another agent (its disc and
    another's intersect: ``dist < r_i + r_j``), counted over the start and the
    state after each step.
``collision_pairs``
    Distinct pairs of agents that overlapped at some point. At most
    ``16 × N`` pairs are told apart (``N`` agents per scene), so that memory
    stays linear in the agents however many overlap: past that,
    ``collision_pairs_capped`` is True and ``collision_pairs`` reads
    ``16 × N + 1``, a lower bound.
``collision_pairs_capped``
    Whether ``collision_pairs`` passed its cap (a bool).
``max_penetration``
    Largest ``r_i + r_j - dist`` over all overlaps (0 without any).
``obstacle_agent_steps``, ``max_obstacle_penetration``
    The same against obstacle edges: agent-states in which an agent's disc
    reaches past an edge it faces (its centre is closer to the edge than its
    radius), and the largest ``radius - distance``. Moving obstacles count
    too, where they are in that state.
``min_clearance``
    Smallest ``dist - r_i - r_j`` over the states of the run, between each
    agent and its neighbours (the ``max_neighbors`` nearest within
    ``neighbor_dist``) and every agent it overlaps; ``inf`` with no pair in
    range. Negative means overlap.
``arrival_rate``
    Share of the goal-seeking agents that arrived during the run (see
    Arrival).
``makespan``
    Seconds until the last goal-seeking agent arrived; NaN unless all did.
``mean_travel_time``
    Mean seconds to arrival, over the agents that arrived.
``mean_path_length``
    Mean distance travelled during the whole run, over the agents.
``mean_speed``
    Mean over the agents of each one's speed while travelling: distance
    travelled until arrival over the time until arrival, or, for agents
    that did not arrive (and those without a goal), distance over the run's
    duration. Agents that arrived early are not slowed by waiting for the
    others (or, in a Batch, for other scenes).
``path_efficiency``
    Mean, over the agents that arrived, of straight-line distance from start
    to arrival point over the distance travelled until then (1: a straight
    path).
``sum_abs_dv``, ``sum_abs_da``
    Smoothness: sum over agents and steps of ``|v_k - v_{k-1}|`` (m/s), and
    of ``|a_k - a_{k-1}|`` with ``a_k = (v_k - v_{k-1}) / dt`` (m/s^2).
``stalled_agents``
    Goal-seeking agents that moved slower than 0.05 m/s without having
    arrived for at least 40 steps in a row: deadlock detection.
``fallbacks``
    Agent-steps in which the method fell back: ORCA's linear program 3 (its
    half-planes left no admissible velocity), or geometric selection finding
    nothing admissible.
``time_neighbors``, ``time_velocities``, ``time_integration``
    Seconds of the run spent finding neighbours (index and queries, agents
    and obstacle edges), in the method, and integrating; averaged over
    threads (the same for every scene).

Per agent (``(..., N)``)
-------------------------
``arrival_step`` (steps of the run until arrival, -1 if not), ``path_length``
(whole run), ``agent_path_efficiency``, ``agent_mean_speed`` (as in
``mean_speed``), ``longest_stall`` (steps), ``peak_acceleration`` (the
largest realised ``|v_k - v_{k-1}| / dt`` over the run, m/s^2: compare it
with ``max_acceleration``), ``peak_angular_speed`` (the largest realised
``|theta_k - theta_{k-1}| / dt`` over the run, heading changes wrapped to
``(-pi, pi]``, rad/s: compare it with ``max_angular_speed``; NaN for
holonomic agents and in 3D, whose headings only follow their velocities,
so that a reversal would read as a half-turn in one step).

Per frame (``(T, ...)``, aligned with the trajectory's frames)
-------------------------------------------------------------
``min_clearance_series`` (as ``min_clearance``, for that state) and
``collisions_series`` (overlapping pairs in that state, counted up to the
same cap: ``16 × N + 1`` means more).

A run stopped by Ctrl-C (or by an error) does not observe its last state:
its last frame's series values are NaN (clearance) and -1 (collisions).

SteerBench
----------
:func:`steerbench` scores a trajectory as SteerSuite does: per agent,
collisions (each counted once), seconds until arrival, the sum over frames
of ``0.5 |v|^2`` and of ``|dv/dt|``; ``composite01 = 50 collisions + time +
kinetic energy`` and ``composite02 = composite01 + acceleration``, averaged
over the agents.
"""

from __future__ import annotations

import numpy as np

PER_SCENE = (
    "collision_agent_steps", "collision_pairs", "collision_pairs_capped", "max_penetration", "obstacle_agent_steps",
    "max_obstacle_penetration", "min_clearance", "arrival_rate", "makespan", "mean_travel_time",
    "mean_path_length", "path_efficiency", "mean_speed", "sum_abs_dv", "sum_abs_da", "stalled_agents",
    "fallbacks",
)
PER_AGENT = ("arrival_step", "path_length", "agent_path_efficiency", "agent_mean_speed", "longest_stall",
             "peak_acceleration", "peak_angular_speed")
SERIES = ("min_clearance_series", "collisions_series")
TIMES = ("time_neighbors", "time_velocities", "time_integration")
#: Per-agent metrics that tables (``metrics_table``, :func:`vosim.compare`) give per scene as
#: their largest value over the scene's agents: the scene's peak turn rate, rad/s
#: (over the agents for which it is defined; NaN when there is none).
SCENE_PEAKS = ("peak_angular_speed",)


def scene_peaks(metrics: dict) -> dict:
    """The largest value over each scene's agents of the :data:`SCENE_PEAKS` metrics present:
    ``(B,)``, or a scalar for a single simulator's metrics (NaN for a scene without agents)."""
    peaks = {}
    for name in SCENE_PEAKS:
        if name in metrics:
            values = np.asarray(metrics[name], dtype=np.float64)
            values = np.where(np.isnan(values), -np.inf, values)  # undefined for some agents
            peaks[name] = (np.max(values, axis=-1, initial=-np.inf) if values.shape[-1] else
                           np.full(values.shape[:-1], np.nan))
            peaks[name] = np.where(np.isneginf(peaks[name]), np.nan, peaks[name])
    return peaks


def from_engine(raw: dict | None, frame_steps: np.ndarray, scenes: int, scene_axis: bool) -> dict:
    """The engine's raw metrics as Trajectory.metrics (series aligned with the frames)."""
    if raw is None:
        return {}
    metrics = {name: raw[name] for name in PER_SCENE + PER_AGENT}
    observed = {int(step): k for k, step in enumerate(raw["series_steps"])}
    rows = [observed.get(int(step), -1) for step in frame_steps]
    for name in SERIES:
        values = raw[name]
        missing = np.nan if values.dtype.kind == "f" else -1
        aligned = np.full((len(rows), scenes), missing, dtype=values.dtype)
        for frame, row in enumerate(rows):
            if row >= 0:
                aligned[frame] = values[row]
        metrics[name] = aligned
    for name in TIMES:
        metrics[name] = np.full(scenes, raw[name])
    if not scene_axis:
        metrics = {name: value[:, 0] if name in SERIES else value[0] for name, value in metrics.items()}
    return metrics


def table(metrics: dict, scene_axis: bool):
    """One pandas row per scene with the per-scene metrics (and the :data:`SCENE_PEAKS` of its agents)."""
    try:
        import pandas as pd
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError('metrics_table needs pandas: pip install "vosim[pandas]"') from error
    if not metrics:
        return pd.DataFrame(columns=["scene", *PER_SCENE, *TIMES])
    columns = {name: np.atleast_1d(metrics[name]) for name in PER_SCENE + TIMES}
    columns.update({name: np.atleast_1d(value) for name, value in scene_peaks(metrics).items()})
    scenes = len(columns[PER_SCENE[0]])
    frame = pd.DataFrame({"scene": np.arange(scenes), **columns})
    return frame


# SteerBench's composite scores, computed from a trajectory after the run
# (their definitions are in the function's documentation).
from ._steerbench import steerbench  # noqa: E402
