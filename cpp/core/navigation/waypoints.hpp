// Waypoint guidance: an agent with a list of waypoints heads for the current
// one (its goal), moves on to the next when within the track's radius of it,
// and keeps the last as its final goal. Only agents with waypoints cost
// anything: their tracks live in a side table keyed by agent id. Points are
// stored flat with the state's dimension (2 or 3 components each), so one
// code path serves the plane and space.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "state/agent_state.hpp"

namespace vosim {

struct WaypointTrack {
    // Flat, the state's dimension per point; at least one; the last is the final goal.
    std::vector<double> points;
    std::size_t next = 0;  // the waypoint the agent heads for
    double radius = 0.0;   // moving on within this distance of a waypoint
    int scene = 0;         // where the agent was last found
    int slot = 0;
};

class Waypoints {
public:
    // Gives the agent `id` (at scene/slot) a track and sets its goal to the
    // first point; `points` holds state.dimensions() values per point.
    // Replaces any earlier track.
    void set(AgentState& state, std::int64_t id, int scene, int slot, std::vector<double> points, double radius);
    void clear(std::int64_t id);
    // Drops the tracks of agents that no longer exist.
    void forget_removed(const AgentState& state);
    // Adds `delta` to coordinate `axis` of every point of agent `id`'s track
    // (points of `dimensions` values; nothing without a track): a periodic
    // wrap moves the track with its agent.
    void translate(std::int64_t id, int axis, int dimensions, double delta);

    // Moves every agent that reached its current waypoint on to the next
    // (writing its goal). Called before a step computes preferred velocities.
    void advance(AgentState& state);

    // Waypoints after the current one, per storage index (0 without a track).
    void remaining(const AgentState& state, std::vector<std::int32_t>& out) const;
    // Whether agent i (storage index) still has waypoints ahead of its current goal.
    bool has_more(const AgentState& state, std::size_t i) const;
    bool empty() const { return tracks_.empty(); }

    // Every track by agent id (for saved states).
    const std::unordered_map<std::int64_t, WaypointTrack>& tracks() const { return tracks_; }
    // Puts back a saved track as it was (its goal is already in the state).
    void restore(std::int64_t id, WaypointTrack track) { tracks_[id] = std::move(track); }

private:
    template <class V>
    void advance_in(AgentState& state);
    // The track's current storage index, found again if slots moved.
    bool locate(const AgentState& state, std::int64_t id, WaypointTrack& track) const;

    std::unordered_map<std::int64_t, WaypointTrack> tracks_;
};

}  // namespace vosim
