#include "engine/wrap_phase.hpp"

#include <cmath>

namespace vosim {

void wrap_periodic(AgentState& state, const Periodic& periodic, SceneFeatures& features) {
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
            features.translate(state.ids[i], axis, 2, -shift);
        }
    }
}

}  // namespace vosim
