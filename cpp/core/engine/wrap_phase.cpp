#include "engine/wrap_phase.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "limits.hpp"
#include "state/state_check.hpp"  // format_number

namespace vosim {

void check_periodic(const Periodic& periodic) {
    if (periodic.axis == -1) return;
    if (periodic.axis != 0 && periodic.axis != 1) {
        throw std::invalid_argument("periodic axis is " + std::to_string(periodic.axis) +
                                    "; it must be 0 (x), 1 (y) or -1 (none)");
    }
    if (!within(periodic.low, kCoordinateRange)) {
        throw std::invalid_argument("periodic low is " + format_number(periodic.low) + "; it must be " +
                                    describe(kCoordinateRange));
    }
    if (!within(periodic.high, kCoordinateRange)) {
        throw std::invalid_argument("periodic high is " + format_number(periodic.high) + "; it must be " +
                                    describe(kCoordinateRange));
    }
    if (!(periodic.high - periodic.low >= kMinTime) || !std::isfinite(periodic.high - periodic.low)) {
        throw std::invalid_argument("periodic bounds (" + format_number(periodic.low) + ", " +
                                    format_number(periodic.high) + ") give a period of " +
                                    format_number(periodic.high - periodic.low) + "; it must be > 0");
    }
}

void wrap_periodic(AgentState& state, const Periodic& periodic, Waypoints& waypoints) {
    if (!periodic.on()) return;
    const int axis = periodic.axis;
    const double low = periodic.low, high = periodic.high, period = periodic.period();
    for (int b = 0; b < state.scenes(); ++b) {
        for (int slot = 0; slot < state.count(); ++slot) {
            const std::size_t i = state.index(b, slot);
            if (!state.active[i]) continue;
            double& along = state.positions[2 * i + axis];
            if (along >= low && along < high) continue;
            if (!std::isfinite(along)) continue;  // the next step's check names it
            double shift = std::floor((along - low) / period) * period;
            double wrapped = along - shift;
            // Rounding can leave the result just outside [low, high).
            if (wrapped >= high) {
                wrapped -= period;
                shift += period;
            } else if (wrapped < low) {
                wrapped += period;
                shift -= period;
            }
            along = wrapped;
            state.goals[2 * i + axis] -= shift;
            waypoints.translate(state.ids[i], axis, 2, -shift);
        }
    }
}

}  // namespace vosim
