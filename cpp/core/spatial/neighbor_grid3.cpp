#include "spatial/neighbor_grid3.hpp"

#include <algorithm>
#include <climits>

#include "maths/min_max_number.hpp"
#include "spatial/neighbor_select.hpp"

namespace vosim {

namespace {

// A bucket holding more agents than this gets a k-d tree whose leaves hold
// at most kLeafSize agents.
constexpr std::uint32_t kCrowdedBucket = 48;
constexpr std::uint32_t kLeafSize = 12;

// Squared distance from p to a box, computed with the same subtractions as
// abs_sq(q - p), which are monotonic: never more than the computed distance
// of any point inside.
double box_dist_sq(Vec3 lo, Vec3 hi, Vec3 p) {
    const double gx = max_of(0.0, max_of(lo.x - p.x, p.x - hi.x));
    const double gy = max_of(0.0, max_of(lo.y - p.y, p.y - hi.y));
    const double gz = max_of(0.0, max_of(lo.z - p.z, p.z - hi.z));
    return gx * gx + gy * gy + gz * gz;
}

}  // namespace

std::size_t NeighborGrid3::bucket_of(std::int64_t x, std::int64_t y, std::int64_t z) const {
    std::uint64_t h = static_cast<std::uint64_t>(x) * 0x9E3779B97F4A7C15ull;
    h ^= static_cast<std::uint64_t>(y) * 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2);
    h ^= static_cast<std::uint64_t>(z) * 0x165667B19E3779F9ull + (h << 6) + (h >> 2);
    return static_cast<std::size_t>(h % (bucket_start_.size() - 1));
}

void NeighborGrid3::build(const double* positions, const std::uint8_t* active, int count, double cell_size,
                          double coarse_cell_size) {
    // The active points in slot order, and their bounding box.
    std::vector<Vec3> points;
    std::vector<std::int32_t> slots;
    Vec3 lo, hi;
    double extent = 0.0;  // largest |coordinate|
    for (int k = 0; k < count; ++k) {
        if (active && !active[k]) continue;
        const Vec3 p(positions[3 * k], positions[3 * k + 1], positions[3 * k + 2]);
        if (points.empty()) lo = hi = p;
        // (fmin and fmax inlined: the library calls cost more than the rest of the loop)
        lo = Vec3(min_number(lo.x, p.x), min_number(lo.y, p.y), min_number(lo.z, p.z));
        hi = Vec3(max_number(hi.x, p.x), max_number(hi.y, p.y), max_number(hi.z, p.z));
        extent = max_number(extent, max_number(std::fabs(p.x), max_number(std::fabs(p.y), std::fabs(p.z))));
        points.push_back(p);
        slots.push_back(k);
    }
    const std::size_t n = points.size();
    origin_[0] = lo.x;
    origin_[1] = lo.y;
    origin_[2] = lo.z;
    const double span = std::fmax(hi.x - lo.x, std::fmax(hi.y - lo.y, hi.z - lo.z));
    const double dense_limit = 2.0 * static_cast<double>(n) + 64.0;
    auto choose = [&](double size) {
        cell_size_ = size > 0.0 && std::isfinite(size) ? size : 1.0;
        cell_size_ = std::fmax(cell_size_, span / kMaxCellsPerAxis);
        inv_cell_size_ = 1.0 / cell_size_;
        const double width[3] = {hi.x - lo.x, hi.y - lo.y, hi.z - lo.z};
        double cells = 1.0;
        for (int d = 0; d < 3; ++d) {
            cells_[d] = static_cast<std::int64_t>(std::floor(width[d] * inv_cell_size_)) + 1;
            cells *= static_cast<double>(cells_[d]);  // (in doubles: the product may not fit an integer)
        }
        return cells;
    };
    double cells = choose(cell_size);
    if (cells > dense_limit && coarse_cell_size > cell_size) cells = choose(coarse_cell_size);
    dense_ = cells <= dense_limit;
    slack_ = (extent + cell_size_) * 1e-12;

    // Counting sort by cell (dense) or bucket (hashed); stable, so each cell
    // lists its slots ascending.
    const std::size_t buckets = dense_ ? static_cast<std::size_t>(cells) : 2 * n + 1;
    bucket_start_.assign(buckets + 1, 0);
    std::vector<std::size_t> bucket(n);
    std::vector<std::int64_t> cell(3 * n);
    for (std::size_t k = 0; k < n; ++k) {
        std::int64_t* c = &cell[3 * k];
        c[0] = cell_coord(points[k].x, 0);
        c[1] = cell_coord(points[k].y, 1);
        c[2] = cell_coord(points[k].z, 2);
        if (dense_) {
            // Inside the box by construction, but guard the last cell against rounding.
            for (int d = 0; d < 3; ++d) c[d] = std::min(std::max<std::int64_t>(c[d], 0), cells_[d] - 1);
            bucket[k] = static_cast<std::size_t>((c[2] * cells_[1] + c[1]) * cells_[0] + c[0]);
        } else {
            bucket[k] = bucket_of(c[0], c[1], c[2]);
        }
        ++bucket_start_[bucket[k] + 1];
    }
    for (std::size_t b = 0; b < buckets; ++b) bucket_start_[b + 1] += bucket_start_[b];
    points_.resize(n);
    slots_.resize(n);
    point_cells_.assign(dense_ ? 0 : 3 * n, 0);
    std::vector<std::uint32_t> next(bucket_start_.begin(), bucket_start_.end() - 1);
    for (std::size_t k = 0; k < n; ++k) {
        const std::uint32_t at = next[bucket[k]]++;
        points_[at] = points[k];
        slots_[at] = slots[k];
        if (!dense_) std::copy(&cell[3 * k], &cell[3 * k] + 3, &point_cells_[3 * static_cast<std::size_t>(at)]);
    }
    build_trees();
}

