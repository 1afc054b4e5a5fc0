// Spatial index over the active agents of one scene, rebuilt every step.
//
// A uniform grid of square cells, stored as a counting sort of the agents by
// cell, so that the agents of one cell sit next to each other in memory. When
// the occupied area is small compared with the number of agents the grid is
// dense (one bucket per cell); otherwise cells are hashed into 2N buckets,
// which keeps memory linear whatever the spread of positions.
//
// In a dense grid the buckets of one row of cells are contiguous, so a query
// reads each row of cells it overlaps as one run of points, trimmed to the
// chord of the query circle: no per-cell work, and with cells half the
// query range few points outside the circle. When those rows hold few
// points, every point in range is gathered without branching on its
// distance and the candidates are ranked pairwise (two comparisons an
// SSE2 instruction, neighbor_select.hpp); crowded rows fall back to
// insertion with a shrinking bound.
//
// The k-nearest query has RVO2's semantics: neighbours strictly closer than
// the range, the `max_k` nearest of them, ties broken by the lower slot.
//
// A cell holding many agents (a dense crowd, or many agents on one spot)
// gets a small k-d tree over its agents, whose nodes know their bounding box
// and their lowest slot. A query then skips every node that cannot hold an
// agent nearer (or as near with a lower slot) than the k-th found so far, so
// the work per query stays about O(k log n) even when every agent of the
// scene stands on the same point, instead of O(n).
#pragma once

#include <algorithm>
#include <cmath>
#include <climits>
#include <cstdint>
#include <vector>

#include "maths/floor_int.hpp"
#include "maths/vec2.hpp"

namespace vosim {

struct Neighbor {
    double dist_sq;
    std::int32_t slot;
    // Periodic axis (periodic.hpp): the neighbour is seen at its position
    // plus `image` periods; 0 without one. Fills the struct's padding. No
    // default member initialiser, so that arrays of neighbours stay
    // uninitialised scratch: Neighbor{d, slot, 0} sets it to 0.
    std::int32_t image;
};

// Strict order used for the neighbour sets: distance first, then slot.
inline bool closer(const Neighbor& a, const Neighbor& b) {
    return a.dist_sq < b.dist_sq || (a.dist_sq == b.dist_sq && a.slot < b.slot);
}

class NeighborGrid {
public:
    // Indexes the points positions[2k], positions[2k+1] for k < count whose
    // `active` flag is set (all when `active` is null). Cells are `cell_size`
    // wide; a typical query range is a good choice. When that grid would not
    // be dense, cells `coarse_cell_size` wide are used instead if they make
    // it dense (default: cell_size, no second choice). Up to `threads`
    // threads build it (the result does not depend on how many).
    void build(const double* positions, const std::uint8_t* active, int count, double cell_size,
               double coarse_cell_size = 0.0, int threads = 1);

    // The up to `max_k` nearest agents to `p` with dist_sq < range^2, other than
    // `self_slot`, sorted by `closer`. `out` must hold `max_k` entries.
    // Returns how many were found.
    int nearest(Vec2 p, double range, int max_k, std::int32_t self_slot, Neighbor* out) const;

    // Calls f(slot, dist_sq) for every indexed agent with dist_sq < range^2,
    // in no particular order.
    template <class F>
    void for_each_within(Vec2 p, double range, F&& f) const;

    int size() const { return static_cast<int>(slots_.size()); }

    // Agents in cell order: iterating over them in this order keeps neighbours
    // close in memory.
    const std::vector<std::int32_t>& slots_in_cell_order() const { return slots_; }

    // Bytes its arrays hold (their capacities), for tests and benchmarks of
    // its memory.
    std::size_t held_bytes() const;

private:
    // A node of a crowded cell's k-d tree over points_[begin, end).
    struct TreeNode {
        double lo_x, lo_y, hi_x, hi_y;  // bounding box of its points
        std::uint32_t begin, end;
        std::int32_t min_slot;          // lowest slot among its points
        std::int32_t left;              // first child (the second is left + 1); -1 for a leaf
    };
    struct Entry {
        Vec2 point;
        std::int32_t slot;
    };

