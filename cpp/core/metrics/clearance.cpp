#include "metrics/clearance.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "spatial/periodic_nearest.hpp"

namespace vosim {

template <class V>
double min_clearance(const double* positions, const double* radius, const std::uint8_t* active,
                     int count, GridOf<V>& grid, const Periodic& periodic) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    constexpr int kD = kDim<V>;
    double largest_radius = 0.0;
    double lo[kD], hi[kD];
    for (int d = 0; d < kD; ++d) {
        lo[d] = kInf;
        hi[d] = -kInf;
    }
    int live = 0;
    for (int k = 0; k < count; ++k) {
        if (active && !active[k]) continue;
        ++live;
        largest_radius = std::fmax(largest_radius, radius[k]);
        for (int d = 0; d < kD; ++d) {
            lo[d] = std::fmin(lo[d], positions[kD * k + d]);
            hi[d] = std::fmax(hi[d], positions[kD * k + d]);
        }
    }
    if (live < 2) return kInf;
    double diagonal;
    if constexpr (kD == 2) {
        diagonal = std::hypot(hi[0] - lo[0], hi[1] - lo[1]);
    } else {
        diagonal = std::hypot(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]);
    }
    // Cells about as wide as the typical spacing keep both the nearest-agent
    // search and the follow-up scan short.
    const double spacing =
        diagonal / (kD == 2 ? std::sqrt(static_cast<double>(live)) : std::cbrt(static_cast<double>(live)));
    const double cell = std::fmax(2.0 * largest_radius, spacing);
    const double cell_size = cell > 0.0 ? cell : 1.0;  // 0: every agent on one spot, radius 0
    grid.build(positions, active, count, cell_size);

    double best = kInf;
    std::vector<Neighbor> images;  // nearest_periodic's scratch
    for (int k = 0; k < count; ++k) {
        if (active && !active[k]) continue;
        const V p = load<V>(positions, static_cast<std::size_t>(k));
        // The nearest agent bounds the answer for k; look no farther than the
        // distance at which a larger disc could still come closer.
        Neighbor nearest{0.0, -1, 0};
        double range = cell_size;
        // Ends: once the range is infinite every other agent at a finite
        // distance qualifies (there is one: live >= 2), and an infinite
        // distance ends the search with an infinite clearance.
        while (nearest_periodic(grid, periodic, p, range, 1, k, &nearest, images) == 0) {
            if (std::isinf(range)) break;
            range *= 2.0;
        }
        if (nearest.slot < 0) continue;  // every other agent infinitely far away
        const double bound = std::sqrt(nearest.dist_sq) - radius[k] - radius[nearest.slot];
        double local = bound;
        const double reach = bound + radius[k] + largest_radius;
        for_each_within_periodic(grid, periodic, p, reach, [&](std::int32_t j, double d) {
            if (j == k) return;
            local = std::fmin(local, std::sqrt(d) - radius[k] - radius[j]);
        });
        best = std::fmin(best, local);
    }
    return best;
}

template double min_clearance<Vec2>(const double*, const double*, const std::uint8_t*, int, NeighborGrid&,
                                    const Periodic&);
template double min_clearance<Vec3>(const double*, const double*, const std::uint8_t*, int, NeighborGrid3&,
                                    const Periodic&);

void find_overlaps(const double* positions, const double* radius, const std::uint8_t* active, int count,
                   double min_fraction, NeighborGrid& grid, std::vector<Overlap>& out, const Periodic& periodic) {
    double largest_radius = 0.0;
    for (int k = 0; k < count; ++k) {
        if (!active || active[k]) largest_radius = std::fmax(largest_radius, radius[k]);
    }
    if (count < 2) return;
    grid.build(positions, active, count, largest_radius > 0.0 ? 2.0 * largest_radius : 1.0);
    for (int k = 0; k < count; ++k) {
        if (active && !active[k]) continue;
        const Vec2 p(positions[2 * k], positions[2 * k + 1]);
        for_each_within_periodic(grid, periodic, p, radius[k] + largest_radius, [&](std::int32_t j, double dist_sq) {
            if (j <= k) return;  // each pair once
            const double reach = radius[k] + radius[j];
            const double depth = reach - std::sqrt(dist_sq);
            if (depth > min_fraction * reach && depth > 0.0) out.push_back({k, j, depth});
        });
    }
}

}  // namespace vosim
