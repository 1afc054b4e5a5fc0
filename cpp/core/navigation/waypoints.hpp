// Waypoint guidance, a scene feature (features/scene_feature.hpp) that
// guides goals: an agent with a list of waypoints heads for the current one
// (its goal), moves on to the next by its track's advance rule (within the
// track's radius of it; or also once past it; or also once the waypoint
// after it is in sight), and keeps the last as its final goal. Only agents
// with waypoints cost anything: their tracks live in a side table keyed by
// agent id. Points are stored flat with the state's dimension (2 or 3
// components each), so one code path serves the plane and space.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "features/scene_feature.hpp"
#include "obstacles/sight_obstacles.hpp"
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

class Waypoints : public SceneFeature {
public:
    const char* name() const override { return kSavedName; }
    bool steers() const override { return false; }
    bool guides_goals() const override { return true; }
    void steer(AgentState&, const StepClock&) const override {}
    void update(const AgentState&, const StepClock&) override {}
    void advance_goals(AgentState& state, const SightObstacles& sight) override { advance(state, sight); }
    bool goal_ahead(const AgentState& state, std::size_t i) const override { return has_more(state, i); }
    const double* final_goal(std::int64_t id) const override;

    // Checks every track given (a refused call changes nothing: std::invalid_argument naming the argument
    // and index), then sets them: agent ids[k] follows points offsets[k] .. offsets[k+1] (state.dimensions()
    // values each), moving on within radius[k] or by rule advance[k] (WaypointAdvance; null: each agent's
    // rule so far, distance without one); an agent given no points loses its track (waypoints_set.cpp).
    void replace(AgentState& state, const std::int64_t* ids, std::size_t count, const std::int64_t* offsets,
                 const double* points, const double* radius, const std::uint8_t* advance);
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
    void forget_removed(const AgentState& state) override;
    // Adds `delta` to coordinate `axis` of every point of agent `id`'s track
    // (points of `dimensions` values; nothing without a track): a periodic
    // wrap moves the track with its agent.
    void translate(std::int64_t id, int axis, int dimensions, double delta) override;

    // Moves every agent that reached its current waypoint (by its track's
    // rule) on to the next (writing its goal). Called before a step computes
    // preferred velocities; idempotent. Tracks are independent of each
    // other, so the order they are visited in changes nothing.
    void advance(AgentState& state, const SightObstacles& sight = {});

    // Waypoints after the current one, per storage index (0 without a track).
    void remaining(const AgentState& state, std::vector<std::int32_t>& out) const;
    // Whether agent i (storage index) still has waypoints ahead of its current goal.
    bool has_more(const AgentState& state, std::size_t i) const;
    bool empty() const override { return tracks_.empty(); }

    // Every track by agent id.
    const std::unordered_map<std::int64_t, WaypointTrack>& tracks() const { return tracks_; }

    // The tracks' part of a saved state (saved_part.hpp; waypoints_saved.cpp), by ascending agent id, points
    // of the state's dimension (nothing to save when empty()); and its checked inverse for the agents of
    // `state`, whose goals already are the tracks' (std::invalid_argument naming the agent or array). States
    // saved before the part existed hold it under the legacy entries.
    static constexpr const char* kSavedName = "waypoints";
    FeatureArrays save() const override;
    void restore(const FeatureArrays& saved, const AgentState& state) override;
    std::vector<LegacyEntry> legacy_entries() const override;

private:
    template <class V>
    void advance_in(AgentState& state, const SightObstacles& sight);
    // The track's current storage index, found again if slots moved.
    bool locate(const AgentState& state, std::int64_t id, WaypointTrack& track) const;

    std::unordered_map<std::int64_t, WaypointTrack> tracks_;
    int dimensions_ = 2;  // of the state the tracks were set or restored for
};

}  // namespace vosim
