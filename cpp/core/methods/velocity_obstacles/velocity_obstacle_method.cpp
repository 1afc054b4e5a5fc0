#include "velocity_obstacle_method.hpp"

namespace vosim {

namespace {

struct VoMethodScratch final : MethodScratch {
    VoScratch kernel;
    LocalProblem problem;
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
    auto& scratch = this->scratch<VoMethodScratch>(ws);
    LocalProblem& problem = scratch.problem;
    build_local_problem(scene, slot, ws, problem);
    const Vec2 v = vo_new_velocity(config_, problem.agent, problem.neighbors.data(), problem.neighbor_count(),
                                   problem.edges.data(), problem.edge_count(), problem.time_step,
                                   vo_sample_seed(config_.seed, problem.agent.id, problem.step), scratch.kernel,
                                   diagnostics);
    ws.used_fallback = scratch.kernel.used_fallback;
    return v;
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
