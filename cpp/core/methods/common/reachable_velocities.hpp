// The velocities an agent can reach, as hard constraints of a linear
// program: a regular polygon inscribed in the disc |u - v| <= reach, so that
// every admissible velocity keeps the bound (a circle is not a half-plane).
// Its vertices lie on the disc; between them the polygon reaches
// cos(pi / kReachableSides) = 98.1 % of the radius. One vertex points
// towards the preferred velocity, where reach matters most.
//
// Used by ORCA's acceleration limit (reach = max_acceleration * time_step)
// and by AVO (reach = max_acceleration * acceleration_interval).
#pragma once

#include <cstddef>
#include <vector>

#include "half_spaces.hpp"
#include "methods/geometry.hpp"

namespace vosim {

constexpr int kReachableSides = 16;

// Appends the polygon's edges (counter-clockwise: the inside to their left)
// around `velocity`, one vertex towards `preferred` (any, when equal).
// Returns false, appending nothing, when the reach is too small to move the
// velocity's floating-point value (then no change is reachable).
bool append_reachable_polygon(Vec2 velocity, double reach, Vec2 preferred, std::vector<Line>& lines);

// The velocity nearest to `preferred` inside the speed disc and left of
// every line, where lines[0, polygon_end) are the reachable polygon,
// [polygon_end, hard_end) obstacles, and the rest agents. When that does not
// exist: the agent lines are violated least (linear program 3, the polygon
// and obstacles kept); if the polygon and obstacles leave nothing, the
// obstacles are relaxed with the agents (the polygon kept); if even the
// polygon misses the speed disc (a velocity set far above max_speed), the
// agent brakes as hard as it can. Returns true when it fell back.
bool solve_within_reach(const std::vector<Line>& lines, std::size_t polygon_end, std::size_t hard_end,
                        Vec2 velocity, double reach, double max_speed, Vec2 preferred, double bisector_weight,
                        std::vector<Line>& scratch, Vec2& result);

}  // namespace vosim
