#include "clearance.hpp"

#include <cmath>
#include <limits>

namespace vosim {

double min_clearance(const double* positions, const double* radius, const std::uint8_t* active,
                     int count, NeighborGrid& grid) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    double largest_radius = 0.0;
    double lo_x = kInf, lo_y = kInf, hi_x = -kInf, hi_y = -kInf;
    int live = 0;
    for (int k = 0; k < count; ++k) {
        if (active && !active[k]) continue;
        ++live;
        largest_radius = std::fmax(largest_radius, radius[k]);
        lo_x = std::fmin(lo_x, positions[2 * k]);
        hi_x = std::fmax(hi_x, positions[2 * k]);
        lo_y = std::fmin(lo_y, positions[2 * k + 1]);
        hi_y = std::fmax(hi_y, positions[2 * k + 1]);
    }
    if (live < 2) return kInf;
    const double diagonal = std::hypot(hi_x - lo_x, hi_y - lo_y);
    // Cells about as wide as the typical spacing keep both the nearest-agent
    // search and the follow-up scan short.
    const double spacing = diagonal / std::sqrt(static_cast<double>(live));
    const double cell = std::fmax(2.0 * largest_radius, spacing);
    const double cell_size = cell > 0.0 ? cell : 1.0;  // 0: every agent on one spot, radius 0
    grid.build(positions, active, count, cell_size);

    double best = kInf;
    for (int k = 0; k < count; ++k) {
        if (active && !active[k]) continue;
        const Vec2 p(positions[2 * k], positions[2 * k + 1]);
        // The nearest agent bounds the answer for k; look no farther than the
        // distance at which a larger disc could still come closer.
        Neighbor nearest{0.0, -1};
        double range = cell_size;
        // Ends: once the range is infinite every other agent at a finite
        // distance qualifies (there is one: live >= 2), and an infinite
        // distance ends the search with an infinite clearance.
        while (grid.nearest(p, range, 1, k, &nearest) == 0) {
            if (std::isinf(range)) break;
            range *= 2.0;
        }
        if (nearest.slot < 0) continue;  // every other agent infinitely far away
        const double bound = std::sqrt(nearest.dist_sq) - radius[k] - radius[nearest.slot];
        double local = bound;
        grid.for_each_within(p, bound + radius[k] + largest_radius, [&](std::int32_t j, double d) {
            if (j == k) return;
            local = std::fmin(local, std::sqrt(d) - radius[k] - radius[j]);
        });
        best = std::fmin(best, local);
    }
    return best;
}

void find_overlaps(const double* positions, const double* radius, const std::uint8_t* active, int count,
                   double min_fraction, NeighborGrid& grid, std::vector<Overlap>& out) {
    double largest_radius = 0.0;
    for (int k = 0; k < count; ++k) {
        if (!active || active[k]) largest_radius = std::fmax(largest_radius, radius[k]);
    }
    if (count < 2) return;
    grid.build(positions, active, count, largest_radius > 0.0 ? 2.0 * largest_radius : 1.0);
    for (int k = 0; k < count; ++k) {
        if (active && !active[k]) continue;
        const Vec2 p(positions[2 * k], positions[2 * k + 1]);
        grid.for_each_within(p, radius[k] + largest_radius, [&](std::int32_t j, double dist_sq) {
            if (j <= k) return;  // each pair once
            const double reach = radius[k] + radius[j];
            const double depth = reach - std::sqrt(dist_sq);
            if (depth > min_fraction * reach && depth > 0.0) out.push_back({k, j, depth});
        });
    }
}

}  // namespace vosim
