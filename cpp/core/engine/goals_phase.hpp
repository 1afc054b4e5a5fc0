// Phase 1 of the step, goals: the preferred velocity of every active
// goal-seeking agent from its goal (RVO2 examples' rule: head for the goal,
// at pref_speed at most), turned while the agent takes a deadlock detour,
// plus the method's seeded perturbation. Reads goals, positions, pref_speed,
// detour_side; writes pref_velocities. Computed identically on a second
// call, so an abandoned step leaves the state as it was.
#pragma once

#include <cstdint>

#include "method.hpp"  // PreferenceNoise, DeadlockResolution
#include "state/agent_state.hpp"

namespace vosim {

template <class V>
void update_pref_velocities(AgentState& state, const PreferenceNoise& noise, const DeadlockResolution& deadlock,
                            std::int64_t step);

// The state the method sees (`presented`): `state` with its non-holonomic
// agents presented through the method (Method::present_agent); the other
// columns are shared.
void present_state(const Method& method, const AgentState& state, AgentState& presented);

}  // namespace vosim
