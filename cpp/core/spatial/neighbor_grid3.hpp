// Spatial index over the active agents of one 3D scene, rebuilt every step:
// the 3D counterpart of NeighborGrid, with the same queries and the same
// k-nearest semantics (RVO2-3D's: neighbours strictly closer than the range,
// the `max_k` nearest, ties broken by the lower slot).
//
// Dense (the usual case): a box of cubic cells over the agents' bounding
// box, at most about 2N cells, the agents sorted by cell (x fastest), so the
// cells of one row along x sit next to each other. A query reads, for every
// row of cells (y, z) the sphere touches, the run of cells its chord across
// that row covers; with cells half the range wide that is about 21 short
// runs holding about twice the agents in range. Few candidates are gathered
// and ranked without branches (neighbor_select.hpp).
//
// Hashed (agents spread so thinly that a box of cells would not fit in
// memory linear in N): cells hashed into about 2N buckets; a query visits
// the cube of cells around the sphere, or scans all agents when that cube
// has more cells than there are agents.
//
// A crowded bucket (many agents on one spot) gets a small k-d tree over its
// agents, as in NeighborGrid: nodes know their bounding box and lowest slot,
// and a k-nearest query skips every node that cannot hold an agent nearer
// (or as near with a lower slot) than the k-th found so far, so one query
// costs about O(k log n) rather than O(n) however many share the spot.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "spatial/neighbor_grid.hpp"  // Neighbor, closer
#include "maths/floor_int.hpp"
#include "maths/sse2.hpp"
#include "maths/vec3.hpp"

namespace vosim {

// The cells first..last, counted from `origin` in cells 1 / inv_cell wide,
// that the segment [from, to] (from <= to, neither NaN) overlaps, clamped
// to [lo, hi]: whole numbers with 0 <= lo <= hi <= 2^31 - 1. Clamping
// before the floor gives the same integers, and from there the floor is a
// truncation, two an SSE2 instruction. Both paths give the same cells.
template <bool sse2 = kSse2>
inline void cells_across(double from, double to, double origin, double inv_cell, double lo, double hi,
                         std::int64_t& first, std::int64_t& last) {
#if VOSIM_HAS_SSE2
    if constexpr (sse2) {
        __m128d c = _mm_mul_pd(_mm_sub_pd(_mm_set_pd(to, from), _mm_set1_pd(origin)), _mm_set1_pd(inv_cell));
        c = _mm_min_pd(_mm_max_pd(c, _mm_set1_pd(lo)), _mm_set1_pd(hi));
        const __m128i cells = _mm_cvttpd_epi32(c);
        first = _mm_cvtsi128_si32(cells);
        last = _mm_cvtsi128_si32(_mm_shuffle_epi32(cells, 1));
        return;
    }
#endif
    first = floor_to_int(min_of(max_of((from - origin) * inv_cell, lo), hi));
    last = floor_to_int(min_of(max_of((to - origin) * inv_cell, lo), hi));
}

class NeighborGrid3 {
public:
    // At most this many cells along an axis: cell coordinates stay exact
    // integers, and a grid over a huge spread degrades to coarser cells, not
    // to overflow.
    static constexpr double kMaxCellsPerAxis = 1 << 20;

    // Indexes the points positions[3k .. 3k+2] for k < count whose `active`
    // flag is set (all when `active` is null), in cells `cell_size` wide;
    // cells `coarse_cell_size` wide when finer ones would not fit a dense
    // grid (ignored when not larger than cell_size).
    void build(const double* positions, const std::uint8_t* active, int count, double cell_size,
               double coarse_cell_size = 0.0);

    // The up to `max_k` nearest agents to `p` with dist_sq < range^2, other
    // than `self_slot`, sorted by `closer`. `out` must hold `max_k` entries.
    int nearest(Vec3 p, double range, int max_k, std::int32_t self_slot, Neighbor* out) const;

    // Calls f(slot, dist_sq) for every indexed agent with dist_sq < range^2.
    template <class F>
    void for_each_within(Vec3 p, double range, F&& f) const;

