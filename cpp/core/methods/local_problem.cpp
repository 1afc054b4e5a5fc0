#include "methods/local_problem.hpp"

#include "method.hpp"
#include "features/scene_features.hpp"

namespace vosim {

namespace {

// The agent and its neighbours, the same in every dimension.
template <class V, class Problem>
void fill_agents(const SceneView& scene, int slot, const Workspace& ws, Problem& problem) {
    const AgentState& s = scene.state;
    const std::size_t i = scene.index(slot);
    LocalAgentT<V>& agent = problem.agent;
    agent.position = s.template position<V>(i);
    agent.velocity = s.template velocity<V>(i);
    agent.pref_velocity = s.template pref_velocity<V>(i);
#define VOSIM_COPY_NUMBER(name, fallback) agent.name = s.name[i];
    VOSIM_LOCAL_AGENT_NUMBERS(VOSIM_COPY_NUMBER)
#undef VOSIM_COPY_NUMBER
    agent.id = s.ids[i];
    agent.order = slot;
    agent.at_goal = s.has_goal[i] && abs_sq(agent.position - s.template goal<V>(i)) <= sqr(s.arrival_radius[i]) &&
                    !(scene.features && scene.features->goal_ahead(s, i));

    problem.neighbors.clear();
    for (const Neighbor& neighbor : ws.agent_neighbors) {
        const std::size_t j = scene.index(neighbor.slot);
        problem.neighbors.push_back({scene.template neighbor_position<V>(neighbor), s.template velocity<V>(j),
                                     s.template pref_velocity<V>(j), s.radius[j], neighbor.slot});
    }
    problem.time_step = scene.time_step;
    problem.step = scene.step;
}

}  // namespace

void build_local_problem(const SceneView& scene, int slot, const Workspace& ws, LocalProblem& problem) {
    fill_agents<Vec2>(scene, slot, ws, problem);
    problem.edges.clear();
    for (const ObstacleNeighbor& edge : ws.obstacle_neighbors) {
        const auto [a, b] = edge.endpoints();
        problem.edges.push_back({a, b});
    }
}

void build_local_problem(const SceneView& scene, int slot, const Workspace& ws, LocalProblem3& problem) {
    fill_agents<Vec3>(scene, slot, ws, problem);
    problem.contacts = ws.obstacle_contacts.begin();
    problem.contact_count = ws.obstacle_contacts.size();
}

}  // namespace vosim
