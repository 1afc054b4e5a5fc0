// What a method saw and decided for one agent, for drawing its velocity
// space. Filled on request (Engine::inspect), never during normal steps.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "record.hpp"

namespace vosim {

// What every inspection records, in either dimension (V: Vec2 or Vec3). What
// only some methods or one dimension have is in the two records: the core
// names no method's output.
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
    // The method could not satisfy its constraints and fell back (ORCA's
    // last linear program, geometric selection with nothing admissible).
    bool used_fallback = false;

    // Candidate velocities and their penalties (sampling methods).
    std::vector<V> candidates;
    std::vector<double> penalties;
    std::int32_t chosen = -1;  // index into candidates

    // What the engine adds in this dimension: the obstacles in reach and, in
    // the plane, the agent's drive (inspect.cpp).
    Record surroundings;
    // The method's own entries (ORCA's half-planes, VO's cones, forces, ...),
    // documented where the method fills them.
    Record method_record;
};

}  // namespace vosim
