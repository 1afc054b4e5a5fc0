// The velocities a non-holonomic agent's effective centre can realise in
// one step (kinematics.hpp, realisable_polygon), as hard constraints of a
// linear program: ORCA-DD keeps the velocity it chooses within the drive's
// limits, so that integration never has to saturate it.
#pragma once

#include <cstddef>
#include <vector>

#include "half_spaces.hpp"
#include "state/agent_state.hpp"
#include "methods/geometry.hpp"

namespace vosim {

// Appends the edges of agent i's realisable polygon turned to its heading
// (counter-clockwise: the inside to their left) and sets `fastest` to its
// farthest vertex's speed. Returns false, appending nothing, when the
// polygon has no area (a zero limit: the agent cannot move).
bool append_realisable_polygon(const AgentState& s, std::size_t i, std::vector<Line>& lines, double& fastest);

}  // namespace vosim
