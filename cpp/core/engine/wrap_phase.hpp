// Phase 7 of the step, wrap: with a periodic axis (spatial/periodic.hpp),
// an active agent whose centre left [low, high) along it is moved back by
// whole periods, and its goal and what scene features hold of it (waypoints) move with it by the same
// amount, so that it keeps heading the same way and walks on for ever.
// Runs after the observe and exits phases, so that path lengths, speeds and
// line sinks see the motion of the step, not the jump. Each agent is moved
// alone: no thread count changes it.
#pragma once

#include "features/scene_features.hpp"
#include "spatial/periodic.hpp"
#include "state/agent_state.hpp"

namespace vosim {

// Nothing when periodic is off. A 2D state.
void wrap_periodic(AgentState& state, const Periodic& periodic, SceneFeatures& features);

}  // namespace vosim
