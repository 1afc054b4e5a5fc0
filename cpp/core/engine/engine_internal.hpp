// What the engine's source files share (engine.cpp, engine_neighbors.cpp,
// engine_metrics.cpp, ...): not part of the engine's interface.
#pragma once

#include <cmath>
#include <cstdint>

#include "engine/block_runner.hpp"  // kChunkAgents (FirstError: parallel/first_error.hpp)
#include "state/agent_state.hpp"

namespace vosim::engine_detail {

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

}  // namespace vosim::engine_detail
