"""Reading SteerSuite's XML test cases into Scenarios.

SteerSuite describes a test case in XML (root ``SteerBenchTestCase``): a
``header`` (name, ``worldBounds``), agents (``agent`` with
``initialConditions`` and a ``goalSequence``; ``agentRegion`` with
``numAgents`` placed at random in its ``regionBounds``) and obstacles
(``obstacle``, an axis-aligned box given by its bounds;
``orientedBoxObstacle``; ``orientedWallObstacle`` with a ``doorway``;
``circleObstacle``; ``polygonObstacle``; ``obstacleRegion`` of random
boxes). Its ground plane is x-z with y up: vosim's (x, y) is SteerSuite's
(x, z), and heights are dropped.
"""

from __future__ import annotations

import os
import warnings
import xml.etree.ElementTree as ET

import numpy as np

from .._checks import integer, scalar
from ..methods import ORCA, Method
from ._scenario import Scenario

# SteerSuite's usual walking speed (m/s), for agents whose goals give none.
DEFAULT_DESIRED_SPEED = 1.33
# Random placement tries this many spots for each agent or obstacle before giving up.
_PLACEMENT_TRIES = 2000
# Circles become regular polygons with this many sides, drawn round the circle.
_CIRCLE_SIDES = 16


class _Reader:
    """One pass over a test case's element tree."""

    def __init__(self, path: str, root: ET.Element, rng: np.random.Generator):
        self.path = path
        self.root = root
        self.rng = rng
        self.name = os.path.splitext(os.path.basename(path))[0]
        self.world = None  # (xmin, xmax, zmin, zmax)
        self.obstacles: list[tuple[str, np.ndarray]] = []
        self.obstacle_regions: list[tuple[str, int, float, tuple]] = []
        self.agents: list[dict] = []  # radius, position or region, goals, speed

    # ------------------------------------------------------------- helpers
    def fail(self, where: str, why: str):
        raise ValueError(f"{self.path}: <{where}> {why}")

    def number(self, element: ET.Element, where: str) -> float:
        text = (element.text or "").strip()
        try:
            value = float(text)
        except ValueError:
            self.fail(where, f"is {text!r}; expected a number")
        if not np.isfinite(value):
            self.fail(where, f"is {text!r}; expected a finite number")
        return value

    def child_number(self, element: ET.Element, tag: str, where: str, default=None) -> float:
        child = _child(element, tag)
        if child is None:
            if default is None:
                self.fail(where, f"has no <{tag}>")
            return default
        return self.number(child, f"{where}/{tag}")

    def point(self, element: ET.Element, where: str):
        """(x, z) of an element with <x>, <y>, <z> children, or None for <random>true</random>."""
        values = {}
        for child in element:
            tag = _tag(child)
            if tag in ("x", "y", "z"):
                values[tag] = self.number(child, f"{where}/{tag}")
            elif tag == "random":
                if (child.text or "").strip().lower() == "true":
                    return None
        if "x" not in values or "z" not in values:
            self.fail(where, "needs <x> and <z> (or <random>true</random>)")
        return np.array([values["x"], values["z"]])

    def bounds(self, element: ET.Element, where: str) -> tuple:
        """(xmin, xmax, zmin, zmax) of an element with <xmin> ... <zmax> children."""
        lo_x = self.child_number(element, "xmin", where)
        hi_x = self.child_number(element, "xmax", where)
        lo_z = self.child_number(element, "zmin", where)
        hi_z = self.child_number(element, "zmax", where)
        # Real files sometimes give a bound's ends the wrong way round.
        return min(lo_x, hi_x), max(lo_x, hi_x), min(lo_z, hi_z), max(lo_z, hi_z)

    def ignored(self, where: str, what: str) -> None:
        warnings.warn(f"{self.path}: <{where}>: {what} is not supported and was left out", stacklevel=4)

    # ------------------------------------------------------------- reading
    def read(self) -> None:
        if _tag(self.root) != "SteerBenchTestCase":
            self.fail(_tag(self.root), "is the root element; a SteerSuite test case has <SteerBenchTestCase>")
        counts: dict[str, int] = {}
        for element in self.root:
            tag = _tag(element)
            where = f"{tag}[{counts.get(tag, 0)}]"
            counts[tag] = counts.get(tag, 0) + 1
            handler = getattr(self, f"_read_{tag}", None)
            if handler is not None:
                handler(element, where)
            elif tag != "suggestedCameraView":
                self.ignored(where, f"<{tag}>")

    def _read_header(self, element, where):
        name = _child(element, "name")
        if name is not None and (name.text or "").strip():
            self.name = name.text.strip()
        world = _child(element, "worldBounds")
        if world is not None:
            self.world = self.bounds(world, f"{where}/worldBounds")

    def _initial(self, element, where, agent: dict) -> None:
        initial = _child(element, "initialConditions")
        if initial is None:
            self.fail(where, "has no <initialConditions>")
        agent["radius"] = self.child_number(initial, "radius", f"{where}/initialConditions", 0.5)
        if agent["radius"] < 0:
            self.fail(f"{where}/initialConditions/radius", f"is {agent['radius']}; must be >= 0")
        position = _child(initial, "position")
        if "region" not in agent:
            if position is None:
                self.fail(f"{where}/initialConditions", "has no <position>")
            agent["position"] = self.point(position, f"{where}/initialConditions/position")
        goals, speeds = [], []
        sequence = _child(element, "goalSequence")
        for k, goal in enumerate([] if sequence is None else list(sequence)):
            gwhere = f"{where}/goalSequence/{_tag(goal)}[{k}]"
            if _tag(goal) != "seekStaticTarget":
                self.ignored(gwhere, f"the goal type <{_tag(goal)}>")
                continue
            target = _child(goal, "targetLocation")
            random = _child(goal, "random")
            if random is not None and (random.text or "").strip().lower() == "true":
                goals.append(None)
            elif target is None:
                self.fail(gwhere, "has no <targetLocation>")
            else:
                goals.append(self.point(target, f"{gwhere}/targetLocation"))
            speeds.append(self.child_number(goal, "desiredSpeed", gwhere, DEFAULT_DESIRED_SPEED))
        agent["goals"] = goals
        agent["speed"] = speeds[0] if speeds else DEFAULT_DESIRED_SPEED
        if agent["speed"] <= 0:
            self.fail(f"{where}/goalSequence", f"gives a desiredSpeed of {agent['speed']}; must be > 0")

    def _read_agent(self, element, where):
        agent: dict = {"where": where}
        self._initial(element, where, agent)
        if agent["position"] is None:
            agent["region"] = self.need_world(where)
        self.agents.append(agent)

    def _read_agentRegion(self, element, where):
        count = self.child_number(element, "numAgents", where)
        if count < 0 or count != int(count):
            self.fail(f"{where}/numAgents", f"is {count}; expected a whole number >= 0")
        region = _child(element, "regionBounds")
        bounds = self.bounds(region, f"{where}/regionBounds") if region is not None else self.need_world(where)
        agent: dict = {"region": bounds, "where": where}
        self._initial(element, where, agent)
        agent.pop("position", None)
        self.agents.extend(dict(agent) for _ in range(int(count)))

    def need_world(self, where) -> tuple:
        if self.world is None:
            self.fail(where, "asks for a random spot, but the header gives no <worldBounds>")
        return self.world

    def _read_obstacle(self, element, where):
        xmin, xmax, zmin, zmax = self.bounds(element, where)
        self.add_box(xmin, xmax, zmin, zmax, where)

    def add_box(self, xmin, xmax, zmin, zmax, where):
        if xmax > xmin and zmax > zmin:
            self.obstacles.append(("polygon", np.array([[xmin, zmin], [xmax, zmin], [xmax, zmax], [xmin, zmax]])))
        elif xmax > xmin or zmax > zmin:  # a box of no width: a wall
            self.obstacles.append(("wall", np.array([[xmin, zmin], [xmax, zmax]])))
        else:
            self.ignored(where, "a box of no extent")

    def _oriented_box(self, element, where):
        centre = self.point(_required(self, element, "position", where), f"{where}/position")
        size = self.point(_required(self, element, "size", where), f"{where}/size")
        if centre is None or size is None:
            self.fail(where, "has a random position or size; only fixed oriented boxes are supported")
        theta = np.radians(self.child_number(element, "thetaY", where, 0.0))
        return centre, np.abs(size), theta

    def _read_orientedBoxObstacle(self, element, where):
        centre, size, theta = self._oriented_box(element, where)
        self.obstacles.append(("polygon", _rotated_box(centre, size[0], size[1], theta)))

    def _read_orientedWallObstacle(self, element, where):
        # A wall along its longer side with an optional door: a gap of
        # 2 doorRadius centred `value` from the wall's centre along it.
        centre, size, theta = self._oriented_box(element, where)
        door = _child(element, "doorway")
        along_x = size[0] >= size[1]
        length, width = (size[0], size[1]) if along_x else (size[1], size[0])
        pieces = [(-length / 2, length / 2)]
        if door is not None:
            offset = self.child_number(door, "value", f"{where}/doorway", 0.0)
            half = self.child_number(door, "doorRadius", f"{where}/doorway", 0.0)
            pieces = [(-length / 2, offset - half), (offset + half, length / 2)]
        for start, stop in pieces:
            if stop - start <= 0:
                continue
            middle = (start + stop) / 2
            shift = np.array([middle, 0.0]) if along_x else np.array([0.0, middle])
            extent = (stop - start, width) if along_x else (width, stop - start)
            c, s = np.cos(theta), np.sin(theta)
            local = np.array([shift[0] * c + shift[1] * s, -shift[0] * s + shift[1] * c])
            self.obstacles.append(("polygon", _rotated_box(centre + local, extent[0], extent[1], theta)))

    def _read_circleObstacle(self, element, where):
        centre = self.point(_required(self, element, "position", where), f"{where}/position")
        if centre is None:
            self.fail(f"{where}/position", "is random; only fixed circles are supported")
        radius = self.child_number(element, "radius", where)
        if radius <= 0:
            self.fail(f"{where}/radius", f"is {radius}; must be > 0")
        angles = np.arange(_CIRCLE_SIDES) * (2 * np.pi / _CIRCLE_SIDES)
        corner = radius / np.cos(np.pi / _CIRCLE_SIDES)  # the polygon holds the whole circle
        self.obstacles.append(("polygon", centre + corner * np.column_stack([np.cos(angles), np.sin(angles)])))

    def _read_polygonObstacle(self, element, where):
        vertices = []
        for k, vertex in enumerate(v for v in element if _tag(v) == "vertex"):
            point = self.point(vertex, f"{where}/vertex[{k}]")
            if point is None:
                self.fail(f"{where}/vertex[{k}]", "is random; polygon vertices must be fixed")
            vertices.append(point)
        if len(vertices) < 3:
            self.fail(where, f"has {len(vertices)} vertices; a polygon needs at least 3")
        vertices = np.array(vertices)
        x, y = vertices[:, 0], vertices[:, 1]
        if (x * np.roll(y, -1) - np.roll(x, -1) * y).sum() < 0:  # clockwise in vosim's plane
            vertices = vertices[::-1].copy()
        self.obstacles.append(("polygon", vertices))

    def _read_obstacleRegion(self, element, where):
        count = self.child_number(element, "numObstacles", where)
        if count < 0 or count != int(count):
            self.fail(f"{where}/numObstacles", f"is {count}; expected a whole number >= 0")
        size = self.child_number(element, "obstacleSize", where)
        if size <= 0:
            self.fail(f"{where}/obstacleSize", f"is {size}; must be > 0")
        region = _child(element, "regionBounds")
        bounds = self.bounds(region, f"{where}/regionBounds") if region is not None else self.need_world(where)
        self.obstacle_regions.append((where, int(count), size, bounds))


