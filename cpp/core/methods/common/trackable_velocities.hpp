// The holonomic velocities a non-holonomic agent can track within its
// tracking error (nh_orca.hpp, tracking_polygon), as hard constraints of a
// linear program: NH-ORCA keeps the velocity it plans for the robot's
// centre trackable, so the robot stays within the error of its plan.
#pragma once

#include <cstddef>
#include <vector>

#include "half_spaces.hpp"
#include "state/agent_state.hpp"
#include "methods/geometry.hpp"

namespace vosim {

// Appends the edges of agent i's polygon of trackable velocities turned to
// its heading (counter-clockwise: the inside to their left) and sets
// `fastest` to its farthest vertex's speed. Returns false, appending
// nothing, when the agent cannot move (a zero limit).
bool append_trackable_polygon(const AgentState& s, std::size_t i, double time_step, std::vector<Line>& lines,
                              double& fastest);

}  // namespace vosim
