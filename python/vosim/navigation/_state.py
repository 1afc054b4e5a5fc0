"""The navigation state a checkpoint carries: ``set_exits``' choice and the planners.

Everything is plain data (NumPy arrays, numbers, strings), so that pickles
and state files (``.npz`` with JSON metadata, no pickled objects) carry it
alike. A planner travels as what rebuilds it exactly: a navigation mesh as
its walkable area (WKB) and inflation, a roadmap as its points, obstacles,
radius and links. Restoring checks everything it reads: a state file is
untrusted input.
"""

from __future__ import annotations

import numpy as np

from .._checks import MAX_MAGNITUDE

_EXIT_FIELDS = ("choice", "clearance", "reevaluate", "waypoint_radius", "waypoint_advance", "since")


def _array(value, name: str, dtype, ndim: int, width: int | None = None) -> np.ndarray:
    array = np.asarray(value)
    if array.ndim != ndim or (width is not None and array.shape[-1] != width):
        raise ValueError(f"{name}: expected {ndim} dimensions{'' if width is None else f' of width {width}'}, "
                         f"got shape {array.shape}")
    if dtype is float:
        if not np.issubdtype(array.dtype, np.floating) or not np.all(np.abs(array) <= MAX_MAGNITUDE):
            raise ValueError(f"{name}: expected finite numbers within the working range")
        return array.astype(np.float64)
    if dtype is bool:
        if array.dtype != np.bool_:
            raise ValueError(f"{name}: expected flags, got {array.dtype}")
        return array.copy()
    if not np.issubdtype(array.dtype, np.integer):
        raise ValueError(f"{name}: expected integers, got {array.dtype}")
    return array.astype(np.int64)


def _number(value, name: str, *, optional: bool = False, minimum: float = 0.0) -> float | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (minimum <= value <= MAX_MAGNITUDE):
        raise ValueError(f"{name} is {value!r}; expected a number from {minimum:g} to {MAX_MAGNITUDE:g}")
    return float(value)


def _points_lists(lists, name: str) -> tuple[np.ndarray, np.ndarray]:
    """Ragged ``(k, 2)`` arrays as (offsets, points)."""
    offsets = np.concatenate([[0], np.cumsum([len(p) for p in lists])]).astype(np.int64)
    points = np.concatenate([np.asarray(p, dtype=np.float64).reshape(-1, 2) for p in lists]) if lists else \
        np.zeros((0, 2))
    return offsets, points


def _split(offsets, points, name: str) -> list[np.ndarray]:
    offsets = _array(offsets, f"{name}_offsets", int, 1)
    points = _array(points, f"{name}_points", float, 2, 2)
    if len(offsets) == 0 or offsets[0] != 0 or np.any(np.diff(offsets) < 0) or offsets[-1] != len(points):
        raise ValueError(f"{name}_offsets: not the offsets of {len(points)} points")
    return [points[offsets[k]:offsets[k + 1]] for k in range(len(offsets) - 1)]


def planner_state(planner) -> dict | None:
    """What rebuilds ``planner`` exactly (None for None)."""
    from ._navmesh import NavMesh
    from ._roadmap import Roadmap

    if planner is None or isinstance(planner, str):  # none, or a name built when first needed
        return planner
    if isinstance(planner, NavMesh):
        from ._geometry import require_shapely

        shapely = require_shapely()
        return {"kind": "navmesh", "area": np.frombuffer(shapely.to_wkb(planner.area), dtype=np.uint8).copy(),
                "inflation": float(planner.inflation), "extra_margin": float(planner.extra_margin)}
    if isinstance(planner, Roadmap):
        offsets, points = _points_lists([v for _, v in planner.obstacles], "obstacles")
        return {"kind": "roadmap", "points": np.asarray(planner.points, dtype=np.float64),
                "obstacle_kinds": [k for k, _ in planner.obstacles], "obstacle_offsets": offsets,
                "obstacle_points": points, "radius": float(planner.radius), "links": int(planner.links)}
    raise TypeError(f"a planner of type {type(planner).__name__} cannot be checkpointed")