void NeighborGrid3::build_trees() {
    nodes_.clear();
    bucket_root_.clear();
    const std::size_t buckets = bucket_start_.size() - 1;
    std::vector<Entry> entries;
    for (std::size_t b = 0; b < buckets; ++b) {
        const std::uint32_t begin = bucket_start_[b];
        const std::uint32_t end = bucket_start_[b + 1];
        if (end - begin <= kCrowdedBucket) continue;
        if (bucket_root_.empty()) bucket_root_.assign(buckets, -1);
        entries.resize(end - begin);
        for (std::uint32_t j = begin; j < end; ++j) {
            Entry& e = entries[j - begin];
            e.point = points_[j];
            e.slot = slots_[j];
            if (!dense_) std::copy(&point_cells_[3 * std::size_t{j}], &point_cells_[3 * std::size_t{j}] + 3, e.cell);
        }
        bucket_root_[b] = static_cast<std::int32_t>(nodes_.size());
        nodes_.emplace_back();
        build_tree(entries.data(), begin, 0, end - begin, bucket_root_[b]);
        for (std::uint32_t j = begin; j < end; ++j) {
            const Entry& e = entries[j - begin];
            points_[j] = e.point;
            slots_[j] = e.slot;
            if (!dense_) std::copy(e.cell, e.cell + 3, &point_cells_[3 * std::size_t{j}]);
        }
    }
}

// Fills node `at` with the subtree over entries[begin, end) (stored at
// points_[offset + begin, offset + end)). Splits at the median of the longest
// side of the bounding box, ordering by (coordinate, slot): halves of equal
// size whatever the positions, and agents on one spot split by slot, so
// that the lowest slots gather in few nodes.
void NeighborGrid3::build_tree(Entry* entries, std::uint32_t offset, std::uint32_t begin, std::uint32_t end,
                               std::int32_t at) {
    TreeNode node{entries[begin].point, entries[begin].point, offset + begin, offset + end, entries[begin].slot, -1};
    for (std::uint32_t j = begin + 1; j < end; ++j) {
        const Entry& e = entries[j];
        node.lo = Vec3(std::fmin(node.lo.x, e.point.x), std::fmin(node.lo.y, e.point.y), std::fmin(node.lo.z, e.point.z));
        node.hi = Vec3(std::fmax(node.hi.x, e.point.x), std::fmax(node.hi.y, e.point.y), std::fmax(node.hi.z, e.point.z));
        node.min_slot = std::min(node.min_slot, e.slot);
    }
    const std::uint32_t middle = begin + (end - begin) / 2;
    if (end - begin > kLeafSize) {
        const double width[3] = {node.hi.x - node.lo.x, node.hi.y - node.lo.y, node.hi.z - node.lo.z};
        const int axis = width[0] >= width[1] ? (width[0] >= width[2] ? 0 : 2) : (width[1] >= width[2] ? 1 : 2);
        auto coordinate = [axis](const Entry& e) { return axis == 0 ? e.point.x : axis == 1 ? e.point.y : e.point.z; };
        std::nth_element(entries + begin, entries + middle, entries + end, [&](const Entry& a, const Entry& b) {
            const double ca = coordinate(a), cb = coordinate(b);
            return ca < cb || (ca == cb && a.slot < b.slot);
        });
        node.left = static_cast<std::int32_t>(nodes_.size());
        nodes_.emplace_back();
        nodes_.emplace_back();
    }
    nodes_[at] = node;
    if (node.left >= 0) {
        build_tree(entries, offset, begin, middle, node.left);
        build_tree(entries, offset, middle, end, node.left + 1);
    }
}

