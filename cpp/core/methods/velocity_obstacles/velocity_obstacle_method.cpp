#include "methods/velocity_obstacles/velocity_obstacle_method.hpp"

namespace vosim {

namespace {

struct VoMethodScratch final : MethodScratch {
    VoScratch kernel;
    LocalProblem problem;
    LocalProblem3 problem3;
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
    auto& scratch = this->scratch<VoMethodScratch>(ws);
    LocalProblem3& problem = scratch.problem3;
    build_local_problem(scene, slot, ws, problem);
    ws.used_fallback = false;
    return vo_new_velocity_3d(config_, problem.agent, problem.neighbors.data(), problem.neighbor_count(),
                              problem.contacts, problem.contact_count, problem.time_step, seen);
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
