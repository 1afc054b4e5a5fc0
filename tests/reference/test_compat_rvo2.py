"""vosim.compat.rvo2: Python-RVO2's PyRVOSimulator API on vosim.

The parity test runs one script on pyrvo (RVO2 2.0.3) and on the
compatibility class, replaying RVO2's state before every step, and holds the
new velocities to the ORCA parity pass mark of docs/parity.md; it is skipped
when pyrvo is not installed. The other tests need nothing but vosim.
"""

from __future__ import annotations

import importlib.util
import sys

import numpy as np
import pytest

import vosim
import vosim.compat.rvo2 as rvo2

HAVE_PYRVO = importlib.util.find_spec("pyrvo") is not None

# timeStep, neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed
PARAMS = (0.25, 15.0, 10, 5.0, 5.0, 1.0, 2.0)
# Obstacles in RVO2's convention: counter-clockwise solid, a segment, and a
# clockwise enclosure (solid outside).
OBSTACLES = [
    [(-3.0, 4.0), (-1.0, 4.0), (-1.0, 6.0), (-3.0, 6.0)],
    [(2.0, -6.0), (5.0, -6.0), (3.5, -3.5)],
    [(-7.0, -4.0), (-4.0, -7.0)],
    [(-40.0, -40.0), (-40.0, 40.0), (40.0, 40.0), (40.0, -40.0)],
]


def _circle(n: int = 24, radius: float = 15.0) -> tuple[np.ndarray, np.ndarray]:
    angles = np.linspace(0.0, 2.0 * np.pi, n, endpoint=False)
    start = radius * np.column_stack([np.cos(angles), np.sin(angles)])
    # Jittered: exactly equal distances would be ordered by float32 round-off in RVO2.
    start += np.random.default_rng(7).uniform(-0.5, 0.5, start.shape)
    return start, -start


def _pref_velocities(positions: np.ndarray, goals: np.ndarray, speed: float = 1.5) -> np.ndarray:
    to_goal = goals - positions
    length = np.linalg.norm(to_goal, axis=1, keepdims=True)
    return np.where(length > speed, to_goal * (speed / np.maximum(length, 1e-300)), to_goal)


def _build(sim, start):
    """The script's set-up, in Python-RVO2's API."""
    numbers = [sim.addAgent(tuple(map(float, p))) for p in start]
    first_vertices = [sim.addObstacle(list(o)) for o in OBSTACLES]
    sim.processObstacles()
    return numbers, first_vertices


class _Pyrvo:
    """pyrvo's RVOSimulator behind Python-RVO2's method names (the reference)."""

    def __init__(self, timeStep, neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed):
        import pyrvo

        self.sim = pyrvo.RVOSimulator()
        self.sim.set_time_step(timeStep)
        self.sim.set_agent_defaults(neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed)

    def addAgent(self, pos):
        return self.sim.add_agent(pos)

    def addObstacle(self, vertices):
        return self.sim.add_obstacle(vertices)

    def processObstacles(self):
        self.sim.process_obstacles()

    def getAgentORCALine(self, agent_no, line_no):
        direction, point = self.sim.get_agent_orca_line(agent_no, line_no)  # pyrvo's order
        return (*point, *direction)

    def __getattr__(self, name):
        # getAgentPosition -> get_agent_position, with vectors as tuples.
        snake = "".join("_" + c.lower() if c.isupper() else c for c in name).replace("_o_r_c_a_l", "_orca_l")
        snake = snake.replace("_vertex_no", "_vertex")
        method = getattr(self.sim, snake)

        def call(*args):
            result = method(*args)
            return result.to_tuple() if hasattr(result, "to_tuple") else result

        return call


