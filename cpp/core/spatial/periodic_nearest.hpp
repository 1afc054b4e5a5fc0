// The queries of a neighbour grid with a periodic axis: a point within its
// range of a seam also looks through it, so an agent across the seam is
// found at its nearest image. Each agent is listed once, at its nearest
// image. The k-nearest query (Neighbor::image) keeps the grid's order
// (distance, then slot), so it is the same for any thread count.
#pragma once

#include <algorithm>
#include <vector>

#include "spatial/neighbor_grid.hpp"
#include "spatial/periodic.hpp"

namespace vosim {

// grid.nearest(p, range, max_k, self_slot, out), seen through the seams of
// `periodic` (the plain query when it is off or p is farther than range
// from both seams). `out` must hold max_k entries; `scratch` is reused.
template <class Grid, class V>
int nearest_periodic(const Grid& grid, const Periodic& periodic, V p, double range, int max_k,
                     std::int32_t self_slot, Neighbor* out, std::vector<Neighbor>& scratch) {
    const int count = grid.nearest(p, range, max_k, self_slot, out);
    if (!periodic.on() || max_k <= 0) return count;
    const double along = periodic.along(p);
    const bool near_low = along - periodic.low < range;    // agents near `high` are seen at -period
    const bool near_high = periodic.high - along < range;  // agents near `low` are seen at +period
    if (!near_low && !near_high) return count;
    scratch.assign(out, out + count);
    for (const std::int32_t image : {-1, 1}) {
        if (image == -1 ? !near_low : !near_high) continue;
        const std::size_t size = scratch.size();
        scratch.resize(size + static_cast<std::size_t>(max_k));
        // A neighbour seen at q + image * period is as far from p as q is from
        // p - image * period.
        const int found = grid.nearest(p - periodic.offset<V>(image), range, max_k, self_slot, scratch.data() + size);
        scratch.resize(size + static_cast<std::size_t>(found));
        for (std::size_t k = size; k < scratch.size(); ++k) scratch[k].image = image;
    }
    // One entry per agent, its nearest image (with a period shorter than twice
    // the range an agent can be in range at two images).
    std::sort(scratch.begin(), scratch.end(), [](const Neighbor& a, const Neighbor& b) {
        return a.slot < b.slot || (a.slot == b.slot && (a.dist_sq < b.dist_sq ||
                                                        (a.dist_sq == b.dist_sq && a.image < b.image)));
    });
    scratch.erase(std::unique(scratch.begin(), scratch.end(),
                              [](const Neighbor& a, const Neighbor& b) { return a.slot == b.slot; }),
                  scratch.end());
    std::sort(scratch.begin(), scratch.end(), closer);
    const int kept = std::min(max_k, static_cast<int>(scratch.size()));
    std::copy(scratch.begin(), scratch.begin() + kept, out);
    return kept;
}

// grid.for_each_within(p, range, f) seen through the seams of `periodic`:
// f(slot, dist_sq) once for each agent within range of p at some image, with
// the distance to its nearest image (the plain query when periodic is off or
// p is farther than range from both seams, so results without a seam keep
// their bits). The order of the calls is fixed by the grid.
template <class Grid, class V, class F>
void for_each_within_periodic(const Grid& grid, const Periodic& periodic, V p, double range, F&& f) {
    if (!periodic.on()) {
        grid.for_each_within(p, range, f);
        return;
    }
    const double along = periodic.along(p);
    const bool near_low = along - periodic.low < range;
    const bool near_high = periodic.high - along < range;
    if (!near_low && !near_high) {
        grid.for_each_within(p, range, f);
        return;
    }
    if (periodic.period() >= 2.0 * range) {
        // In range at two images would take a period shorter than 2 * range:
        // each agent comes once, from one of the three queries.
        grid.for_each_within(p, range, f);
        for (const std::int32_t image : {-1, 1}) {
            if (image == -1 ? near_low : near_high) grid.for_each_within(p - periodic.offset<V>(image), range, f);
        }
        return;
    }
    // A short period: an agent may be in range at several images; keep its nearest.
    std::vector<Neighbor> found;
    for (const std::int32_t image : {0, -1, 1}) {
        grid.for_each_within(p - periodic.offset<V>(image), range,
                             [&](std::int32_t slot, double dist_sq) { found.push_back({dist_sq, slot, image}); });
    }
    std::sort(found.begin(), found.end(), [](const Neighbor& a, const Neighbor& b) {
        return a.slot < b.slot || (a.slot == b.slot && a.dist_sq < b.dist_sq);
    });
    found.erase(std::unique(found.begin(), found.end(),
                            [](const Neighbor& a, const Neighbor& b) { return a.slot == b.slot; }),
                found.end());
    for (const Neighbor& n : found) f(n.slot, n.dist_sq);
}

}  // namespace vosim
