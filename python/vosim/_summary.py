"""A run in a few lines: what ``Trajectory.summary()`` and ``repr`` show."""

from __future__ import annotations

import numpy as np


def _scalar(metrics: dict, name: str, reduce) -> float | None:
    value = metrics.get(name)
    if value is None:
        return None
    value = np.asarray(value, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        return float(reduce(value)) if value.size else None


def _shown(metrics: dict, name: str, reduce, spec: str = "d") -> str:
    """A metric as text; "?" when the trajectory lacks it (a file from elsewhere) or it is not a number."""
    value = _scalar(metrics, name, reduce)
    if value is None or (spec == "d" and not np.isfinite(value)):
        return "?"
    return format(int(value) if spec == "d" else value, spec)


def _seeking(traj) -> np.ndarray:
    return np.asarray(traj.has_goal, bool) & traj.took_part()


# Steps in a row slower than the stall speed that make a stall (metric_table.hpp, stalled_agents).
_STALL_STEPS = 40


def _arrived(traj, seeking: np.ndarray) -> np.ndarray:
    """Which goal-seeking agents arrived during the run (see Arrival in vosim.metrics).

    Without metrics (``run(metrics=False)``) only ``all_arrived`` and the last
    frame are known: then the agents at their goals at the end.
    """
    steps = traj.metrics.get("arrival_step") if traj.metrics else None
    if steps is not None:
        return seeking & (np.asarray(steps) >= 0)
    if traj.all_arrived:
        return seeking.copy()
    if len(traj):
        return seeking & np.asarray(traj.arrived_per_frame()[-1])
    return np.zeros_like(seeking)


def arrived_agents(traj) -> np.ndarray:
    """Whether each agent arrived during the run, bool ``(N,)`` or ``(B, N)``."""
    return _arrived(traj, _seeking(traj))


def arrivals(traj) -> tuple[int, int]:
    """(agents that arrived during the run, goal-seeking agents), over every scene."""
    seeking = _seeking(traj)
    return int(_arrived(traj, seeking).sum()), int(seeking.sum())


def left_goal(traj) -> int:
    """Agents that arrived during the run but were not at their goals at its end (pushed off)."""
    if not len(traj):
        return 0
    seeking = _seeking(traj)
    return int((_arrived(traj, seeking) & ~np.asarray(traj.arrived_per_frame()[-1])).sum())


def counted(number: int, noun: str) -> str:
    """``1 agent``, ``2 agents``."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _agents(traj) -> str:
    shape = np.shape(traj.ids)
    return (f"{counted(shape[0], 'scene')} x {counted(shape[1], 'agent')}" if traj.is_batch
            else counted(shape[0], "agent"))


def one_line(traj) -> str:
    """``Trajectory(ORCA, 250 agents, 3137 steps = 784.2 s, 250/250 arrived, 2 frames)``."""
    method = traj.method.get("method", "?") if isinstance(traj.method, dict) else "?"
    arrived, seeking = arrivals(traj)
    duration = traj.steps_run * traj.time_step
    return (f"Trajectory({method}, {_agents(traj)}, {counted(traj.steps_run, 'step')} = {duration:.4g} s, "
            f"{arrived}/{seeking} arrived, {counted(len(traj), 'frame')})")


def _stalled_then_arrived(traj, m: dict) -> str:
    """How many stalled agents arrived afterwards (a stall counts only before arrival, so it came first)."""
    if "longest_stall" not in m:
        return ""
    later = int(np.sum((np.asarray(m["longest_stall"]) >= _STALL_STEPS) & arrived_agents(traj)))
    return f"; {later} of them arrived afterwards (stalled first, then arrived)" if later else ""


def summary(traj) -> str:
    """Several lines: steps, time, arrivals, collisions, clearance, stalls, fallbacks, warnings."""
    m = traj.metrics or {}
    arrived, seeking = arrivals(traj)
    duration = traj.steps_run * traj.time_step
    method = traj.method.get("method", "?") if isinstance(traj.method, dict) else "?"
    scenes = np.shape(traj.ids)[0] if traj.is_batch else 1
    # A heading, not repr(traj): printing a trajectory and then its summary would show that line twice.
    lines = ["Run summary",
             f"  method             {method}" + (f" over {counted(scenes, 'scene')}" if traj.is_batch else ""),
             f"  agents             {_agents(traj)}, {counted(len(traj), 'frame')} recorded",
             f"  steps              {traj.steps_run} of {traj.time_step:g} s = {duration:.4g} s simulated, "
             f"{traj.wall_time:.3g} s wall time"]
    makespan = _scalar(m, "makespan", np.max)
    arrival = f"  arrived            {arrived} of {seeking} goal-seeking agents"
    if seeking and arrived == seeking and makespan is not None and not np.isnan(makespan):
        arrival += f", the last after {makespan:.4g} s"
    lines.append(arrival)
    if not m:
        lines.append("  metrics            not measured (run(metrics=False))")
    else:
        capped = "collision_pairs_capped" in m and bool(np.any(m["collision_pairs_capped"]))
        pairs = _scalar(m, "collision_pairs", np.sum)
        pairs = "?" if pairs is None or not np.isfinite(pairs) else str(int(pairs) - capped)
        lines.append(f"  collisions         {'more than ' if capped else ''}{pairs} pairs overlapped in "
                     f"{_shown(m, 'collision_agent_steps', np.sum)} agent-steps, deepest "
                     f"{_shown(m, 'max_penetration', np.max, '.3g')} m")
        lines.append(f"  min clearance      {_shown(m, 'min_clearance', np.min, '+.4g')} m between agents "
                     "(negative: overlap)")
        if traj.obstacles:
            lines.append(f"  obstacles          {_shown(m, 'obstacle_agent_steps', np.sum)} agent-steps "
                         f"touching, deepest {_shown(m, 'max_obstacle_penetration', np.max, '.3g')} m")
        lines.append(f"  stalled agents     {_shown(m, 'stalled_agents', np.sum)} (slower than 0.05 m/s "
                     f"for 40 steps in a row without arriving){_stalled_then_arrived(traj, m)}")
        lines.append(f"  fallbacks          {_shown(m, 'fallbacks', np.sum)} agent-steps")
    if seeking and arrived < seeking:
        lines.append(f"  warning            {counted(seeking - arrived, 'goal-seeking agent')} did not arrive within "
                     f"{counted(traj.steps_run, 'step')}; makespan is undefined (NaN), not averaged over the others")
    left = left_goal(traj)
    if left:
        lines.append(f"  left goal          {left} of the agents that arrived were not at their goals at the "
                     f"end (pushed off after arriving; still counted as arrived)")
    return "\n".join(lines)
