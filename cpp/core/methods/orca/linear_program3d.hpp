// The linear programs of ORCA in three dimensions (van den Berg et al.,
// "Reciprocal n-body collision avoidance", 2011, section 5, in the form of
// the RVO2-3D library): find the velocity closest to a preferred one inside
// a ball of radius max_speed and on the positive side of every plane; when
// no such velocity exists, the one that minimises the largest violation of
// the soft planes while keeping the first `hard_count` (obstacles) satisfied.
#pragma once

#include <cstddef>
#include <vector>

#include "half_spaces.hpp"  // Plane
#include "maths/vec3.hpp"

namespace vosim {

// Normals (and lines inside a plane) closer to parallel than this are
// treated as parallel (RVO2-3D's epsilon, on the squared sine or cosine).
// The programs take it as `parallel_epsilon`: the reachable polyhedron's
// facets meet along edges parallel to other facets, where this tolerance
// would declare feasible programs infeasible, so ORCA-3D's acceleration
// limit passes a far smaller one.
constexpr double kParallelEpsilon3 = 1e-5;

// Incremental 3D LP over planes[0..) inside the ball of radius max_speed
// (linear programs 1-3 of RVO2-3D). With `direction_mode`, the objective is
// the extreme point in direction `target` (a unit vector) instead of the
// point nearest to `target`. Returns planes.size() on success, otherwise the
// index of the first plane that made the program infeasible; `result` then
// holds the optimum over the planes before it.
std::size_t solve_nearest_3d(const std::vector<Plane>& planes, double max_speed, Vec3 target, bool direction_mode,
                             Vec3& result, double parallel_epsilon = kParallelEpsilon3);

// Completes an infeasible program (linear program 4): from plane
// `first_failed` on, minimises the largest signed distance to the soft
// planes (those at and after `hard_count`) by solving, for each violated
// plane, the program of the planes projected onto it. `projected` is
// scratch space.
void solve_least_violation_3d(const std::vector<Plane>& planes, std::size_t hard_count, std::size_t first_failed,
                              double max_speed, std::vector<Plane>& projected, Vec3& result,
                              double parallel_epsilon = kParallelEpsilon3);

}  // namespace vosim
