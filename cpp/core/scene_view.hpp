// The frozen state of one scene as the engine shows it to a method during
// the velocities phase. The engine's side of the method interface (method.hpp).
#pragma once

#include <cstdint>

#include "maths/vec.hpp"
#include "spatial/neighbor_grid.hpp"
#include "spatial/periodic.hpp"
#include "state/agent_state.hpp"

namespace vosim {

class SceneFeatures;

// What a method prepares once per step from the frozen state, before the
// agents' velocities (its own subclass; see Method::prepare_step).
struct StepData {
    virtual ~StepData() = default;
};

// The frozen state of one scene during phase 3.
struct SceneView {
    const AgentState& state;
    int scene;
    double time_step;
    std::int64_t step;  // steps taken before this one (seeds per-step random draws)
    const StepData* step_data = nullptr;  // the method's, when it prepares any
    // The scene features: which goals are final (SceneFeatures::goal_ahead; LocalAgentT::at_goal).
    const SceneFeatures* features = nullptr;
    // The periodic axis (null or off: none). Methods read a neighbour's
    // position through neighbor_position, which puts it at the image the
    // engine found it at, nearest across the seam.
    const Periodic* periodic = nullptr;

    std::size_t index(int slot) const { return state.index(scene, slot); }
    template <class V = Vec2>
    V neighbor_position(const Neighbor& n) const {
        const V p = state.template position<V>(index(n.slot));
        return n.image == 0 ? p : p + periodic->template offset<V>(n.image);
    }
};

// The scene as a method sees it in an engine whose vectors are V: its type
// picks the member of that dimension (MethodIn<V>).
template <class V>
struct SceneOf : SceneView {};

}  // namespace vosim
