"""Metrics of a run, computed in the engine while it steps.

Every ``run()`` fills ``Trajectory.metrics``, a dict of NumPy arrays. In a
Batch the first axis of each is the scene; a Simulator's have no scene axis.
The definitions, in one place (the sections by scope are generated from the
engine's metric table, :data:`TABLE`):

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

{definitions}
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

import textwrap

import numpy as np

from . import _core

#: The engine's metric table (``metric_table.hpp``): one dict per metric with its
#: ``name``, ``scope`` ("scene", "agent", "series" or "timing"), ``unit`` and ``doc``.
TABLE = _core.RUN_METRICS
PER_SCENE = tuple(row["name"] for row in TABLE if row["scope"] == "scene")
PER_AGENT = tuple(row["name"] for row in TABLE if row["scope"] == "agent")
SERIES = tuple(row["name"] for row in TABLE if row["scope"] == "series")
TIMES = tuple(row["name"] for row in TABLE if row["scope"] == "timing")
#: How far (m) a disc must reach past an obstacle edge for ``obstacle_agent_steps`` to count it (the
#: engine's ``kObstacleContactTolerance``, which the metric's definition quotes): shallower reaches are
#: the round-off of a disc resting against a wall. ``max_obstacle_penetration`` reports every reach.
OBSTACLE_CONTACT_TOLERANCE = float(_core.OBSTACLE_CONTACT_TOLERANCE)

_SECTIONS = (
    ("scene", "Per scene (``(B,)`` in a Batch)"),
    ("agent", "Per agent (``(..., N)``)"),
    ("series", "Per frame (``(T, ...)``, aligned with the trajectory's frames)"),
    ("timing", "Timing (the same for every scene)"),
)


def definitions() -> str:
    """The definitions of the metrics as reStructuredText, one section per scope, from :data:`TABLE`."""
    text = []
    for scope, title in _SECTIONS:
        text += [title, "-" * len(title)]
        for row in TABLE:
            if row["scope"] == scope:
                text += [f"``{row['name']}`` ({row['unit']})",
                         textwrap.fill(row["doc"], 79, initial_indent="    ", subsequent_indent="    ")]
        text.append("")
    return "\n".join(text)


if __doc__:  # (None under python -OO)
    __doc__ = __doc__.replace("{definitions}", definitions())
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
