// The velocities an agent can reach in one step, in 3D, as hard constraints
// of ORCA-3D's linear programs: a convex polyhedron inscribed in the ball
// |u - v| <= reach, so that every admissible velocity keeps the bound (a
// sphere is not a half-space). It is the geodesic icosahedron of frequency
// kReachableFrequency: each face of an icosahedron cut into frequency^2
// triangles, their vertices pushed out onto the sphere, giving
// 20 * frequency^2 facet planes. Its vertices lie on the sphere (each facet
// is then moved inwards by at most 1e-9 of the radius, so that only three
// meet at any corner); between them it reaches at least kReachableInradius
// of the radius. One vertex
// points towards the preferred velocity, where reach matters most.
//
// Used by ORCA-3D's acceleration limit (reach = max_acceleration * time_step).
#pragma once

#include <cstddef>
#include <vector>

#include "half_spaces.hpp"
#include "methods/orca/linear_program3d.hpp"

namespace vosim {

// Frequency 2: 80 planes, at least 93.4 % of the radius in every direction
// and all of it towards the preferred velocity. Frequency 3 (180 planes,
// 97.2 %) cost about six times as much in the velocity phase of
// benchmarks/acceleration_limits3d.py's scenes for the same collisions.
constexpr int kReachableFrequency = 2;
constexpr int kReachableFacets = 20 * kReachableFrequency * kReachableFrequency;
// A lower bound of the smallest distance from the centre to a facet plane,
// for radius 1: the inscribed ball, kept by braking (measured on the
// planes built by tests/methods/test_orca3d_acceleration.py).
constexpr double kReachableInradius = 0.93417;

// Appends the polyhedron's facet planes (inside on their positive side)
// around `velocity`, one vertex towards `preferred` (any, when equal); the
// facets facing the preferred velocity come first, which keeps the
// incremental linear program short. Returns false, appending nothing, when
// the reach is too small to change the velocity (below 1e-12 of its length,
// or its square underflows): then no change is made.
bool append_reachable_polyhedron(Vec3 velocity, double reach, Vec3 preferred, std::vector<Plane>& planes);

// The velocity nearest to `preferred` inside the speed ball and on the
// positive side of every plane, where planes[0, polyhedron_end) are the
// reachable polyhedron, [polyhedron_end, hard_end) obstacles, and the rest
// agents. When that does not exist: the agent planes are violated least
// (linear program 4, the polyhedron and obstacles kept); if the polyhedron
// and obstacles leave nothing (an agent inside or too close to an obstacle
// to stop in time, e.g. after being moved there), the obstacles are relaxed
// with the agents (the polyhedron kept); if even the polyhedron misses the
// speed ball (a velocity set far above max_speed), the agent brakes as hard
// as the polyhedron allows. The result is within `reach` of `velocity`.
// Returns true when it fell back.
bool solve_within_reach_3d(const std::vector<Plane>& planes, std::size_t polyhedron_end, std::size_t hard_end,
                           Vec3 velocity, double reach, double max_speed, Vec3 preferred,
                           std::vector<Plane>& scratch, Vec3& result);

}  // namespace vosim
