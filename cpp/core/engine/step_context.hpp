// What the phases of one step share (engine.cpp): the step's clock and the
// choices made once for the whole step.
#pragma once

#include <cstdint>

#include "engine/obstacle_guard.hpp"
#include "engine/start_times.hpp"
#include "engine/ticker.hpp"
#include "method.hpp"

namespace vosim {

struct StepContext {
    Ticker* ticker = nullptr;       // polled between blocks of a long velocities phase
    std::int64_t steps_done = 0;    // of the run under way (the ticker's progress)
    StepClock clock{};              // the step's start time and length
    const Method* method = nullptr;
    bool observing = false;         // the observe phase runs (metrics or deadlock timers)
    bool exits = false;             // the exits phase runs (sinks, remove_at_goal)
    bool guarded = false;           // the integrate phase keeps agents out of obstacles (`world`)
    ObstacleWorld world;
    OverlapResolution resolution;   // the resolve phase's rounds (none: 0 iterations)
};

}  // namespace vosim
