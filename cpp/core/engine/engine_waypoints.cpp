// The engine's waypoint tracks: setting them (checked first, so that a
// refused call changes nothing), and what they leave to reach.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/engine.hpp"
#include "state/state_check.hpp"

namespace vosim {

void Engine::set_waypoints(const std::int64_t* ids, std::size_t count, const std::int64_t* offsets,
                           const double* points, const double* radius, const std::uint8_t* advance) {
    BusyGuard guard(busy_);
    replace_waypoints(ids, count, offsets, points, radius, advance);
}

void Engine::replace_waypoints(const std::int64_t* ids, std::size_t count, const std::int64_t* offsets,
                               const double* points, const double* radius, const std::uint8_t* advance) {
    // Check everything first: a refused call changes nothing.
    const int d = state_.dimensions();
    std::vector<std::pair<int, int>> where(count);
    for (std::size_t k = 0; k < count; ++k) {
        if (!state_.locate(ids[k], where[k].first, where[k].second)) {
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
            waypoints_.clear(ids[k]);
        } else {
            // Without rules given, re-planned tracks keep the agent's rule.
            const WaypointAdvance rule = advance ? static_cast<WaypointAdvance>(advance[k]) : waypoints_.advance_of(ids[k]);
            waypoints_.set(state_, ids[k], where[k].first, where[k].second,
                           std::vector<double>(points + d * offsets[k], points + d * offsets[k + 1]), radius[k], rule);
        }
    }
}

std::vector<double> Engine::final_goals() const {
    const AgentState& s = state_;
    const std::size_t d = static_cast<std::size_t>(s.dimensions());
    std::vector<double> out(static_cast<std::size_t>(s.scenes()) * s.count() * d);
    for (int b = 0; b < s.scenes(); ++b) {
        for (int slot = 0; slot < s.count(); ++slot) {
            const double* goal = s.goals.data() + d * s.index(b, slot);
            std::copy(goal, goal + d, out.begin() + d * (static_cast<std::size_t>(b) * s.count() + slot));
        }
    }
    for (const auto& [id, track] : waypoints_.tracks()) {
        int scene = 0, slot = 0;
        if (s.locate(id, scene, slot)) {
            std::copy(track.points.end() - d, track.points.end(),
                      out.begin() + d * (static_cast<std::size_t>(scene) * s.count() + slot));
        }
    }
    return out;
}

std::vector<std::int32_t> Engine::waypoints_remaining() const {
    std::vector<std::int32_t> out;
    waypoints_.remaining(state_, out);
    return out;
}

}  // namespace vosim
