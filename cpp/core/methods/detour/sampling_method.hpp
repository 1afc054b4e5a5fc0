// DetourCrowd's velocity sampling (adaptive rings or a grid) as an engine
// method around the kernel in detour_sampling.hpp. Obstacle edges are eroded
// by the agent's radius first, as DetourCrowd's navmesh is. The rest of
// dtCrowd::update after the sampler comes from the engine on the method's
// request: the acceleration limit (acceleration_limit) and the collision
// handling (overlap_resolution: 4 rounds, 0.7 of half the penetration).
#pragma once

#include "methods/detour/detour_sampling.hpp"
#include "method.hpp"
#include "methods/local_problem.hpp"

namespace vosim {

// What dtCrowd::update does around the sampler (DetourCrowd.cpp: integrate,
// "Handle collisions").
struct CrowdUpdate {
    bool resolve_collisions = true;
    double max_acceleration = 8.0;  // RecastDemo's agents (dtCrowd has no default)
    int collision_rounds = 4;       // dtCrowd::update's
    static constexpr double kCollisionResolveFactor = 0.7;  // COLLISION_RESOLVE_FACTOR
};

class SamplingMethod final : public Method, public LocalSolver {
public:
    enum class Pattern { adaptive, grid };

    SamplingMethod(Pattern pattern, DetourParams params, CrowdUpdate crowd = {});
    double acceleration_limit() const override { return crowd_.max_acceleration; }
    // The grid's candidates reach half a cell beyond max_speed, and
    // DetourCrowd keeps them.
    bool may_exceed_max_speed() const override { return pattern_ == Pattern::grid; }
    OverlapResolution overlap_resolution() const override;
    std::string name() const override;
    Vec2 new_velocity(const SceneOf<Vec2>& scene, int slot, Workspace& ws) const override;
    void inspect(const SceneOf<Vec2>& scene, int slot, Workspace& ws, DiagnosticsOf<Vec2>& out) const override;
    std::unique_ptr<MethodScratch> make_scratch() const override;

    // The problem's edges are DetourCrowd's segments (already eroded). The
    // record: samples (candidates evaluated); detailed, every evaluated
    // sample: velocity, penalty and its terms vpen, vcpen, spen, tpen (in
    // full, un-normalised), level, pruned (skipped by the early-out: it lost).
    Vec2 solve_local(const LocalProblem& problem, Record& record, bool detailed) const override;

    Pattern pattern() const { return pattern_; }
    const DetourParams& params() const { return params_; }

private:
    DetourResult solve(const SceneView& scene, int slot, Workspace& ws,
                       std::vector<DetourSample>* record) const;

    Pattern pattern_;
    DetourParams params_;
    CrowdUpdate crowd_;
};

}  // namespace vosim