    int size() const { return static_cast<int>(slots_.size()); }
    bool dense() const { return dense_; }
    const std::vector<std::int32_t>& slots_in_cell_order() const { return slots_; }

private:
    // Cell coordinate along `axis`, clamped one cell outside the grid (and
    // to kMaxCellsPerAxis, where coordinates are still exact integers).
    std::int64_t cell_coord(double x, int axis) const {
        // Clamped before the floor, which gives the same integer (the
        // bounds are integers) and lets floor_to_int skip the library call.
        double c = (x - origin_[axis]) * inv_cell_size_;
        if (c < -1.0) c = -1.0;  // comparisons, not fmin/fmax: those are library calls here
        if (c > kMaxCellsPerAxis + 1.0) c = kMaxCellsPerAxis + 1.0;
        return floor_to_int(c);
    }
    std::size_t bucket_of(std::int64_t x, std::int64_t y, std::int64_t z) const;
    // Dense: calls run(begin, end) for the runs of points_ in the cells a
    // sphere of `range` around p can touch, row by row.
    template <class F>
    void visit_runs(Vec3 p, double range, F&& run) const;
    // Dense: calls row_cells(first bucket, last bucket) for the cells of
    // each row that a sphere of `range` around p can touch.
    template <class F>
    void visit_row_cells(Vec3 p, double range, F&& row_cells) const;
    // Hashed: calls f(index into points_) for every point of a cell within
    // the cube of cells around p that a sphere of `range` can touch (or
    // every point).
    template <class F>
    void visit_hashed(Vec3 p, double range, F&& f) const;
    // Hashed, with trees: calls bucket(b, x, y, z) for every cell of that
    // cube (or bucket(b, 0, 0, 0) with whole = true for every bucket).
    template <class F>
    void visit_hashed_buckets(Vec3 p, double range, F&& bucket) const;
    // nearest() when some buckets have trees.
    int nearest_with_trees(Vec3 p, double range_sq, double range, int max_k, std::int32_t self_slot,
                           Neighbor* out) const;

    // A node of a crowded bucket's k-d tree over points_[begin, end).
    struct TreeNode {
        Vec3 lo, hi;  // bounding box of its points
        std::uint32_t begin, end;
        std::int32_t min_slot;  // lowest slot among its points
        std::int32_t left;      // first child (the second is left + 1); -1 for a leaf
    };
    struct Entry {
        Vec3 point;
        std::int32_t slot;
        std::int64_t cell[3];  // hashed grids only
    };
    void build_trees();
    void build_tree(Entry* entries, std::uint32_t offset, std::uint32_t begin, std::uint32_t end,
                    std::int32_t at);

