#include "methods/velocity_obstacles/velocity_obstacle_method.hpp"

#include <limits>

#include "record.hpp"

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

// cones: each velocity obstacle as drawn (apex, boundary rays, kind, source:
// neighbour position in the list or edge index, truncation horizon (+inf:
// none), scale (2 where the pair shares the avoidance), the obstacle relative
// to the agent (a disc when obstacle_a == obstacle_b) and its radius).
void record_cones(const std::vector<VoCone>& cones, Record& out) {
    using Type = RecordEntry::Type;
    std::vector<Vec2> apex, left, right, obstacle_a, obstacle_b;
    std::vector<std::string> kinds;
    std::vector<double> source, horizon, scale, radius;
    for (const VoCone& cone : cones) {
        apex.push_back(cone.apex);
        left.push_back(cone.left_leg);
        right.push_back(cone.right_leg);
        obstacle_a.push_back(cone.obstacle_a);
        obstacle_b.push_back(cone.obstacle_b);
        kinds.push_back(cone_kind_name(cone.kind));
        source.push_back(cone.source);
        horizon.push_back(cone.horizon);
        scale.push_back(cone.scale);
        radius.push_back(cone.radius);
    }
    Record record;
    record.vectors("apex", apex);
    record.vectors("left_leg", left);
    record.vectors("right_leg", right);
    record.texts("kind", std::move(kinds));
    record.column("source", Type::integer, std::move(source));
    record.column("horizon", Type::real, std::move(horizon));
    record.column("scale", Type::real, std::move(scale));
    record.vectors("obstacle_a", obstacle_a);
    record.vectors("obstacle_b", obstacle_b);
    record.column("radius", Type::real, std::move(radius));
    out.record("cones", std::move(record));
}

// What the kernel saw and weighed, as Record entries.
void record_cones_and_candidates(const VoDiagnostics& d, Record& record) {
    using Type = RecordEntry::Type;
    std::vector<std::string> kinds;
    std::vector<double> source, horizon, scale, cap_radius;
    std::vector<Vec2> apex, right, left, cap_a, cap_b;
    for (const VoCone& cone : d.cones) {
        kinds.push_back(cone_kind_name(cone.kind));
        source.push_back(cone.source);
        apex.push_back(cone.apex);
        right.push_back(cone.right_leg);
        left.push_back(cone.left_leg);
        // The cap of a truncated cone in velocity space: the obstacle scaled
        // by 1 / (scale * horizon) around the apex; nan when not truncated.
        const bool capped = cone.is_truncated() && !cone.is_overlap();
        const double shrink = capped ? 1.0 / (cone.scale * cone.horizon) : std::numeric_limits<double>::quiet_NaN();
        cap_a.push_back(cone.apex + shrink * cone.obstacle_a);
        cap_b.push_back(cone.apex + shrink * cone.obstacle_b);
        cap_radius.push_back(shrink * cone.radius);
        horizon.push_back(cone.horizon);
        scale.push_back(cone.scale);
    }
    record.texts("cone_kind", std::move(kinds));
    record.column("cone_source", Type::integer, std::move(source));
    record.vectors("apex", apex);
    record.vectors("right_leg", right);
    record.vectors("left_leg", left);
    record.vectors("cap_a", cap_a);
    record.vectors("cap_b", cap_b);
    record.column("cap_radius", Type::real, std::move(cap_radius));
    record.column("horizon", Type::real, std::move(horizon));
    record.column("scale", Type::real, std::move(scale));
    std::vector<Vec2> velocity;
    std::vector<double> penalty, time_to_collision, blocking, cone_a, cone_b;
    for (const VoCandidateInfo& info : d.candidates) {
        velocity.push_back(info.velocity);
        penalty.push_back(info.penalty);
        time_to_collision.push_back(info.time_to_collision);
        blocking.push_back(info.blocking_cone);
        cone_a.push_back(info.cone_a);
        cone_b.push_back(info.cone_b);
    }
    record.vectors("candidates", velocity);
    record.column("penalty", Type::real, std::move(penalty));
    record.column("time_to_collision", Type::real, std::move(time_to_collision));
    record.column("blocking_cone", Type::integer, std::move(blocking));
    record.column("candidate_cone_a", Type::integer, std::move(cone_a));
    record.column("candidate_cone_b", Type::integer, std::move(cone_b));
    record.integer("chosen", d.chosen);
    record.vector("velocity", d.velocity);
}

}  // namespace

Vec2 VelocityObstacleMethod::solve_local(const LocalProblem& problem, Record& record, bool detailed) const {
    check_vo_inputs(problem.agent, problem.neighbors.data(), problem.neighbor_count(), problem.edges.data(),
                    problem.edge_count(), problem.time_step, config_.truncate);
    VoScratch scratch;
    VoDiagnostics seen;
    const Vec2 v = vo_new_velocity(config_, problem.agent, problem.neighbors.data(), problem.neighbor_count(),
                                   problem.edges.data(), problem.edge_count(), problem.time_step,
                                   vo_sample_seed(config_.seed, problem.agent.id, problem.step), scratch,
                                   detailed ? &seen : nullptr);
    record.flag("used_fallback", scratch.used_fallback);
    if (detailed) record_cones_and_candidates(seen, record);
    return v;
}

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

Vec3 VelocityObstacleMethod::new_velocity(const SceneOf<Vec3>& scene, int slot, Workspace& ws) const {
    return solve_3d(scene, slot, ws, nullptr);
}

void VelocityObstacleMethod::inspect(const SceneOf<Vec3>& scene, int slot, Workspace& ws, DiagnosticsOf<Vec3>& out) const {
    VoCandidates3 seen;
    out.new_velocity = solve_3d(scene, slot, ws, &seen);
    out.candidates = std::move(seen.velocities);
    out.penalties = std::move(seen.penalties);
    out.chosen = seen.chosen;
}

Vec2 VelocityObstacleMethod::new_velocity(const SceneOf<Vec2>& scene, int slot, Workspace& ws) const {
    return solve(scene, slot, ws, nullptr);
}

void VelocityObstacleMethod::inspect(const SceneOf<Vec2>& scene, int slot, Workspace& ws,
                                     DiagnosticsOf<Vec2>& out) const {
    VoDiagnostics seen;
    out.new_velocity = solve(scene, slot, ws, &seen);
    out.used_fallback = seen.used_fallback;
    record_cones(seen.cones, out.method_record);
    for (const VoCandidateInfo& candidate : seen.candidates) {
        out.candidates.push_back(candidate.velocity);
        out.penalties.push_back(candidate.penalty);
    }
    out.chosen = seen.chosen;
}

}  // namespace vosim
