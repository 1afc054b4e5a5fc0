#include "sampling_method.hpp"

namespace vosim {

namespace {

struct SamplingScratch final : MethodScratch {
    std::vector<DetourCircle> circles;
    std::vector<DetourSegment> segments;
};

}  // namespace

SamplingMethod::SamplingMethod(Pattern pattern, DetourParams params) : pattern_(pattern), params_(params) {
    check_detour_params(params_);
}

std::string SamplingMethod::name() const {
    return pattern_ == Pattern::adaptive ? "AdaptiveSampling" : "GridSampling";
}

std::unique_ptr<MethodScratch> SamplingMethod::make_scratch() const {
    return std::make_unique<SamplingScratch>();
}

DetourResult SamplingMethod::solve(const SceneView& scene, int slot, Workspace& ws,
                                   std::vector<DetourSample>* record) const {
    const AgentState& s = scene.state;
    const std::size_t i = scene.index(slot);
    auto& scratch = this->scratch<SamplingScratch>(ws);

    DetourAgent agent;
    agent.position = s.position(i);
    agent.velocity = s.velocity(i);
    agent.desired_velocity = s.pref_velocity(i);
    agent.radius = s.radius[i];
    agent.max_speed = s.max_speed[i];

    scratch.circles.clear();
    for (int k = 0; k < ws.agent_neighbors.size(); ++k) {
        const std::size_t j = scene.index(ws.agent_neighbors[k].slot);
        scratch.circles.push_back({s.position(j), s.velocity(j), s.pref_velocity(j), s.radius[j]});
    }
    // DetourCrowd tests walls against the agent's centre because its navmesh
    // is already eroded by the agent's radius. vosim's obstacles are not, so
    // each edge is moved towards the agent by its radius, and lengthened by
    // as much at both ends to cover the corners. The engine's edges face the
    // agent (it is on their right), the orientation dtCrowd gives the
    // segments it keeps.
    scratch.segments.clear();
    const double radius = s.radius[i];
    for (const ObstacleNeighbor& edge : ws.obstacle_neighbors) {
        const auto [a, b] = edge.endpoints();
        const Vec2 along = normalize(b - a) * radius;
        const Vec2 out(along.y, -along.x);  // right of a -> b: towards the agent
        scratch.segments.push_back({a + out - along, b + out + along});
    }
    const int n_circles = static_cast<int>(scratch.circles.size());
    const int n_segments = static_cast<int>(scratch.segments.size());
    return pattern_ == Pattern::adaptive
               ? sample_velocity_adaptive(params_, agent, scratch.circles.data(), n_circles,
                                          scratch.segments.data(), n_segments, record)
               : sample_velocity_grid(params_, agent, scratch.circles.data(), n_circles,
                                      scratch.segments.data(), n_segments, record);
}

Vec2 SamplingMethod::new_velocity(const SceneView& scene, int slot, Workspace& ws) const {
    return solve(scene, slot, ws, nullptr).velocity;
}

void SamplingMethod::inspect(const SceneView& scene, int slot, Workspace& ws, Diagnostics& out) const {
    std::vector<DetourSample> record;
    const DetourResult result = solve(scene, slot, ws, &record);
    out.new_velocity = result.velocity;
    for (const DetourSample& sample : record) {
        out.candidates.push_back(sample.velocity);
        out.penalties.push_back(sample.penalty);
        out.levels.push_back(sample.level);
    }
    // The winner is the last level's best sample (first of equal penalties).
    const int last_level = record.empty() ? 0 : record.back().level;
    double best = 0.0;
    for (std::size_t k = 0; k < record.size(); ++k) {
        if (record[k].level != last_level) continue;
        if (out.chosen < 0 || record[k].penalty < best) {
            best = record[k].penalty;
            out.chosen = static_cast<std::int32_t>(k);
        }
    }
}

}  // namespace vosim