    bool dense_ = true;
    double cell_size_ = 1.0;
    double inv_cell_size_ = 1.0;
    double slack_ = 0.0;  // widens row bounds against rounding in cell_coord
    double origin_[3] = {0.0, 0.0, 0.0};
    std::int64_t cells_[3] = {1, 1, 1};        // dense: cells along x, y, z
    std::vector<Vec3> points_;                 // in cell (bucket) order
    std::vector<std::int32_t> slots_;          // points_' slots
    std::vector<std::int64_t> point_cells_;    // hashed: points_' cells (x, y, z)
    std::vector<std::uint32_t> bucket_start_;  // cells (dense) or buckets + 1 offsets into points_
    std::vector<TreeNode> nodes_;              // the trees of all crowded buckets
    std::vector<std::int32_t> bucket_root_;    // per bucket: its tree's root or -1 (empty: no trees)
};

template <class F>
void NeighborGrid3::visit_row_cells(Vec3 p, double range, F&& row_cells) const {
    const double range_sq = range * range;
    std::int64_t lo[3], hi[3];
    const double at[3] = {p.x, p.y, p.z};
    for (int d = 0; d < 3; ++d) {
        lo[d] = std::max<std::int64_t>(0, cell_coord(at[d] - range, d));
        hi[d] = std::min<std::int64_t>(cells_[d] - 1, cell_coord(at[d] + range, d));
        if (lo[d] > hi[d]) return;
    }
    // How far p lies from the slab of cells `c` along an axis (0 inside it).
    auto gap = [&](std::int64_t c, int d) {
        const double low = origin_[d] + static_cast<double>(c) * cell_size_ - slack_;
        const double high = low + cell_size_ + 2.0 * slack_;
        return at[d] < low ? low - at[d] : at[d] > high ? at[d] - high : 0.0;
    };
    const double lo_x = static_cast<double>(lo[0]);
    const double hi_x = static_cast<double>(hi[0]);
    // The rows' gaps along y are the same in every z slab: computed once
    // (a query spans at most 6 cells per axis in the engine's grids).
    constexpr std::int64_t kKeptGaps = 8;
    double gap_y_sq[kKeptGaps];
    const bool kept = hi[1] - lo[1] < kKeptGaps;
    if (kept) {
        for (std::int64_t y = lo[1]; y <= hi[1]; ++y) gap_y_sq[y - lo[1]] = sqr(gap(y, 1));
    }
    for (std::int64_t z = lo[2]; z <= hi[2]; ++z) {
        const double dz_sq = sqr(gap(z, 2));
        if (!(dz_sq < range_sq)) continue;
        for (std::int64_t y = lo[1]; y <= hi[1]; ++y) {
            const double rest = range_sq - dz_sq - (kept ? gap_y_sq[y - lo[1]] : sqr(gap(y, 1)));
            if (!(rest > 0.0)) continue;
            const double half = std::sqrt(rest);
            std::int64_t x_lo, x_hi;  // (never empty: the chord is clamped to the cells in reach)
            cells_across(p.x - half, p.x + half, origin_[0], inv_cell_size_, lo_x, hi_x, x_lo, x_hi);
            const std::size_t row = static_cast<std::size_t>((z * cells_[1] + y) * cells_[0]);
            row_cells(row + static_cast<std::size_t>(x_lo), row + static_cast<std::size_t>(x_hi));
        }
    }
}

template <class F>
void NeighborGrid3::visit_runs(Vec3 p, double range, F&& run) const {
    visit_row_cells(p, range, [&](std::size_t first, std::size_t last) {
        run(bucket_start_[first], bucket_start_[last + 1]);
    });
}

template <class F>
void NeighborGrid3::visit_hashed_buckets(Vec3 p, double range, F&& bucket) const {
    std::int64_t lo[3], hi[3];
    const double at[3] = {p.x, p.y, p.z};
    for (int d = 0; d < 3; ++d) {
        lo[d] = cell_coord(at[d] - range, d);
        hi[d] = cell_coord(at[d] + range, d);
    }
    const double cells = static_cast<double>(hi[0] - lo[0] + 1) * static_cast<double>(hi[1] - lo[1] + 1) *
                         static_cast<double>(hi[2] - lo[2] + 1);
    const std::size_t buckets = bucket_start_.size() - 1;
    if (cells >= static_cast<double>(points_.size())) {
        for (std::size_t b = 0; b < buckets; ++b) bucket(b, 0, 0, 0, true);
        return;
    }
    for (std::int64_t z = lo[2]; z <= hi[2]; ++z) {
        for (std::int64_t y = lo[1]; y <= hi[1]; ++y) {
            for (std::int64_t x = lo[0]; x <= hi[0]; ++x) bucket(bucket_of(x, y, z), x, y, z, false);
        }
    }
}

template <class F>
void NeighborGrid3::visit_hashed(Vec3 p, double range, F&& f) const {
    visit_hashed_buckets(p, range, [&](std::size_t b, std::int64_t x, std::int64_t y, std::int64_t z, bool whole) {
        for (std::uint32_t k = bucket_start_[b]; k < bucket_start_[b + 1]; ++k) {
            const std::int64_t* c = &point_cells_[3 * static_cast<std::size_t>(k)];
            // Other cells hashed to the same bucket are theirs to visit.
            if (whole || (c[0] == x && c[1] == y && c[2] == z)) f(k);
        }
    });
}

template <class F>
void NeighborGrid3::for_each_within(Vec3 p, double range, F&& f) const {
    if (points_.empty() || !(range > 0.0)) return;
    const double range_sq = range * range;
    auto point = [&](std::size_t k) {
        const double d = abs_sq(points_[k] - p);
        if (d < range_sq) f(slots_[k], d);
    };
    if (dense_) {
        visit_runs(p, range, [&](std::uint32_t begin, std::uint32_t end) {
            for (std::uint32_t k = begin; k < end; ++k) point(k);
        });
    } else {
        visit_hashed(p, range, point);
    }
}

}  // namespace vosim
