#include "spatial/neighbor_grid.hpp"

#include <algorithm>
#include <cmath>

#include "spatial/neighbor_select.hpp"
#include "spatial/row_runs.hpp"
#include "parallel/parallel.hpp"
#include "parallel/threads.hpp"

namespace vosim {

namespace {

// Below this many agents a plain scan beats any grid.
constexpr int kPlainScanMax = 32;

// A bucket with more agents than this gets a k-d tree; tree leaves hold at
// most kLeafSize agents.
constexpr std::uint32_t kCrowdedBucket = 48;
constexpr std::uint32_t kLeafSize = 12;

// Fewer agents than this are sorted on one thread: handing out the build's
// four loops costs more (a few microseconds each on the engine's pool).
constexpr int kParallelBuildMin = 4096;

// The parallel build sorts by blocks of up to 2^kMaxBlockShift buckets
// first, sized to hold about kBlockAgents agents on average; a block of up to
// kBlockBuffer agents is then sorted through a buffer on the stack.
constexpr int kMaxBlockShift = 8;
constexpr std::size_t kBlockAgents = 64;
constexpr std::uint32_t kBlockBuffer = 512;

struct Bounds {
    double lo_x = INFINITY, lo_y = INFINITY, hi_x = -INFINITY, hi_y = -INFINITY;
    double extent = 0.0;  // largest |coordinate|
    int n = 0;
};

// The bounding box of the active points; a parallel reduction of exact
// minima and maxima, so its result does not depend on the thread count.
Bounds bounds_of(const double* positions, const std::uint8_t* active, int count, int threads) {
    // Per-item boxes, then their union.
    const std::int64_t items = items_of(count, kValuesPerItem);
    std::vector<Bounds> parts(static_cast<std::size_t>(items));
    parallel_for(items, threads, [&](std::int64_t item) {
        double lo_x = INFINITY, lo_y = INFINITY, hi_x = -INFINITY, hi_y = -INFINITY;
        int n = 0;
        const int end = static_cast<int>(std::min<std::int64_t>(count, (item + 1) * kValuesPerItem));
        for (int k = static_cast<int>(item * kValuesPerItem); k < end; ++k) {
            if (active && !active[k]) continue;
            const double x = positions[2 * k];
            const double y = positions[2 * k + 1];
            lo_x = x < lo_x ? x : lo_x;
            hi_x = x > hi_x ? x : hi_x;
            lo_y = y < lo_y ? y : lo_y;
            hi_y = y > hi_y ? y : hi_y;
            ++n;
        }
        Bounds& part = parts[static_cast<std::size_t>(item)];
        part.lo_x = lo_x;
        part.lo_y = lo_y;
        part.hi_x = hi_x;
        part.hi_y = hi_y;
        part.n = n;
    });
    Bounds b;
    for (const Bounds& part : parts) {
        b.lo_x = part.lo_x < b.lo_x ? part.lo_x : b.lo_x;
        b.hi_x = part.hi_x > b.hi_x ? part.hi_x : b.hi_x;
        b.lo_y = part.lo_y < b.lo_y ? part.lo_y : b.lo_y;
        b.hi_y = part.hi_y > b.hi_y ? part.hi_y : b.hi_y;
        b.n += part.n;
    }
    const double lo_x = b.lo_x, lo_y = b.lo_y, hi_x = b.hi_x, hi_y = b.hi_y;
    if (b.n > 0) {
        b.extent = max_of(max_of(std::fabs(lo_x), std::fabs(hi_x)), max_of(std::fabs(lo_y), std::fabs(hi_y)));
    }
    return b;
}

}  // namespace

void NeighborGrid::build(const double* positions, const std::uint8_t* active, int count, double cell_size,
                         double coarse_cell_size, int threads) {
    if (count < kParallelBuildMin) threads = 1;
    nodes_.clear();
    bucket_root_.clear();
    const Bounds box = bounds_of(positions, active, count, threads);
    const std::size_t n = static_cast<std::size_t>(box.n);
    slots_.resize(n);
    points_.resize(n);
    if (box.n <= kPlainScanMax) {
        single_cell_ = true;
        dense_ = true;
        std::size_t at = 0;
        for (int k = 0; k < count; ++k) {
            if (active && !active[k]) continue;
            slots_[at] = k;
            points_[at] = Vec2(positions[2 * k], positions[2 * k + 1]);
            ++at;
        }
        bucket_start_.assign({0u, static_cast<std::uint32_t>(n)});
        return;
    }
    single_cell_ = false;
    // Cells must not be so small that cell coordinates leave the range where
    // they are exact integers (the cell bounds used for pruning rely on it).
    const double smallest = box.extent * (1.0 / kMaxCellCoord) * 8.0;
    const double dense_limit = 2.0 * static_cast<double>(n) + 64.0;
    auto choose = [&](double size) {
        cell_size_ = size > 0.0 && std::isfinite(size) ? size : 1.0;
        cell_size_ = max_of(cell_size_, smallest);
        inv_cell_size_ = 1.0 / cell_size_;
        min_cx_ = cell_coord(box.lo_x);
        min_cy_ = cell_coord(box.lo_y);
        const std::int64_t hi_x = cell_coord(box.hi_x);
        const std::int64_t hi_y = cell_coord(box.hi_y);
        width_ = hi_x - min_cx_ + 1;
        height_ = hi_y - min_cy_ + 1;
        // (in doubles: the product may not fit an integer)
        return static_cast<double>(width_) * static_cast<double>(height_);
    };
    double cells = choose(cell_size);
    if (cells > dense_limit && coarse_cell_size > cell_size) cells = choose(coarse_cell_size);
    slack_ = (box.extent + cell_size_) * 1e-12;

    std::size_t buckets = 0;
    if (cells <= dense_limit) {
        dense_ = true;
        buckets = static_cast<std::size_t>(width_ * height_);
    } else {
        dense_ = false;
        buckets = 1;
        while (buckets < 2 * n) buckets <<= 1;
        bucket_mask_ = buckets - 1;
    }
    sort_into_buckets(positions, active, count, buckets, threads);
    build_trees();
}

// Counting sort by bucket; stable, so each bucket stays in slot order. With
// several threads each takes a contiguous range of slots and counts its
// agents per bucket; a bucket's agents from thread t then follow those from
// threads before t, which is slot order again: the same result on any
// number of threads.
void NeighborGrid::sort_into_buckets(const double* positions, const std::uint8_t* active, int count,
                                     std::size_t buckets, int threads) {
    auto bucket_at = [&](int k) {
        return bucket_of(cell_coord(positions[2 * k]), cell_coord(positions[2 * k + 1]));
    };
    if (threads <= 1) {
        // bucket_start_[b + 1] counts bucket b, then becomes its start after
        // the prefix sum; each placement advances it, so that afterwards
        // bucket_start_[b + 1] is the end of bucket b as wanted.
        bucket_start_.assign(buckets + 2, 0u);
        for (int k = 0; k < count; ++k) {
            if (active && !active[k]) continue;
            ++bucket_start_[bucket_at(k) + 2];
        }
        for (std::size_t b = 0; b < buckets; ++b) bucket_start_[b + 2] += bucket_start_[b + 1];
        for (int k = 0; k < count; ++k) {
            if (active && !active[k]) continue;
            const std::uint32_t at = bucket_start_[bucket_at(k) + 1]++;
            slots_[at] = k;
            points_[at] = Vec2(positions[2 * k], positions[2 * k + 1]);
        }
        bucket_start_.pop_back();
        return;
    }
    // Two stable counting sorts, so that the parts' counters take memory per
    // block of 2^shift consecutive buckets, not per bucket (per bucket they
    // would be 4 bytes x threads x buckets: tens of bytes per agent on many
    // cores). First by block: `threads` parts, each a fixed range of slots
    // and of blocks (the same partitions in every pass, and for any count of
    // parts the union is the slot order), count and place their agents, so
    // that each block holds its agents in slot order. Then each block sorts
    // its own agents by bucket, stably. Every loop runs on the pool
    // (parallel.hpp; each loop's end is the barrier the next one needs);
    // parts, not threads, own the counters: any thread may run any part.
    const std::size_t active_count = slots_.size();
    int shift = 0;  // blocks of about kBlockAgents agents on average
    while (shift < kMaxBlockShift && (buckets >> (shift + 1)) * kBlockAgents >= active_count) ++shift;
    const std::size_t blocks = ((buckets - 1) >> shift) + 1;
    const int team = threads;
    cursors_.assign(static_cast<std::size_t>(team) * blocks, 0u);
    bucket_start_.resize(buckets + 1);
    std::vector<std::uint32_t> block_start(blocks + 1);
    std::vector<std::uint32_t> block_sums(static_cast<std::size_t>(team) + 1, 0u);
    const auto slot_range = [&](int t) {
        return std::pair<int, int>(static_cast<int>(static_cast<std::int64_t>(count) * t / team),
                                   static_cast<int>(static_cast<std::int64_t>(count) * (t + 1) / team));
    };
    parallel_for(team, threads, [&](std::int64_t part) {
        const int t = static_cast<int>(part);
        const auto [lo, hi] = slot_range(t);
        std::uint32_t* mine = cursors_.data() + static_cast<std::size_t>(t) * blocks;
        for (int k = lo; k < hi; ++k) {
            if (active && !active[k]) continue;
            ++mine[bucket_at(k) >> shift];
        }
    });
    // Block totals and their prefix sums, by ranges of blocks.
    parallel_for(team, threads, [&](std::int64_t part) {
        const int t = static_cast<int>(part);
        const std::size_t b_lo = blocks * t / team;
        const std::size_t b_hi = blocks * (t + 1) / team;
        std::uint32_t sum = 0;
        for (std::size_t b = b_lo; b < b_hi; ++b) {
            for (int u = 0; u < team; ++u) sum += cursors_[static_cast<std::size_t>(u) * blocks + b];
        }
        block_sums[t + 1] = sum;
    });
    for (int u = 0; u < team; ++u) block_sums[u + 1] += block_sums[u];
    block_start[blocks] = block_sums[team];
    parallel_for(team, threads, [&](std::int64_t part) {
        const int t = static_cast<int>(part);
        const std::size_t b_lo = blocks * t / team;
        const std::size_t b_hi = blocks * (t + 1) / team;
        std::uint32_t at = block_sums[t];
        for (std::size_t b = b_lo; b < b_hi; ++b) {
            block_start[b] = at;
            for (int u = 0; u < team; ++u) {
                std::uint32_t& c = cursors_[static_cast<std::size_t>(u) * blocks + b];
                const std::uint32_t here = c;
                c = at;
                at += here;
            }
        }
    });
    parallel_for(team, threads, [&](std::int64_t part) {
        const int t = static_cast<int>(part);
        const auto [lo, hi] = slot_range(t);
        std::uint32_t* mine = cursors_.data() + static_cast<std::size_t>(t) * blocks;
        for (int k = lo; k < hi; ++k) {
            if (active && !active[k]) continue;
            const std::uint32_t to = mine[bucket_at(k) >> shift]++;
            slots_[to] = k;
            points_[to] = Vec2(positions[2 * k], positions[2 * k + 1]);
        }
    });
    // Each block by bucket, through a buffer: on the stack for the usual
    // block, in one array shared by the blocks too large for it (a crowd
    // packed into few buckets), each its own part of it. The counters are
    // no longer needed: they hold those parts' offsets.
    std::size_t spilled = 0;
    for (std::size_t b = 0; b < blocks; ++b) {
        const std::uint32_t size = block_start[b + 1] - block_start[b];
        cursors_[b] = static_cast<std::uint32_t>(spilled);
        if (size > kBlockBuffer) spilled += size;
    }
    std::vector<BlockEntry> spill(spilled);
    parallel_for(static_cast<std::int64_t>(blocks), threads, [&](std::int64_t block) {
        const std::size_t b = static_cast<std::size_t>(block);
        const std::size_t first = b << shift;
        const std::size_t width = std::min<std::size_t>(std::size_t{1} << shift, buckets - first);
        BlockEntry local[kBlockBuffer];
        const bool fits = block_start[b + 1] - block_start[b] <= kBlockBuffer;
        sort_block(block_start[b], block_start[b + 1], first, width, fits ? local : spill.data() + cursors_[b]);
    });
    bucket_start_[buckets] = block_start[blocks];
}

// Orders points_ and slots_ in [begin, end), whose agents are in slot order
// and in the buckets [first, first + width), by bucket (a stable counting
// sort through `buffer`, which has room for them all), and sets those
// buckets' starts.
void NeighborGrid::sort_block(std::uint32_t begin, std::uint32_t end, std::size_t first, std::size_t width,
                              BlockEntry* buffer) {
    const auto local_bucket = [&](Vec2 p) { return bucket_of(cell_coord(p.x), cell_coord(p.y)) - first; };
    std::uint32_t start[(std::size_t{1} << kMaxBlockShift) + 1];
    std::fill(start, start + width + 1, 0u);
    const std::uint32_t n = end - begin;
    for (std::uint32_t j = 0; j < n; ++j) {
        const Vec2 p = points_[begin + j];
        const auto bucket = static_cast<std::uint32_t>(local_bucket(p));
        buffer[j] = BlockEntry{p.x, p.y, slots_[begin + j], bucket};
        ++start[bucket + 1];
    }
    for (std::size_t b = 0; b < width; ++b) start[b + 1] += start[b];
    for (std::size_t b = 0; b < width; ++b) bucket_start_[first + b] = begin + start[b];
    for (std::uint32_t j = 0; j < n; ++j) {
        const std::uint32_t to = begin + start[buffer[j].bucket]++;
        points_[to] = Vec2(buffer[j].x, buffer[j].y);
        slots_[to] = buffer[j].slot;
    }
}

std::size_t NeighborGrid::held_bytes() const {
    return bucket_start_.capacity() * sizeof(std::uint32_t) + slots_.capacity() * sizeof(std::int32_t) +
           points_.capacity() * sizeof(Vec2) + cursors_.capacity() * sizeof(std::uint32_t) +
           nodes_.capacity() * sizeof(TreeNode) + bucket_root_.capacity() * sizeof(std::int32_t) +
           scratch_entries_.capacity() * sizeof(Entry);
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
        node.lo_x = min_of(node.lo_x, e.point.x);
        node.hi_x = max_of(node.hi_x, e.point.x);
        node.lo_y = min_of(node.lo_y, e.point.y);
        node.hi_y = max_of(node.hi_y, e.point.y);
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

int NeighborGrid::nearest_in_rows(Vec2 p, double range, int max_k, std::int32_t self_slot,
                                  Neighbor* out) const {
    const double range_sq = range * range;
    // Widens every bound a little: cells are assigned by rounded products and
    // distances are rounded, so an exact bound could miss a point on its edge.
    const double pad = slack_ + range * 1e-9;
    const std::int64_t last_y = min_cy_ + height_ - 1;
    const std::int64_t y_lo = std::max(min_cy_, cell_coord(p.y - range - pad));
    const std::int64_t y_hi = std::min(last_y, cell_coord(p.y + range + pad));
    if (y_lo > y_hi) return 0;

    // The runs of points in the rows of cells the circle overlaps, each row
    // trimmed to the circle's chord across it.
    constexpr int kMaxRows = 16;
    std::uint32_t run_begin[kMaxRows];
    std::uint32_t run_end[kMaxRows];
    int runs = 0;
    std::uint32_t points_in_runs = 0;
    const bool few_rows = y_hi - y_lo < kMaxRows;
    const RowGrid rows{cell_size_, inv_cell_size_, min_cx_, min_cx_ + width_ - 1, min_cy_, width_, bucket_start_.data()};
    if (few_rows) {
        runs = row_runs(rows, p, y_lo, y_hi, range_sq, pad, run_begin, run_end);
        for (int r = 0; r < runs; ++r) points_in_runs += run_end[r] - run_begin[r];
    }
    if (few_rows && points_in_runs <= kGatherMax) {
        // Few points: gather those in range, then rank them.
        return nearest_in_runs(points_.data(), slots_.data(), run_begin, run_end, runs, p, range_sq, self_slot, max_k,
                               out);
    }

    int count = 0;
    // A candidate must be at most this far (squared): the range, or the k-th
    // nearest so far once there are k (ties then go by slot).
    double limit = range_sq;
    auto visit_row = [&](std::int64_t y) {
        std::uint32_t begin, end;
        if (!row_run(rows, p, y, limit, pad, begin, end)) return;
        for (std::uint32_t j = begin; j < end; ++j) {
            const double d = abs_sq(points_[j] - p);
            if (d > limit) continue;
            const std::int32_t slot = slots_[j];
            if (slot == self_slot) continue;
            if (count < max_k && !(d < range_sq)) continue;
            if (insert_nearest(Neighbor{d, slot, 0}, out, count, max_k) && count == max_k) {
                limit = out[max_k - 1].dist_sq;
            }
        }
    };
    // Nearest rows first, so that once k are found the farther rows shrink.
    const std::int64_t centre = std::min(y_hi, std::max(y_lo, cell_coord(p.y)));
    visit_row(centre);
    for (std::int64_t d = 1;; ++d) {
        const bool below = centre - d >= y_lo;
        const bool above = centre + d <= y_hi;
        if (!below && !above) break;
        if (below) visit_row(centre - d);
        if (above) visit_row(centre + d);
    }
    return count;
}

int NeighborGrid::nearest(Vec2 p, double range, int max_k, std::int32_t self_slot,
                          Neighbor* out) const {
    if (max_k <= 0 || !(range > 0.0)) return 0;
    if (dense_ && !single_cell_ && bucket_root_.empty()) return nearest_in_rows(p, range, max_k, self_slot, out);
    const double range_sq = range * range;
    if (single_cell_) {
        // A handful of agents (a small scene of a batch): every one is a
        // candidate, gathered and ranked as in nearest_in_rows.
        double dist[kPlainScanMax + 1];  // (select_nearest pads it)
        std::int32_t slot[kPlainScanMax];
        const auto all = static_cast<std::uint32_t>(points_.size());
        const int n = gather_in_range(points_.data(), slots_.data(), 0, all, p, range_sq, self_slot, dist, slot, 0);
        return select_nearest(dist, slot, n, max_k, out);
    }
    int count = 0;
    const Neighbor open{range_sq, INT32_MAX, 0};
    auto limit = [&] { return count == max_k ? out[max_k - 1] : open; };
    scan(p, range, limit, [&](std::int32_t slot, double d) {
        if (slot == self_slot || d >= range_sq) return;
        insert_nearest(Neighbor{d, slot, 0}, out, count, max_k);
    });
    return count;
}

}  // namespace vosim
