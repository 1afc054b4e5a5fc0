#include "neighbor_grid3.hpp"

#include <algorithm>
#include <cmath>

namespace vosim {

namespace {

// At most this many cells along an axis: cell coordinates stay exact
// integers, and a grid over a huge spread degrades to coarser cells, not to
// overflow.
constexpr double kMaxCellsPerAxis = 1 << 20;

}  // namespace

void NeighborGrid3::cell_of(Vec3 p, std::int64_t cell[3]) const {
    const double c[3] = {(p.x - origin_.x) / cell_size_, (p.y - origin_.y) / cell_size_,
                         (p.z - origin_.z) / cell_size_};
    for (int d = 0; d < 3; ++d) {
        // Queries may reach beyond the indexed box: clamp one cell outside it.
        const double clamped = std::fmin(std::fmax(std::floor(c[d]), -1.0), kMaxCellsPerAxis + 1.0);
        cell[d] = static_cast<std::int64_t>(clamped);
    }
}

std::size_t NeighborGrid3::bucket_of(const std::int64_t cell[3]) const {
    std::uint64_t h = static_cast<std::uint64_t>(cell[0]) * 0x9E3779B97F4A7C15ull;
    h ^= static_cast<std::uint64_t>(cell[1]) * 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2);
    h ^= static_cast<std::uint64_t>(cell[2]) * 0x165667B19E3779F9ull + (h << 6) + (h >> 2);
    return static_cast<std::size_t>(h % (bucket_start_.size() - 1));
}

void NeighborGrid3::build(const double* positions, const std::uint8_t* active, int count, double cell_size) {
    entries_.clear();
    slots_.clear();
    bool any = false;
    Vec3 lo, hi;
    for (int k = 0; k < count; ++k) {
        if (active && !active[k]) continue;
        const Vec3 p(positions[3 * k], positions[3 * k + 1], positions[3 * k + 2]);
        if (!any) {
            lo = hi = p;
            any = true;
        }
        lo = Vec3(std::fmin(lo.x, p.x), std::fmin(lo.y, p.y), std::fmin(lo.z, p.z));
        hi = Vec3(std::fmax(hi.x, p.x), std::fmax(hi.y, p.y), std::fmax(hi.z, p.z));
    }
    origin_ = lo;
    const double extent = std::fmax(hi.x - lo.x, std::fmax(hi.y - lo.y, hi.z - lo.z));
    cell_size_ = cell_size > 0.0 && std::isfinite(cell_size) ? cell_size : 1.0;
    cell_size_ = std::fmax(cell_size_, extent / kMaxCellsPerAxis);
    // Entries of the active agents, in slot order, then sorted by bucket
    // (counting sort: stable, so each bucket lists its slots ascending).
    std::vector<Entry> unsorted;
    for (int k = 0; k < count; ++k) {
        if (active && !active[k]) continue;
        Entry e;
        e.point = Vec3(positions[3 * k], positions[3 * k + 1], positions[3 * k + 2]);
        e.slot = k;
        unsorted.push_back(e);
    }
    const std::size_t buckets = 2 * unsorted.size() + 1;
    bucket_start_.assign(buckets + 1, 0);
    std::vector<std::size_t> bucket(unsorted.size());
    for (std::size_t k = 0; k < unsorted.size(); ++k) {
        cell_of(unsorted[k].point, unsorted[k].cell);
        bucket[k] = bucket_of(unsorted[k].cell);
        ++bucket_start_[bucket[k] + 1];
    }
    for (std::size_t b = 0; b < buckets; ++b) bucket_start_[b + 1] += bucket_start_[b];
    entries_.resize(unsorted.size());
    std::vector<std::uint32_t> next(bucket_start_.begin(), bucket_start_.end() - 1);
    for (std::size_t k = 0; k < unsorted.size(); ++k) entries_[next[bucket[k]]++] = unsorted[k];
    slots_.reserve(entries_.size());
    for (const Entry& e : entries_) slots_.push_back(e.slot);
}

int NeighborGrid3::nearest(Vec3 p, double range, int max_k, std::int32_t self_slot, Neighbor* out) const {
    if (max_k <= 0) return 0;
    int found = 0;
    // Insertion into the sorted list of the best max_k; the bound shrinks to
    // the k-th once the list is full.
    const double range_sq = range * range;
    visit(p, range, [&](const Entry& e) {
        if (e.slot == self_slot) return;
        const double d = abs_sq(e.point - p);
        if (!(d < range_sq)) return;
        const Neighbor candidate{d, e.slot};
        if (found == max_k && !closer(candidate, out[found - 1])) return;
        int at = found < max_k ? found++ : found - 1;
        while (at > 0 && closer(candidate, out[at - 1])) {
            out[at] = out[at - 1];
            --at;
        }
        out[at] = candidate;
    });
    return found;
}

}  // namespace vosim
