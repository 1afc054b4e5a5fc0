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

}  // namespace vosim