def planner_from_state(state, name: str = "plan"):
    """The planner ``planner_state`` describes; ValueError naming what is wrong."""
    from ._goals import PLANNERS

    if state is None or (isinstance(state, str) and state in PLANNERS):
        return state
    if not isinstance(state, dict):
        raise ValueError(f"{name}: expected a planner's state, got {state!r}")
    kind = state.get("kind")
    if kind == "navmesh":
        from ._geometry import require_shapely
        from ._navmesh import NavMesh

        shapely = require_shapely()
        wkb = _array(state.get("area"), f"{name}.area", int, 1)
        try:
            area = shapely.from_wkb(wkb.astype(np.uint8).tobytes())
        except Exception as error:  # shapely's GEOSException has no common base with ValueError
            raise ValueError(f"{name}.area: not a polygon ({error})") from None
        if not isinstance(area, (shapely.Polygon, shapely.MultiPolygon)) or not area.is_valid:
            raise ValueError(f"{name}.area: not a valid polygon")
        return NavMesh(area, _number(state.get("inflation"), f"{name}.inflation"),
                       _number(state.get("extra_margin"), f"{name}.extra_margin"))
    if kind == "roadmap":
        from ._roadmap import Roadmap

        kinds = state.get("obstacle_kinds")
        vertices = _split(state.get("obstacle_offsets"), state.get("obstacle_points"), f"{name}.obstacle")
        if not isinstance(kinds, list) or len(kinds) != len(vertices):
            raise ValueError(f"{name}.obstacle_kinds: expected one kind per obstacle")
        links = state.get("links")
        if isinstance(links, bool) or not isinstance(links, int) or not 1 <= links <= 2**31 - 1:
            raise ValueError(f"{name}.links is {links!r}; expected a count from 1")
        return Roadmap(_array(state.get("points"), f"{name}.points", float, 2, 2), list(zip(kinds, vertices)),
                       radius=_number(state.get("radius"), f"{name}.radius"), links=links)
    raise ValueError(f"{name}.kind is {kind!r}; expected 'navmesh' or 'roadmap'")


def exits_state(exits) -> dict:
    """``set_exits``' choice as plain data (see ``ExitChoice``)."""
    via_offsets, via_points = _points_lists(exits.via, "via")
    state = {field: getattr(exits, field) for field in _EXIT_FIELDS}
    state.update(sinks=np.asarray(exits.sinks, dtype=np.int64), via_offsets=via_offsets, via_points=via_points,
                 targets=np.asarray(exits.targets, dtype=np.float64), widths=np.asarray(exits.widths, np.float64),
                 chosen=np.asarray(exits.chosen, dtype=np.int64), passed=np.asarray(exits.passed, dtype=np.int64),
                 open_routes=np.asarray(exits.open_routes, dtype=bool),
                 assigned=np.asarray(getattr(exits, "assigned", np.zeros(0)), dtype=np.int64),
                 plan=planner_state(exits.plan))
    return state


