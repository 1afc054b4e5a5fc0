// Closest approach between agents, measured as clearance: the distance
// between two agents' discs, dist - r_i - r_j (negative when they overlap).
#pragma once

#include <cstdint>

#include "neighbor_grid.hpp"

namespace vosim {

// The smallest clearance over all pairs of the `count` agents at
// positions[2k..2k+1] with radius[k] (only those with active[k] set, all
// when `active` is null); +infinity with fewer than two. `grid` is scratch.
double min_clearance(const double* positions, const double* radius, const std::uint8_t* active,
                     int count, NeighborGrid& grid);

}  // namespace vosim
