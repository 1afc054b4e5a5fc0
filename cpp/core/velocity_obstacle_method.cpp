#include "velocity_obstacle_method.hpp"

namespace vosim {

namespace {

struct VoMethodScratch final : MethodScratch {
    VoScratch kernel;
    std::vector<VoNeighbor> neighbors;
    std::vector<VoSegment> segments;
    std::vector<VoNeighbor3> neighbors3;
};

const char* cone_kind_name(VoConeKind kind) {
    switch (kind) {
        case VoConeKind::agent: return "agent";
        case VoConeKind::agent_overlap: return "agent_overlap";
        case VoConeKind::segment: return "segment";
        case VoConeKind::segment_overlap: return "segment_overlap";
    }
    return "agent";
}

}  // namespace

VelocityObstacleMethod::VelocityObstacleMethod(VoConfig config) : config_(config) {
    check_vo_config(config_);
}

std::string VelocityObstacleMethod::name() const {
    switch (config_.cone) {
        case Cone::vo: return "VO";
        case Cone::rvo: return "RVO";
        case Cone::hrvo: return "HRVO";
    }
    return "VO";
}

std::unique_ptr<MethodScratch> VelocityObstacleMethod::make_scratch() const {
    return std::make_unique<VoMethodScratch>();
}

Vec2 VelocityObstacleMethod::solve(const SceneView& scene, int slot, Workspace& ws,
                                   VoDiagnostics* diagnostics) const {
    const AgentState& s = scene.state;
    const std::size_t i = scene.index(slot);
    auto& scratch = this->scratch<VoMethodScratch>(ws);

    VoAgent agent;
    agent.position = s.position(i);
    agent.velocity = s.velocity(i);
    agent.pref_velocity = s.pref_velocity(i);
    agent.radius = s.radius[i];
    agent.max_speed = s.max_speed[i];
    agent.time_horizon = s.time_horizon[i];
    agent.time_horizon_obst = s.time_horizon_obst[i];
    agent.uncertainty_offset = s.uncertainty_offset[i];

    scratch.neighbors.clear();
    for (int k = 0; k < ws.agent_neighbors.size(); ++k) {
        const std::size_t j = scene.index(ws.agent_neighbors[k].slot);
        scratch.neighbors.push_back({s.position(j), s.velocity(j), s.pref_velocity(j), s.radius[j]});
    }
    scratch.segments.clear();
    for (const ObstacleNeighbor& edge : ws.obstacle_neighbors) {
        const auto [a, b] = edge.endpoints();
        scratch.segments.push_back({a, b});
    }
    const Vec2 v = vo_new_velocity(config_, agent, scratch.neighbors.data(),
                                   static_cast<int>(scratch.neighbors.size()), scratch.segments.data(),
                                   static_cast<int>(scratch.segments.size()), scene.time_step,
                                   vo_sample_seed(config_.seed, s.ids[i], scene.step), scratch.kernel, diagnostics);
    ws.used_fallback = scratch.kernel.used_fallback;
    return v;
}

bool VelocityObstacleMethod::supports_dimensions(int dimensions) const {
    // HRVO's sides and the geometric selection's crossings are plane geometry.
    return dimensions == 2 ||
           (dimensions == 3 && config_.cone != Cone::hrvo && config_.selection == Selection::sampling);
}

std::string VelocityObstacleMethod::dimensions_note() const {
    if (config_.cone == Cone::hrvo) return "HRVO's passing sides are plane geometry";
    return "in 3D only selection='sampling'";
}

Vec3 VelocityObstacleMethod::solve_3d(const SceneView& scene, int slot, Workspace& ws, VoCandidates3* seen) const {
    const AgentState& s = scene.state;
    const std::size_t i = scene.index(slot);
    auto& scratch = this->scratch<VoMethodScratch>(ws);
    VoAgent3 agent;
    agent.position = s.position<Vec3>(i);
    agent.velocity = s.velocity<Vec3>(i);
    agent.pref_velocity = s.pref_velocity<Vec3>(i);
    agent.radius = s.radius[i];
    agent.max_speed = s.max_speed[i];
    agent.time_horizon = s.time_horizon[i];
    agent.time_horizon_obst = s.time_horizon_obst[i];
    agent.uncertainty_offset = s.uncertainty_offset[i];
    scratch.neighbors3.clear();
    for (int k = 0; k < ws.agent_neighbors.size(); ++k) {
        const std::size_t j = scene.index(ws.agent_neighbors[k].slot);
        scratch.neighbors3.push_back({s.position<Vec3>(j), s.velocity<Vec3>(j), s.radius[j]});
    }
    ws.used_fallback = false;
    return vo_new_velocity_3d(config_, agent, scratch.neighbors3.data(), static_cast<int>(scratch.neighbors3.size()),
                              ws.obstacle_contacts.begin(), ws.obstacle_contacts.size(), scene.time_step, seen);
}

Vec3 VelocityObstacleMethod::new_velocity_3d(const SceneView& scene, int slot, Workspace& ws) const {
    return solve_3d(scene, slot, ws, nullptr);
}

void VelocityObstacleMethod::inspect_3d(const SceneView& scene, int slot, Workspace& ws, Diagnostics3& out) const {
    VoCandidates3 seen;
    out.new_velocity = solve_3d(scene, slot, ws, &seen);
    out.candidates = std::move(seen.velocities);
    out.penalties = std::move(seen.penalties);
    out.chosen = seen.chosen;
}

Vec2 VelocityObstacleMethod::new_velocity(const SceneView& scene, int slot, Workspace& ws) const {
    return solve(scene, slot, ws, nullptr);
}

void VelocityObstacleMethod::inspect(const SceneView& scene, int slot, Workspace& ws,
                                     Diagnostics& out) const {
    VoDiagnostics seen;
    out.new_velocity = solve(scene, slot, ws, &seen);
    out.used_fallback = seen.used_fallback;
    for (const VoCone& cone : seen.cones) {
        DiagnosticCone c;
        c.apex = cone.apex;
        c.left_leg = cone.left_leg;
        c.right_leg = cone.right_leg;
        c.kind = cone_kind_name(cone.kind);
        c.source = cone.source;
        c.horizon = cone.horizon;
        c.scale = cone.scale;
        c.obstacle_a = cone.obstacle_a;
        c.obstacle_b = cone.obstacle_b;
        c.radius = cone.radius;
        out.cones.push_back(c);
    }
    for (const VoCandidateInfo& candidate : seen.candidates) {
        out.candidates.push_back(candidate.velocity);
        out.penalties.push_back(candidate.penalty);
    }
    out.chosen = seen.chosen;
}

}  // namespace vosim
