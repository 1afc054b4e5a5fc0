// The engine's waypoint tracks: setting them (checked first, so that a
// refused call changes nothing), and what they leave to reach.
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine.hpp"
#include "state_check.hpp"

namespace vosim {

void Engine::set_waypoints(const std::int64_t* ids, std::size_t count, const std::int64_t* offsets,
                           const Vec2* points, const double* radius) {
    require_plane("waypoints");
    BusyGuard guard(busy_);
    replace_waypoints(ids, count, offsets, points, radius);
}

void Engine::replace_waypoints(const std::int64_t* ids, std::size_t count, const std::int64_t* offsets,
                               const Vec2* points, const double* radius) {
    // Check everything first: a refused call changes nothing.
    std::vector<std::pair<int, int>> where(count);
    for (std::size_t k = 0; k < count; ++k) {
        if (!state_.locate(ids[k], where[k].first, where[k].second)) {
            throw std::invalid_argument("ids[" + std::to_string(k) + "]: no agent with id " + std::to_string(ids[k]));
        }
        if (!within(radius[k], kNonNegativeRange)) {
            throw std::invalid_argument("radius[" + std::to_string(k) + "] is " + format_number(radius[k]) +
                                        "; it must be " + describe(kNonNegativeRange));
        }
        if (offsets[k + 1] < offsets[k]) throw std::invalid_argument("offsets must not decrease");
        for (std::int64_t p = offsets[k]; p < offsets[k + 1]; ++p) {
            if (!within(points[p].x, kCoordinateRange) || !within(points[p].y, kCoordinateRange)) {
                throw std::invalid_argument("waypoints[" + std::to_string(k) + "][" + std::to_string(p - offsets[k]) +
                                            "] is (" + format_number(points[p].x) + ", " + format_number(points[p].y) +
                                            "); it must be " + describe(kCoordinateRange));
            }
        }
    }
    for (std::size_t k = 0; k < count; ++k) {
        if (offsets[k + 1] == offsets[k]) {
            waypoints_.clear(ids[k]);
        } else {
            waypoints_.set(state_, ids[k], where[k].first, where[k].second,
                           std::vector<Vec2>(points + offsets[k], points + offsets[k + 1]), radius[k]);
        }
    }
}

std::vector<Vec2> Engine::final_goals() const {
    require_plane("final_goals");
    const AgentState& s = state_;
    std::vector<Vec2> out(static_cast<std::size_t>(s.scenes()) * s.count());
    for (int b = 0; b < s.scenes(); ++b) {
        for (int slot = 0; slot < s.count(); ++slot) out[b * s.count() + slot] = s.goal(s.index(b, slot));
    }
    for (const auto& [id, track] : waypoints_.tracks()) {
        int scene = 0, slot = 0;
        if (s.locate(id, scene, slot)) out[scene * s.count() + slot] = track.points.back();
    }
    return out;
}

std::vector<std::int32_t> Engine::waypoints_remaining() const {
    std::vector<std::int32_t> out;
    waypoints_.remaining(state_, out);
    return out;
}

}  // namespace vosim
