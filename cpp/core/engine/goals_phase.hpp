// Phase 1 of the step, goals: the preferred velocity of every active
// goal-seeking agent from its goal (RVO2 examples' rule: head for the goal,
// at pref_speed at most), turned while the agent takes a deadlock detour,
// plus the seeded perturbation (goal_settings.hpp); zero while the agent waits for its
// start time. Reads goals, positions, pref_speed, start_time, detour_side;
// writes pref_velocities. Computed identically on a second
// call, so an abandoned step leaves the state as it was.
#pragma once

#include <cstdint>

#include "engine/start_times.hpp"
#include "goal_settings.hpp"
#include "method.hpp"
#include "state/agent_state.hpp"

namespace vosim {

template <class V>
void update_pref_velocities(AgentState& state, const PreferenceNoise& noise, const DeadlockResolution& deadlock,
                            std::int64_t step, const StepClock& clock);

// The state the method sees (`presented`): `state` with its non-holonomic
// agents presented through the method (Method::present_agent); the other
// columns are shared.
void present_state(const Method& method, const AgentState& state, AgentState& presented);

}  // namespace vosim
