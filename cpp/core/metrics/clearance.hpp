// Closest approach between agents, measured as clearance: the distance
// between two agents' discs, dist - r_i - r_j (negative when they overlap).
#pragma once

#include <cstdint>
#include <vector>

#include "spatial/neighbor_index.hpp"
#include "spatial/periodic.hpp"

namespace vosim {

// The smallest clearance over all pairs of the `count` agents at
// positions[2k..2k+1] with radius[k] (only those with active[k] set, all
// when `active` is null); +infinity with fewer than two. `grid` is scratch.
// With a periodic axis, each pair at its nearest image (the positions
// wrapped into its bounds). (V = Vec3: positions[3k..3k+2], between balls.)
template <class V>
double min_clearance(const double* positions, const double* radius, const std::uint8_t* active,
                     int count, GridOf<V>& grid, const Periodic& periodic = Periodic{});

inline double min_clearance(const double* positions, const double* radius, const std::uint8_t* active,
                            int count, NeighborGrid& grid, const Periodic& periodic = Periodic{}) {
    return min_clearance<Vec2>(positions, radius, active, count, grid, periodic);
}

struct Overlap {
    std::int32_t a, b;  // a < b
    double depth;       // r_a + r_b - dist
};

// Every pair of the given agents (as for min_clearance) whose discs overlap
// by more than `min_fraction` of their combined radius, appended to `out`
// (with a periodic axis, at the pair's nearest image).
void find_overlaps(const double* positions, const double* radius, const std::uint8_t* active, int count,
                   double min_fraction, NeighborGrid& grid, std::vector<Overlap>& out,
                   const Periodic& periodic = Periodic{});

}  // namespace vosim