@pytest.mark.skipif(not HAVE_PYRVO, reason="pyrvo is not installed")
def test_the_same_script_matches_rvo2_step_by_step():
    reference = _Pyrvo(*PARAMS)
    sim = rvo2.PyRVOSimulator(*PARAMS)
    start, goals = _circle()
    assert _build(reference, start) == _build(sim, start)
    n = len(start)
    assert sim.getNumObstacleVertices() == reference.getNumObstacleVertices()
    for v in range(sim.getNumObstacleVertices()):
        assert np.allclose(sim.getObstacleVertex(v), reference.getObstacleVertex(v), atol=1e-5)  # float32
        assert sim.getNextObstacleVertexNo(v) == reference.getNextObstacleVertexNo(v)
        assert sim.getPrevObstacleVertexNo(v) == reference.getPrevObstacleVertexNo(v)

    differences, neighbor_mismatches, compared = [], 0, 0
    for step in range(160):
        # Replay RVO2's state, then step both from it.
        positions = np.array([reference.getAgentPosition(i) for i in range(n)])
        prefs = _pref_velocities(positions, goals)
        for i in range(n):
            sim.setAgentPosition(i, reference.getAgentPosition(i))
            sim.setAgentVelocity(i, reference.getAgentVelocity(i))
            reference.setAgentPrefVelocity(i, tuple(map(float, prefs[i])))
            sim.setAgentPrefVelocity(i, tuple(map(float, prefs[i])))
        reference.doStep()
        sim.doStep()
        ours = np.array([sim.getAgentVelocity(i) for i in range(n)])
        theirs = np.array([reference.getAgentVelocity(i) for i in range(n)])
        differences.extend(np.linalg.norm(ours - theirs, axis=1))
        if step % 8 == 0:
            for i in range(n):
                compared += 1
                agents = [sim.getAgentAgentNeighbor(i, k) for k in range(sim.getAgentNumAgentNeighbors(i))]
                edges = [sim.getAgentObstacleNeighbor(i, k) for k in range(sim.getAgentNumObstacleNeighbors(i))]
                expected_agents = [reference.getAgentAgentNeighbor(i, k)
                                   for k in range(reference.getAgentNumAgentNeighbors(i))]
                expected_edges = [reference.getAgentObstacleNeighbor(i, k)
                                  for k in range(reference.getAgentNumObstacleNeighbors(i))]
                lines = sim.getAgentNumORCALines(i)
                neighbor_mismatches += (agents != expected_agents or edges != expected_edges
                                        or lines != reference.getAgentNumORCALines(i))
                if agents == expected_agents and lines == reference.getAgentNumORCALines(i):
                    for k in range(lines):
                        assert np.allclose(sim.getAgentORCALine(i, k), reference.getAgentORCALine(i, k),
                                           atol=2e-3)
    differences = np.array(differences)
    assert np.mean(differences > 1e-4) <= 0.002
    assert np.mean(differences > 1e-3) <= 0.0005
    assert differences.max() < 5e-2
    assert neighbor_mismatches <= compared * 0.002
    assert abs(sim.getGlobalTime() - reference.getGlobalTime()) < 1e-4
    # Lines of sight among the obstacles: the same answer but in RVO2's corner cases.
    rng = np.random.default_rng(0)
    queries = zip(rng.uniform(-12, 12, (400, 2)), rng.uniform(-12, 12, (400, 2)), rng.uniform(0, 1, 400))
    agree = []
    for p, q, r in queries:
        p, q, r = tuple(map(float, p)), tuple(map(float, q)), float(r)
        agree.append(sim.queryVisibility(p, q, r) == reference.queryVisibility(p, q, r))
    assert np.mean(agree) >= 0.95


def test_it_steps_exactly_like_a_simulator_given_the_same_preferred_velocities():
    start, goals = _circle(30)
    sim = rvo2.PyRVOSimulator(*PARAMS)
    _build(sim, start)
    twin = vosim.Simulator(time_step=PARAMS[0])
    twin.add_agents(start, neighbor_dist=15.0, max_neighbors=10, time_horizon=5.0, time_horizon_obst=5.0,
                    radius=1.0, max_speed=2.0, strict=False)
    for o in OBSTACLES:
        o = np.array(o)
        if len(o) > 2 and rvo2._signed_area(o) < 0:
            twin.add_boundary(o[::-1], strict=False)
        else:
            twin.add_obstacle(o, strict=False)
    for _ in range(60):
        prefs = _pref_velocities(twin.positions, goals)
        twin.pref_velocities = prefs
        for i, v in enumerate(prefs):
            sim.setAgentPrefVelocity(i, tuple(v))
        twin.step()
        sim.doStep()
    assert np.array_equal(np.array([sim.getAgentPosition(i) for i in range(30)]), twin.positions)
    assert np.array_equal(np.array([sim.getAgentVelocity(i) for i in range(30)]), twin.velocities)
    assert sim.getGlobalTime() == twin.time


