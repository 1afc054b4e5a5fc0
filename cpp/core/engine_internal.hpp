// What the engine's source files share (engine.cpp, engine_neighbors.cpp,
// engine_metrics.cpp, ...): not part of the engine's interface.
#pragma once

#include <cmath>
#include <cstdint>
#include <exception>
#include <mutex>
#include <utility>

#include "agent_state.hpp"

namespace vosim::engine_detail {

// Agents of one chunk: their neighbours are found in one pass, then the
// method runs over them in a second, so each pass can be timed cheaply.
constexpr std::int64_t kChunkAgents = 64;

inline double largest_active_radius(const AgentState& s) {
    double largest = 0.0;
    for (int b = 0; b < s.scenes(); ++b) {
        for (int slot = 0; slot < s.count(); ++slot) {
            const std::size_t i = s.index(b, slot);
            if (s.active[i]) largest = std::fmax(largest, s.radius[i]);
        }
    }
    return largest;
}

// The first exception thrown inside a parallel loop (exceptions must not
// leave an OpenMP region), by loop index so that the same one is reported
// whatever the thread count.
class FirstError {
public:
    void keep(std::int64_t index, std::exception_ptr error) {
        // (A mutex, not an OpenMP critical section: the engine's loops run
        // on its own pool, parallel.hpp.)
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_ || index < index_) {
            index_ = index;
            error_ = std::move(error);
        }
    }
    void rethrow() const {
        if (error_) std::rethrow_exception(error_);
    }

private:
    std::int64_t index_ = 0;
    std::exception_ptr error_;
    std::mutex mutex_;
};

}  // namespace vosim::engine_detail
