#include "features/periodic/periodic_axis.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "features/scene_features.hpp"
#include "method.hpp"

namespace vosim {

void PeriodicAxis::check_method(const Method& method, int dimensions) const {
    if (!axis_.on()) return;
    if (dimensions != 2) {
        throw std::invalid_argument("a periodic axis needs a 2D simulator; this one has dimensions=" +
                                    std::to_string(dimensions));
    }
    if (!method.sees_periodic_neighbors()) {
        throw std::invalid_argument("method " + method.name() +
                                    " searches its own neighbours and cannot see across a periodic seam");
    }
}

void PeriodicAxis::set(const Periodic& axis, const Method& method, int dimensions) {
    check_periodic(axis);
    PeriodicAxis candidate;
    candidate.axis_ = axis.on() ? axis : Periodic{};
    candidate.check_method(method, dimensions);
    axis_ = candidate.axis_;
}

void PeriodicAxis::relocate(AgentState& state, SceneFeatures& features) {
    if (!axis_.on()) return;
    const int axis = axis_.axis;
    const double low = axis_.low, high = axis_.high, period = axis_.period();
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

FeatureArrays PeriodicAxis::save() const {
    FeatureArrays out;
    out.integers = {{"axis", {axis_.axis}}};
    out.reals = {{"low", {axis_.low}}, {"high", {axis_.high}}};
    return out;
}

void PeriodicAxis::restore(const FeatureArrays& saved, const AgentState&) {
    const std::vector<std::int64_t>& axes = saved.integer("axis");
    const std::vector<double>& lows = saved.real("low");
    const std::vector<double>& highs = saved.real("high");
    if (axes.size() != 1 || lows.size() != 1 || highs.size() != 1) {
        throw std::invalid_argument("saved state: axis, low and high must hold one value each");
    }
    if (axes[0] < -1 || axes[0] > 1) {
        throw std::invalid_argument("saved state: axis is " + std::to_string(axes[0]) +
                                    "; it must be 0 (x), 1 (y) or -1 (none)");
    }
    const Periodic axis{static_cast<int>(axes[0]), lows[0], highs[0]};
    check_periodic(axis);
    axis_ = axis.on() ? axis : Periodic{};
}

std::vector<LegacyEntry> PeriodicAxis::legacy_entries() const {
    return {{"periodic_axis", "axis"}, {"periodic_low", "low"}, {"periodic_high", "high"}};
}

}  // namespace vosim
