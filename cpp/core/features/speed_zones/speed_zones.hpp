// Speed zones: polygons that scale the preferred speed of the agents whose
// centre is inside them (stairs, slow floors). A scene feature: applied in the
// goals phase (steer), after the features listed before it: the preferred velocity of an active goal-seeking agent is
// multiplied by the product of the factors of every live zone of its scene
// containing its centre (overlapping zones compose: stairs on a slow floor),
// capped at kMaxSpeedZoneFactor. A preferred velocity set by hand (an agent
// without a goal) is left as set. Max speed is
// left alone: it is what the agent can physically do, and a factor above 1
// (a moving walkway) stays capped by it. Planar only; ids count up from 0
// over the engine's life and are never reused (snapshots restore them).
#pragma once

#include <vector>

#include "features/scene_feature.hpp"
#include "maths/vec2.hpp"
#include "state/agent_state.hpp"

namespace vosim {

// The factors a zone may have: above 0 (a zone never stops agents; a sink or
// an obstacle does that) and at most this.
constexpr double kMaxSpeedZoneFactor = 4.0;

struct SpeedZone {
    int scene = -1;  // -1: every scene
    std::vector<Vec2> points;
    double factor = 1.0;
    bool removed = false;
};

class SpeedZones final : public SceneFeature {
public:
    const char* name() const override { return "speed_zones"; }
    bool empty() const override { return zones_.empty(); }  // (removed zones keep their ids: saved too)
    void steer(AgentState& state, const StepClock&) const override { apply(state); }
    void update(const AgentState&, const StepClock&) override {}
    void forget_removed(const AgentState&) override {}
    FeatureArrays save() const override;
    void restore(const FeatureArrays& saved, const AgentState& state) override;
    std::vector<LegacyEntry> legacy_entries() const override;

    // Checks the scene, the points (finite, in the working range, 3 or more,
    // enclosing an area) and the factor; returns the new id.
    // std::invalid_argument naming the argument, index and value.
    int add(int scene, int scenes, const Vec2* points, int count, double factor);
    // The same in an engine's state (which must be planar).
    int add(int scene, const AgentState& state, const Vec2* points, int count, double factor);
    void remove(int id);  // std::invalid_argument for an unknown or removed id
    const std::vector<SpeedZone>& all() const { return zones_; }
    bool any_live() const;
    // The product of the factors of the live zones of `scene` containing p
    // (1 if none), at most kMaxSpeedZoneFactor.
    double factor_at(int scene, Vec2 p) const;
    // Scales the preferred velocities of the active goal-seeking agents of a 2D state
    // (nothing without a live zone, so runs without zones are unchanged).
    void apply(AgentState& state) const;

private:
    std::vector<SpeedZone> zones_;
};

}  // namespace vosim
