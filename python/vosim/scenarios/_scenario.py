"""The Scenario data object: what a run starts from, as plain data that can be shared as JSON."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Sequence

import numpy as np

from .._fields import FIELDS, PER_AGENT_NUMBERS
from .._kinematics import kinematics_codes, kinematics_names
from .._checks import MAX_MAGNITUDE, MIN_TIME, check_values, flags, integer, real_array, scalar
from ..batch import Batch
from ..methods import ORCA, Method, method_from_dict
from .._periodic import Periodic, check_obstacle, periodic_from
from .._places import checked_places
from .._waypoint_advance import WAYPOINT_ADVANCE, advance_codes
from ..shapes3d import Shape3D, shape_from_dict
from ..simulator import Simulator

FORMAT = "vosim-scenario"
#: The newest scenario format this vosim reads. A scenario is written as the
#: oldest version that holds it: 1, or 2 with a periodic axis, or 3 with a
#: waypoint rule other than "distance", so that a vosim that would ignore the
#: entry refuses the file instead.
FORMAT_VERSION = 3
PERIODIC_FORMAT_VERSION = 2
WAYPOINT_ADVANCE_FORMAT_VERSION = 3
#: The waypoint rule of a scenario that names none (every file before format 3).
DEFAULT_WAYPOINT_ADVANCE = WAYPOINT_ADVANCE[0]

#: Keyword arguments of ``add_agents`` a scenario may set per agent.
AGENT_PARAMETERS = (*PER_AGENT_NUMBERS, "waypoint_radius")
OBSTACLE_KINDS = ("polygon", "wall", "boundary")
#: The obstacle kind of a 3D shape in a scenario's JSON.
SHAPE_KIND = "shape"


def _points(value, name: str, count: int | None = None, width: int | tuple = 2) -> np.ndarray:
    array = real_array(value, name)
    widths = width if isinstance(width, tuple) else (width,)
    if array.ndim != 2 or array.shape[1] not in widths or (count is not None and len(array) != count):
        columns = " or ".join(map(str, widths))
        want = f"(n, {columns})" if count is None else f"({count}, {columns})"
        raise ValueError(f"{name}: expected shape {want}, got {array.shape}")
    check_values(array, name, magnitude=MAX_MAGNITUDE)
    return np.ascontiguousarray(array)


@dataclass(eq=False)
class Scenario:
    """Agents with their parameters and goals, obstacles, a time step and a suggested length.

    A scenario is plain data: build as many simulators from it as you like
    (:meth:`build`), fill the scenes of a Batch with variants of it
    (:func:`vosim.scenarios.batch`), and share it as JSON (:meth:`to_json`,
    exact for every float).

    Attributes
    ----------
    name
        Short identifier.
    positions, goals
        ``(n, 2)`` start positions and final goals; ``(n, 3)`` for a 3D
        scenario (see :attr:`dimensions`).
    waypoints
        None, or one ``(k_i, 2)`` (``(k_i, 3)``) array per agent: the points it heads for in
        turn, the last being its goal (agents move on to the next within
        their ``waypoint_radius``, or as ``waypoint_advance`` says).
    waypoint_advance
        The rule by which agents move on along their waypoints, as for
        ``add_agents``: ``"distance"`` (the default), ``"passed"`` or
        ``"visible"`` (plane only), one for all or a list of one per agent
        (kept as one name when every agent has the same rule).
    agent_params
        Keyword arguments for ``add_agents`` (scalars or ``(n,)`` arrays);
        names from :data:`AGENT_PARAMETERS`.
    obstacles
        ``(kind, vertices)`` pairs, kind one of ``"polygon"``, ``"wall"``,
        ``"boundary"`` (as for ``add_obstacle``, ``add_wall``, ``add_boundary``).
        In 3D: shapes (:class:`vosim.Box`, :class:`vosim.Sphere`,
        :class:`vosim.HalfSpace`, :class:`vosim.ConvexPolyhedron`).
    time_step
        Seconds per step.
    max_steps
        How many steps a run should be allowed before giving up: every
        scenario of :mod:`vosim.scenarios` completes with its own method well
        within it.
    method
        The method :meth:`build` uses when given none. Its perturbation, if
        any, is what the scenario needs to break its symmetry (see
        :meth:`build`).
    seed
        The seed the scenario was generated with (None for fixed layouts).
    periodic
        None, or a periodic axis ``(axis, low, high)`` with axis ``"x"`` or
        ``"y"`` and finite ``low < high`` (kept as the named tuple that
        ``sim.periodic`` gives) that
        :meth:`build` sets with ``set_periodic``: a corridor without ends.
        2D only; every obstacle vertex must lie within ``[low, high]`` along
        the axis.
    geometry
        Named places of the scene for measuring and drawing, each a ``(k, 2)``
        (``(k, 3)``) array: two points for a line (a door, a line to count
        the flow through), three or more for a polygon (a room, a
        measurement area). They do not change a run. The ready-made
        scenarios name theirs in their docstrings (``bottleneck``:
        ``"room"``, ``"door"``, ``"measurement_area"``), so a study places its
        measurement where the scene is, without reading the obstacles::

            scenario = vosim.scenarios.bottleneck()
            (x0, y0), (x1, y1) = scenario.geometry["door"]
    """

    name: str
    positions: np.ndarray
    goals: np.ndarray
    agent_params: dict = field(default_factory=dict)
    obstacles: list = field(default_factory=list)
    time_step: float = 0.25
    max_steps: int = 10_000
    method: Method = field(default_factory=ORCA)
    waypoints: list | None = None
    seed: int | None = None
    periodic: Periodic | None = None
    waypoint_advance: str | list = DEFAULT_WAYPOINT_ADVANCE
    geometry: dict = field(default_factory=dict)

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name:
            raise TypeError(f"name: expected a non-empty string, got {self.name!r}")
        self.positions = _points(self.positions, "positions", width=(2, 3))
        n, width = self.positions.shape
        self.goals = _points(self.goals, "goals", n, width)
        if not isinstance(self.agent_params, dict):
            raise TypeError(f"agent_params: expected a dict, got {type(self.agent_params).__name__}")
        params = {}
        for key, value in self.agent_params.items():
            if key not in AGENT_PARAMETERS:
                raise ValueError(f"agent_params: unknown parameter {key!r}; known: {', '.join(AGENT_PARAMETERS)}")
            if key == "kinematics":  # names, not numbers
                array = kinematics_names(kinematics_codes(value, f"agent_params[{key!r}]"))
                if array.ndim > 1 or (array.ndim == 1 and len(array) != n):
                    raise ValueError(f"agent_params[{key!r}]: expected a name or {n} names, got shape {array.shape}")
                params[key] = array.tolist()
                continue
            if key in FIELDS and FIELDS[key].dtype == "bool":  # flags, not numbers
                array = flags(value, f"agent_params[{key!r}]", [(), (n,)], np.shape(value))
                params[key] = array.tolist() if array.ndim else bool(array)
                continue
            array = real_array(value, f"agent_params[{key!r}]")
            if array.ndim > 1 or (array.ndim == 1 and len(array) != n):
                raise ValueError(f"agent_params[{key!r}]: expected a scalar or shape ({n},), got {array.shape}")
            params[key] = np.asarray(value).copy() if array.ndim else value
        self.agent_params = params
        obstacles = []
        for k, item in enumerate(self.obstacles):
            if width == 3:
                if not isinstance(item, Shape3D):
                    raise TypeError(f"obstacles[{k}]: a 3D scenario's obstacles are 3D shapes (vosim.Box, "
                                    f"vosim.Sphere, ...), got {type(item).__name__}")
                obstacles.append(item)
                continue
            try:
                kind, vertices = item
            except (TypeError, ValueError):
                raise ValueError(f"obstacles[{k}]: expected a (kind, vertices) pair, got {item!r}") from None
            if kind not in OBSTACLE_KINDS:
                raise ValueError(f"obstacles[{k}]: kind is {kind!r}; must be one of {', '.join(OBSTACLE_KINDS)}")
            obstacles.append((kind, _points(vertices, f"obstacles[{k}]")))
        self.obstacles = obstacles
        self.time_step = scalar(self.time_step, "time_step", minimum=MIN_TIME, maximum=MAX_MAGNITUDE)
        self.max_steps = integer(self.max_steps, "max_steps", minimum=1)
        if not isinstance(self.method, Method):
            raise TypeError(f"method: expected a vosim method such as vosim.ORCA(), got {type(self.method).__name__}")
        if self.waypoints is not None:
            if len(self.waypoints) != n:
                raise ValueError(f"waypoints: expected one array per agent ({n}), got {len(self.waypoints)}")
            self.waypoints = [_points(w, f"waypoints[{i}]", width=width) for i, w in enumerate(self.waypoints)]
            for i, w in enumerate(self.waypoints):
                if len(w) == 0 or not np.array_equal(w[-1], self.goals[i]):
                    raise ValueError(f"waypoints[{i}]: the last waypoint must be the goal {self.goals[i].tolist()}, "
                                     f"got {w[-1].tolist() if len(w) else 'none'}")
        if self.seed is not None:
            self.seed = integer(self.seed, "seed", minimum=0)
        # A bad rule (a file is untrusted) is refused naming the agent's index and the value.
        rules = [WAYPOINT_ADVANCE[c] for c in advance_codes(self.waypoint_advance, n).tolist()]
        if width == 3 and "visible" in rules:
            where = "" if isinstance(self.waypoint_advance, str) else f"[{rules.index('visible')}]"
            raise ValueError(f"waypoint_advance{where} is 'visible', which looks past obstacle polygons: "
                             "2D scenarios only")
        self.waypoint_advance = rules if len(set(rules)) > 1 else rules[0] if rules else DEFAULT_WAYPOINT_ADVANCE
        self.geometry = checked_places(self.geometry, "geometry", width)
        self.periodic = periodic_from(self.periodic)
        if self.periodic is not None:
            if width != 2:
                raise ValueError(f"periodic: a periodic axis needs a 2D scenario; this one has {width} dimensions")
            for k, (_, vertices) in enumerate(self.obstacles):
                check_obstacle(vertices, self.periodic, f"obstacles[{k}]")

    def __repr__(self) -> str:
        return (f"Scenario(name={self.name!r}, agents={self.num_agents}, obstacles={len(self.obstacles)}, "
                f"time_step={self.time_step}, max_steps={self.max_steps}, method={self.method!r})")

    @property
    def num_agents(self) -> int:
        """Number of agents."""
        return len(self.positions)

    @property
    def dimensions(self) -> int:
        """2 or 3: the width of the positions."""
        return int(self.positions.shape[1])

    # --------------------------------------------------------------- building
    def method_for(self, method: Method | None = None) -> Method:
        """The method a run of this scenario uses when asked for ``method``.

        None gives the scenario's own method. A method without a
        perturbation gets the scenario's (and its seed, which then also seeds
        the method's sampling), since the scenario needs it to break its
        symmetry; a method with a perturbation of its own is used as given.
        """
        if method is None:
            return self.method
        if not isinstance(method, Method):
            raise TypeError(f"method: expected a vosim method such as vosim.ORCA(), got {type(method).__name__}")
        if method.perturbation == 0.0 and self.method.perturbation > 0.0:
            return replace(method, perturbation=self.method.perturbation, seed=self.method.seed)
        return method

    def build(self, method: Method | None = None) -> Simulator:
        """A new Simulator holding this scenario's obstacles and agents.

        Parameters
        ----------
        method
            The avoidance method; the scenario's own when None. A method
            without a perturbation gets the scenario's (see :meth:`method_for`).
        """
        if self.dimensions == 3:
            sim = Simulator(time_step=self.time_step, method=self.method_for(method), dimensions=3)
            for shape in self.obstacles:
                sim.add_obstacle(shape)
        else:
            sim = Simulator(time_step=self.time_step, method=self.method_for(method))
            adders = {"polygon": sim.add_obstacle, "wall": sim.add_wall, "boundary": sim.add_boundary}
            for kind, vertices in self.obstacles:
                adders[kind](vertices)
            if self.periodic is not None:
                sim.set_periodic(**{self.periodic.axis: (self.periodic.low, self.periodic.high)})
        # With waypoints, the last one is the goal.
        route = ({"goals": self.goals} if self.waypoints is None else
                 {"waypoints": self.waypoints, "waypoint_advance": self.waypoint_advance})
        sim.add_agents(self.positions, **route, **self.agent_params)
        return sim

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict:
        """The scenario as plain JSON types (floats kept exactly by ``json``)."""
        def plain(value):
            return value.tolist() if isinstance(value, np.ndarray) else (
                value.item() if isinstance(value, np.generic) else value)

        advance = self.waypoint_advance != DEFAULT_WAYPOINT_ADVANCE
        data = {
            "format": FORMAT,
            "format_version": max(PERIODIC_FORMAT_VERSION if self.periodic is not None else 1,
                                  WAYPOINT_ADVANCE_FORMAT_VERSION if advance else 1),
            "name": self.name,
            "dimensions": self.dimensions,
            "positions": self.positions.tolist(),
            "goals": self.goals.tolist(),
            "waypoints": None if self.waypoints is None else [w.tolist() for w in self.waypoints],
            "agent_params": {k: plain(v) for k, v in self.agent_params.items()},
            "obstacles": [{"kind": SHAPE_KIND, "shape": item.to_dict()} if self.dimensions == 3 else
                          {"kind": item[0], "vertices": item[1].tolist()} for item in self.obstacles],
            "time_step": self.time_step,
            "max_steps": self.max_steps,
            "method": {k: plain(v) for k, v in self.method.to_dict().items()},
            "seed": self.seed,
        }
        if self.periodic is not None:
            data["periodic"] = {"axis": self.periodic.axis, "low": self.periodic.low, "high": self.periodic.high}
        if advance:
            data["waypoint_advance"] = self.waypoint_advance
        # Without a new format version: a vosim that ignores the entry runs the scenario the same.
        if self.geometry:
            data["geometry"] = {name: place.tolist() for name, place in self.geometry.items()}
        return data

    @classmethod
    def from_dict(cls, data: dict) -> "Scenario":
        """The scenario :meth:`to_dict` described."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError("data: not a vosim scenario (no 'format': 'vosim-scenario')")
        version = data.get("format_version", 0)
        if not isinstance(version, int) or isinstance(version, bool):
            raise ValueError(f"data: format_version is {version!r}; expected an integer")
        if version > FORMAT_VERSION:
            raise ValueError(f"data: scenario format {data.get('format_version')} is newer than this vosim's "
                             f"({FORMAT_VERSION}); upgrade to read it")
        width = data.get("dimensions", 2)
        if width not in (2, 3):
            raise ValueError(f"data: dimensions is {width!r}; must be 2 or 3")
        try:
            return cls(
                name=data["name"],
                positions=np.array(data["positions"], dtype=np.float64).reshape(-1, width),
                goals=np.array(data["goals"], dtype=np.float64).reshape(-1, width),
                waypoints=None if data["waypoints"] is None else [
                    np.array(w, dtype=np.float64).reshape(-1, width) for w in data["waypoints"]],
                agent_params={k: np.array(v) if isinstance(v, list) else v for k, v in data["agent_params"].items()},
                obstacles=[shape_from_dict(o["shape"]) if o["kind"] == SHAPE_KIND else
                           (o["kind"], np.array(o["vertices"], dtype=np.float64)) for o in data["obstacles"]],
                time_step=data["time_step"],
                max_steps=data["max_steps"],
                method=method_from_dict(data["method"]),
                seed=data["seed"],
                periodic=_periodic_entry(data.get("periodic")),
                waypoint_advance=_waypoint_advance_entry(data.get("waypoint_advance", DEFAULT_WAYPOINT_ADVANCE)),
                geometry=_geometry_entry(data.get("geometry", {}), width),
            )
        except KeyError as error:
            raise ValueError(f"data: the scenario lacks {error.args[0]!r}") from None

    def to_json(self, **dump_options) -> str:
        """The scenario as JSON text; :meth:`from_json` reads it back exactly.

        ``dump_options`` go to :func:`json.dumps` (``indent=2`` for people).
        """
        return json.dumps(self.to_dict(), **dump_options)

    @classmethod
    def from_json(cls, text: str) -> "Scenario":
        """The scenario of :meth:`to_json`'s text."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as error:
            raise ValueError(f"text: not JSON ({error})") from None
        return cls.from_dict(data)


def _geometry_entry(entry, width: int) -> dict:
    """The named places of a scenario file's ``geometry`` entry (a file is untrusted)."""
    if not isinstance(entry, dict):
        raise ValueError(f"data: geometry is {type(entry).__name__}; expected an object of name to points")
    return dict(entry)  # each place is checked as the Scenario is made


