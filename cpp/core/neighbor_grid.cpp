#include "neighbor_grid.hpp"

#include <algorithm>
#include <cmath>


namespace vosim {

namespace {

// Below this many agents a plain scan beats any grid.
constexpr int kPlainScanMax = 32;

// A bucket with more agents than this gets a k-d tree; tree leaves hold at
// most kLeafSize agents.
constexpr std::uint32_t kCrowdedBucket = 48;
constexpr std::uint32_t kLeafSize = 12;

// Cell coordinates stay below this magnitude (see build): exact in a double
// and far from overflowing the integer conversion.
constexpr double kMaxCellCoord = 1e15;

}  // namespace

std::int64_t NeighborGrid::cell_coord(double v) const {
    const double c = std::floor(v * inv_cell_size_);
    return static_cast<std::int64_t>(std::fmin(kMaxCellCoord, std::fmax(-kMaxCellCoord, c)));
}

std::size_t NeighborGrid::bucket_of(std::int64_t cx, std::int64_t cy) const {
    if (dense_) {
        return static_cast<std::size_t>((cy - min_cy_) * width_ + (cx - min_cx_));
    }
    std::uint64_t h = static_cast<std::uint64_t>(cx) * 0x9E3779B97F4A7C15ull ^
                      static_cast<std::uint64_t>(cy) * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 29;
    return static_cast<std::size_t>(h) & bucket_mask_;
}

void NeighborGrid::build(const double* positions, const std::uint8_t* active, int count,
                         double cell_size) {
    slots_.clear();
    points_.clear();
    for (int k = 0; k < count; ++k) {
        if (active && !active[k]) continue;
        slots_.push_back(k);
        points_.emplace_back(positions[2 * k], positions[2 * k + 1]);
    }
    const std::size_t n = slots_.size();
    nodes_.clear();
    bucket_root_.clear();
    if (static_cast<int>(n) <= kPlainScanMax) {
        single_cell_ = true;
        dense_ = true;
        bucket_start_.assign({0u, static_cast<std::uint32_t>(n)});
        return;
    }
    single_cell_ = false;
    // Cells must not be so small that cell coordinates leave the range where
    // they are exact integers (the cell bounds used for pruning rely on it).
    double extent = 0.0;
    for (const Vec2& q : points_) extent = std::fmax(extent, std::fmax(std::fabs(q.x), std::fabs(q.y)));
    const double smallest = extent * (1.0 / kMaxCellCoord) * 8.0;
    cell_size_ = cell_size > 0.0 && std::isfinite(cell_size) ? cell_size : 1.0;
    cell_size_ = std::fmax(cell_size_, smallest);
    inv_cell_size_ = 1.0 / cell_size_;
    slack_ = (extent + cell_size_) * 1e-12;

    scratch_bucket_.resize(n);
    std::int64_t lo_x = INT64_MAX, lo_y = INT64_MAX, hi_x = INT64_MIN, hi_y = INT64_MIN;
    for (const Vec2& q : points_) {
        const std::int64_t x = cell_coord(q.x);
        const std::int64_t y = cell_coord(q.y);
        lo_x = std::min(lo_x, x);
        hi_x = std::max(hi_x, x);
        lo_y = std::min(lo_y, y);
        hi_y = std::max(hi_y, y);
    }
    const double cells = (static_cast<double>(hi_x) - static_cast<double>(lo_x) + 1.0) *
                         (static_cast<double>(hi_y) - static_cast<double>(lo_y) + 1.0);
    std::size_t buckets = 0;
    if (cells <= 2.0 * static_cast<double>(n) + 64.0) {
        dense_ = true;
        min_cx_ = lo_x;
        min_cy_ = lo_y;
        width_ = hi_x - lo_x + 1;
        height_ = hi_y - lo_y + 1;
        buckets = static_cast<std::size_t>(width_ * height_);
    } else {
        dense_ = false;
        buckets = 1;
        while (buckets < 2 * n) buckets <<= 1;
        bucket_mask_ = buckets - 1;
    }

    // Counting sort by bucket; stable, so each bucket stays in slot order.
    bucket_start_.assign(buckets + 1, 0u);
    for (std::size_t j = 0; j < n; ++j) {
        const std::size_t b = bucket_of(cell_coord(points_[j].x), cell_coord(points_[j].y));
        scratch_bucket_[j] = b;
        ++bucket_start_[b + 1];
    }
    for (std::size_t b = 0; b < buckets; ++b) bucket_start_[b + 1] += bucket_start_[b];
    std::vector<std::uint32_t> cursor(bucket_start_.begin(), bucket_start_.end() - 1);
    std::vector<std::int32_t> sorted_slots(n);
    std::vector<Vec2> sorted_points(n);
    for (std::size_t j = 0; j < n; ++j) {
        const std::uint32_t at = cursor[scratch_bucket_[j]]++;
        sorted_slots[at] = slots_[j];
        sorted_points[at] = points_[j];
    }
    slots_.swap(sorted_slots);
    points_.swap(sorted_points);
    build_trees();
}

void NeighborGrid::build_trees() {
    const std::size_t buckets = bucket_start_.size() - 1;
    for (std::size_t b = 0; b < buckets; ++b) {
        const std::uint32_t begin = bucket_start_[b];
        const std::uint32_t end = bucket_start_[b + 1];
        if (end - begin <= kCrowdedBucket) continue;
        if (bucket_root_.empty()) bucket_root_.assign(buckets, -1);
        scratch_entries_.resize(end - begin);
        for (std::uint32_t j = begin; j < end; ++j) {
            scratch_entries_[j - begin] = Entry{points_[j], slots_[j]};
        }
        bucket_root_[b] = static_cast<std::int32_t>(nodes_.size());
        nodes_.emplace_back();
        build_tree(scratch_entries_.data(), begin, 0, end - begin, bucket_root_[b]);
        for (std::uint32_t j = begin; j < end; ++j) {
            points_[j] = scratch_entries_[j - begin].point;
            slots_[j] = scratch_entries_[j - begin].slot;
        }
    }
}

// Fills node `at` with the subtree over entries[begin, end) (stored at
// points_[offset + begin, offset + end)). Splits at the median of the longer
// side of the bounding box, ordering by (coordinate, slot): both halves have
// the same size whatever the positions, and agents on one spot are split by
// slot, so that the lowest slots gather in few nodes.
void NeighborGrid::build_tree(Entry* entries, std::uint32_t offset, std::uint32_t begin,
                              std::uint32_t end, std::int32_t at) {
    TreeNode node{entries[begin].point.x, entries[begin].point.y, entries[begin].point.x,
                  entries[begin].point.y, offset + begin, offset + end, entries[begin].slot, -1};
    for (std::uint32_t j = begin + 1; j < end; ++j) {
        const Entry& e = entries[j];
        node.lo_x = std::fmin(node.lo_x, e.point.x);
        node.hi_x = std::fmax(node.hi_x, e.point.x);
        node.lo_y = std::fmin(node.lo_y, e.point.y);
        node.hi_y = std::fmax(node.hi_y, e.point.y);
        node.min_slot = std::min(node.min_slot, e.slot);
    }
    const std::uint32_t middle = begin + (end - begin) / 2;
    if (end - begin > kLeafSize) {
        const bool split_x = node.hi_x - node.lo_x >= node.hi_y - node.lo_y;
        std::nth_element(entries + begin, entries + middle, entries + end,
                         [split_x](const Entry& a, const Entry& b) {
                             const double ca = split_x ? a.point.x : a.point.y;
                             const double cb = split_x ? b.point.x : b.point.y;
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

int NeighborGrid::nearest(Vec2 p, double range, int max_k, std::int32_t self_slot,
                          Neighbor* out) const {
    if (max_k <= 0 || !(range > 0.0)) return 0;
    const double range_sq = range * range;
    int count = 0;
    const Neighbor open{range_sq, INT32_MAX};
    auto limit = [&] { return count == max_k ? out[max_k - 1] : open; };
    scan(p, range, limit, [&](std::int32_t slot, double d) {
        if (slot == self_slot || d >= range_sq) return;
        const Neighbor candidate{d, slot};
        int at;
        if (count < max_k) {
            at = count++;
        } else if (closer(candidate, out[max_k - 1])) {
            at = max_k - 1;
        } else {
            return;
        }
        while (at > 0 && closer(candidate, out[at - 1])) {
            out[at] = out[at - 1];
            --at;
        }
        out[at] = candidate;
    });
    return count;
}

}  // namespace vosim
