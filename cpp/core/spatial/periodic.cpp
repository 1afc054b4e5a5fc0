#include "spatial/periodic.hpp"

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

FeatureArrays Periodic::save() const {
    FeatureArrays out;
    out.integers = {{"axis", {axis}}};
    out.reals = {{"low", {low}}, {"high", {high}}};
    return out;
}

Periodic Periodic::restored(const FeatureArrays& saved) {
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
    const Periodic out{static_cast<int>(axes[0]), lows[0], highs[0]};
    check_periodic(out);
    return out.on() ? out : Periodic{};
}

std::vector<LegacyEntry> Periodic::legacy_entries() {
    return {{"periodic_axis", "axis"}, {"periodic_low", "low"}, {"periodic_high", "high"}};
}

}  // namespace vosim
