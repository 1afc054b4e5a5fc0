#include "spatial/edge_grid.hpp"

#include <algorithm>
#include <cmath>

namespace vosim {

namespace {

// How many cells per segment the grid may have at most.
constexpr double kCellsPerSegment = 4.0;

}  // namespace

int EdgeGrid::column_of(double x) const {
    const double c = std::floor((x - lo_.x) / cell_size_);
    return static_cast<int>(std::clamp(c, 0.0, static_cast<double>(columns_ - 1)));
}

int EdgeGrid::row_of(double y) const {
    const double r = std::floor((y - lo_.y) / cell_size_);
    return static_cast<int>(std::clamp(r, 0.0, static_cast<double>(rows_ - 1)));
}

template <class Visit>
void EdgeGrid::for_each_cell(const Segment& s, Visit&& visit) const {
    // Column by column: the segment's y-range within the column's x-range,
    // widened by a margin far above round-off, gives the rows it crosses.
    const double margin = margin_;
    const double x_lo = std::fmin(s.a.x, s.b.x), x_hi = std::fmax(s.a.x, s.b.x);
    const int c0 = column_of(x_lo - margin), c1 = column_of(x_hi + margin);
    const double dx = s.b.x - s.a.x;
    for (int c = c0; c <= c1; ++c) {
        double y_lo, y_hi;
        if (c0 == c1 || dx == 0.0) {
            y_lo = std::fmin(s.a.y, s.b.y);
            y_hi = std::fmax(s.a.y, s.b.y);
        } else {
            const double x0 = std::fmax(x_lo, lo_.x + c * cell_size_);
            const double x1 = std::fmin(x_hi, lo_.x + (c + 1) * cell_size_);
            const double y0 = s.a.y + (x0 - s.a.x) / dx * (s.b.y - s.a.y);
            const double y1 = s.a.y + (x1 - s.a.x) / dx * (s.b.y - s.a.y);
            y_lo = std::fmax(std::fmin(y0, y1), std::fmin(s.a.y, s.b.y));
            y_hi = std::fmin(std::fmax(y0, y1), std::fmax(s.a.y, s.b.y));
        }
        const int r0 = row_of(y_lo - margin), r1 = row_of(y_hi + margin);
        for (int r = r0; r <= r1; ++r) visit(cell(c, r));
    }
}

void EdgeGrid::build(const std::vector<Segment>& segments) {
    cell_start_.clear();
    items_.clear();
    columns_ = rows_ = 0;
    if (segments.empty()) return;
    Vec2 lo = segments[0].a, hi = segments[0].a;
    double extent = 0.0;
    for (const Segment& s : segments) {
        lo = Vec2(std::fmin(lo.x, std::fmin(s.a.x, s.b.x)), std::fmin(lo.y, std::fmin(s.a.y, s.b.y)));
        hi = Vec2(std::fmax(hi.x, std::fmax(s.a.x, s.b.x)), std::fmax(hi.y, std::fmax(s.a.y, s.b.y)));
        extent += std::fmax(std::fabs(s.b.x - s.a.x), std::fabs(s.b.y - s.a.y));
    }
    const double n = static_cast<double>(segments.size());
    const double width = hi.x - lo.x, height = hi.y - lo.y;
    double size = 2.0 * extent / n;
    // Never more than about kCellsPerSegment cells per segment (a map of a
    // few long edges, or of tiny edges spread far apart).
    const double fewest = std::sqrt(width * height / (kCellsPerSegment * n));
    size = std::fmax(size, fewest);
    size = std::fmax(size, std::fmax(width, height) / (kCellsPerSegment * n));
    if (!(size > 0.0) || !std::isfinite(size)) size = 1.0;
    lo_ = lo;
    cell_size_ = size;
    const double magnitude = std::fmax(std::fmax(std::fabs(lo.x), std::fabs(lo.y)), std::fmax(std::fabs(hi.x), std::fabs(hi.y)));
    margin_ = 1e-7 * size + 1e-12 * magnitude;
    columns_ = static_cast<int>(std::fmin(std::floor(width / size) + 1.0, kCellsPerSegment * n + 1.0));
    rows_ = static_cast<int>(std::fmin(std::floor(height / size) + 1.0, kCellsPerSegment * n + 1.0));

    // Two passes (count, then fill) give one flat array of cell lists, each
    // in ascending segment order.
    cell_start_.assign(static_cast<std::size_t>(columns_) * static_cast<std::size_t>(rows_) + 1, 0);
    for (const Segment& s : segments) for_each_cell(s, [&](std::size_t k) { ++cell_start_[k + 1]; });
    for (std::size_t k = 1; k < cell_start_.size(); ++k) cell_start_[k] += cell_start_[k - 1];
    items_.resize(static_cast<std::size_t>(cell_start_.back()));
    std::vector<std::int64_t> fill(cell_start_.begin(), cell_start_.end() - 1);
    for (std::size_t i = 0; i < segments.size(); ++i) {
        for_each_cell(segments[i], [&](std::size_t k) { items_[fill[k]++] = static_cast<std::int32_t>(i); });
    }
}

bool EdgeGrid::cells_of_box(Vec2 lo, Vec2 hi, int& c0, int& r0, int& c1, int& r1) const {
    if (empty()) return false;
    const double grid_hi_x = lo_.x + columns_ * cell_size_, grid_hi_y = lo_.y + rows_ * cell_size_;
    if (hi.x < lo_.x || hi.y < lo_.y || lo.x > grid_hi_x || lo.y > grid_hi_y) return false;
    c0 = column_of(lo.x);
    c1 = column_of(hi.x);
    r0 = row_of(lo.y);
    r1 = row_of(hi.y);
    return true;
}

}  // namespace vosim
