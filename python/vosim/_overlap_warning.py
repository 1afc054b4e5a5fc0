"""The warning run() gives once when agents overlap deeply under a method without a collision guarantee."""

from __future__ import annotations

import warnings

import numpy as np


class OverlapWarning(UserWarning):
    """Agents overlapped deeper than half their combined radius under a method that does not keep them
    apart (every method but ORCA and AVO); the message names the method and an option that helps."""


def _help(method: dict) -> str:
    """What helps, for the method described by ``method`` (``Method.to_dict()``)."""
    name = method["method"]
    if name in ("AdaptiveSampling", "GridSampling"):
        if not method["resolve_collisions"]:
            return "resolve_collisions=True (DetourCrowd's collision handling)"
        return f"a larger collision_rounds (now {method['collision_rounds']}; DetourCrowd's is 4)"
    if name in ("VO", "RVO", "HRVO"):
        return "a positive uncertainty_offset on the agents, or a shorter time_step"
    if name == "ForceBased":
        return "a larger separation_stiffness, or a shorter time_step"
    return "a shorter time_step"


def warn_of_deep_overlaps(method: dict, metrics: dict, radius: np.ndarray, active: np.ndarray) -> bool:
    """Warns (OverlapWarning) when the run's deepest overlap, ``metrics['max_penetration']``, went past the
    largest radius of the active agents, which is at least half of any pair's combined radius. Returns whether
    it warned. Methods with a collision guarantee (ORCA, AVO) never warn; nor does a run without metrics."""
    if method["method"] in ("ORCA", "AVO") or "max_penetration" not in metrics:
        return False
    radii = np.asarray(radius)[np.asarray(active, dtype=bool)]
    if radii.size == 0:
        return False
    deepest = float(np.max(metrics["max_penetration"]))
    largest = float(np.max(radii))
    if not deepest > largest:
        return False
    warnings.warn(
        f"agents overlapped by up to {deepest:.3g} m (radius up to {largest:.3g} m) under {method['method']}, "
        f"which does not keep agents apart; {_help(method)} may help. See traj.metrics['min_clearance'] and "
        f"['collision_agent_steps']. (Warned once per simulator.)", OverlapWarning, stacklevel=4)
    return True