    std::int64_t cell_coord(double v) const;
    // nearest() in a dense grid without trees: rows of cells, nearest row first.
    int nearest_in_rows(Vec2 p, double range, int max_k, std::int32_t self_slot, Neighbor* out) const;
    // The counting sort of build(), on up to `threads` threads.
    void sort_into_buckets(const double* positions, const std::uint8_t* active, int count,
                           std::size_t buckets, int threads);
    // Its last pass for one block of buckets (see there).
    // (Plain doubles, not a Vec2: an array of them on the stack is left
    // uninitialised rather than zeroed for every block.)
    struct BlockEntry {
        double x, y;
        std::int32_t slot;
        std::uint32_t bucket;  // within its block
    };
    void sort_block(std::uint32_t begin, std::uint32_t end, std::size_t first, std::size_t width,
                    BlockEntry* buffer);
    // Calls f(slot, dist_sq) for the agents of the cells visit_cells visits,
    // skipping tree nodes that cannot hold an agent closer than limit()
    // (a Neighbor: the k-th found so far, or {range^2, INT32_MAX}).
    template <class Limit, class F>
    void scan(Vec2 p, double range, Limit&& limit, F&& f) const;
    // The part of `scan` for one crowded bucket with a tree.
    template <class Limit, class F>
    void scan_tree(std::int32_t root, Vec2 p, double range_sq, Limit&& limit, bool check_cell,
                   std::int64_t x, std::int64_t y, F&& f) const;
    void build_trees();
    void build_tree(Entry* entries, std::uint32_t offset, std::uint32_t begin, std::uint32_t end,
                    std::int32_t at);
    static double box_dist_sq(const TreeNode& node, Vec2 p);
    std::size_t bucket_of(std::int64_t cx, std::int64_t cy) const;
    // Visits the cells that may hold points within `range` of `p`, nearest
    // rings first, as visit(cell_x, cell_y, whole_table). Cells farther than
    // limit_sq() are skipped, and the walk stops once a whole ring is. When the
    // range spans more cells than there are buckets, it makes a single call
    // with whole_table = true instead.
    template <class Limit, class Visit>
    void visit_cells(Vec2 p, double range, Limit&& limit_sq, Visit&& visit) const;

