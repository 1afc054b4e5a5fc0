// What a method saw and decided for one agent, for drawing its velocity
// space. Filled on request (Engine::inspect), never during normal steps.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "half_spaces.hpp"                // Line, Plane
#include "obstacles/obstacles3d.hpp"  // ObstacleContact3
#include "maths/vec2.hpp"
#include "maths/vec.hpp"  // kDim
#include "maths/vec3.hpp"

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

// What every method's inspection records, in either dimension (V: Vec2 or Vec3).
template <class V>
struct DiagnosticsOf {
    std::string method;
    V position, velocity, pref_velocity, new_velocity;
    // The velocity the agent steers towards; methods that model acceleration
    // (AVO) reach it gradually, the others at once (it is new_velocity).
    V target_velocity;
    double radius = 0.0;
    double max_speed = 0.0;
    std::vector<std::int32_t> agent_neighbors;  // slots, nearest first
    // ORCA: linear program 3 (plane) or 4 (space); geometric selection: nothing admissible.
    bool used_fallback = false;

    // Candidate velocities and their penalties (sampling methods).
    std::vector<V> candidates;
    std::vector<double> penalties;
    std::int32_t chosen = -1;  // index into candidates
};

// In the plane: what the drives, obstacle edges and each method add.
struct Diagnostics : DiagnosticsOf<Vec2> {
    // Kinematics (kinematics.hpp): the agent's model and heading; for a
    // non-holonomic agent what the method saw of it (its effective centre),
    // the velocity the method chose for that, and the turn rate it becomes
    // (new_velocity is then the robot's velocity after the step).
    std::string kinematics = "holonomic";
    double heading = 0.0;
    Vec2 presented_position, presented_velocity, method_velocity;
    double presented_radius = 0.0;
    double new_turn_rate = 0.0;
    std::vector<Vec2> obstacle_edges;  // pairs a, b (facing the agent), nearest first

    // Half-planes (ORCA): the first `hard_lines` come from obstacles.
    std::vector<Line> lines;
    std::int32_t hard_lines = 0;

    std::vector<DiagnosticCone> cones;  // velocity obstacles
    std::vector<std::int32_t> levels;   // adaptive sampling: each candidate's refinement level
    std::vector<NamedVector> forces;    // force-based
};

// In space: obstacle surfaces and ORCA's half-spaces.
struct Diagnostics3 : DiagnosticsOf<Vec3> {
    std::vector<ObstacleContact3> obstacle_contacts;  // obstacle surfaces in reach (shared set first)
    // Half-spaces (ORCA): the first `hard_planes` come from obstacles.
    std::vector<Plane> planes;
    std::int32_t hard_planes = 0;
};

// The diagnostics of an engine whose vectors are V.
template <class V>
using DiagnosticsFor = std::conditional_t<kDim<V> == 2, Diagnostics, Diagnostics3>;

}  // namespace vosim
