#include "spatial/neighbor_grid3.hpp"

#include "spatial/neighbor_select.hpp"

namespace vosim {

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
        lo = Vec3(std::fmin(lo.x, p.x), std::fmin(lo.y, p.y), std::fmin(lo.z, p.z));
        hi = Vec3(std::fmax(hi.x, p.x), std::fmax(hi.y, p.y), std::fmax(hi.z, p.z));
        extent = std::fmax(extent, std::fmax(std::fabs(p.x), std::fmax(std::fabs(p.y), std::fabs(p.z))));
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
    // Many candidates: insertion into the sorted best max_k.
    int count = 0;
    auto consider = [&](std::size_t k) {
        const std::int32_t slot = slots_[k];
        if (slot == self_slot) return;
        const double d = abs_sq(points_[k] - p);
        if (d < range_sq) insert_nearest(Neighbor{d, slot}, out, count, max_k);
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
