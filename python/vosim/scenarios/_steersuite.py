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
import re
import warnings
from typing import TYPE_CHECKING

import numpy as np

from .._checks import integer, scalar
from ..methods import ORCA, Method
from ._scenario import Scenario

if TYPE_CHECKING:  # the XML parser is imported by _parse, when a file is read
    import xml.etree.ElementTree as ET

# SteerSuite's usual walking speed (m/s), for agents whose goals give none.
DEFAULT_DESIRED_SPEED = 1.33
# The goal types read; others are left out with a warning when the agent has
# a goal of these besides, and refused when it has none.
SUPPORTED_GOALS = ("seekStaticTarget", "seekAxisAlignedBoxRegion")
# Comments (and blanks) before an XML declaration, which SteerSuite's reader accepts and expat refuses.
_LATE_DECLARATION = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*(?:<!--.*?-->\s*)+(?P<declaration><\?xml\b.*?\?>)", re.DOTALL)
_ENCODING = re.compile(rb"encoding\s*=\s*[\"']([A-Za-z0-9._-]+)[\"']")
# Circles become regular polygons with this many sides, drawn round the circle.
_CIRCLE_SIDES = 16


class _Reader:
    """One pass over a test case's element tree."""

    def __init__(self, path: str, root: ET.Element):
        self.path = path
        self.root = root
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
        goals, speeds, dropped = [], [], []
        sequence = _child(element, "goalSequence")
        for k, goal in enumerate([] if sequence is None else list(sequence)):
            gwhere = f"{where}/goalSequence/{_tag(goal)}[{k}]"
            if _tag(goal) not in SUPPORTED_GOALS:
                dropped.append((gwhere, _tag(goal)))
                continue
            target = _child(goal, "targetLocation")
            random = _child(goal, "random")
            if _tag(goal) == "seekAxisAlignedBoxRegion":
                region = _child(goal, "goalRegionBounds")
                if region is None:
                    self.fail(gwhere, "has no <goalRegionBounds>")
                goals.append(("box", self.bounds(region, f"{gwhere}/goalRegionBounds")))
            elif random is not None and (random.text or "").strip().lower() == "true":
                goals.append(None)
            elif target is None:
                self.fail(gwhere, "has no <targetLocation>")
            else:
                goals.append(self.point(target, f"{gwhere}/targetLocation"))
            speeds.append(self.child_number(goal, "desiredSpeed", gwhere, DEFAULT_DESIRED_SPEED))
        if dropped and not goals:
            # Standing still at the start would count as arriving at once: refuse instead.
            self.fail(dropped[0][0], f"is a goal type vosim cannot follow ({', '.join(SUPPORTED_GOALS)} "
                      "only), and the agent has no other goal")
        for gwhere, tag in dropped:
            self.ignored(gwhere, f"the goal type <{tag}> (the agent's other goals are kept)")
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


def _parse(path: str) -> ET.Element:
    """The file's root element, read as SteerSuite's reader does: comments may precede the XML declaration."""
    import xml.etree.ElementTree as ET  # here, not at import: only reading a file needs it

    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise ValueError(f"{path}: cannot be read ({error.strerror})") from None
    match = _LATE_DECLARATION.match(data)
    if match:  # a declaration after leading comments: drop it, keeping the encoding it names
        named = _ENCODING.search(match.group("declaration"))
        encoding = (named.group(1) if named else b"utf-8").decode("ascii")
        try:
            text = (data[:match.start("declaration")] + data[match.end("declaration"):]).decode(encoding)
        except (LookupError, UnicodeDecodeError):
            raise ValueError(f"{path}: not readable as the {encoding!r} its XML declaration names") from None
        data = text.encode("utf-8")
    try:
        return ET.fromstring(data)
    except ET.ParseError as error:
        line, column = error.position
        raise ValueError(f"{path}: not well-formed XML (line {line}, column {column})") from None


def _routes_planned(scenario: Scenario, plan: str) -> list[np.ndarray]:
    """Each agent's waypoints with every leg planned round the obstacles.

    As ``set_goals(plan=...)``: an agent starting off the walkable area
    does not fail the others (a warning names it); a goal or waypoint that
    cannot be reached is an error naming its agent.
    """
    from ..navigation import builder_of, plan_on_roadmap, warn_off_mesh
    from ..navigation import NavMesh

    sim = scenario.build()
    routes = scenario.waypoints if scenario.waypoints is not None else [g[None] for g in scenario.goals]
    starts = np.vstack([np.vstack([p[None], r[:-1]]) for p, r in zip(scenario.positions, routes)])
    ends = np.vstack(routes)
    owner = np.repeat(np.arange(len(routes)), [len(r) for r in routes])
    # A mesh without a boundary spans the box round what it knows: every waypoint too.
    extra = {"points": ends} if plan == "navmesh" else {}
    planner = builder_of(plan).from_simulator(sim, radius=float(np.max(scenario.agent_params["radius"])), **extra)
    label = lambda i: f"agent {int(owner[i])}"  # noqa: E731
    if isinstance(planner, NavMesh):
        first = np.concatenate([[0], np.cumsum([len(r) for r in routes])[:-1]])  # each agent's first leg
        warn_off_mesh(planner, starts[first], np.arange(len(routes)))
        offsets, points = planner.plan_flat(starts, ends, label, snap_starts=True)
    else:
        offsets, points = plan_on_roadmap(planner, starts, ends, owner, label)
    legs = np.split(points, offsets[1:-1])
    out: list[list[np.ndarray]] = [[] for _ in routes]
    for k, leg in enumerate(legs):
        out[owner[k]].append(leg)
    return [np.vstack(parts) for parts in out]


