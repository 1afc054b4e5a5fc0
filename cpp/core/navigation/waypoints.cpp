#include "navigation/waypoints.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace vosim {

const char* advance_name(WaypointAdvance rule) {
    switch (rule) {
        case WaypointAdvance::passed:
            return "passed";
        case WaypointAdvance::visible:
            return "visible";
        case WaypointAdvance::distance:
            break;
    }
    return "distance";
}

bool Waypoints::locate(const AgentState& state, std::int64_t id, WaypointTrack& track) const {
    if (track.scene < state.scenes() && track.slot < state.count() &&
        state.ids[state.index(track.scene, track.slot)] == id) {
        return true;
    }
    return state.locate(id, track.scene, track.slot);
}

namespace {

// Points in a track of this dimension.
std::size_t points_in(const WaypointTrack& track, int dimensions) {
    return track.points.size() / static_cast<std::size_t>(dimensions);
}

}  // namespace

void Waypoints::set(AgentState& state, std::int64_t id, int scene, int slot, std::vector<double> points,
                    double radius, WaypointAdvance advance) {
    const int d = state.dimensions();
    if (points.empty() || points.size() % static_cast<std::size_t>(d) != 0) {
        throw std::invalid_argument("waypoints: an agent needs at least one waypoint of " + std::to_string(d) +
                                    " coordinates");
    }
    if (advance == WaypointAdvance::visible && d != 2) {
        throw std::invalid_argument("waypoints: advance 'visible' looks past obstacle polygons, which only the "
                                    "plane has; use 'passed' or 'distance' in 3D");
    }
    const std::size_t i = state.index(scene, slot);
    const double* at = state.positions.data() + static_cast<std::size_t>(d) * i;
    WaypointTrack track{std::move(points), 0, radius, scene, slot, advance, std::vector<double>(at, at + d)};
    for (int c = 0; c < d; ++c) state.goals[d * i + c] = track.points[c];
    state.has_goal[i] = 1;
    tracks_[id] = std::move(track);
    dimensions_ = d;
}

void Waypoints::clear(std::int64_t id) { tracks_.erase(id); }

const double* Waypoints::final_goal(std::int64_t id) const {
    const auto it = tracks_.find(id);
    return it == tracks_.end() ? nullptr : it->second.points.data() + it->second.points.size() - dimensions_;
}

WaypointAdvance Waypoints::advance_of(std::int64_t id) const {
    const auto it = tracks_.find(id);
    return it == tracks_.end() ? WaypointAdvance::distance : it->second.advance;
}

void Waypoints::forget_removed(const AgentState& state) {
    for (auto it = tracks_.begin(); it != tracks_.end();) {
        if (!locate(state, it->first, it->second)) {
            it = tracks_.erase(it);
        } else {
            ++it;
        }
    }
}

void Waypoints::translate(std::int64_t id, int axis, int dimensions, double delta) {
    const auto it = tracks_.find(id);
    if (it == tracks_.end()) return;
    for (std::vector<double>* column : {&it->second.points, &it->second.origin}) {
        for (std::size_t k = static_cast<std::size_t>(axis); k < column->size();
             k += static_cast<std::size_t>(dimensions)) {
            (*column)[k] += delta;
        }
    }
}

void Waypoints::advance(AgentState& state, const SightObstacles& sight) {
    if (tracks_.empty()) return;
    if (state.dimensions() == 3) {
        advance_in<Vec3>(state, sight);
    } else {
        advance_in<Vec2>(state, sight);
    }
}

namespace {

// Whether the agent at p has passed waypoint `k` of the track: beyond the
// line through it at right angles to the leg that leads to it. A repeated
// waypoint's leg is the last one of positive length before it; with none
// (every point before it and the start on it) there is no line (strictly
// beyond, so nothing passes it).
template <class V>
bool passed(const WaypointTrack& track, std::size_t k, V p) {
    const V w = load<V>(track.points.data(), k);
    V from = load<V>(track.origin.data(), 0);
    for (std::size_t j = k; j-- > 0;) {
        const V before = load<V>(track.points.data(), j);
        if (abs_sq(before - w) > 0.0) {
            from = before;
            break;
        }
    }
    return dot(p - w, w - from) > 0.0;
}

// Whether the agent at p (radius r, scene b) moves on from waypoint k.
template <class V>
bool moves_on(const WaypointTrack& track, std::size_t k, V p, double r, int b, const SightObstacles& sight) {
    if (abs_sq(p - load<V>(track.points.data(), k)) <= sqr(track.radius)) return true;
    if (track.advance == WaypointAdvance::distance) return false;
    if (passed(track, k, p)) return true;
    if constexpr (kDim<V> == 2) {
        if (track.advance == WaypointAdvance::visible) {
            return sight.clear(b, p, load<V>(track.points.data(), k + 1), r);
        }
    }
    return false;
}

}  // namespace

template <class V>
void Waypoints::advance_in(AgentState& state, const SightObstacles& sight) {
    for (auto& [id, track] : tracks_) {
        const std::size_t count = points_in(track, kDim<V>);
        if (track.next + 1 >= count) continue;  // at the final goal
        if (!locate(state, id, track)) continue;
        const std::size_t i = state.index(track.scene, track.slot);
        if (!state.active[i]) continue;
        // Several waypoints may be reached at once: skip them all.
        const V p = state.position<V>(i);
        while (track.next + 1 < count && moves_on<V>(track, track.next, p, state.radius[i], track.scene, sight)) {
            ++track.next;
        }
        store<V>(state.goals.data(), i, load<V>(track.points.data(), track.next));
    }
}

void Waypoints::remaining(const AgentState& state, std::vector<std::int32_t>& out) const {
    out.assign(static_cast<std::size_t>(state.scenes()) * state.count(), 0);
    for (const auto& [id, track] : tracks_) {
        WaypointTrack copy = track;
        if (!locate(state, id, copy)) continue;
        out[static_cast<std::size_t>(copy.scene) * state.count() + copy.slot] =
            static_cast<std::int32_t>(points_in(track, state.dimensions()) - 1 - track.next);
    }
}

bool Waypoints::has_more(const AgentState& state, std::size_t i) const {
    if (tracks_.empty()) return false;
    const auto it = tracks_.find(state.ids[i]);
    return it != tracks_.end() && it->second.next + 1 < points_in(it->second, state.dimensions());
}

}  // namespace vosim
