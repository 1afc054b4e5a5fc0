// Ticker: calls the run's tick at most once per interval of wall time.
// BusyGuard: refuses concurrent use of one engine from several threads.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

#include "engine/run_types.hpp"

namespace vosim {

// Calls a Tick at most once per interval of wall time: between the steps of
// a run, and between blocks of agents inside a long step, so that a step of
// a huge crowd can be stopped within about one interval too.
class Ticker {
public:
    Ticker(Tick tick, double seconds);
    // Calls the tick when an interval has passed since the last call (or
    // since construction); returns false when the tick asked to stop.
    bool poll(std::int64_t steps_done);

private:
    Tick tick_;
    double seconds_;
    std::chrono::steady_clock::time_point last_;
};

// Refuses concurrent use from several threads instead of racing: holds the
// engine's busy flag for its lifetime, and throws when it is already held.
class BusyGuard {
public:
    explicit BusyGuard(std::atomic<bool>& flag);
    ~BusyGuard();
    BusyGuard(const BusyGuard&) = delete;
    BusyGuard& operator=(const BusyGuard&) = delete;

private:
    std::atomic<bool>& flag_;
};

}  // namespace vosim
