// Reciprocal collision avoidance with acceleration-velocity obstacles (AVO;
// van den Berg, Snape, Guy, Manocha, ICRA 2011): ORCA's half-planes built
// from the AVO of each pair (avo_geometry.hpp) instead of the velocity
// obstacle, for agents whose velocity follows a target velocity u through a
// first-order controller of time constant delta (acceleration_interval):
// v(t) = u + (v - u) exp(-t / delta). The target is limited to
// |u - v| <= max_acceleration * delta, which bounds the acceleration.
//
// Two variants:
//   kPaper  the method of the paper, in double: the target lies in the speed
//           disc and in the polygon inscribed in the acceleration disc
//           (reachable_velocities.hpp; hard constraints, with the
//           obstacles' half-planes); when the agents' half-planes leave no room, linear
//           program 3 relaxes them (not the hard ones). The agent then moves
//           as the controller says for one time step, so the realised change
//           of velocity is (u - v) (1 - exp(-dt / delta)), shorter than
//           max_acceleration * dt.
//   kAvo2   the AVO2 library step for step: float arithmetic in its
//           operation order, the speed limit as two lines along the heading,
//           the new velocity = the target (applied at once), no obstacles,
//           and no fallback beyond keeping linear program 2's partial result.
#pragma once

#include <memory>

#include "methods/avo/avo2_programs.hpp"
#include "method.hpp"

namespace vosim {

enum class AvoVariant { kPaper, kAvo2 };

// AVO's settings (declared to the registry in avo_registration.cpp).
struct AvoSettings {
    AvoVariant variant = AvoVariant::kPaper;
};

struct AvoDecision {
    Vec2 target;             // u, in velocity space
    Vec2 velocity;           // what the agent does this step
    std::size_t hard_lines = 0;
    bool used_fallback = false;
};

class Avo final : public Method {
public:
    explicit Avo(AvoVariant variant = AvoVariant::kPaper) : variant_(variant) {}
    explicit Avo(const AvoSettings& settings) : variant_(settings.variant) {}
    std::string name() const override { return variant_ == AvoVariant::kAvo2 ? "AVO(avo2)" : "AVO"; }
    AvoVariant variant() const { return variant_; }

    Vec2 new_velocity(const SceneOf<Vec2>& scene, int slot, Workspace& ws) const override;
    void inspect(const SceneOf<Vec2>& scene, int slot, Workspace& ws, DiagnosticsOf<Vec2>& out) const override;
    std::unique_ptr<MethodScratch> make_scratch() const override;
    // kAvo2: one neighbour tree per scene, as the library builds it.
    void prepare_step(const AgentState& state, std::unique_ptr<StepData>& data) const override;
    bool models_acceleration(int) const override { return true; }
    bool may_exceed_max_speed() const override { return variant_ == AvoVariant::kAvo2; }
    // kAvo2 searches its own tree, which knows no periodic seam.
    bool sees_periodic_neighbors() const override { return variant_ != AvoVariant::kAvo2; }

    // The full computation; the half-planes (velocity space) are left in
    // the scratch (velocity space for kPaper, delta-v space for kAvo2).
    AvoDecision decide(const SceneView& scene, int slot, Workspace& ws) const;

private:
    AvoDecision decide_paper(const SceneView& scene, int slot, Workspace& ws) const;
    AvoDecision decide_avo2(const SceneView& scene, int slot, Workspace& ws) const;
    AvoVariant variant_;
};

}  // namespace vosim
