// The integrate phase's last word on static and moving obstacle edges: a
// method-free projection of each holonomic agent's displacement that keeps
// its disc out of the obstacles (ARCHITECTURE.md, "The step").
//
// Every edge within reach of the step (radius + |displacement|) that the
// agent faces gives one half-plane: the line through the edge's point
// nearest the agent's centre, at right angles to the way to it, moved
// towards the agent by its keep distance, min(radius, distance now). The
// whole edge lies beyond that line, so a centre on the agent's side of
// every such half-plane keeps its disc clear of every edge by the keep
// distance, and an agent already touching or overlapping an edge never goes
// deeper. The desired end point is projected onto the half-planes in turn
// (a few cyclic passes, in the order the query gives them: nearest first),
// then, should any still be violated (a tight concave corner), the motion
// is shortened along the projected direction to the largest feasible
// fraction (the start is always feasible). Sliding along a wall keeps the
// tangential part of the motion. Deterministic: one agent's result depends
// only on its own values and the obstacles.
#pragma once

#include <memory>
#include <vector>

#include "maths/vec2.hpp"
#include "obstacles/obstacles.hpp"

namespace vosim {

// The obstacle sets the integrate phase keeps holonomic agents out of: the
// shared set and each scene's own (null: none).
struct ObstacleWorld {
    const ObstacleSet* shared = nullptr;
    std::vector<const ObstacleSet*> own;  // per scene
};

// The world of `shared` and `own` (per scene, null or missing: none) for
// `scenes` scenes; false when no set holds an obstacle (nothing to guard).
bool obstacle_world(const ObstacleSet& shared, const std::vector<std::unique_ptr<ObstacleSet>>& own, int scenes,
                    ObstacleWorld& world);

// The displacement an agent of `radius` at `position` may make instead of
// `desired` without its disc entering the edges of `shared` or `own` (see
// above); `near` is scratch. Returns `desired` itself when no edge is
// within reach or none constrains it.
Vec2 keep_clear_of_obstacles(const ObstacleSet& shared, const ObstacleSet& own, Vec2 position, Vec2 desired,
                             double radius, std::vector<ObstacleNeighbor>& near);

}  // namespace vosim
