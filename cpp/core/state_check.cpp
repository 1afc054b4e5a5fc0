#include "state_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "threads.hpp"

namespace vosim {

std::string format_number(double value) {
    char buffer[32];
    for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
        if (std::isnan(value) || std::strtod(buffer, nullptr) == value) break;
    }
    return buffer;
}

std::string describe_agent(const AgentState& state, int scene, int slot) {
    return "agent id " + std::to_string(state.ids[state.index(scene, slot)]) + " (scene " +
           std::to_string(scene) + ", slot " + std::to_string(slot) + ")";
}

namespace {

// Returns the name of the first bad field of agent i and writes its value
// and the rule it breaks, or returns nullptr when all is well.
const char* first_bad_field(const AgentState& s, std::size_t i, double& value, const char*& rule) {
    static const char* const finite = "must be finite";
    for (int d = 0; d < 2; ++d) {
        rule = finite;
        value = s.positions[2 * i + d];
        if (!std::isfinite(value)) return "position";
        value = s.velocities[2 * i + d];
        if (!std::isfinite(value)) return "velocity";
        if (s.has_goal[i]) {
            value = s.goals[2 * i + d];
            if (!std::isfinite(value)) return "goal";
        } else {
            value = s.pref_velocities[2 * i + d];
            if (!std::isfinite(value)) return "pref_velocity";
        }
    }
    rule = "must be finite and >= 0";
    value = s.radius[i];
    if (!(std::isfinite(value) && value >= 0.0)) return "radius";
    value = s.max_speed[i];
    if (!(std::isfinite(value) && value >= 0.0)) return "max_speed";
    value = s.neighbor_dist[i];
    if (!(std::isfinite(value) && value >= 0.0)) return "neighbor_dist";
    value = s.max_neighbors[i];
    if (!(value >= 0.0)) return "max_neighbors";
    if (s.has_goal[i]) {
        value = s.pref_speed[i];
        if (!(std::isfinite(value) && value >= 0.0)) return "pref_speed";
        value = s.arrival_radius[i];
        if (!(std::isfinite(value) && value >= 0.0)) return "arrival_radius";
    }
    value = s.priority[i];
    if (!(std::isfinite(value) && value >= 0.0)) return "priority";
    value = s.uncertainty_offset[i];
    if (!(std::isfinite(value) && value >= 0.0)) return "uncertainty_offset";
    rule = "must be >= 0 (+inf: unlimited)";
    value = s.max_acceleration[i];
    if (!(value >= 0.0)) return "max_acceleration";
    rule = "must be finite and > 0";
    value = s.time_horizon[i];
    if (!(std::isfinite(value) && value > 0.0)) return "time_horizon";
    value = s.time_horizon_obst[i];
    if (!(std::isfinite(value) && value > 0.0)) return "time_horizon_obst";
    return nullptr;
}

}  // namespace

void check_state(const AgentState& s) {
    const std::int64_t total = static_cast<std::int64_t>(s.scenes()) * s.capacity();
    std::int64_t first_bad = total;
    // A parallel pass finds whether anything is wrong (cheap, O(N)); the
    // message is then built for the first bad agent in storage order.
#pragma omp parallel for schedule(static) num_threads(max_threads()) reduction(min : first_bad)
    for (std::int64_t i = 0; i < total; ++i) {
        if (i % s.capacity() >= s.count() || !s.active[i]) continue;
        double value;
        const char* rule;
        if (first_bad_field(s, static_cast<std::size_t>(i), value, rule)) {
            first_bad = std::min(first_bad, i);
        }
    }
    if (first_bad == total) return;
    double value = 0.0;
    const char* rule = "";
    const char* field = first_bad_field(s, static_cast<std::size_t>(first_bad), value, rule);
    const int scene = static_cast<int>(first_bad / s.capacity());
    const int slot = static_cast<int>(first_bad % s.capacity());
    throw std::invalid_argument(describe_agent(s, scene, slot) + ": " + field + " is " +
                                format_number(value) + "; it " + rule +
                                ". Nothing was advanced.");
}

}  // namespace vosim
