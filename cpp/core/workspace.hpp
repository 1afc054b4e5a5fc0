// The neighbour buffers the engine fills for a method, per thread: what an
// agent sees (its agent neighbours and obstacles, nearest first) and the
// method's own scratch space. The engine's side of the method interface
// (method.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "maths/vec.hpp"
#include "obstacles/obstacles.hpp"
#include "obstacles/obstacles3d.hpp"
#include "spatial/neighbor_grid.hpp"

namespace vosim {

// What an agent sees of the obstacles: edges in the plane, surfaces in space.
template <class V>
struct ObstaclesNear;
template <>
struct ObstaclesNear<Vec2> {
    using type = ObstacleNeighbor;
};
template <>
struct ObstaclesNear<Vec3> {
    using type = ObstacleContact3;
};
template <class V>
using ObstaclesNearOf = typename ObstaclesNear<V>::type;

// Scratch space a method keeps per thread (its own subclass).
struct MethodScratch {
    virtual ~MethodScratch() = default;
};

// A read-only run of values (C++17 has no std::span).
template <class T>
struct Span {
    const T* first = nullptr;
    int count = 0;

    const T* begin() const { return first; }
    const T* end() const { return first + count; }
    int size() const { return count; }
    bool empty() const { return count == 0; }
    const T& operator[](int k) const { return first[k]; }
};

// Per-thread scratch space, reused from agent to agent and step to step so
// that a step does not allocate.
struct Workspace {
    // The neighbours of the agent being computed, nearest first: agents
    // strictly within neighbor_dist (at most max_neighbors), and obstacle
    // edges facing it within time_horizon_obst * max_speed + radius.
    Span<Neighbor> agent_neighbors;
    Span<ObstacleNeighbor> obstacle_neighbors;
    // 3D: the obstacle surfaces within time_horizon_obst * max_speed + radius
    // (or time_step * max_speed + radius when longer), nearest first.
    Span<ObstacleContact3> obstacle_contacts;
    // Set by a method that could not satisfy its constraints and fell back
    // (ORCA's linear program 3, geometric selection with nothing admissible).
    bool used_fallback = false;

    // Where the engine keeps the neighbours of a chunk of agents, one run
    // after the other (it grows to the largest chunk seen, then stays):
    // agents, and the obstacles of the engine's dimension (edges or surfaces).
    template <class T>
    struct Runs {
        std::vector<T> buffer;
        std::vector<std::size_t> starts;  // per agent of the chunk, and one past the last
    };
    std::vector<Neighbor> agent_buffer;
    std::vector<std::size_t> agent_starts;  // per agent of the chunk, and one past the last
    Runs<ObstacleNeighbor> edge_runs;
    Runs<ObstacleContact3> contact_runs;

    // The obstacle runs of the dimension of V, and setting its span.
    template <class V>
    Runs<ObstaclesNearOf<V>>& obstacle_runs() {
        if constexpr (kDim<V> == 2) {
            return edge_runs;
        } else {
            return contact_runs;
        }
    }
    template <class V>
    void set_obstacles_near(Span<ObstaclesNearOf<V>> near) {
        if constexpr (kDim<V> == 2) {
            obstacle_neighbors = near;
        } else {
            obstacle_contacts = near;
        }
    }

    std::unique_ptr<MethodScratch> method_scratch;  // made by the method in use
    // Which method made it: its instance number (Method::instance()), never
    // reused, unlike an address that a freed method leaves to the next one.
    std::uint64_t scratch_owner = 0;
};

}  // namespace vosim