def test_orca_lines_and_neighbours_are_those_of_the_last_step():
    sim = rvo2.PyRVOSimulator(0.1, 5.0, 10, 2.0, 2.0, 0.5, 1.0)
    for x in (0.0, 1.2, 2.4):
        sim.addAgent((x, 0.0))
    sim.addObstacle([(-1.0, 0.8), (4.0, 0.8), (4.0, 1.5), (-1.0, 1.5)])
    sim.processObstacles()
    assert [sim.getAgentNumORCALines(i) for i in range(3)] == [0, 0, 0]  # no step yet
    assert sim.getAgentNumAgentNeighbors(0) == 0 and sim.getAgentNumObstacleNeighbors(0) == 0
    for i in range(3):
        sim.setAgentPrefVelocity(i, (1.0 - i, 0.3))
    sim.doStep()
    # Agent 1's neighbours, nearest first (ties by number), and the near obstacle edge.
    assert [sim.getAgentAgentNeighbor(1, k) for k in range(sim.getAgentNumAgentNeighbors(1))] == [0, 2]
    assert sim.getAgentNumObstacleNeighbors(1) >= 1
    assert sim.getAgentObstacleNeighbor(1, 0) == 0  # the edge from vertex 0 faces the agents
    for i in range(3):
        v = np.array(sim.getAgentVelocity(i))
        count = sim.getAgentNumORCALines(i)
        # One line per agent neighbour, and one per obstacle edge in range (agent 1 has one).
        assert count >= sim.getAgentNumAgentNeighbors(i) + (1 if i == 1 else 0)
        for k in range(count):
            px, py, dx, dy = sim.getAgentORCALine(i, k)
            # The chosen velocity is admissible: on the left of every line.
            assert dx * (py - v[1]) - dy * (px - v[0]) <= 1e-9
    # Moving agents changes the state, not what the last step saw.
    sim.setAgentPosition(0, (30.0, 30.0))
    assert sim.getAgentNumAgentNeighbors(1) == 2


def test_agents_parameters_getters_and_setters():
    sim = rvo2.PyRVOSimulator(0.25, 15, 10, 5, 5, 2, 2, (0.5, 0.0))
    assert sim.addAgent((1, 2)) == 0
    assert sim.addAgent((3, 4), 4.0, 3, 1.5, 2.5, 0.3, 1.1, (0.0, -0.2)) == 1
    with pytest.raises(ValueError, match="Either pass only 'pos', or pass all parameters"):
        sim.addAgent((5, 5), 4.0)
    assert sim.getNumAgents() == 2
    assert sim.getAgentPosition(0) == (1.0, 2.0) and isinstance(sim.getAgentPosition(0)[0], float)
    assert sim.getAgentVelocity(0) == (0.5, 0.0) and sim.getAgentVelocity(1) == (0.0, -0.2)
    assert (sim.getAgentNeighborDist(1), sim.getAgentMaxNeighbors(1), sim.getAgentTimeHorizon(1),
            sim.getAgentTimeHorizonObst(1), sim.getAgentRadius(1),
            sim.getAgentMaxSpeed(1)) == (4.0, 3, 1.5, 2.5, 0.3, 1.1)
    assert (sim.getAgentRadius(0), sim.getAgentMaxSpeed(0), sim.getAgentMaxNeighbors(0)) == (2.0, 2.0, 10)
    sim.setAgentDefaults(7.0, 4, 3.0, 3.0, 0.7, 0.9)
    assert sim.addAgent((9, 9)) == 2 and sim.getAgentRadius(2) == 0.7 and sim.getAgentVelocity(2) == (0.0, 0.0)
    sim.setAgentPosition(2, (8.0, 8.5))
    sim.setAgentVelocity(2, (0.1, 0.2))
    sim.setAgentPrefVelocity(2, (0.3, 0.4))
    sim.setAgentRadius(2, 0.6)
    sim.setAgentMaxSpeed(2, 1.5)
    sim.setAgentNeighborDist(2, 6.0)
    sim.setAgentMaxNeighbors(2, 5)
    sim.setAgentTimeHorizon(2, 2.0)
    sim.setAgentTimeHorizonObst(2, 1.0)
    assert (sim.getAgentPosition(2), sim.getAgentVelocity(2), sim.getAgentPrefVelocity(2)) == (
        (8.0, 8.5), (0.1, 0.2), (0.3, 0.4))
    assert (sim.getAgentRadius(2), sim.getAgentMaxSpeed(2), sim.getAgentNeighborDist(2),
            sim.getAgentMaxNeighbors(2), sim.getAgentTimeHorizon(2),
            sim.getAgentTimeHorizonObst(2)) == (0.6, 1.5, 6.0, 5, 2.0, 1.0)
    assert sim.getTimeStep() == 0.25
    sim.setTimeStep(0.1)
    sim.doStep()
    assert sim.getGlobalTime() == 0.1


