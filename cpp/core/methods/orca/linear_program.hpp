// The linear programs of ORCA (van den Berg et al., "Reciprocal n-body
// collision avoidance", 2011, section 5): find the velocity closest to a
// preferred one inside a disc of radius max_speed and to the left of every
// line; when no such velocity exists, the one that minimises the largest
// violation of the agent lines while keeping the first `hard_count` lines
// (obstacles) satisfied.
#pragma once

#include <cstddef>
#include <vector>

#include "half_spaces.hpp"

namespace vosim {

// Lines closer to parallel than this are treated as parallel.
constexpr double kParallelEpsilon = 1e-5;

// Randomised-incremental 2D LP over lines[0..). With `direction_mode`, the
// objective is the extreme point in direction `target` (a unit vector) instead
// of the point nearest to `target`. Returns lines.size() on success, otherwise
// the index of the first line that made the program infeasible; `result`
// then holds the optimum over the lines before it.
std::size_t solve_nearest(const std::vector<Line>& lines, double max_speed, Vec2 target,
                          bool direction_mode, Vec2& result);

// Completes an infeasible program: starting at line `first_failed`, minimises
// the largest signed distance to the soft lines (those at and after
// `hard_count`) by projecting them onto each violated line. `bisector_weight`
// is the weight w in the projected direction normalize(w * d_j - d_i); 1 gives
// the bisector of the published algorithm. `projected` is scratch space.
void solve_least_violation(const std::vector<Line>& lines, std::size_t hard_count,
                           std::size_t first_failed, double max_speed, double bisector_weight,
                           std::vector<Line>& projected, Vec2& result);

}  // namespace vosim