    double cell_size_ = 1.0;
    // Cells are assigned by floor(x / cell_size), which can disagree by
    // rounding with the rectangle [k, k + 1) * cell_size; pruning distances
    // are shortened by this much so that no point is ever pruned wrongly.
    double slack_ = 0.0;
    double inv_cell_size_ = 1.0;
    bool dense_ = true;
    bool single_cell_ = true;  // every agent in one bucket: plain scan
    std::int64_t min_cx_ = 0, min_cy_ = 0, width_ = 1, height_ = 1;
    std::size_t bucket_mask_ = 0;
    std::vector<std::uint32_t> bucket_start_;  // size buckets + 1
    std::vector<std::int32_t> slots_;          // agents sorted by bucket
    std::vector<Vec2> points_;                 // their positions, same order
    std::vector<std::uint32_t> cursors_;       // per part and block of buckets, during a parallel build
    std::vector<TreeNode> nodes_;              // the trees of all crowded buckets
    std::vector<std::int32_t> bucket_root_;    // per bucket: its tree's root or -1 (empty: no trees)
    std::vector<Entry> scratch_entries_;       // during build
};

// max/min of values that are never NaN here (distances, coordinates):
// inlined, where std::fmax/fmin are library calls without -ffast-math.
inline double max_of(double a, double b) { return a > b ? a : b; }
inline double min_of(double a, double b) { return a < b ? a : b; }

// Cell coordinates stay below this magnitude (see build): exact in a double
// and far from overflowing the integer conversion.
constexpr double kMaxCellCoord = 1e15;

inline std::int64_t NeighborGrid::cell_coord(double v) const {
    // floor(v / cell) clamped to +-kMaxCellCoord. Clamping before the floor
    // gives the same integer (the bounds are integers) and lets floor_to_int
    // skip the library's floor. Plain comparisons rather than fmin/fmax
    // (library calls without -ffast-math), ordered so that NaN gives
    // -kMaxCellCoord as fmax did.
    const double x = v * inv_cell_size_;
    return floor_to_int(x >= -kMaxCellCoord ? (x <= kMaxCellCoord ? x : kMaxCellCoord) : -kMaxCellCoord);
}

inline std::size_t NeighborGrid::bucket_of(std::int64_t cx, std::int64_t cy) const {
    if (dense_) {
        return static_cast<std::size_t>((cy - min_cy_) * width_ + (cx - min_cx_));
    }
    std::uint64_t h = static_cast<std::uint64_t>(cx) * 0x9E3779B97F4A7C15ull ^
                      static_cast<std::uint64_t>(cy) * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 29;
    return static_cast<std::size_t>(h) & bucket_mask_;
}

inline double NeighborGrid::box_dist_sq(const TreeNode& node, Vec2 p) {
    // Computed with the same subtractions as abs_sq(q - p), which are
    // monotonic: never more than the computed distance of any point inside.
    const double gx = max_of(0.0, max_of(node.lo_x - p.x, p.x - node.hi_x));
    const double gy = max_of(0.0, max_of(node.lo_y - p.y, p.y - node.hi_y));
    return gx * gx + gy * gy;
}

template <class Limit, class Visit>
void NeighborGrid::visit_cells(Vec2 p, double range, Limit&& limit_sq, Visit&& visit) const {
    if (single_cell_) {
        visit(std::int64_t{0}, std::int64_t{0}, true);
        return;
    }
    const double reach_cells = min_of(range * inv_cell_size_, 4e15);
    const std::int64_t cx = cell_coord(p.x);
    const std::int64_t cy = cell_coord(p.y);
    std::int64_t rings = static_cast<std::int64_t>(reach_cells) + 1;
    if (dense_) {
        // No cell beyond the occupied rectangle holds anything.
        const std::int64_t farthest =
            std::max(std::max(cx - min_cx_, min_cx_ + width_ - 1 - cx),
                     std::max(cy - min_cy_, min_cy_ + height_ - 1 - cy));
        rings = std::min(rings, std::max<std::int64_t>(farthest, 0));
    } else {
        // A range spanning more cells than there are buckets: scanning every
        // bucket once is cheaper than walking the cells.
        const double span = 2.0 * (reach_cells + 1.0) + 1.0;
        if (span * span > static_cast<double>(bucket_start_.size())) {
            visit(std::int64_t{0}, std::int64_t{0}, true);
            return;
        }
    }
    const double range_sq = range * range;
    // Distance from p to the border of its own cell: ring r is at least
    // (r - 1) cells plus this far away.
    const double own_x = static_cast<double>(cx) * cell_size_;
    const double own_y = static_cast<double>(cy) * cell_size_;
    const double inner = max_of(0.0, min_of(min_of(p.x - own_x, own_x + cell_size_ - p.x),
                                                  min_of(p.y - own_y, own_y + cell_size_ - p.y)));
    for (std::int64_t ring = 0; ring <= rings; ++ring) {
        if (ring > 0) {
            const double bound = max_of(0.0, static_cast<double>(ring - 1) * cell_size_ + inner - slack_);
            if (bound * bound >= range_sq || bound * bound > limit_sq()) return;
        }
        for (std::int64_t dy = -ring; dy <= ring; ++dy) {
            const bool edge_row = (dy == -ring || dy == ring);
            const std::int64_t step = (edge_row || ring == 0) ? 1 : 2 * ring;
            for (std::int64_t dx = -ring; dx <= ring; dx += step) {
                const std::int64_t x = cx + dx;
                const std::int64_t y = cy + dy;
                if (dense_ && (x < min_cx_ || y < min_cy_ || x >= min_cx_ + width_ ||
                               y >= min_cy_ + height_)) {
                    continue;
                }
                const double lo_x = static_cast<double>(x) * cell_size_;
                const double lo_y = static_cast<double>(y) * cell_size_;
                const double gx = max_of(0.0, max_of(lo_x - p.x, p.x - (lo_x + cell_size_)) - slack_);
                const double gy = max_of(0.0, max_of(lo_y - p.y, p.y - (lo_y + cell_size_)) - slack_);
                const double min_dist_sq = gx * gx + gy * gy;
                if (min_dist_sq >= range_sq || min_dist_sq > limit_sq()) continue;
                visit(x, y, false);
            }
        }
    }
}

template <class F>
void NeighborGrid::for_each_within(Vec2 p, double range, F&& f) const {
    const double range_sq = range * range;
    const Neighbor limit{range_sq, INT32_MAX, 0};
    scan(p, range, [limit] { return limit; }, [&](std::int32_t slot, double d) {
        if (d < range_sq) f(slot, d);
    });
}

template <class Limit, class F>
void NeighborGrid::scan_tree(std::int32_t root, Vec2 p, double range_sq, Limit&& limit,
                             bool check_cell, std::int64_t x, std::int64_t y, F&& f) const {
    // Depth-first, nearer child first. Trees are balanced (median splits), so
    // their depth is below 32 and at most one pending node per level plus
    // two are on the stack.
    std::int32_t stack[72];
    int top = 0;
    stack[top++] = root;
    while (top > 0) {
        const TreeNode& node = nodes_[stack[--top]];
        const Neighbor best{box_dist_sq(node, p), node.min_slot, 0};
        if (best.dist_sq >= range_sq || !closer(best, limit())) continue;
        if (node.left < 0) {
            for (std::uint32_t j = node.begin; j < node.end; ++j) {
                const Vec2 q = points_[j];
                if (check_cell && (cell_coord(q.x) != x || cell_coord(q.y) != y)) continue;
                f(slots_[j], abs_sq(q - p));
            }
            continue;
        }
        const TreeNode& first = nodes_[node.left];
        const TreeNode& second = nodes_[node.left + 1];
        const bool first_nearer = closer(Neighbor{box_dist_sq(first, p), first.min_slot, 0},
                                         Neighbor{box_dist_sq(second, p), second.min_slot, 0});
        stack[top++] = first_nearer ? node.left + 1 : node.left;
        stack[top++] = first_nearer ? node.left : node.left + 1;
    }
}

template <class Limit, class F>
void NeighborGrid::scan(Vec2 p, double range, Limit&& limit, F&& f) const {
    const auto limit_sq = [&limit] { return limit().dist_sq; };
    visit_cells(p, range, limit_sq, [&](std::int64_t x, std::int64_t y, bool whole_table) {
        std::uint32_t begin = 0;
        std::uint32_t end = static_cast<std::uint32_t>(points_.size());
        const bool check_cell = !whole_table && !dense_;
        if (!whole_table) {
            const std::size_t b = bucket_of(x, y);
            if (!bucket_root_.empty() && bucket_root_[b] >= 0) {
                scan_tree(bucket_root_[b], p, range * range, limit, check_cell, x, y, f);
                return;
            }
            begin = bucket_start_[b];
            end = bucket_start_[b + 1];
        }
        for (std::uint32_t j = begin; j < end; ++j) {
            const Vec2 q = points_[j];
            // In a hashed grid, other cells may share this bucket.
            if (check_cell && (cell_coord(q.x) != x || cell_coord(q.y) != y)) continue;
            f(slots_[j], abs_sq(q - p));
        }
    });
}

}  // namespace vosim