def _periodic_entry(entry) -> tuple | None:
    """``(axis, low, high)`` from a scenario file's ``periodic`` entry (absent or null: None)."""
    if entry is None:
        return None
    keys = {"axis", "low", "high"}
    if not isinstance(entry, dict) or set(entry) != keys:
        found = sorted(entry) if isinstance(entry, dict) else type(entry).__name__
        raise ValueError(f"data: periodic must be an object with keys axis, low, high; got {found}")
    for key in ("low", "high"):
        if isinstance(entry[key], bool) or not isinstance(entry[key], (int, float)):
            raise ValueError(f"data: periodic {key} is {entry[key]!r}; expected a number")
    return entry["axis"], entry["low"], entry["high"]


def _waypoint_advance_entry(entry) -> str | list:
    """A scenario file's ``waypoint_advance``: a rule's name or a list of them, one per agent.

    Anything else (an object, a number, null) is refused here; the names
    themselves are checked by :class:`Scenario`, naming the agent's index.
    """
    if isinstance(entry, (str, list)):
        return entry
    raise ValueError(f"data: waypoint_advance is {entry!r}; expected one of {', '.join(map(repr, WAYPOINT_ADVANCE))}"
                     " or a list of them, one per agent")


# ------------------------------------------------------------------- batches
def _same_obstacles(scenes: Sequence[Scenario]) -> bool:
    first = scenes[0].obstacles
    if scenes[0].dimensions == 3:
        return all(len(s.obstacles) == len(first) and all(a == b for a, b in zip(s.obstacles, first))
                   for s in scenes[1:])
    return all(len(s.obstacles) == len(first) and all(
        a[0] == b[0] and np.array_equal(a[1], b[1]) for a, b in zip(s.obstacles, first)) for s in scenes[1:])


