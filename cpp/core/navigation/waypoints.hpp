// Waypoint guidance: an agent with a list of waypoints heads for the current
// one (its goal), moves on to the next by its track's advance rule (within
// the track's radius of it; or also once past it; or also once the waypoint
// after it is in sight), and keeps the last as its final goal. Only agents with waypoints cost
// anything: their tracks live in a side table keyed by agent id. Points are
// stored flat with the state's dimension (2 or 3 components each), so one
// code path serves the plane and space.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "obstacles/obstacles.hpp"
#include "saved_part.hpp"
#include "state/agent_state.hpp"

namespace vosim {

// When an agent moves on from its current waypoint w (every rule also
// within the track's radius of w):
//   distance  only within the radius;
//   passed    once past the line through w at right angles to the leg that
//             leads to w (from the previous waypoint; for the first, from
//             where the agent stood when the track was set); a repeated
//             waypoint takes the last leg of positive length before it;
//   visible   once past, or once the segment from the agent to the waypoint
//             after w keeps more than the agent's radius from every
//             obstacle edge (plane only).
enum class WaypointAdvance : std::uint8_t { distance = 0, passed = 1, visible = 2 };
constexpr int kWaypointAdvanceCount = 3;
const char* advance_name(WaypointAdvance rule);

struct WaypointTrack {
    // Flat, the state's dimension per point; at least one; the last is the final goal.
    std::vector<double> points;
    std::size_t next = 0;  // the waypoint the agent heads for
    double radius = 0.0;   // moving on within this distance of a waypoint
    int scene = 0;         // where the agent was last found
    int slot = 0;
    WaypointAdvance advance = WaypointAdvance::distance;
    std::vector<double> origin;  // where the agent stood when the track was set (the first leg's start)
};

// The obstacles the visible rule looks past: the shared set and each
// scene's own (null or missing: none), built.
struct SightObstacles {
    const ObstacleSet* shared = nullptr;
    const std::vector<std::unique_ptr<ObstacleSet>>* own = nullptr;
    // Whether a-b keeps more than `clearance` from every edge of `scene`'s obstacles.
    bool clear(int scene, Vec2 a, Vec2 b, double clearance) const;
};

class Waypoints {
public:
    // Gives the agent `id` (at scene/slot) a track and sets its goal to the
    // first point; `points` holds state.dimensions() values per point.
    // Replaces any earlier track.
    // `advance` other than distance needs at least one point; visible needs a plane state.
    void set(AgentState& state, std::int64_t id, int scene, int slot, std::vector<double> points, double radius,
             WaypointAdvance advance = WaypointAdvance::distance);
    // The rule of agent id's track (distance without one).
    WaypointAdvance advance_of(std::int64_t id) const;
    void clear(std::int64_t id);
    // Drops the tracks of agents that no longer exist.
    void forget_removed(const AgentState& state);
    // Adds `delta` to coordinate `axis` of every point of agent `id`'s track
    // (points of `dimensions` values; nothing without a track): a periodic
    // wrap moves the track with its agent.
    void translate(std::int64_t id, int axis, int dimensions, double delta);

    // Moves every agent that reached its current waypoint (by its track's
    // rule) on to the next (writing its goal). Called before a step computes
    // preferred velocities; idempotent. Tracks are independent of each
    // other, so the order they are visited in changes nothing.
    void advance(AgentState& state, const SightObstacles& sight = {});

    // Waypoints after the current one, per storage index (0 without a track).
    void remaining(const AgentState& state, std::vector<std::int32_t>& out) const;
    // Whether agent i (storage index) still has waypoints ahead of its current goal.
    bool has_more(const AgentState& state, std::size_t i) const;
    bool empty() const { return tracks_.empty(); }

    // Every track by agent id.
    const std::unordered_map<std::int64_t, WaypointTrack>& tracks() const { return tracks_; }

    // The tracks' part of a saved state (saved_part.hpp; waypoints_saved.cpp), by ascending agent id, points
    // of `dimensions` values (nothing to save when empty()); and its checked inverse for the agents of
    // `state`, whose goals already are the tracks' (std::invalid_argument naming the agent or array). States
    // saved before the part existed hold it under the legacy entries.
    static constexpr const char* kSavedName = "waypoints";
    FeatureArrays save(int dimensions) const;
    static Waypoints restored(const FeatureArrays& saved, const AgentState& state);
    static std::vector<LegacyEntry> legacy_entries();

private:
    template <class V>
    void advance_in(AgentState& state, const SightObstacles& sight);
    // The track's current storage index, found again if slots moved.
    bool locate(const AgentState& state, std::int64_t id, WaypointTrack& track) const;

    std::unordered_map<std::int64_t, WaypointTrack> tracks_;
};

}  // namespace vosim
