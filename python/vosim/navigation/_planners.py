"""The planners behind ``plan=``, and planning many agents' tracks at once (set_goals, set_exits, replanning, loaders)."""

from __future__ import annotations

import warnings

import numpy as np


def warn_off_mesh(mesh, starts: np.ndarray, ids: np.ndarray) -> None:
    """Warns about the agents standing farther off the mesh than its tolerance, which start by walking onto it."""
    gap = mesh.distance_off(starts)
    off = np.flatnonzero(gap > mesh.tolerance)
    if len(off):
        listed = ", ".join(f"agent {int(ids[k])} ({gap[k]:.3g} m)" for k in off[:5])
        more = f" and {len(off) - 5} more" if len(off) > 5 else ""
        warnings.warn(f"set_goals: {len(off)} agent(s) stand off the walkable area: {listed}{more}; "
                      "their paths begin at its nearest point", stacklevel=3)


def plan_on_roadmap(roadmap, starts: np.ndarray, goals: np.ndarray, ids: np.ndarray, label):
    """Flat tracks over a roadmap; agents whose start sees none of it head straight for their goals, with a warning."""
    gap = roadmap.stranded(starts, goals)
    off = np.flatnonzero(gap > 0)
    if not len(off):
        return roadmap.plan_flat(starts, goals, label)
    listed = ", ".join(f"agent {int(ids[k])} ({gap[k]:.3g} m)" for k in off[:5])
    more = f" and {len(off) - 5} more" if len(off) > 5 else ""
    warnings.warn(f"set_goals: {len(off)} agent(s) stand off the walkable area, out of sight of the roadmap: "
                  f"{listed}{more}; they head straight for their goals, unplanned", stacklevel=3)
    rest = np.flatnonzero(gap == 0)
    offsets, points = roadmap.plan_flat(starts[rest], goals[rest], lambda i: label(int(rest[i])))
    counts = np.ones(len(ids), dtype=np.int64)
    counts[rest] = np.diff(offsets)
    merged = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
    out = np.empty((merged[-1], 2))
    out[merged[off]] = goals[off]
    segment = np.repeat(np.arange(len(rest)), np.diff(offsets))
    out[merged[rest][segment] + np.arange(len(points)) - offsets[segment]] = points
    return merged, out


def builder_of(name: str):
    """The planner class a ``plan=`` string names."""
    from ._navmesh import NavMesh
    from ._roadmap import Roadmap

    return Roadmap if name == "roadmap" else NavMesh
