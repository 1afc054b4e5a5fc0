// The step's phases, in the order Engine::advance_in runs them: the one list
// that the step's loop, its profile (a time per phase in every run's
// metrics), the binding (vosim._core.STEP_PHASES) and ARCHITECTURE.md's
// table of the step follow (tests/engine/test_step_phases.py holds that table to it).
#pragma once

#include <array>
#include <cstddef>

namespace vosim {

#define VOSIM_STEP_PHASES(X)                                                                                  \
    X(goals, "obstacles built, waypoints moved on, preferred velocities (speed zones, their check), the "    \
             "state presented to the method for non-holonomic agents")                                      \
    X(index, "one neighbour grid per scene over the frozen positions")                                       \
    X(velocities, "every agent's new velocity from the method, in parallel (its neighbour queries included)") \
    X(integrate, "velocities, positions and headings; the obstacle guard")                                   \
    X(resolve, "overlapping agents pushed apart, for a method that asks (plane only)")                       \
    X(observe, "run metrics and deadlock timers, after the resolve phase's pushes")                          \
    X(exits, "agents in a sink, or at their final goal with remove_at_goal, leave")                          \
    X(features, "each scene feature's own update after the agents moved and left (features/)")              \
    X(wrap, "along a periodic axis, agents (with their goals) back into the period")                        \
    X(obstacle_motion, "moving obstacles move, after the velocities were chosen against their place; the "  \
                       "clock advances")

enum class StepPhase : int {
#define VOSIM_PHASE_ENUM(name, doc) name,
    VOSIM_STEP_PHASES(VOSIM_PHASE_ENUM)
#undef VOSIM_PHASE_ENUM
};

struct StepPhaseInfo {
    StepPhase phase;
    const char* name;
    const char* doc;
};

inline constexpr StepPhaseInfo kStepPhases[] = {
#define VOSIM_PHASE_INFO(name, doc) {StepPhase::name, #name, doc},
    VOSIM_STEP_PHASES(VOSIM_PHASE_INFO)
#undef VOSIM_PHASE_INFO
};
inline constexpr std::size_t kStepPhaseCount = sizeof(kStepPhases) / sizeof(kStepPhases[0]);

// Seconds spent in each phase of the steps so far (on the calling thread's
// clock: a parallel phase's wall time), and, within the velocities phase,
// the neighbour queries and the method calls (summed over the threads, then
// divided by the threads the phase ran on).
struct PhaseTimes {
    std::array<double, kStepPhaseCount> seconds{};
    double neighbor_queries = 0.0;  // agents and obstacle edges
    double method = 0.0;

    double& operator[](StepPhase phase) { return seconds[static_cast<std::size_t>(phase)]; }
    double operator[](StepPhase phase) const { return seconds[static_cast<std::size_t>(phase)]; }
    // The run metrics' first three timings, as before the phases were timed
    // one by one: the index and the queries; the method; everything after.
    double neighbors() const { return (*this)[StepPhase::index] + neighbor_queries; }
    double integration() const {
        double sum = 0.0;
        for (std::size_t k = static_cast<std::size_t>(StepPhase::integrate); k < kStepPhaseCount; ++k) {
            sum += seconds[k];
        }
        return sum;
    }
    PhaseTimes operator-(const PhaseTimes& before) const {
        PhaseTimes out;
        for (std::size_t k = 0; k < kStepPhaseCount; ++k) out.seconds[k] = seconds[k] - before.seconds[k];
        out.neighbor_queries = neighbor_queries - before.neighbor_queries;
        out.method = method - before.method;
        return out;
    }
};

}  // namespace vosim