def _tag(element: ET.Element) -> str:
    """The tag without its XML namespace."""
    return element.tag.rsplit("}", 1)[-1] if isinstance(element.tag, str) else ""


def _child(element: ET.Element, tag: str):
    for child in element:
        if _tag(child) == tag:
            return child
    return None


def _required(reader: _Reader, element: ET.Element, tag: str, where: str) -> ET.Element:
    child = _child(element, tag)
    if child is None:
        reader.fail(where, f"has no <{tag}>")
    return child


def _rotated_box(centre: np.ndarray, size_x: float, size_z: float, theta: float) -> np.ndarray:
    """Corners of a box of size_x by size_z turned by theta about SteerSuite's y axis, counter-clockwise."""
    local = np.array([[-size_x, -size_z], [size_x, -size_z], [size_x, size_z], [-size_x, size_z]]) / 2
    c, s = np.cos(theta), np.sin(theta)
    # A turn about y takes z towards x: x' = x cos + z sin, z' = -x sin + z cos.
    turned = np.column_stack([local[:, 0] * c + local[:, 1] * s, -local[:, 0] * s + local[:, 1] * c])
    corners = centre + turned
    x, y = corners[:, 0], corners[:, 1]
    return corners if (x * np.roll(y, -1) - np.roll(x, -1) * y).sum() > 0 else corners[::-1].copy()


