// The velocity-obstacle family (VO, RVO, HRVO; sampling or geometric
// selection) as an engine method around the kernel in velocity_obstacles.hpp.
#pragma once

#include "method.hpp"
#include "methods/local_problem.hpp"
#include "methods/velocity_obstacles/velocity_obstacles.hpp"
#include "methods/velocity_obstacles/velocity_obstacles3d.hpp"

namespace vosim {

class VelocityObstacleMethod final : public Method, public LocalSolver {
public:
    explicit VelocityObstacleMethod(VoConfig config);
    std::string name() const override;
    Vec2 new_velocity(const SceneOf<Vec2>& scene, int slot, Workspace& ws) const override;
    void inspect(const SceneOf<Vec2>& scene, int slot, Workspace& ws, DiagnosticsOf<Vec2>& out) const override;
    std::unique_ptr<MethodScratch> make_scratch() const override;

    // 3D: VO and RVO with sampling (velocity_obstacles3d.hpp).
    bool supports_dimensions(int dimensions) const override;
    std::string dimensions_note() const override;
    Vec3 new_velocity(const SceneOf<Vec3>& scene, int slot, Workspace& ws) const override;
    void inspect(const SceneOf<Vec3>& scene, int slot, Workspace& ws, DiagnosticsOf<Vec3>& out) const override;

    // The record: used_fallback; detailed, the cones (cone_kind, cone_source,
    // apex, right_leg, left_leg, horizon, scale and the cap of a truncated
    // cone: cap_a, cap_b, cap_radius, nan when not truncated) and the
    // candidates (candidates, penalty, time_to_collision, blocking_cone,
    // candidate_cone_a, candidate_cone_b), chosen and velocity.
    Vec2 solve_local(const LocalProblem& problem, Record& record, bool detailed) const override;

    const VoConfig& config() const { return config_; }

private:
    Vec2 solve(const SceneView& scene, int slot, Workspace& ws, VoDiagnostics* diagnostics) const;
    Vec3 solve_3d(const SceneView& scene, int slot, Workspace& ws, VoCandidates3* seen) const;

    VoConfig config_;
};

}  // namespace vosim
