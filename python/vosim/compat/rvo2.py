"""Python-RVO2's ``PyRVOSimulator`` on top of vosim.

The same class, method names and argument orders as Python-RVO2 (the
``rvo2`` module), tuples in and tuples out, so code written for it runs by
changing one import::

    import vosim.compat.rvo2 as rvo2

and code you cannot edit (a library that does ``import rvo2``) runs after::

    import sys
    import vosim.compat.rvo2
    sys.modules["rvo2"] = vosim.compat.rvo2

Agents are stepped by :class:`vosim.ORCA`, which reproduces RVO2 (vosim
computes in float64 where RVO2 uses float32, so results agree within the
parity tolerance of the documentation's parity page, not bit for bit). What differs:

- bad arguments (an unknown agent number, NaN, a negative radius) raise
  ``ValueError`` or ``TypeError`` naming them, where RVO2 would read out of
  bounds or compute garbage;
- obstacles must be simple polygons: vosim refuses self-intersecting or
  collinear ones when they are added; as in RVO2, two vertices make a
  segment and a clockwise polygon is solid outside;
- ``queryVisibility`` asks whether the segment stays farther than
  ``radius`` from every obstacle edge. RVO2's tree-based test differs in
  corner cases: it also blocks a segment whose line, extended beyond its
  ends, passes near an edge's ends, and lets a line of sight leave a solid
  through the back of an edge (on random queries among obstacles the two
  agree about 97 % of the time, ``tests/reference/test_compat_rvo2.py``).

The neighbours and ORCA lines that the ``getAgent...`` queries return are
those of the last ``doStep``, as in RVO2; vosim computes them on demand
from the state that step started from.
"""

from __future__ import annotations

import numpy as np

from .. import _checkpoint, _core
from .._checks import INT32_MAX, MAX_MAGNITUDE, MIN_TIME, check_values, integer, real_array, scalar
from .._fields import ADD_DEFAULTS, derive_defaults
from ..methods import ORCA
from ..simulator import Simulator

__all__ = ["PyRVOSimulator"]


def _point_segment_distance(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance from points ``p`` to segments ``a``-``b`` (broadcast over leading axes)."""
    ab = b - a
    length_sq = np.einsum("...i,...i->...", ab, ab)
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(length_sq > 0, np.einsum("...i,...i->...", p - a, ab) / length_sq, 0.0)
    nearest = a + np.clip(t, 0.0, 1.0)[..., None] * ab
    return np.linalg.norm(p - nearest, axis=-1)


def _cross(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]


def segment_distances(p: np.ndarray, q: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distances between segments ``p``-``q`` ``(m, 2)`` and edges ``a``-``b`` ``(e, 2)``: ``(m, e)``.

    Plain NumPy (the shapely-based sight tests of :mod:`vosim.navigation`
    need an extra, and count touching as blocked only within a distance).
    """
    p, q = p[:, None], q[:, None]
    a, b = a[None], b[None]
    d1, d2 = _cross(q - p, a - p), _cross(q - p, b - p)
    d3, d4 = _cross(b - a, p - a), _cross(b - a, q - a)
    crossing = (d1 * d2 < 0) & (d3 * d4 < 0)
    ends = np.minimum.reduce([
        _point_segment_distance(a, p, q), _point_segment_distance(b, p, q),
        _point_segment_distance(p, a, b), _point_segment_distance(q, a, b),
    ])
    return np.where(crossing, 0.0, ends)


# Code written for RVO2 makes one call per agent and value: plain Python
# numbers take a fast path, anything else (and every refusal, for its
# message) the package's checks.

def _real(value, name: str, minimum: float, maximum: float) -> float:
    if type(value) is int or isinstance(value, float):
        number = float(value)
        if minimum <= number <= maximum:  # False for NaN
            return number
    return scalar(value, name, minimum=minimum, maximum=maximum)


def _whole(value, name: str, minimum: int, maximum: int) -> int:
    if type(value) is int and minimum <= value <= maximum:
        return value
    return integer(value, name, minimum=minimum, maximum=maximum)


def _pair(value, name: str) -> tuple[float, float]:
    """A finite 2-vector within the working range, as floats."""
    if type(value) in (tuple, list) and len(value) == 2:
        x, y = value
        if (type(x) is int or isinstance(x, float)) and (type(y) is int or isinstance(y, float)):
            x, y = float(x), float(y)
            if -MAX_MAGNITUDE <= x <= MAX_MAGNITUDE and -MAX_MAGNITUDE <= y <= MAX_MAGNITUDE:
                return x, y
    array = real_array(value, name)
    if array.shape != (2,):
        raise ValueError(f"{name}: expected 2 numbers (x, y), got shape {array.shape}")
    check_values(array, name, magnitude=MAX_MAGNITUDE)
    return float(array[0]), float(array[1])


def _agent_params(neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed, velocity) -> dict:
    """Checked agent parameters as Simulator.add_agents keywords."""
    return {
        "neighbor_dist": _real(neighborDist, "neighborDist", 0.0, MAX_MAGNITUDE),
        "max_neighbors": _whole(maxNeighbors, "maxNeighbors", 0, INT32_MAX),
        "time_horizon": _real(timeHorizon, "timeHorizon", MIN_TIME, MAX_MAGNITUDE),
        "time_horizon_obst": _real(timeHorizonObst, "timeHorizonObst", MIN_TIME, MAX_MAGNITUDE),
        "radius": _real(radius, "radius", 0.0, MAX_MAGNITUDE),
        "max_speed": _real(maxSpeed, "maxSpeed", 0.0, MAX_MAGNITUDE),
        "velocities": _pair(velocity, "velocity"),
    }


def _signed_area(points: np.ndarray) -> float:
    x, y = points[:, 0], points[:, 1]
    return 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))


