// Checks of the agent state at the start of a step. The views let users write
// anything into the columns, so before anything is advanced every active
// agent's values are checked; the first bad one is reported by id and field.
#pragma once

#include <string>

#include "state/agent_state.hpp"

namespace vosim {

// Throws std::invalid_argument naming the first bad agent (id, scene, slot),
// the field and its value.
void check_state(const AgentState& state);

// After the goals phase (goals, detours, perturbation, speed zones): throws
// std::invalid_argument naming the first active goal-seeking agent whose
// preferred velocity left the working range, so that no method is handed
// one (a kernel's maths holds within the range only).
void check_goal_pref_velocities(const AgentState& state);

// "agent id 7 (scene 0, slot 3)".
std::string describe_agent(const AgentState& state, int scene, int slot);

// Shortest text that reads back as the same double ("nan", "inf", "-1.5").
std::string format_number(double value);

}  // namespace vosim
