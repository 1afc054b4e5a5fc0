"""The velocity-obstacle and DetourCrowd kernels on one agent, called through
the one generic binding ``_core.solve_local`` with the keyword arguments the
tests and the reference data speak of (cone names, DetourCrowd's parameter
and argument names)."""

from __future__ import annotations

import numpy as np

from vosim import _core

CONE_METHODS = {"vo": "VO", "rvo": "RVO", "hrvo": "HRVO"}


def vo_velocity(position, velocity, pref_velocity, *, radius, max_speed, neighbors=None, segments=None, time_step,
                cone="hrvo", selection=None, samples=250, safety_factor=7.5, truncate=False, time_horizon=1.0,
                time_horizon_obst=1.0, uncertainty_offset=0.0, seed=0, agent_id=0, step=0, hrvo_apex="library",
                escape_overlaps=True, diagnostics=False):
    """The new velocity (and with ``diagnostics`` the method's record) of one agent; selection defaults to the
    cone's (sampling for VO and RVO, geometric for HRVO), hrvo_apex to the HRVO library's."""
    params = dict(samples=samples, safety_factor=safety_factor, truncate=truncate, escape_overlaps=escape_overlaps)
    if selection is not None:
        params["selection"] = selection
    if cone == "hrvo":
        params["hrvo_apex"] = hrvo_apex
    agent = dict(position=position, velocity=velocity, pref_velocity=pref_velocity, radius=radius,
                 max_speed=max_speed, time_horizon=time_horizon, time_horizon_obst=time_horizon_obst,
                 uncertainty_offset=uncertainty_offset, id=agent_id)
    v, record = _core.solve_local(CONE_METHODS.get(cone, cone), params, agent=agent, neighbors=neighbors,
                                  segments=segments, time_step=time_step, step=step, seed=seed,
                                  diagnostics=diagnostics)
    return (v, record) if diagnostics else v


# DetourCrowd's dtObstacleAvoidanceParams names -> the registered settings, per sampler.
_ADAPTIVE = {"adaptive_divs": "divs", "adaptive_rings": "rings", "adaptive_depth": "depth"}
_GRID = {"grid_size": "grid_size"}
_RECORD = ("velocity", "penalty", "vpen", "vcpen", "spen", "tpen", "level", "pruned")


def detour_sample(position, velocity, desired_velocity, radius, max_speed, circles=None, circle_radii=None,
                  segments=None, *, mode="adaptive", record=False, **params):
    """DetourCrowd's sampling for one agent: (velocity, samples evaluated, record or None).

    ``circles`` (k, 6) rows ``x, y, vx, vy, dvx, dvy`` with ``circle_radii`` (k,) are the neighbours;
    ``segments`` are DetourCrowd's (``addSegment(p, q)``); the sampler's own settings take DetourCrowd's
    names and the other sampler's are ignored, as in dtObstacleAvoidanceQuery."""
    method, own, other = (("AdaptiveSampling", _ADAPTIVE, _GRID) if mode == "adaptive"
                          else ("GridSampling", _GRID, _ADAPTIVE) if mode == "grid" else (mode, {}, {}))
    settings = {own.get(name, name): value for name, value in params.items() if name not in other}
    neighbors = None
    if circles is not None and len(circles) and circle_radii is None:
        raise ValueError("circle_radii: required when circles are given")
    if circles is not None and len(circles):
        neighbors = np.column_stack([np.asarray(circles, dtype=float), np.asarray(circle_radii, dtype=float)])
    agent = dict(position=position, velocity=velocity, pref_velocity=desired_velocity, radius=radius,
                 max_speed=max_speed)
    v, rec = _core.solve_local(method, settings, agent=agent, neighbors=neighbors, segments=segments,
                               time_step=0.1, diagnostics=record)
    return v, rec["samples"], ({name: rec[name] for name in _RECORD} if record else None)