def exits_from_state(state, sim, name: str = "exits"):
    """The ``ExitChoice`` of ``exits_state``, checked against ``sim`` (restored already)."""
    from .._waypoint_advance import advance_codes
    from ._exits import CHOICES, ExitChoice

    if not isinstance(state, dict):
        raise ValueError(f"{name}: expected the exits' state, got {type(state).__name__}")
    exits = object.__new__(ExitChoice)
    choice = state.get("choice")
    if choice not in CHOICES:
        raise ValueError(f"{name}.choice is {choice!r}; must be one of {', '.join(map(repr, CHOICES))}")
    exits.choice = choice
    sinks = _array(state.get("sinks"), f"{name}.sinks", int, 1)
    known = {s.id for s in sim.sinks}
    for k, s in enumerate(sinks):
        if int(s) not in known:
            raise ValueError(f"{name}.sinks[{k}]: no sink with id {int(s)} in the state")
    routes = len(sinks)
    exits.sinks = sinks
    exits.via = _split(state.get("via_offsets"), state.get("via_points"), f"{name}.via")
    exits.targets = _array(state.get("targets"), f"{name}.targets", float, 2, 2)
    exits.widths = _array(state.get("widths"), f"{name}.widths", float, 1)
    exits.open_routes = _array(state.get("open_routes"), f"{name}.open_routes", bool, 1)
    for field, value in (("via", exits.via), ("targets", exits.targets), ("widths", exits.widths),
                         ("open_routes", exits.open_routes)):
        if len(value) != routes:
            raise ValueError(f"{name}.{field}: expected one entry per route ({routes}), got {len(value)}")
    exits.chosen = _array(state.get("chosen"), f"{name}.chosen", int, 1)
    exits.passed = _array(state.get("passed"), f"{name}.passed", int, 2)
    if exits.passed.shape != (len(exits.chosen), routes) or np.any((exits.chosen < -1) | (exits.chosen >= routes)):
        raise ValueError(f"{name}.chosen/passed: not a choice among {routes} routes")
    assigned = _array(state.get("assigned"), f"{name}.assigned", int, 1)
    if np.any((assigned < 0) | (assigned >= routes)):
        raise ValueError(f"{name}.assigned: not route indices below {routes}")
    if choice == "assigned":
        exits.assigned = assigned
    exits.clearance = _number(state.get("clearance"), f"{name}.clearance")
    exits.reevaluate = _number(state.get("reevaluate"), f"{name}.reevaluate", optional=True)
    if exits.reevaluate == 0.0:
        raise ValueError(f"{name}.reevaluate is 0; it must be above 0 or None")
    exits.waypoint_radius = _number(state.get("waypoint_radius"), f"{name}.waypoint_radius", optional=True)
    rule = state.get("waypoint_advance")
    if not isinstance(rule, str):
        raise ValueError(f"{name}.waypoint_advance is {rule!r}; expected one rule")
    advance_codes(rule, 1, f"{name}.waypoint_advance")
    exits.waypoint_advance = rule
    since = state.get("since")
    if isinstance(since, bool) or not isinstance(since, int) or since < 0:
        raise ValueError(f"{name}.since is {since!r}; expected a count of steps")
    exits.since = since
    exits.plan = planner_from_state(state.get("plan"), f"{name}.plan")
    return exits


def navigation_state(navigation) -> dict | None:
    """Everything a simulator's ``Navigation`` part keeps that later steps depend on, or None when it
    keeps nothing."""
    exits = navigation.exits
    plan = navigation.plan
    if exits is None and plan is None:
        return None
    state = {}
    if exits is not None:
        state["exits"] = exits_state(exits)
    if plan is not None:
        planner, clearance = plan
        state["replan"] = {"planner": planner_state(planner), "clearance": float(clearance)}
    return state


def restore_navigation(navigation, state, name: str = "navigation") -> None:
    """Put ``navigation_state``'s data back into a ``Navigation`` part (its simulator restored already);
    ValueError naming what is wrong."""
    if state is None:
        return
    if not isinstance(state, dict) or not set(state) <= {"exits", "replan"}:
        raise ValueError(f"{name}: expected the navigation state")
    exits = exits_from_state(state["exits"], navigation.sim, f"{name}.exits") if "exits" in state else None
    plan = None
    if "replan" in state:
        replan = state["replan"]
        if not isinstance(replan, dict):
            raise ValueError(f"{name}.replan: expected the re-planning state")
        plan = (planner_from_state(replan.get("planner"), f"{name}.replan.planner"),
                _number(replan.get("clearance"), f"{name}.replan.clearance"))
    if exits is not None:
        navigation.exits = exits
    if plan is not None:
        navigation.plan = plan
