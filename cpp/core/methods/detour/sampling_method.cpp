#include "methods/detour/sampling_method.hpp"

#include "limits.hpp"
#include "methods/require.hpp"
#include "record.hpp"

namespace vosim {

namespace {

struct SamplingScratch final : MethodScratch {
    LocalProblem problem;
    std::vector<LocalEdge> eroded;  // the edges moved towards the agent by its radius
};

}  // namespace

SamplingMethod::SamplingMethod(Pattern pattern, DetourParams params, CrowdUpdate crowd)
    : pattern_(pattern), params_(params), crowd_(crowd) {
    check_detour_params(params_);
    require_in_range("max_acceleration", crowd_.max_acceleration, 0.0, kMaxMagnitude, true);
    require_in_range("collision_rounds", crowd_.collision_rounds, 1.0, 1000.0);
}

OverlapResolution SamplingMethod::overlap_resolution() const {
    if (!crowd_.resolve_collisions) return {};
    return {crowd_.collision_rounds, CrowdUpdate::kCollisionResolveFactor};
}

std::string SamplingMethod::name() const {
    return pattern_ == Pattern::adaptive ? "AdaptiveSampling" : "GridSampling";
}

std::unique_ptr<MethodScratch> SamplingMethod::make_scratch() const {
    return std::make_unique<SamplingScratch>();
}

DetourResult SamplingMethod::solve(const SceneView& scene, int slot, Workspace& ws,
                                   std::vector<DetourSample>* record) const {
    auto& scratch = this->scratch<SamplingScratch>(ws);
    LocalProblem& problem = scratch.problem;
    build_local_problem(scene, slot, ws, problem);
    // DetourCrowd tests walls against the agent's centre because its navmesh
    // is already eroded by the agent's radius. vosim's obstacles are not, so
    // each edge is moved towards the agent by its radius, and lengthened by
    // as much at both ends to cover the corners. The engine's edges face the
    // agent (it is on their right), the orientation dtCrowd gives the
    // segments it keeps.
    scratch.eroded.clear();
    const double radius = problem.agent.radius;
    for (const LocalEdge& edge : problem.edges) {
        const Vec2 along = normalize(edge.b - edge.a) * radius;
        const Vec2 out(along.y, -along.x);  // right of a -> b: towards the agent
        scratch.eroded.push_back({edge.a + out - along, edge.b + out + along});
    }
    const int n_segments = static_cast<int>(scratch.eroded.size());
    return pattern_ == Pattern::adaptive
               ? sample_velocity_adaptive(params_, problem.agent, problem.neighbors.data(), problem.neighbor_count(),
                                          scratch.eroded.data(), n_segments, record)
               : sample_velocity_grid(params_, problem.agent, problem.neighbors.data(), problem.neighbor_count(),
                                      scratch.eroded.data(), n_segments, record);
}

Vec2 SamplingMethod::solve_local(const LocalProblem& problem, Record& record, bool detailed) const {
    const LocalAgent& agent = problem.agent;
    check_detour_inputs(agent, problem.neighbors.data(), problem.neighbor_count(), problem.edges.data(),
                        problem.edge_count());
    std::vector<DetourSample> samples;
    std::vector<DetourSample>* sink = detailed ? &samples : nullptr;
    const DetourResult result =
        pattern_ == Pattern::adaptive
            ? sample_velocity_adaptive(params_, agent, problem.neighbors.data(), problem.neighbor_count(),
                                       problem.edges.data(), problem.edge_count(), sink)
            : sample_velocity_grid(params_, agent, problem.neighbors.data(), problem.neighbor_count(),
                                   problem.edges.data(), problem.edge_count(), sink);
    record.integer("samples", result.samples);
    if (detailed) {
        using Type = RecordEntry::Type;
        std::vector<Vec2> velocity;
        std::vector<double> penalty, vpen, vcpen, spen, tpen, level, pruned;
        for (const DetourSample& sample : samples) {
            velocity.push_back(sample.velocity);
            penalty.push_back(sample.penalty);
            vpen.push_back(sample.vpen);
            vcpen.push_back(sample.vcpen);
            spen.push_back(sample.spen);
            tpen.push_back(sample.tpen);
            level.push_back(sample.level);
            pruned.push_back(sample.pruned ? 1.0 : 0.0);
        }
        record.vectors("velocity", velocity);
        record.column("penalty", Type::real, std::move(penalty));
        record.column("vpen", Type::real, std::move(vpen));
        record.column("vcpen", Type::real, std::move(vcpen));
        record.column("spen", Type::real, std::move(spen));
        record.column("tpen", Type::real, std::move(tpen));
        record.column("level", Type::integer, std::move(level));
        record.column("pruned", Type::flag, std::move(pruned));
    }
    return result.velocity;
}

Vec2 SamplingMethod::new_velocity(const SceneOf<Vec2>& scene, int slot, Workspace& ws) const {
    return solve(scene, slot, ws, nullptr).velocity;
}

void SamplingMethod::inspect(const SceneOf<Vec2>& scene, int slot, Workspace& ws, DiagnosticsOf<Vec2>& out) const {
    std::vector<DetourSample> record;
    const DetourResult result = solve(scene, slot, ws, &record);
    out.new_velocity = result.velocity;
    std::vector<double> levels;  // each candidate's refinement level
    for (const DetourSample& sample : record) {
        out.candidates.push_back(sample.velocity);
        out.penalties.push_back(sample.penalty);
        levels.push_back(sample.level);
    }
    out.method_record.column("levels", RecordEntry::Type::integer, std::move(levels));
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
