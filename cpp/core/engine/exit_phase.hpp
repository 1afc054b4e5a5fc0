// Phase 6 of the step, exits: after the step is observed, agents leave the
// simulation through a sink (sinks.hpp) or, with remove_at_goal, at their
// final goal (within arrival_radius, no waypoint left: the definition of
// arrivals.cpp). A leaving agent becomes inactive, keeps its slot and id,
// and gets exit_time (the time at the end of the step) and exit_sink (the
// sink's id; -1 at its goal). A sink takes agents only while open at the
// end of the step (Sink::open_at). Reads positions, the positions before the
// step (line sinks), goals; writes active, exit_time, exit_sink and the run
// metrics' exits. Each agent is decided alone: no thread count changes it.
#pragma once

#include <cstdint>

#include "engine/sinks.hpp"
#include "engine/start_times.hpp"  // StepClock
#include "metrics/metrics.hpp"
#include "navigation/waypoints.hpp"
#include "state/agent_state.hpp"

namespace vosim {

// Whether the step needs the exits phase: a live sink, or an active agent
// to be removed at its goal.
bool wants_exits(const AgentState& state, const Sinks& sinks);

// `step_count`: the steps done before this one.
template <class V>
void remove_exits(AgentState& state, const Sinks& sinks, const Waypoints& waypoints, RunMetrics* metrics,
                  const StepClock& clock, std::int64_t step_count);

}  // namespace vosim
