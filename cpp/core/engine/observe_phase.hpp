// Phase 5 of the step, observe: what the step did, after integration. The
// run metrics' motion figures (path, speed, smoothness, arrivals, turn
// rates) during a run that gathers them, and the deadlock timers and
// detours of the method's deadlock rule. Reads the motion before (from the
// integrate phase) and after; writes the metrics and deadlock_timer,
// detour_side.
#pragma once

#include <cstdint>

#include "engine/integrate_phase.hpp"  // MotionBefore
#include "engine/start_times.hpp"
#include "method.hpp"
#include "metrics/metrics.hpp"
#include "features/scene_features.hpp"
#include "goal_settings.hpp"
#include "state/agent_state.hpp"

namespace vosim {

// Whether the step has anything to observe (else the integrate phase need
// not keep the motion before).
inline bool wants_observation(const GoalSettings& settings, const RunMetrics* metrics) {
    return metrics || settings.deadlock.rule != DeadlockRule::kNone;
}

// `clock`: the step's start and length; `step_count`: the steps done before
// this one; `held`: agents held on purpose by a scene feature (by storage
// index; null: none), like those waiting for their start time neither
// stalled nor deadlocked.
template <class V>
void observe_motion(AgentState& state, const MotionBefore& before, const GoalSettings& settings, const SceneFeatures& features,
                    RunMetrics* metrics, const StepClock& clock, std::int64_t step_count,
                    const std::uint8_t* held = nullptr);

}  // namespace vosim