def build_batch(scenes: Sequence[Scenario], *, method: Method | None = None) -> Batch:
    """A Batch with one scene per scenario.

    The scenarios must have the same number of agents, the same time step,
    periodic axis and waypoint rule, and the same agent parameter names
    (values may differ: they become ``(B, n)`` arrays). Obstacles that every scenario shares are added once
    for all scenes; otherwise each scene gets its own.

    Parameters
    ----------
    scenes
        The scenarios, scene k from ``scenes[k]``.
    method
        As in :meth:`Scenario.build`, decided by the first scenario. Its
        random draws depend on the agent ids, which differ between scenes,
        so identical scenes still draw differently.
    """
    scenes = list(scenes)
    if not scenes:
        raise ValueError("scenes: expected at least one scenario")
    for k, scene in enumerate(scenes):
        if not isinstance(scene, Scenario):
            raise TypeError(f"scenes[{k}]: expected a Scenario, got {type(scene).__name__}")
    first = scenes[0]
    for k, scene in enumerate(scenes[1:], start=1):
        if scene.num_agents != first.num_agents:
            raise ValueError(f"scenes[{k}] has {scene.num_agents} agents; every scene needs {first.num_agents} "
                             "(as scenes[0])")
        if scene.time_step != first.time_step:
            raise ValueError(f"scenes[{k}].time_step is {scene.time_step}; every scene needs {first.time_step} "
                             "(as scenes[0])")
        if scene.dimensions != first.dimensions:
            raise ValueError(f"scenes[{k}] has {scene.dimensions} dimensions; every scene needs {first.dimensions} "
                             "(as scenes[0])")
        if scene.periodic != first.periodic:
            raise ValueError(f"scenes[{k}].periodic is {scene.periodic}; every scene needs {first.periodic} "
                             "(as scenes[0])")
        if scene.waypoint_advance != first.waypoint_advance:
            raise ValueError(f"scenes[{k}].waypoint_advance is {scene.waypoint_advance!r}; every scene needs "
                             f"{first.waypoint_advance!r} (as scenes[0])")
        if set(scene.agent_params) != set(first.agent_params):
            raise ValueError(f"scenes[{k}] sets agent parameters {sorted(scene.agent_params)}; every scene needs "
                             f"{sorted(first.agent_params)} (as scenes[0])")
    n = first.num_agents
    if first.dimensions == 3:
        batch = Batch(len(scenes), time_step=first.time_step, method=first.method_for(method), dimensions=3)
        shared = _same_obstacles(scenes)
        for k, scene in enumerate(scenes[:1] if shared else scenes):
            for shape in scene.obstacles:
                batch.add_obstacle(shape, **({} if shared else {"scene": k}))
    else:
        batch = Batch(len(scenes), time_step=first.time_step, method=first.method_for(method))
        if _same_obstacles(scenes):
            adders = {"polygon": batch.add_obstacle, "wall": batch.add_wall, "boundary": batch.add_boundary}
            for kind, vertices in first.obstacles:
                adders[kind](vertices)
        else:
            for k, scene in enumerate(scenes):
                adders = {"polygon": batch.add_obstacle, "wall": batch.add_wall, "boundary": batch.add_boundary}
                for kind, vertices in scene.obstacles:
                    adders[kind](vertices, scene=k)
        if first.periodic is not None:
            batch.set_periodic(**{first.periodic.axis: (first.periodic.low, first.periodic.high)})
    params = {key: np.stack([np.broadcast_to(np.asarray(s.agent_params[key]), (n,)) for s in scenes])
              for key in first.agent_params}
    extra = {}
    if any(s.waypoints is not None for s in scenes):
        extra["waypoints"] = [s.waypoints if s.waypoints is not None else [g[None] for g in s.goals]
                              for s in scenes]
        extra["waypoint_advance"] = first.waypoint_advance  # a batch's agents have one rule in every scene
    if not extra:
        extra["goals"] = np.stack([s.goals for s in scenes])  # with waypoints, the last one is the goal
    batch.add_agents(np.stack([s.positions for s in scenes]), **extra, **params)
    return batch


def batch(factory: Callable[..., Scenario], seeds: Iterable[int], *, method: Method | None = None) -> Batch:
    """A Batch whose scene k is ``factory(seed=seeds[k])``.

    Parameters
    ----------
    factory
        A scenario function taking ``seed=`` (``vosim.scenarios.crossing``,
        or ``functools.partial(vosim.scenarios.bottleneck, 40, door_width=1.0)``).
    seeds
        One seed per scene.
    method
        As in :func:`build_batch`.

    Examples
    --------
    >>> from vosim import scenarios
    >>> b = scenarios.batch(scenarios.random_crowd, seeds=range(8))
    >>> b.scenes, b.num_agents
    (8, 50)
    """
    if not callable(factory):
        raise TypeError(f"factory: expected a function returning a Scenario, got {type(factory).__name__}")
    seeds = [integer(s, f"seeds[{k}]", minimum=0) for k, s in enumerate(seeds)]
    if not seeds:
        raise ValueError("seeds: expected at least one seed")
    return build_batch([factory(seed=s) for s in seeds], method=method)
