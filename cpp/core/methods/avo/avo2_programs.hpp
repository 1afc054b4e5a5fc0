// The linear programs as the AVO2 library runs them: in float, in the space
// of velocity changes, inside the disc of radius max_acceleration *
// acceleration_interval. They are ORCA's programs (see linear_program.hpp)
// with AVO2's semantics, which the reference data depends on:
//   - a line whose arithmetic gives NaN is never violated and never bounds
//     another (IEEE comparisons with NaN are false; min/max keep the
//     first argument);
//   - when program 2 fails on a line, its partial result is kept and the
//     later lines are ignored; program 3 runs only when the very first line
//     fails (in AVO2, line 0 is the speed line).
#pragma once

#include <cstddef>
#include <vector>

#include "methods/avo/avo_geometry.hpp"

namespace vosim::avo {

using Vecf = V2<float>;
using Linef = HalfPlane<float>;

// Nearest point to `target` (or the extreme point in the unit direction
// `target` with direction_mode) inside the disc and left of every line.
// Returns lines.size(), or the index of the line that made it infeasible
// (`result` then holds the optimum before that line).
std::size_t library_program2(const std::vector<Linef>& lines, float radius, Vecf target, bool direction_mode,
                             Vecf& result);

// Least violation of the lines from `hard_count` on, keeping the first
// `hard_count` lines, starting from `result`.
void library_program3(const std::vector<Linef>& lines, std::size_t hard_count, float radius, Vecf& result,
                      std::vector<Linef>& projected);

}  // namespace vosim::avo
