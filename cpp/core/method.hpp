// The interface every avoidance method implements.
//
// Phase 3 of a step calls `new_velocity` once per active agent, in parallel.
// A method reads only the frozen state of the scene (positions, velocities and
// parameters as they were before the step) and the neighbour list prepared by
// the engine, and it returns the agent's new velocity. It must not keep state
// between calls: everything temporary lives in the per-thread Workspace.
// The velocity must not be longer than the agent's max_speed; the engine
// caps one that exceeds it by more than round-off (relative 1e-9), which only
// happens when cancellation ruins a method's arithmetic in degenerate input.
#pragma once

#include <string>
#include <vector>

#include "agent_state.hpp"
#include "neighbor_grid.hpp"
#include "vec2.hpp"

namespace vosim {

// A directed line; the admissible half-plane lies to its left.
struct Line {
    Vec2 point;
    Vec2 direction;
};

// Per-thread scratch space, reused from agent to agent and step to step so
// that a step does not allocate.
struct Workspace {
    std::vector<Neighbor> agent_neighbors;  // capacity >= the largest max_neighbors
    int agent_neighbor_count = 0;
    std::vector<Line> lines;
    std::vector<Line> projected_lines;
};

// The frozen state of one scene during phase 3.
struct SceneView {
    const AgentState& state;
    int scene;
    double time_step;

    std::size_t index(int slot) const { return state.index(scene, slot); }
};

class Method {
public:
    virtual ~Method() = default;
    virtual std::string name() const = 0;
    // The new velocity of agent `slot`; its neighbours are
    // ws.agent_neighbors[0 .. ws.agent_neighbor_count), nearest first.
    virtual Vec2 new_velocity(const SceneView& scene, int slot, Workspace& ws) const = 0;
};

}  // namespace vosim