def _place(rng, sim, bounds, radius, placed, placed_radius, where, path) -> np.ndarray:
    """A random spot in bounds clear of the obstacles (by radius) and of the discs placed so far."""
    xmin, xmax, zmin, zmax = bounds
    if not (xmax > xmin and zmax > zmin):
        raise ValueError(f"{path}: <{where}> places at random in bounds {list(bounds)}, which have no area")
    candidates = rng.uniform([xmin, zmin], [xmax, zmax], size=(_PLACEMENT_TRIES, 2))
    free = ~sim._blocked_points(candidates, 0)
    if sim.obstacles:
        free &= sim._obstacle_distances(candidates, 0) >= radius
    if len(placed):
        gaps = np.linalg.norm(candidates[:, None] - np.asarray(placed)[None], axis=2)
        free &= (gaps >= radius + np.asarray(placed_radius)[None]).all(axis=1)
    if not free.any():
        raise ValueError(f"{path}: <{where}>: found no free spot for a disc of radius {radius:g} in bounds "
                         f"{list(bounds)} after {_PLACEMENT_TRIES} tries")
    return candidates[np.argmax(free)]


def from_steersuite(path, *, seed: int = 0, time_step: float = 0.1, max_steps: int | None = None,
                    method: Method | None = None, max_speed_factor: float = 1.5, **agent_params) -> Scenario:
    """A Scenario from a SteerSuite XML test case.

    Reads agents (``agent``, ``agentRegion``), their radius, start and
    ``seekStaticTarget`` goals (several become waypoints; ``desiredSpeed``
    becomes the preferred speed), and obstacles (``obstacle`` boxes,
    ``orientedBoxObstacle``, ``orientedWallObstacle`` with its ``doorway``,
    ``circleObstacle`` as a 16-sided polygon round the circle,
    ``polygonObstacle``, ``obstacleRegion``). SteerSuite's ground plane is
    x-z with y up: vosim's (x, y) is SteerSuite's (x, z). Random starts,
    goals and obstacle boxes are drawn with ``seed``, clear of obstacles
    (and starts clear of each other). Leniently: namespaces, unknown elements
    and fields are ignored; goal types other than seekStaticTarget, and
    ``agentEmitter``, are left out with a warning; bounds given the wrong way
    round are swapped. Agents start at rest (the file's initial speed and
    direction are not used).

    Parameters
    ----------
    path
        The XML file.
    seed
        Seed of the random placements.
    time_step
        Seconds per step of the scenario.
    max_steps
        Suggested run length; by default three times the slowest agent's
        walk along its goals, plus 1,000 steps.
    method
        The scenario's method; ORCA by default.
    max_speed_factor
        Each agent's ``max_speed`` is its desired speed times this.
    **agent_params
        Other ``add_agents`` parameters for every agent (defaults:
        ``neighbor_dist=10``, ``max_neighbors=10``, ``time_horizon=2``,
        ``time_horizon_obst=1``, for pedestrians in metres).

    Raises
    ------
    ValueError
        For a file that is not XML or not a test case, and for an element
        with a missing or malformed value (naming the file and the element).
    """
    from ..simulator import Simulator

    path = os.fspath(path)
    seed = integer(seed, "seed", minimum=0)
    max_speed_factor = scalar(max_speed_factor, "max_speed_factor", minimum=1.0, maximum=1e6)
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as error:
        line, column = error.position
        raise ValueError(f"{path}: not well-formed XML (line {line}, column {column})") from None
    rng = np.random.default_rng(seed)
    reader = _Reader(path, root, rng)
    reader.read()

    # Obstacles first (random boxes clear of the fixed ones), then agents clear of them.
    sim = Simulator()
    for kind, vertices in reader.obstacles:
        _add(sim, kind, vertices, path)
    for where, count, size, bounds in reader.obstacle_regions:
        for _ in range(count):
            centre = _place(rng, sim, bounds, size / np.sqrt(2), [], [], where, path)
            box = centre + size / 2 * np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]])
            reader.obstacles.append(("polygon", box))
            _add(sim, "polygon", box, path)
    n = len(reader.agents)
    radius = np.array([a["radius"] for a in reader.agents], dtype=np.float64)
    positions = np.zeros((n, 2))
    placed, placed_radius = [], []
    fixed = [i for i, a in enumerate(reader.agents) if "region" not in a]
    for i in fixed:
        placed.append(reader.agents[i]["position"])
        placed_radius.append(radius[i])
        positions[i] = reader.agents[i]["position"]
    for i, agent in enumerate(reader.agents):
        if "region" in agent:
            positions[i] = _place(rng, sim, agent["region"], radius[i], placed, placed_radius, agent["where"], path)
            placed.append(positions[i])
            placed_radius.append(radius[i])
    routes = []
    for i, agent in enumerate(reader.agents):
        route = []
        for goal in agent["goals"]:
            if goal is None:
                where = f"{agent['where']}/goalSequence"
                goal = _place(rng, sim, reader.need_world(where), radius[i], [], [], where, path)
            route.append(goal)
        routes.append(np.array(route) if route else positions[i][None].copy())
    goals = np.array([r[-1] for r in routes]).reshape(n, 2)
    waypoints = routes if any(len(r) > 1 for r in routes) else None
    speed = np.array([a["speed"] for a in reader.agents], dtype=np.float64)
    params = dict(neighbor_dist=10.0, max_neighbors=10, time_horizon=2.0, time_horizon_obst=1.0)
    params.update(agent_params)
    params.update(radius=radius, pref_speed=speed, max_speed=speed * max_speed_factor)
    if max_steps is None:
        walk = np.array([np.linalg.norm(np.diff(np.vstack([positions[i], r]), axis=0), axis=1).sum()
                         for i, r in enumerate(routes)]) if n else np.zeros(0)
        slowest = float((walk / speed).max()) if n else 0.0
        max_steps = int(np.ceil(3 * slowest / time_step)) + 1000
    return Scenario(name=reader.name, positions=positions, goals=goals, waypoints=waypoints, agent_params=params,
                    obstacles=reader.obstacles, time_step=time_step, max_steps=max_steps,
                    method=ORCA() if method is None else method, seed=seed)


def _add(sim, kind: str, vertices: np.ndarray, path: str) -> None:
    try:
        (sim.add_obstacle if kind == "polygon" else sim.add_wall)(vertices)
    except ValueError as error:
        raise ValueError(f"{path}: an obstacle at {np.round(vertices, 3).tolist()} is not valid: {error}") from None
