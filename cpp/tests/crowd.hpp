// A crowd of holonomic agents for the C++ tests that drive the Engine: one
// value per agent for every input (the arrays are owned here and must
// outlive add_agents), in the plane or in space.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "engine/engine.hpp"
#include "maths/vec2.hpp"
#include "maths/vec3.hpp"

namespace vosim {

struct Crowd {
    int dims = 2;
    std::vector<double> positions, goals, zero_vectors;
    std::vector<double> radius, max_speed, pref_speed, neighbor_dist, horizon, arrival, priority, one, inf, zero;
    std::vector<std::int32_t> neighbours;
    std::vector<std::uint8_t> has_goal, remove_at_goal;
    std::vector<std::int8_t> kinematics;

    Crowd(const std::vector<Vec2>& starts, const std::vector<Vec2>& targets, double reach = 5.0) {
        for (std::size_t k = 0; k < starts.size(); ++k) {
            positions.insert(positions.end(), {starts[k].x, starts[k].y});
            goals.insert(goals.end(), {targets[k].x, targets[k].y});
        }
        fill(starts.size(), reach);
    }
    Crowd(const std::vector<Vec3>& starts, const std::vector<Vec3>& targets, double reach = 5.0) : dims(3) {
        for (std::size_t k = 0; k < starts.size(); ++k) {
            positions.insert(positions.end(), {starts[k].x, starts[k].y, starts[k].z});
            goals.insert(goals.end(), {targets[k].x, targets[k].y, targets[k].z});
        }
        fill(starts.size(), reach);
    }
    AgentInput input() const {
        AgentInput in;
        in.positions = {positions.data(), 0, dims};
        in.goals = {goals.data(), 0, dims};
        in.velocities = in.pref_velocities = {zero_vectors.data(), 0, dims};
        in.radius = {radius.data(), 0, 1};
        in.max_speed = {max_speed.data(), 0, 1};
        in.pref_speed = {pref_speed.data(), 0, 1};
        in.neighbor_dist = {neighbor_dist.data(), 0, 1};
        in.time_horizon = in.time_horizon_obst = {horizon.data(), 0, 1};
        in.arrival_radius = {arrival.data(), 0, 1};
        in.priority = {priority.data(), 0, 1};
        in.acceleration_interval = in.wheel_track = in.max_wheel_speed = in.max_angular_speed =
            in.effective_center_distance = in.tracking_error = in.tracking_time = {one.data(), 0, 1};
        in.max_acceleration = {inf.data(), 0, 1};
        in.uncertainty_offset = in.headings = in.start_time = {zero.data(), 0, 1};
        in.max_neighbors = {neighbours.data(), 0, 1};
        in.has_goal = {has_goal.data(), 0, 1};
        in.remove_at_goal = {remove_at_goal.data(), 0, 1};
        in.kinematics = {kinematics.data(), 0, 1};
        return in;
    }
    int size() const { return static_cast<int>(radius.size()); }

private:
    // Radius 0.5, top speed 2, heading for the goal at 1 m/s, horizons 2 s.
    void fill(std::size_t n, double reach) {
        zero_vectors.assign(dims * n, 0.0);
        radius.assign(n, 0.5);
        max_speed.assign(n, 2.0);
        pref_speed.assign(n, 1.0);
        neighbor_dist.assign(n, reach);
        horizon.assign(n, 2.0);
        arrival.assign(n, 0.1);
        priority.assign(n, 1.0);
        one.assign(n, 1.0);
        inf.assign(n, std::numeric_limits<double>::infinity());
        zero.assign(n, 0.0);
        neighbours.assign(n, 10);
        has_goal.assign(n, 1);
        remove_at_goal.assign(n, 0);
        kinematics.assign(n, 0);
    }
};

}  // namespace vosim
