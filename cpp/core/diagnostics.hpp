// What a method saw and decided for one agent, for drawing its velocity
// space. Filled on request (Engine::inspect), never during normal steps.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "half_spaces.hpp"                // Line, Plane
#include "obstacles/obstacles3d.hpp"  // ObstacleContact3
#include "vec2.hpp"
#include "vec3.hpp"

namespace vosim {

// A velocity obstacle as drawn: apex, boundary rays, and what it stands for.
struct DiagnosticCone {
    Vec2 apex;
    Vec2 left_leg;
    Vec2 right_leg;
    std::string kind;      // "agent", "agent_overlap", "segment", "segment_overlap"
    int source = -1;       // neighbour (position in `agent_neighbors`) or edge index
    double horizon = 0.0;  // truncation time (+inf: none)
    double scale = 1.0;    // 2 where the pair shares the avoidance
    Vec2 obstacle_a;       // relative position of the obstacle (a disc when equal)
    Vec2 obstacle_b;
    double radius = 0.0;
};

// A named vector (forces of the force-based method).
struct NamedVector {
    std::string name;
    Vec2 value;
};

struct Diagnostics {
    std::string method;
    Vec2 position, velocity, pref_velocity, new_velocity;
    // The velocity the agent steers towards; methods that model acceleration
    // (AVO) reach it gradually, the others at once (it is new_velocity).
    Vec2 target_velocity;
    double radius = 0.0;
    double max_speed = 0.0;
    // Kinematics (kinematics.hpp): the agent's model and heading; for a
    // non-holonomic agent what the method saw of it (its effective centre),
    // the velocity the method chose for that, and the turn rate it becomes
    // (new_velocity is then the robot's velocity after the step).
    std::string kinematics = "holonomic";
    double heading = 0.0;
    Vec2 presented_position, presented_velocity, method_velocity;
    double presented_radius = 0.0;
    double new_turn_rate = 0.0;
    std::vector<std::int32_t> agent_neighbors;  // slots, nearest first
    std::vector<Vec2> obstacle_edges;           // pairs a, b (facing the agent), nearest first

    // Half-planes (ORCA): the first `hard_lines` come from obstacles.
    std::vector<Line> lines;
    std::int32_t hard_lines = 0;
    bool used_fallback = false;  // ORCA: linear program 3; geometric: nothing admissible

    std::vector<DiagnosticCone> cones;  // velocity obstacles

    // Candidate velocities and their penalties (sampling methods).
    std::vector<Vec2> candidates;
    std::vector<double> penalties;
    std::vector<std::int32_t> levels;  // adaptive sampling: refinement level
    std::int32_t chosen = -1;          // index into candidates

    std::vector<NamedVector> forces;  // force-based
};

// What a method saw and decided for one agent of a 3D engine.
struct Diagnostics3 {
    std::string method;
    Vec3 position, velocity, pref_velocity, new_velocity;
    Vec3 target_velocity;  // as Diagnostics::target_velocity
    double radius = 0.0;
    double max_speed = 0.0;
    std::vector<std::int32_t> agent_neighbors;  // slots, nearest first
    std::vector<ObstacleContact3> obstacle_contacts;  // obstacle surfaces in reach (shared set first)

    // Half-spaces (ORCA): the first `hard_planes` come from obstacles.
    std::vector<Plane> planes;
    std::int32_t hard_planes = 0;
    bool used_fallback = false;  // ORCA: linear program 4

    std::vector<Vec3> candidates;  // sampling methods: candidate velocities
    std::vector<double> penalties;
    std::int32_t chosen = -1;      // index into candidates
};

}  // namespace vosim