class PyRVOSimulator:
    """A simulation as Python-RVO2 runs it: agents numbered 0, 1, ... in the order added.

    Parameters
    ----------
    timeStep
        Seconds per step.
    neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed, velocity
        Defaults of agents added with ``addAgent(pos)`` (see
        :meth:`setAgentDefaults`).
    """

    def __init__(self, timeStep, neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed,
                 velocity=(0, 0)):
        self._sim = Simulator(time_step=_real(timeStep, "timeStep", MIN_TIME, MAX_MAGNITUDE),
                              method=ORCA())
        self._defaults: dict = {}
        self.setAgentDefaults(neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed,
                              velocity)
        self._pending: list[np.ndarray] = []  # obstacles added since the last processObstacles, as given
        self._table: dict | None = None  # the engine's vertex table of processed obstacles
        self._views: dict[str, np.ndarray] = {}
        self._new_agents: list[tuple] = []  # (position, parameters) not yet in the engine; see _flush
        # The engine's state when the last doStep began, and what it saw then
        # (made on demand: most callers never ask).
        self._before: dict | None = None
        self._seen: Simulator | None = None
        self._inspected: dict[int, dict] = {}
        self._edges_seen: dict[int, list] = {}

    def __repr__(self) -> str:
        return (f"PyRVOSimulator(agents={self.getNumAgents()}, time_step={self.getTimeStep()}, "
                f"time={self.getGlobalTime():g})")

    # ------------------------------------------------------------ helpers
    def _view(self, name: str) -> np.ndarray:
        self._flush()
        if name not in self._views:
            self._views[name] = self._sim._view(name)
        return self._views[name]

    def _agent(self, agent_no) -> int:
        if type(agent_no) is int and 0 <= agent_no < self._sim.num_agents:
            return agent_no
        agent_no = integer(agent_no, "agent_no", minimum=0)
        if agent_no >= self.getNumAgents():
            count = self.getNumAgents()
            raise ValueError(f"agent_no is {agent_no}; there {'is 1 agent' if count == 1 else f'are {count} agents'}")
        return agent_no

    def _vector(self, name: str, agent_no) -> tuple[float, float]:
        x, y = self._view(name)[self._agent(agent_no)]
        return float(x), float(y)

    def _inspect(self, agent_no: int) -> dict | None:
        """What ORCA saw and decided for one agent in the last doStep (None before the
        first, and for agents added since)."""
        if self._before is None or agent_no >= self._before["count"]:
            return None
        if agent_no not in self._inspected:
            self._inspected[agent_no] = self._seen_simulator().inspect(agent_no)
        return self._inspected[agent_no]

    def _seen_simulator(self) -> Simulator:
        if self._seen is None:
            seen = Simulator.__new__(Simulator)
            state = {"format": _checkpoint.FORMAT, "format_version": _checkpoint.FORMAT_VERSION,
                     "method": self._sim.method.to_dict(), "engine": self._before}
            state["checksum"] = _checkpoint.checksum(state)
            _checkpoint.restore_into(seen, state)
            self._seen = seen
        return self._seen

    def _obstacle_neighbors(self, agent_no: int) -> list:
        """(set, vertex, dist_sq) of the edges agent_no saw in the last doStep, nearest first."""
        if self._before is None or agent_no >= self._before["count"]:
            return []
        if agent_no not in self._edges_seen:
            seen = self._seen_simulator()
            x, y = seen.positions[agent_no]
            # RVO2's range: what the agent could reach within its obstacle time horizon, plus its radius.
            reach = seen.time_horizon_obst[agent_no] * seen.max_speed[agent_no] + seen.radius[agent_no]
            self._edges_seen[agent_no] = seen._edges_near(0, float(x), float(y), float(reach))
        return self._edges_seen[agent_no]

    def _vertex_table(self) -> dict:
        if self._table is None:
            table = self._sim._obstacle_table(-1)
            self._table = {"points": table["points"], "next": list(table["next"]), "prev": list(table["prev"])}
        return self._table

    def _vertex(self, vertex_no) -> tuple[np.ndarray, int, int]:
        """(point, next, previous) of a vertex: processed ones from the engine, then those added since."""
        vertex_no = integer(vertex_no, "vertex_no", minimum=0)
        table = self._vertex_table()
        first = len(table["points"])
        if vertex_no < first:
            return table["points"][vertex_no], table["next"][vertex_no], table["prev"][vertex_no]
        for points in self._pending:
            n = len(points)
            if vertex_no < first + n:
                k = vertex_no - first
                return points[k], first + (k + 1) % n, first + (k - 1) % n
            first += n
        raise ValueError(f"vertex_no is {vertex_no}; there are {first} obstacle vertices")

    # ------------------------------------------------------------ building
    def addAgent(self, pos, neighborDist=None, maxNeighbors=None, timeHorizon=None, timeHorizonObst=None,
                 radius=None, maxSpeed=None, velocity=None) -> int:
        """Add an agent at ``pos`` and return its number.

        Give only ``pos`` (the defaults apply) or every parameter.
        """
        given = (neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed, velocity)
        if any(value is None for value in given) and any(value is not None for value in given):
            raise ValueError("Either pass only 'pos', or pass all parameters.")
        params = self._defaults if neighborDist is None else _agent_params(*given)
        number = self.getNumAgents()
        self._new_agents.append((_pair(pos, "pos"), params))
        return number

    def _flush(self) -> None:
        """Hand the agents added since the last call to the engine, in one call.

        Code written for RVO2 adds agents one at a time (often rebuilding a
        simulation every step); one engine call for all of them, with values
        checked as they were added, keeps that cheap.
        """
        if not self._new_agents:
            return
        n = len(self._new_agents)
        params = [p for _, p in self._new_agents]

        def column(name, dtype=np.float64):
            return np.array([p[name] for p in params], dtype=dtype).reshape(1, n)

        def constant(value):
            return np.full((1, n), value, dtype=np.float64)

        radius, max_speed = column("radius"), column("max_speed")
        given = dict(
            positions=np.array([pos for pos, _ in self._new_agents]).reshape(1, n, 2),
            velocities=np.array([p["velocities"] for p in params]).reshape(1, n, 2),
            pref_velocities=np.zeros((1, n, 2)),
            goals=np.full((1, n, 2), np.nan),
            has_goal=np.zeros((1, n), dtype=np.uint8),
            radius=radius,
            max_speed=max_speed,
            neighbor_dist=column("neighbor_dist"),
            max_neighbors=column("max_neighbors", np.int32),
            time_horizon=column("time_horizon"),
            time_horizon_obst=column("time_horizon_obst"),
            # RVO2's agents are holonomic (their headings follow their velocities).
            kinematics=np.zeros((1, n), dtype=np.int8),
            headings=np.zeros((1, n)),
        )
        # arrival_radius and the drive's sizes follow radius and max_speed, as in add_agents.
        derive_defaults(given, lambda name: None)
        # Every other per-agent field (RVO2 has none of them) gets vosim's default.
        defaults = {name: constant(value) for name, value in ADD_DEFAULTS.items() if name not in given}
        self._sim._add_agent_fields(n, {**defaults, **given})
        self._new_agents.clear()
        self._views.clear()

    def addObstacle(self, vertices) -> int:
        """Add an obstacle (a list of (x, y); counter-clockwise: solid inside) and return
        the number of its first vertex. It takes effect at :meth:`processObstacles`."""
        points = real_array(vertices, "vertices")
        if points.ndim != 2 or points.shape[1] != 2 or len(points) < 2:
            raise ValueError(f"vertices: expected a list of at least 2 (x, y) points, got shape {points.shape}")
        check_values(points, "vertices", magnitude=MAX_MAGNITUDE)
        points = np.ascontiguousarray(points)
        if len(points) == 2:
            _core.check_obstacle(points, "segment", "vertices")
        elif _signed_area(points) < 0.0:
            _core.check_obstacle(points[::-1].copy(), "boundary", "vertices")  # clockwise: solid outside
        else:
            _core.check_obstacle(points, "polygon", "vertices")
        first = self.getNumObstacleVertices()
        self._pending.append(points)
        return first

    def processObstacles(self) -> None:
        """Make the obstacles added so far take effect."""
        for points in self._pending:
            if len(points) >= 3 and _signed_area(points) < 0.0:
                self._sim.add_boundary(points[::-1], strict=False)
            else:
                self._sim.add_obstacle(points, strict=False)
        self._pending.clear()
        self._table = None

    def doStep(self) -> None:
        """Advance one time step."""
        self._flush()
        self._before = self._sim._snapshot()
        self._seen = None
        self._inspected.clear()
        self._edges_seen.clear()
        self._sim.step()

    # ------------------------------------------------------------ simulation
    def getGlobalTime(self) -> float:
        return float(self._sim.time)

    def getTimeStep(self) -> float:
        return float(self._sim.time_step)

    def setTimeStep(self, time_step) -> None:
        self._sim.time_step = _real(time_step, "time_step", MIN_TIME, MAX_MAGNITUDE)

    def getNumAgents(self) -> int:
        return int(self._sim.num_agents) + len(self._new_agents)

    def setAgentDefaults(self, neighbor_dist, max_neighbors, time_horizon, time_horizon_obst, radius, max_speed,
                         velocity=(0, 0)) -> None:
        """The parameters of agents added with ``addAgent(pos)`` from now on."""
        self._defaults = _agent_params(neighbor_dist, max_neighbors, time_horizon, time_horizon_obst, radius,
                                       max_speed, velocity)

    def queryVisibility(self, point1, point2, radius=0.0) -> bool:
        """Whether the segment from ``point1`` to ``point2`` stays farther than ``radius``
        from every processed obstacle edge (True without processed obstacles)."""
        p = np.array([_pair(point1, "point1")])
        q = np.array([_pair(point2, "point2")])
        radius = _real(radius, "radius", 0.0, MAX_MAGNITUDE)
        table = self._vertex_table()
        points = table["points"]
        if len(points) == 0:
            return True
        # Strictly farther than radius, as in RVO2: with radius 0 a touching line of sight is blocked.
        return bool((segment_distances(p, q, points, points[table["next"]]) > radius).all())

    # ------------------------------------------------------------ agents: state
    def getAgentPosition(self, agent_no) -> tuple[float, float]:
        return self._vector("positions", agent_no)

    def getAgentVelocity(self, agent_no) -> tuple[float, float]:
        return self._vector("velocities", agent_no)

    def getAgentPrefVelocity(self, agent_no) -> tuple[float, float]:
        return self._vector("pref_velocities", agent_no)

    def setAgentPosition(self, agent_no, position) -> None:
        self._view("positions")[self._agent(agent_no)] = _pair(position, "position")

    def setAgentVelocity(self, agent_no, velocity) -> None:
        self._view("velocities")[self._agent(agent_no)] = _pair(velocity, "velocity")

    def setAgentPrefVelocity(self, agent_no, velocity) -> None:
        self._view("pref_velocities")[self._agent(agent_no)] = _pair(velocity, "velocity")

    # ------------------------------------------------------------ agents: parameters
    def getAgentRadius(self, agent_no) -> float:
        return float(self._view("radius")[self._agent(agent_no)])

    def getAgentMaxSpeed(self, agent_no) -> float:
        return float(self._view("max_speed")[self._agent(agent_no)])

    def getAgentNeighborDist(self, agent_no) -> float:
        return float(self._view("neighbor_dist")[self._agent(agent_no)])

    def getAgentMaxNeighbors(self, agent_no) -> int:
        return int(self._view("max_neighbors")[self._agent(agent_no)])

    def getAgentTimeHorizon(self, agent_no) -> float:
        return float(self._view("time_horizon")[self._agent(agent_no)])

    def getAgentTimeHorizonObst(self, agent_no) -> float:
        return float(self._view("time_horizon_obst")[self._agent(agent_no)])

    def setAgentRadius(self, agent_no, radius) -> None:
        self._view("radius")[self._agent(agent_no)] = _real(radius, "radius", 0.0, MAX_MAGNITUDE)

    def setAgentMaxSpeed(self, agent_no, max_speed) -> None:
        value = _real(max_speed, "max_speed", 0.0, MAX_MAGNITUDE)
        self._view("max_speed")[self._agent(agent_no)] = value

    def setAgentNeighborDist(self, agent_no, neighbor_dist) -> None:
        value = _real(neighbor_dist, "neighbor_dist", 0.0, MAX_MAGNITUDE)
        self._view("neighbor_dist")[self._agent(agent_no)] = value

    def setAgentMaxNeighbors(self, agent_no, max_neighbors) -> None:
        value = _whole(max_neighbors, "max_neighbors", 0, INT32_MAX)
        self._view("max_neighbors")[self._agent(agent_no)] = value

    def setAgentTimeHorizon(self, agent_no, time_horizon) -> None:
        value = _real(time_horizon, "time_horizon", MIN_TIME, MAX_MAGNITUDE)
        self._view("time_horizon")[self._agent(agent_no)] = value

    def setAgentTimeHorizonObst(self, agent_no, timeHorizonObst) -> None:
        value = _real(timeHorizonObst, "timeHorizonObst", MIN_TIME, MAX_MAGNITUDE)
        self._view("time_horizon_obst")[self._agent(agent_no)] = value

    # ------------------------------------------------------------ agents: what the last step saw
    def getAgentNumAgentNeighbors(self, agent_no) -> int:
        seen = self._inspect(self._agent(agent_no))
        return 0 if seen is None else len(seen["neighbors"])

    def getAgentAgentNeighbor(self, agent_no, neighbor_no) -> int:
        """The number of the agent's ``neighbor_no``-th nearest agent neighbour in the last step."""
        agent_no = self._agent(agent_no)
        count = self.getAgentNumAgentNeighbors(agent_no)
        neighbor_no = integer(neighbor_no, "neighbor_no", minimum=0)
        if neighbor_no >= count:
            raise ValueError(f"neighbor_no is {neighbor_no}; agent {agent_no} had {count} agent neighbors")
        return int(self._inspect(agent_no)["neighbors"][neighbor_no])

    def getAgentNumObstacleNeighbors(self, agent_no) -> int:
        return len(self._obstacle_neighbors(self._agent(agent_no)))

    def getAgentObstacleNeighbor(self, agent_no, obstacle_no) -> int:
        """The first vertex of the agent's ``obstacle_no``-th nearest obstacle edge in the last step."""
        agent_no = self._agent(agent_no)
        edges = self._obstacle_neighbors(agent_no)
        obstacle_no = integer(obstacle_no, "obstacle_no", minimum=0)
        if obstacle_no >= len(edges):
            raise ValueError(f"obstacle_no is {obstacle_no}; agent {agent_no} had {len(edges)} "
                             "obstacle neighbors")
        return int(edges[obstacle_no][1])

    def getAgentNumORCALines(self, agent_no) -> int:
        seen = self._inspect(self._agent(agent_no))
        return 0 if seen is None else len(seen["lines"]["point"])

    def getAgentORCALine(self, agent_no, line_no) -> tuple[float, float, float, float]:
        """``(point x, point y, direction x, direction y)`` of an ORCA line of the last step
        (obstacle lines first); the admissible velocities lie on its left."""
        agent_no = self._agent(agent_no)
        count = self.getAgentNumORCALines(agent_no)
        line_no = integer(line_no, "line_no", minimum=0)
        if line_no >= count:
            raise ValueError(f"line_no is {line_no}; agent {agent_no} had {count} ORCA lines")
        lines = self._inspect(agent_no)["lines"]
        (px, py), (dx, dy) = lines["point"][line_no], lines["direction"][line_no]
        return float(px), float(py), float(dx), float(dy)

    # ------------------------------------------------------------ obstacles
    def getNumObstacleVertices(self) -> int:
        """Vertices of every obstacle, processed ones (with the vertices processing split off) first."""
        return len(self._vertex_table()["points"]) + sum(len(points) for points in self._pending)

    def getObstacleVertex(self, vertex_no) -> tuple[float, float]:
        x, y = self._vertex(vertex_no)[0]
        return float(x), float(y)

    def getNextObstacleVertexNo(self, vertex_no) -> int:
        return int(self._vertex(vertex_no)[1])

    def getPrevObstacleVertexNo(self, vertex_no) -> int:
        return int(self._vertex(vertex_no)[2])