def from_steersuite(path, *, seed: int = 0, time_step: float = 0.1, max_steps: int | None = None,
                    method: Method | None = None, max_speed_factor: float = 1.5, plan: str | None = None,
                    **agent_params) -> Scenario:
    """A Scenario from a SteerSuite XML test case.

    Reads agents (``agent``, ``agentRegion``), their radius, start and
    ``seekStaticTarget`` goals (several become waypoints; ``desiredSpeed``
    becomes the preferred speed), ``seekAxisAlignedBoxRegion`` goals (the
    point of the box nearest to where the agent comes from, its arrival
    radius inside the box's edges: SteerSuite counts the box reached anywhere in
    it, and a crowd sharing one target point would pile onto one spot), and obstacles (``obstacle`` boxes,
    ``orientedBoxObstacle``, ``orientedWallObstacle`` with its ``doorway``,
    ``circleObstacle`` as a 16-sided polygon round the circle,
    ``polygonObstacle``, ``obstacleRegion``). SteerSuite's ground plane is
    x-z with y up: vosim's (x, y) is SteerSuite's (x, z). Random starts,
    goals and obstacle boxes are drawn with ``seed``, clear of obstacles
    (and starts clear of each other), in time linear in their number.
    Leniently, as SteerSuite's reader: comments before the XML declaration,
    namespaces, unknown elements and fields are accepted (unknown ones
    ignored); ``agentEmitter`` and goal types other than those two
    (``idle``, flee, flow, dynamic targets) are left out with a
    warning when the agent has a goal of a supported type besides; bounds
    given the wrong way round are swapped. Agents start at rest (the file's
    initial speed and direction are not used).

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
    plan
        None: agents head straight for each goal in turn (as SteerSuite's
        own agents). ``"navmesh"`` or ``"roadmap"``: each leg of each
        agent's goal sequence is planned round the obstacles, for the
        largest agent radius, and its corners become waypoints.
    **agent_params
        Other ``add_agents`` parameters for every agent (defaults:
        ``neighbor_dist=10``, ``max_neighbors=10``, ``time_horizon=2``,
        ``time_horizon_obst=1``, for pedestrians in metres, and
        ``remove_at_goal=True``: as SteerSuite disables an agent that reaches
        its last goal, the agent leaves the simulation there, so crowds
        heading for a shared goal do not pile up on it; pass
        ``remove_at_goal=False`` to keep arrived agents standing).

    Raises
    ------
    ValueError
        For a file that is not XML or not a test case, for an element with
        a missing or malformed value (naming the file and the element), for
        an agent whose goals are all of types vosim cannot follow (it would
        otherwise stand at its start, counted as arrived), and with ``plan``
        for a goal that cannot be reached (naming the agent).
    """
    from ..navigation import PLANNERS
    from ..simulator import Simulator
    from ._placement import PLACEMENT_TRIES, Scatter

    path = os.fspath(path)
    seed = integer(seed, "seed", minimum=0)
    max_speed_factor = scalar(max_speed_factor, "max_speed_factor", minimum=1.0, maximum=1e6)
    if plan is not None and plan not in PLANNERS:
        raise ValueError(f"plan is {plan!r}; must be None or one of {', '.join(map(repr, PLANNERS))}")
    root = _parse(path)
    rng = np.random.default_rng(seed)
    reader = _Reader(path, root)
    reader.read()

    def nowhere(where, bounds, radius):
        raise ValueError(f"{path}: <{where}>: found no free spot for a disc of radius {radius:g} in bounds "
                         f"{list(bounds)} after {PLACEMENT_TRIES} tries")

    def checked(where, bounds):
        if not (bounds[1] > bounds[0] and bounds[3] > bounds[2]):
            raise ValueError(f"{path}: <{where}> places at random in bounds {list(bounds)}, which have no area")
        return bounds

    # Obstacles first (random boxes clear of the fixed ones), then agents clear of them.
    sim = Simulator()  # checks every obstacle
    for kind, vertices in reader.obstacles:
        _add(sim, kind, vertices, path)
    n = len(reader.agents)
    radius = np.array([a["radius"] for a in reader.agents], dtype=np.float64)
    if reader.obstacle_regions:
        reach = max(size / np.sqrt(2) for _, _, size, _ in reader.obstacle_regions)
        scatter = Scatter(rng, reader.obstacles, reach)
        for where, count, size, bounds in reader.obstacle_regions:
            checked(where, bounds)
            for _ in range(count):
                centre = scatter.place(bounds, size / np.sqrt(2))
                if centre is None:
                    nowhere(where, bounds, size / np.sqrt(2))
                scatter.add(centre, size / 2, box=True)
                box = centre + size / 2 * np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]])
                reader.obstacles.append(("polygon", box))
                _add(sim, "polygon", box, path)
    scatter = Scatter(rng, reader.obstacles, float(radius.max()) if n else 0.0)
    positions = np.zeros((n, 2))
    fixed = [i for i, a in enumerate(reader.agents) if "region" not in a]
    for i in fixed:
        positions[i] = reader.agents[i]["position"]
        scatter.add(positions[i], radius[i])
    for i, agent in enumerate(reader.agents):
        if "region" in agent:
            spot = scatter.place(checked(agent["where"], agent["region"]), radius[i])
            if spot is None:
                nowhere(agent["where"], agent["region"], radius[i])
            positions[i] = spot
            scatter.add(spot, radius[i])
    # A box goal lies this far inside the box: arriving within it is arriving in the box.
    arrival = agent_params.get("arrival_radius", radius)  # the engine's default: the radius
    try:
        arrival = np.broadcast_to(np.asarray(arrival, dtype=np.float64), (n,))
    except (TypeError, ValueError):
        raise ValueError(f"arrival_radius: expected a number or one per agent ({n}), got {arrival!r}") from None
    routes = []
    for i, agent in enumerate(reader.agents):
        route = []
        for goal in agent["goals"]:
            if isinstance(goal, tuple):
                goal = _nearest_in_box(goal[1], route[-1] if route else positions[i], arrival[i])
            elif goal is None:
                where = f"{agent['where']}/goalSequence"
                world = checked(where, reader.need_world(where))
                goal = scatter.place(world, radius[i], avoid_items=False)
                if goal is None:
                    nowhere(where, world, radius[i])
            route.append(goal)
        routes.append(np.array(route) if route else positions[i][None].copy())
    goals = np.array([r[-1] for r in routes]).reshape(n, 2)
    waypoints = routes if any(len(r) > 1 for r in routes) else None
    speed = np.array([a["speed"] for a in reader.agents], dtype=np.float64)
    params = dict(neighbor_dist=10.0, max_neighbors=10, time_horizon=2.0, time_horizon_obst=1.0, remove_at_goal=True)
    params.update(agent_params)
    params.update(radius=radius, pref_speed=speed, max_speed=speed * max_speed_factor)
    scenario = Scenario(name=reader.name, positions=positions, goals=goals, waypoints=waypoints, agent_params=params,
                        obstacles=reader.obstacles, time_step=time_step, max_steps=1,
                        method=ORCA() if method is None else method, seed=seed)
    if plan is not None and n:
        scenario.waypoints = routes = _routes_planned(scenario, plan)
    if max_steps is None:
        walk = np.array([np.linalg.norm(np.diff(np.vstack([positions[i], r]), axis=0), axis=1).sum()
                         for i, r in enumerate(routes)]) if n else np.zeros(0)
        slowest = float((walk / speed).max()) if n else 0.0
        max_steps = int(np.ceil(3 * slowest / time_step)) + 1000
    scenario.max_steps = integer(max_steps, "max_steps", minimum=1)
    return scenario


def _nearest_in_box(bounds: tuple, origin: np.ndarray, margin: float) -> np.ndarray:
    """The point of a goal box (xmin, xmax, zmin, zmax) nearest to ``origin``, ``margin`` inside its edges.

    SteerSuite counts a box goal reached anywhere inside the box; heading for
    the box's nearest point keeps that, where one shared target point would
    pile every agent of a crowd onto one spot. The margin (the arrival
    radius, at most half the box) puts the arrival disc inside the box.
    """
    xmin, xmax, zmin, zmax = bounds
    mx, mz = min(margin, (xmax - xmin) / 2), min(margin, (zmax - zmin) / 2)
    return np.array([np.clip(origin[0], xmin + mx, xmax - mx), np.clip(origin[1], zmin + mz, zmax - mz)])


def _add(sim, kind: str, vertices: np.ndarray, path: str) -> None:
    try:
        (sim.add_obstacle if kind == "polygon" else sim.add_wall)(vertices)
    except ValueError as error:
        raise ValueError(f"{path}: an obstacle at {np.round(vertices, 3).tolist()} is not valid: {error}") from None
