// DetourCrowd's velocity sampling (adaptive rings or a grid) as an engine
// method around the kernel in detour_sampling.hpp. Obstacle edges are eroded
// by the agent's radius first, as DetourCrowd's navmesh is.
#pragma once

#include "methods/detour/detour_sampling.hpp"
#include "method.hpp"

namespace vosim {

class SamplingMethod final : public Method {
public:
    enum class Pattern { adaptive, grid };

    SamplingMethod(Pattern pattern, DetourParams params);
    std::string name() const override;
    Vec2 new_velocity(const SceneView& scene, int slot, Workspace& ws) const override;
    void inspect(const SceneView& scene, int slot, Workspace& ws, Diagnostics& out) const override;
    std::unique_ptr<MethodScratch> make_scratch() const override;

    Pattern pattern() const { return pattern_; }
    const DetourParams& params() const { return params_; }

private:
    DetourResult solve(const SceneView& scene, int slot, Workspace& ws,
                       std::vector<DetourSample>* record) const;

    Pattern pattern_;
    DetourParams params_;
};

}  // namespace vosim
