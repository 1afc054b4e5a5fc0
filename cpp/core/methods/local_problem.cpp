#include "local_problem.hpp"

#include "method.hpp"

namespace vosim {

void build_local_problem(const SceneView& scene, int slot, const Workspace& ws, LocalProblem& problem) {
    const AgentState& s = scene.state;
    const std::size_t i = scene.index(slot);
    LocalAgent& agent = problem.agent;
    agent.position = s.position(i);
    agent.velocity = s.velocity(i);
    agent.pref_velocity = s.pref_velocity(i);
    agent.radius = s.radius[i];
    agent.max_speed = s.max_speed[i];
    agent.time_horizon = s.time_horizon[i];
    agent.time_horizon_obst = s.time_horizon_obst[i];
    agent.uncertainty_offset = s.uncertainty_offset[i];
    agent.id = s.ids[i];
    agent.order = slot;

    problem.neighbors.clear();
    for (const Neighbor& neighbor : ws.agent_neighbors) {
        const std::size_t j = scene.index(neighbor.slot);
        problem.neighbors.push_back({s.position(j), s.velocity(j), s.pref_velocity(j), s.radius[j], neighbor.slot});
    }
    problem.edges.clear();
    for (const ObstacleNeighbor& edge : ws.obstacle_neighbors) {
        const auto [a, b] = edge.endpoints();
        problem.edges.push_back({a, b});
    }
    problem.time_step = scene.time_step;
    problem.step = scene.step;
}

}  // namespace vosim
