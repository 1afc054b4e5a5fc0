#include "waypoints.hpp"

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

void Waypoints::set(AgentState& state, std::int64_t id, int scene, int slot, std::vector<Vec2> points,
                    double radius) {
    if (points.empty()) throw std::invalid_argument("waypoints: an agent needs at least one waypoint");
    WaypointTrack track{std::move(points), 0, radius, scene, slot};
    const std::size_t i = state.index(scene, slot);
    state.goals[2 * i] = track.points[0].x;
    state.goals[2 * i + 1] = track.points[0].y;
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

void Waypoints::advance(AgentState& state) {
    for (auto& [id, track] : tracks_) {
        if (track.next + 1 >= track.points.size()) continue;  // at the final goal
        if (!locate(state, id, track)) continue;
        const std::size_t i = state.index(track.scene, track.slot);
        if (!state.active[i]) continue;
        // Several waypoints may lie within reach at once: skip them all.
        while (track.next + 1 < track.points.size() &&
               abs_sq(state.position(i) - track.points[track.next]) <= sqr(track.radius)) {
            ++track.next;
        }
        state.goals[2 * i] = track.points[track.next].x;
        state.goals[2 * i + 1] = track.points[track.next].y;
    }
}

void Waypoints::remaining(const AgentState& state, std::vector<std::int32_t>& out) const {
    out.assign(static_cast<std::size_t>(state.scenes()) * state.count(), 0);
    for (const auto& [id, track] : tracks_) {
        WaypointTrack copy = track;
        if (!locate(state, id, copy)) continue;
        out[static_cast<std::size_t>(copy.scene) * state.count() + copy.slot] =
            static_cast<std::int32_t>(track.points.size() - 1 - track.next);
    }
}

bool Waypoints::has_more(const AgentState& state, std::size_t i) const {
    if (tracks_.empty()) return false;
    const auto it = tracks_.find(state.ids[i]);
    return it != tracks_.end() && it->second.next + 1 < it->second.points.size();
}

}  // namespace vosim
