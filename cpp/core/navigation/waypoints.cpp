#include "navigation/waypoints.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace vosim {

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
                    double radius) {
    const int d = state.dimensions();
    if (points.empty() || points.size() % static_cast<std::size_t>(d) != 0) {
        throw std::invalid_argument("waypoints: an agent needs at least one waypoint of " + std::to_string(d) +
                                    " coordinates");
    }
    WaypointTrack track{std::move(points), 0, radius, scene, slot};
    const std::size_t i = state.index(scene, slot);
    for (int c = 0; c < d; ++c) state.goals[d * i + c] = track.points[c];
    state.has_goal[i] = 1;
    tracks_[id] = std::move(track);
}

void Waypoints::clear(std::int64_t id) { tracks_.erase(id); }

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
    std::vector<double>& points = it->second.points;
    for (std::size_t k = static_cast<std::size_t>(axis); k < points.size(); k += static_cast<std::size_t>(dimensions)) {
        points[k] += delta;
    }
}

void Waypoints::advance(AgentState& state) {
    if (tracks_.empty()) return;
    if (state.dimensions() == 3) {
        advance_in<Vec3>(state);
    } else {
        advance_in<Vec2>(state);
    }
}

template <class V>
void Waypoints::advance_in(AgentState& state) {
    for (auto& [id, track] : tracks_) {
        const std::size_t count = points_in(track, kDim<V>);
        if (track.next + 1 >= count) continue;  // at the final goal
        if (!locate(state, id, track)) continue;
        const std::size_t i = state.index(track.scene, track.slot);
        if (!state.active[i]) continue;
        // Several waypoints may lie within reach at once: skip them all.
        while (track.next + 1 < count &&
               abs_sq(state.position<V>(i) - load<V>(track.points.data(), track.next)) <= sqr(track.radius)) {
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