int NeighborGrid3::nearest_with_trees(Vec3 p, double range_sq, double range, int max_k, std::int32_t self_slot,
                                      Neighbor* out) const {
    int count = 0;
    const Neighbor no_limit{range_sq, INT32_MAX, 0};
    auto limit = [&] { return count == max_k ? out[max_k - 1] : no_limit; };
    auto consider = [&](std::uint32_t k) {
        const std::int32_t slot = slots_[k];
        if (slot == self_slot) return;
        const double d = abs_sq(points_[k] - p);
        if (d < range_sq) insert_nearest(Neighbor{d, slot, 0}, out, count, max_k);
    };
    // In a hashed grid a bucket may hold other cells too: theirs to visit.
    auto in_cell = [&](std::uint32_t k, const std::int64_t* cell) {
        const std::int64_t* c = &point_cells_[3 * std::size_t{k}];
        return !cell || (c[0] == cell[0] && c[1] == cell[1] && c[2] == cell[2]);
    };
    auto scan_bucket = [&](std::size_t b, const std::int64_t* cell) {
        if (bucket_root_[b] < 0) {
            for (std::uint32_t k = bucket_start_[b]; k < bucket_start_[b + 1]; ++k) {
                if (in_cell(k, cell)) consider(k);
            }
            return;
        }
        // Depth first, nearer child first; trees are balanced (median
        // splits), so a stack of 72 is ample.
        std::int32_t stack[72];
        int top = 0;
        stack[top++] = bucket_root_[b];
        while (top > 0) {
            const TreeNode& node = nodes_[stack[--top]];
            const Neighbor best{box_dist_sq(node.lo, node.hi, p), node.min_slot, 0};
            if (best.dist_sq >= range_sq || !closer(best, limit())) continue;
            if (node.left < 0) {
                for (std::uint32_t k = node.begin; k < node.end; ++k) {
                    if (in_cell(k, cell)) consider(k);
                }
                continue;
            }
            const TreeNode& first = nodes_[node.left];
            const TreeNode& second = nodes_[node.left + 1];
            const bool first_nearer = closer(Neighbor{box_dist_sq(first.lo, first.hi, p), first.min_slot, 0},
                                             Neighbor{box_dist_sq(second.lo, second.hi, p), second.min_slot, 0});
            stack[top++] = first_nearer ? node.left + 1 : node.left;
            stack[top++] = first_nearer ? node.left : node.left + 1;
        }
    };
    if (dense_) {
        visit_row_cells(p, range, [&](std::size_t first, std::size_t last) {
            for (std::size_t b = first; b <= last; ++b) scan_bucket(b, nullptr);
        });
    } else {
        visit_hashed_buckets(p, range, [&](std::size_t b, std::int64_t x, std::int64_t y, std::int64_t z, bool whole) {
            const std::int64_t cell[3] = {x, y, z};
            scan_bucket(b, whole ? nullptr : cell);
        });
    }
    return count;
}

int NeighborGrid3::nearest(Vec3 p, double range, int max_k, std::int32_t self_slot, Neighbor* out) const {
    if (max_k <= 0 || points_.empty() || !(range > 0.0)) return 0;
    const double range_sq = range * range;
    if (dense_) {
        // The runs of the rows the sphere touches; few points: gather those
        // in range, then rank them.
        constexpr int kMaxRuns = 32;
        std::uint32_t run_begin[kMaxRuns];
        std::uint32_t run_end[kMaxRuns];
        int runs = 0;
        std::uint32_t points_in_runs = 0;
        bool few = true;
        visit_runs(p, range, [&](std::uint32_t begin, std::uint32_t end) {
            if (begin == end || !few) return;
            if (runs == kMaxRuns) {
                few = false;
                return;
            }
            run_begin[runs] = begin;
            run_end[runs] = end;
            points_in_runs += end - begin;
            ++runs;
        });
        if (few && points_in_runs <= kGatherMax) {
            return nearest_in_runs(points_.data(), slots_.data(), run_begin, run_end, runs, p, range_sq, self_slot,
                                   max_k, out);
        }
    }
    if (!bucket_root_.empty()) return nearest_with_trees(p, range_sq, range, max_k, self_slot, out);
    // Many candidates: insertion into the sorted best max_k.
    int count = 0;
    auto consider = [&](std::size_t k) {
        const std::int32_t slot = slots_[k];
        if (slot == self_slot) return;
        const double d = abs_sq(points_[k] - p);
        if (d < range_sq) insert_nearest(Neighbor{d, slot, 0}, out, count, max_k);
    };
    if (dense_) {
        visit_runs(p, range, [&](std::uint32_t begin, std::uint32_t end) {
            for (std::uint32_t k = begin; k < end; ++k) consider(k);
        });
    } else {
        visit_hashed(p, range, consider);
    }
    return count;
}

}  // namespace vosim