def test_obstacles_take_effect_when_processed():
    sim = rvo2.PyRVOSimulator(0.25, 10, 10, 2, 2, 0.5, 2)
    assert sim.addObstacle([(0.0, -1.0), (1.0, -1.0), (1.0, 1.0), (0.0, 1.0)]) == 0
    assert sim.addObstacle([(3.0, 0.0), (4.0, 1.0)]) == 4
    # Before processing: RVO2 numbers and links the vertices as given.
    assert sim.getNumObstacleVertices() == 6
    assert [sim.getNextObstacleVertexNo(v) for v in range(6)] == [1, 2, 3, 0, 5, 4]
    assert [sim.getPrevObstacleVertexNo(v) for v in range(6)] == [3, 0, 1, 2, 5, 4]
    assert sim.getObstacleVertex(5) == (4.0, 1.0)
    assert sim.queryVisibility((-2.0, 0.0), (2.0, 0.0))  # nothing processed: everything visible
    agent = sim.addAgent((-2.0, 0.0))
    sim.setAgentPrefVelocity(agent, (2.0, 0.0))
    sim.doStep()
    assert sim.getAgentVelocity(agent) == (2.0, 0.0)  # unprocessed obstacles are not there yet
    sim.setAgentPosition(agent, (-2.0, 0.0))
    sim.processObstacles()
    assert sim.getNumObstacleVertices() == 6
    sim.doStep()
    assert sim.getAgentVelocity(agent)[0] < 2.0
    assert sim.getAgentNumObstacleNeighbors(agent) >= 1
    assert not sim.queryVisibility((-2.0, 0.0), (2.0, 0.0))
    assert sim.queryVisibility((-2.0, 2.0), (2.0, 2.0))
    assert not sim.queryVisibility((-2.0, 2.0), (2.0, 2.0), 1.5)  # a wide agent would touch the top edge
    assert not sim.queryVisibility((3.0, 1.0), (4.0, 0.0))  # across the segment


def test_bad_arguments_are_named():
    sim = rvo2.PyRVOSimulator(0.25, 15, 10, 5, 5, 2, 2)
    sim.addAgent((0, 0))
    with pytest.raises(ValueError, match="agent_no is 1; there is 1 agent$"):
        sim.getAgentPosition(1)
    with pytest.raises(ValueError, match="agent_no"):
        sim.getAgentRadius(-1)
    with pytest.raises(TypeError, match="agent_no"):
        sim.getAgentRadius("0")
    with pytest.raises(ValueError, match=r"position\[0\] is nan"):
        sim.setAgentPosition(0, (float("nan"), 0.0))
    with pytest.raises(ValueError, match="radius is -1"):
        sim.setAgentRadius(0, -1.0)
    with pytest.raises(ValueError, match="pos: expected 2 numbers"):
        sim.addAgent((1.0, 2.0, 3.0))
    with pytest.raises(ValueError, match="timeStep"):
        rvo2.PyRVOSimulator(0.0, 15, 10, 5, 5, 2, 2)
    with pytest.raises(ValueError, match="vertices: expected a list of at least 2"):
        sim.addObstacle([(0.0, 0.0)])
    with pytest.raises(ValueError, match="collinear"):
        sim.addObstacle([(0.0, 0.0), (1.0, 0.0), (2.0, 0.0)])
    with pytest.raises(ValueError, match="line_no is 0; agent 0 had 0 ORCA lines"):
        sim.getAgentORCALine(0, 0)
    with pytest.raises(ValueError, match="vertex_no is 0; there are 0 obstacle vertices"):
        sim.getObstacleVertex(0)
    assert sim.getNumObstacleVertices() == 0  # the refused obstacles were not added


def test_code_importing_rvo2_runs_on_vosim(monkeypatch):
    monkeypatch.setitem(sys.modules, "rvo2", rvo2)
    import rvo2 as imported  # what code written for Python-RVO2 does

    sim = imported.PyRVOSimulator(0.1, 3.0, 5, 1.5, 2.0, 0.3, 1.0)
    a0 = sim.addAgent((-2.0, 0.1))
    a1 = sim.addAgent((2.0, -0.1))
    sim.addObstacle([(-0.5, 1.0), (0.5, 1.0), (0.0, 2.0)])
    sim.processObstacles()
    sim.setAgentPrefVelocity(a0, (1.0, 0.0))
    sim.setAgentPrefVelocity(a1, (-1.0, 0.0))
    for _ in range(40):
        sim.doStep()
    assert imported is rvo2 and sim.getNumAgents() == 2
    (x0, y0), (x1, y1) = sim.getAgentPosition(a0), sim.getAgentPosition(a1)
    assert x0 > 1.0 and x1 < -1.0  # they passed each other
    assert abs(sim.getGlobalTime() - 4.0) < 1e-12
