// Pre-movement times (the start_time field): a goal-seeking agent waits,
// its preferred velocity zero, until the step that begins within half a time
// step of its start time. Half a step, because the simulated time is a sum of
// steps and 100 steps of 0.1 s may fall short of 10.0 by a rounding error.
// The goals phase holds waiting agents still; the observe phase counts them
// neither as stalled nor as deadlocked.
#pragma once

#include <cstddef>

#include "state/agent_state.hpp"

namespace vosim {

// The time at the start of the step under way, and its length.
struct StepClock {
    double now;
    double time_step;
};

inline bool waiting_to_start(const AgentState& s, std::size_t i, const StepClock& clock) {
    return s.start_time[i] > 0.0 && clock.now < s.start_time[i] - 0.5 * clock.time_step;
}

}  // namespace vosim
