// Setting waypoint tracks: every track checked first, so that a refused
// call changes nothing.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "limits.hpp"
#include "navigation/waypoints.hpp"
#include "state/state_check.hpp"

namespace vosim {

void Waypoints::replace(AgentState& state, const std::int64_t* ids, std::size_t count, const std::int64_t* offsets,
                        const double* points, const double* radius, const std::uint8_t* advance) {
    // Check everything first: a refused call changes nothing.
    const int d = state.dimensions();
    std::vector<std::pair<int, int>> where(count);
    for (std::size_t k = 0; k < count; ++k) {
        if (!state.locate(ids[k], where[k].first, where[k].second)) {
            throw std::invalid_argument("ids[" + std::to_string(k) + "]: no agent with id " + std::to_string(ids[k]));
        }
        if (!within(radius[k], kNonNegativeRange)) {
            throw std::invalid_argument("radius[" + std::to_string(k) + "] is " + format_number(radius[k]) +
                                        "; it must be " + describe(kNonNegativeRange));
        }
        if (advance && advance[k] >= kWaypointAdvanceCount) {
            throw std::invalid_argument("advance[" + std::to_string(k) + "] is " + std::to_string(advance[k]) +
                                        "; it must be 0 (distance), 1 (passed) or 2 (visible)");
        }
        if (advance && advance[k] == static_cast<std::uint8_t>(WaypointAdvance::visible) && d != 2) {
            throw std::invalid_argument("advance[" + std::to_string(k) +
                                        "] is 'visible', which looks past obstacle polygons: plane engines only");
        }
        if (offsets[k + 1] < offsets[k]) throw std::invalid_argument("offsets must not decrease");
        for (std::int64_t p = offsets[k]; p < offsets[k + 1]; ++p) {
            const double* point = points + d * p;
            bool inside = true;
            std::string shown;
            for (int c = 0; c < d; ++c) {
                inside = inside && within(point[c], kCoordinateRange);
                shown += (c ? ", " : "") + format_number(point[c]);
            }
            if (!inside) {
                throw std::invalid_argument("waypoints[" + std::to_string(k) + "][" + std::to_string(p - offsets[k]) +
                                            "] is (" + shown + "); it must be " + describe(kCoordinateRange));
            }
        }
    }
    for (std::size_t k = 0; k < count; ++k) {
        if (offsets[k + 1] == offsets[k]) {
            clear(ids[k]);
        } else {
            // Without rules given, re-planned tracks keep the agent's rule.
            const WaypointAdvance rule = advance ? static_cast<WaypointAdvance>(advance[k]) : advance_of(ids[k]);
            set(state, ids[k], where[k].first, where[k].second,
                           std::vector<double>(points + d * offsets[k], points + d * offsets[k + 1]), radius[k], rule);
        }
    }
}

}  // namespace vosim
