// Batch-first structure-of-arrays agent state: B scenes x N agent slots.
//
// Every per-agent field is one column laid out scene-major, [scene][slot][width],
// with `capacity()` slots reserved per scene so that appending agents does not
// reallocate every time. Slot k of scene b lives at `index(b, k)`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "column.hpp"
#include "vec2.hpp"

namespace vosim {

// Values for `n` new agents in every scene, scene-major ([scene][agent][width]),
// already broadcast to full size by the caller. Every pointer is required.
// Where AgentState::append reads one field: for agent k of scene b (and
// component d of a vector field) data[b * scene_step + k * agent_step + d].
// Steps of 0 repeat values (one value for every agent, or the same agents
// in every scene) without copying them.
template <typename T>
struct AgentSource {
    const T* data = nullptr;
    std::ptrdiff_t scene_step = 0;
    std::ptrdiff_t agent_step = 0;
    T at(int scene, int agent, int component = 0) const {
        return data[scene * scene_step + agent * agent_step + component];
    }
};

struct AgentInput {
    AgentSource<double> positions;        // 2 per agent
    AgentSource<double> velocities;       // 2
    AgentSource<double> pref_velocities;  // 2
    AgentSource<double> goals;            // 2
    AgentSource<std::uint8_t> has_goal;
    AgentSource<double> radius;
    AgentSource<double> max_speed;
    AgentSource<double> pref_speed;
    AgentSource<double> neighbor_dist;
    AgentSource<std::int32_t> max_neighbors;
    AgentSource<double> time_horizon;
    AgentSource<double> time_horizon_obst;
    AgentSource<double> arrival_radius;
    AgentSource<double> priority;
    AgentSource<double> max_acceleration;  // +inf: unlimited
    AgentSource<double> uncertainty_offset;
};

class AgentState {
public:
    // Agent slots per scene are indexed by int (and by int32 in neighbour lists).
    static constexpr int kMaxAgents = 2147483647;

    explicit AgentState(int scenes);

    int scenes() const { return scenes_; }
    int count() const { return count_; }        // slots in use per scene (N)
    int capacity() const { return capacity_; }  // slots allocated per scene
    std::size_t index(int scene, int slot) const {
        return static_cast<std::size_t>(scene) * capacity_ + slot;
    }

    // Appends `n` agents to every scene and returns their ids, scene-major.
    std::vector<std::int64_t> append(int n, const AgentInput& input);

    // Marks the agents with these ids inactive, then drops every slot that is
    // inactive in all scenes (order preserving). Throws std::invalid_argument
    // naming the first unknown or repeated id; nothing changes in that case.
    void remove(const std::int64_t* ids, std::size_t count);

    // Replaces every column by zeroed ones of `count` slots per scene and
    // sets the next id to hand out: the first half of restoring a saved
    // state, whose caller then fills the columns.
    void reset(int count, std::int64_t next_id);
    std::int64_t next_id() const { return next_id_; }

    // Finds the (scene, slot) of an id; returns false when unknown.
    bool locate(std::int64_t id, int& scene, int& slot) const;

    Vec2 position(std::size_t i) const { return {positions[2 * i], positions[2 * i + 1]}; }
    Vec2 velocity(std::size_t i) const { return {velocities[2 * i], velocities[2 * i + 1]}; }
    Vec2 pref_velocity(std::size_t i) const {
        return {pref_velocities[2 * i], pref_velocities[2 * i + 1]};
    }
    Vec2 goal(std::size_t i) const { return {goals[2 * i], goals[2 * i + 1]}; }

    // Calls f(column, width, name) for every column, so that growth,
    // compaction and saved states (engine_state.cpp) treat all of them alike:
    // a column added here is saved and restored too.
    template <class F>
    void for_each_column(F&& f) {
        f(positions, 2, "positions");
        f(velocities, 2, "velocities");
        f(pref_velocities, 2, "pref_velocities");
        f(goals, 2, "goals");
        f(new_velocities, 2, "new_velocities");
        f(radius, 1, "radius");
        f(max_speed, 1, "max_speed");
        f(pref_speed, 1, "pref_speed");
        f(neighbor_dist, 1, "neighbor_dist");
        f(max_neighbors, 1, "max_neighbors");
        f(time_horizon, 1, "time_horizon");
        f(time_horizon_obst, 1, "time_horizon_obst");
        f(arrival_radius, 1, "arrival_radius");
        f(priority, 1, "priority");
        f(max_acceleration, 1, "max_acceleration");
        f(uncertainty_offset, 1, "uncertainty_offset");
        f(ids, 1, "ids");
        f(active, 1, "active");
        f(has_goal, 1, "has_goal");
        f(deadlock_timer, 1, "deadlock_timer");
        f(detour_side, 1, "detour_side");
    }

    // The columns (public: the engine and the bindings work on them directly).
    Column<double> positions, velocities, pref_velocities, goals;
    Column<double> new_velocities;  // phase-3 output, copied into velocities by integration
    Column<double> radius, max_speed, pref_speed, neighbor_dist;
    Column<std::int32_t> max_neighbors;
    Column<double> time_horizon, time_horizon_obst, arrival_radius;
    // ORCA shares avoidance between a pair in proportion to the other's priority.
    Column<double> priority;
    // Largest change of velocity per second (every method; +inf: unlimited).
    Column<double> max_acceleration;
    // Velocity-obstacle methods widen every cone by this (the HRVO library's option).
    Column<double> uncertainty_offset;
    Column<std::int64_t> ids;
    Column<std::uint8_t> active, has_goal;
    // Deadlock resolution (DeadlockResolution in method.hpp), updated at
    // integration: seconds stalled so far while detour_side is 0, else the
    // seconds the detour has left; detour_side +1 turns right, -1 left.
    Column<double> deadlock_timer;
    Column<std::int8_t> detour_side;

private:
    void reallocate(int new_capacity);

    int scenes_;
    int count_ = 0;
    int capacity_ = 0;
    std::int64_t next_id_ = 0;
};

}  // namespace vosim
