// What a run takes and gives back: its options, the caller's recording
// arrays, the tick and pause callbacks, and its result.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <vector>

#include "engine/step_phases.hpp"
#include "metrics/metrics.hpp"

namespace vosim {

struct RunOptions {
    std::int64_t steps = 0;
    std::int64_t record_every = 1;
    bool until_arrived = false;
    double tick_seconds = 0.05;  // how often `tick` is called during a run
    bool metrics = true;         // gather RunMetrics
    MetricsSettings metrics_settings;
    std::int64_t pause_every = 0;  // call `pause` after every this many steps (0: never)
};

// New waypoint tracks for some agents, as Engine::set_waypoints takes them.
struct NewTracks {
    std::vector<std::int64_t> ids;
    std::vector<std::int64_t> offsets{0};  // in points
    std::vector<double> points;            // flat, the engine's dimension per point
    std::vector<double> radius;
    std::vector<std::uint8_t> advance;  // WaypointAdvance per track; empty: each agent keeps its rule
};

// Called between the steps of a run, every RunOptions::pause_every steps
// (a fixed count, so that runs stay deterministic), with the number of steps
// done; the tracks it returns replace those agents' waypoints before the
// next step. It may read the engine, not change it.
using Pause = std::function<NewTracks(std::int64_t)>;

// Caller-owned output of a run, each array sized for `max_frames` frames of
// scenes x count agents (positions and velocities: one component per
// dimension). Null pointers
// are not written.
struct Recording {
    double* positions = nullptr;
    double* velocities = nullptr;
    double* headings = nullptr;  // one value per agent
    double* times = nullptr;
    std::int64_t* steps = nullptr;
    std::int64_t max_frames = 0;
};

struct RunResult {
    std::int64_t steps_done = 0;
    std::int64_t frames = 0;
    bool all_arrived = false;
    bool stopped = false;  // `tick` asked to stop
    std::shared_ptr<RunMetrics> metrics;  // null when the run had no agents
    PhaseTimes times;                     // spent in this run
    double step_seconds = 0.0;            // wall time inside the steps (checks included)
    // What stopped the run when a step failed after the first (a bad value
    // written into the state during the run, a method's failure); the state
    // is then the one after the last completed step, and it is recorded.
    std::exception_ptr error;
};

// Called every `tick_seconds` with the number of steps done; returns false to
// stop the run. A stop requested in the middle of a step abandons that step.
using Tick = std::function<bool(std::int64_t)>;

// Frames a run of `steps` steps records: the start, every record_every-th
// step, and the last step.
std::int64_t frames_for(std::int64_t steps, std::int64_t record_every);

}  // namespace vosim
