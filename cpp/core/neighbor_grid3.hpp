// Spatial index over the active agents of one 3D scene, rebuilt every step:
// the 3D counterpart of NeighborGrid, with the same queries and the same
// k-nearest semantics (RVO2-3D's: neighbours strictly closer than the range,
// the `max_k` nearest, ties broken by the lower slot).
//
// A uniform grid of cubic cells hashed into about 2N buckets (memory linear
// in N whatever the spread), stored as a counting sort of the agents by
// bucket so that the agents of one cell sit next to each other. A query
// visits the cells of the cube around the query sphere; when that cube has
// more cells than there are agents it scans all agents instead.
#pragma once

#include <cstdint>
#include <vector>

#include "neighbor_grid.hpp"  // Neighbor, closer
#include "vec3.hpp"

namespace vosim {

class NeighborGrid3 {
public:
    // Indexes the points positions[3k .. 3k+2] for k < count whose `active`
    // flag is set (all when `active` is null), in cells `cell_size` wide (a
    // typical query range is a good choice).
    void build(const double* positions, const std::uint8_t* active, int count, double cell_size);

    // The up to `max_k` nearest agents to `p` with dist_sq < range^2, other
    // than `self_slot`, sorted by `closer`. `out` must hold `max_k` entries.
    int nearest(Vec3 p, double range, int max_k, std::int32_t self_slot, Neighbor* out) const;

    // Calls f(slot, dist_sq) for every indexed agent with dist_sq < range^2.
    template <class F>
    void for_each_within(Vec3 p, double range, F&& f) const;

    int size() const { return static_cast<int>(slots_.size()); }
    const std::vector<std::int32_t>& slots_in_cell_order() const { return slots_; }

private:
    struct Entry {
        Vec3 point;
        std::int64_t cell[3];
        std::int32_t slot;
    };

    void cell_of(Vec3 p, std::int64_t cell[3]) const;
    std::size_t bucket_of(const std::int64_t cell[3]) const;
    // Calls f(entry) for every entry of a cell within the cube of cells
    // around p that a sphere of `range` can touch (or every entry).
    template <class F>
    void visit(Vec3 p, double range, F&& f) const;

    double cell_size_ = 1.0;
    Vec3 origin_;
    std::vector<Entry> entries_;              // in bucket order
    std::vector<std::uint32_t> bucket_start_;  // buckets + 1 offsets into entries_
    std::vector<std::int32_t> slots_;          // entries_' slots
};

template <class F>
void NeighborGrid3::visit(Vec3 p, double range, F&& f) const {
    if (entries_.empty() || !(range > 0.0)) return;
    std::int64_t lo[3], hi[3];
    cell_of(p - Vec3(range, range, range), lo);
    cell_of(p + Vec3(range, range, range), hi);
    const double cells = static_cast<double>(hi[0] - lo[0] + 1) * static_cast<double>(hi[1] - lo[1] + 1) *
                         static_cast<double>(hi[2] - lo[2] + 1);
    if (cells >= static_cast<double>(entries_.size())) {
        for (const Entry& e : entries_) f(e);
        return;
    }
    std::int64_t c[3];
    for (c[2] = lo[2]; c[2] <= hi[2]; ++c[2]) {
        for (c[1] = lo[1]; c[1] <= hi[1]; ++c[1]) {
            for (c[0] = lo[0]; c[0] <= hi[0]; ++c[0]) {
                const std::size_t b = bucket_of(c);
                for (std::uint32_t k = bucket_start_[b]; k < bucket_start_[b + 1]; ++k) {
                    const Entry& e = entries_[k];
                    // Other cells hashed to the same bucket are theirs to visit.
                    if (e.cell[0] == c[0] && e.cell[1] == c[1] && e.cell[2] == c[2]) f(e);
                }
            }
        }
    }
}

template <class F>
void NeighborGrid3::for_each_within(Vec3 p, double range, F&& f) const {
    const double range_sq = range * range;
    visit(p, range, [&](const Entry& e) {
        const double d = abs_sq(e.point - p);
        if (d < range_sq) f(e.slot, d);
    });
}

}  // namespace vosim
