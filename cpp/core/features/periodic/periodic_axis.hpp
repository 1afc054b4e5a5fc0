// A periodic corridor, a scene feature: along one axis positions wrap into
// [low, high) after each step (every scene, planar only), and the neighbour
// search looks across the seam (SceneFeatures::seam; the geometry:
// spatial/periodic.hpp). A moved agent's goal moves with it, and so does what
// the other features hold of it (SceneFeatures::translate).
#pragma once

#include <vector>

#include "features/scene_feature.hpp"
#include "spatial/periodic.hpp"

namespace vosim {

class PeriodicAxis : public SceneFeature {
public:
    static constexpr const char* kSavedName = "periodic";
    const char* name() const override { return kSavedName; }
    bool empty() const override { return !axis_.on(); }
    bool steers() const override { return false; }
    void steer(AgentState&, const StepClock&) const override {}
    void update(const AgentState&, const StepClock&) override {}
    void forget_removed(const AgentState&) override {}

    // Checks `axis` (check_periodic, then check_method) and sets it; axis -1 turns it off. A refused call
    // changes nothing.
    void set(const Periodic& axis, const Method& method, int dimensions);
    const Periodic& axis() const { return axis_; }
    const Periodic* seam() const override { return &axis_; }
    // Refuses 3D and a method that searches its own neighbours (it would not see across the seam).
    void check_method(const Method& method, int dimensions) const override;
    // The wrap phase: an active agent whose centre left [low, high) moves back by whole periods, its goal
    // with it. Each agent is moved alone: no thread count changes it.
    void relocate(AgentState& state, SceneFeatures& features) override;

    // Its part of a saved state: "axis", "low" and "high", one value each; older states hold them as
    // periodic_axis, periodic_low and periodic_high.
    FeatureArrays save() const override;
    void restore(const FeatureArrays& saved, const AgentState& state) override;
    std::vector<LegacyEntry> legacy_entries() const override;

private:
    Periodic axis_;
};

}  // namespace vosim
