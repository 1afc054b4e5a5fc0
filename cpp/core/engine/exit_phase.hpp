// The step's exits phase: after the step is observed, agents leave the
// simulation through an exit of a scene feature (the sinks) or, with remove_at_goal, at their
// final goal (within arrival_radius, no waypoint left: the definition of
// arrivals.cpp). A leaving agent becomes inactive, keeps its slot and id,
// and gets exit_time (the time at the end of the step) and exit_sink (the
// exit's id; -1 at its goal). The feature decides which exit an agent took
// (SceneFeature::exit_taken: a sink while open at the step's middle). Reads
// positions, goals and what the feature kept; writes active, exit_time,
// exit_sink and the run metrics' exits. Each agent is decided alone: no
// thread count changes it.
#pragma once

#include <cstdint>

#include "engine/start_times.hpp"  // StepClock
#include "features/scene_features.hpp"
#include "metrics/metrics.hpp"
#include "state/agent_state.hpp"

namespace vosim {

// Whether the step needs the exits phase: a live exit, or an active agent
// to be removed at its goal.
bool wants_exits(const AgentState& state, const SceneFeatures& features);

// `step_count`: the steps done before this one.
template <class V>
void remove_exits(AgentState& state, const SceneFeatures& features, RunMetrics* metrics,
                  const StepClock& clock, std::int64_t step_count);

}  // namespace vosim
