// The runs of points a 2D query reads in a dense NeighborGrid: for each row
// of cells the query circle overlaps, the cells its chord across that row
// covers, which sit next to each other in the grid's points.
//
// A row's chord is widened by `pad` and its cells are clamped to the grid,
// so a run always holds every point of that row within the circle (and, for
// a query point outside the grid, perhaps a cell more). The SSE2 path does
// two rows an instruction; both paths give the same runs.
#pragma once

#include <cmath>
#include <cstdint>

#include "maths/floor_int.hpp"
#include "maths/sse2.hpp"
#include "maths/vec2.hpp"

namespace vosim {

// What the runs need of a dense grid: cell x of row y holds the points
// [bucket_start[(y - min_cy) * width + x - min_cx], bucket_start[... + 1]).
// Cell coordinates are floor(coordinate / cell_size), below 1e15 in
// magnitude (exact in a double, and within the SSE2 floor's reach).
struct RowGrid {
    double cell_size;
    double inv_cell_size;
    std::int64_t min_cx, max_cx, min_cy, width;
    const std::uint32_t* bucket_start;
};

// v clamped to [lo, hi] in the order SSE2's max and min take: a NaN v gives lo.
inline double clamp_to_cells(double v, double lo, double hi) {
    const double at_least = v > lo ? v : lo;
    return at_least < hi ? at_least : hi;
}

// Row y's run for the circle of squared radius limit_sq around p, widened by
// pad: false when the circle does not reach the row.
inline bool row_run(const RowGrid& g, Vec2 p, std::int64_t y, double limit_sq, double pad, std::uint32_t& begin,
                    std::uint32_t& end) {
    const double band_lo = static_cast<double>(y) * g.cell_size;
    const double band_hi = band_lo + g.cell_size;
    const double below = band_lo - p.y;
    const double above = p.y - band_hi;
    const double outside = (below > above ? below : above) - pad;
    const double gap = 0.0 > outside ? 0.0 : outside;
    const double gap_sq = gap * gap;
    if (gap_sq > limit_sq) return false;
    // The chord across the row; its ends' cells are clamped to the grid
    // before the floor, which gives the same integers.
    const double half = std::sqrt(limit_sq - gap_sq) + pad;
    const double lo = static_cast<double>(g.min_cx);
    const double hi = static_cast<double>(g.max_cx);
    const std::int64_t x_lo = floor_to_int(clamp_to_cells((p.x - half) * g.inv_cell_size, lo, hi));
    const std::int64_t x_hi = floor_to_int(clamp_to_cells((p.x + half) * g.inv_cell_size, lo, hi));
    const std::size_t row = static_cast<std::size_t>((y - g.min_cy) * g.width - g.min_cx);
    begin = g.bucket_start[row + static_cast<std::size_t>(x_lo)];
    end = g.bucket_start[row + static_cast<std::size_t>(x_hi) + 1];
    return true;
}

// The runs of rows y_lo..y_hi into begin[] and end[] (room for one per
// row), rows out of reach left out; returns how many.
template <bool sse2 = kSse2>
inline int row_runs(const RowGrid& g, Vec2 p, std::int64_t y_lo, std::int64_t y_hi, double limit_sq, double pad,
                    std::uint32_t* begin, std::uint32_t* end) {
    int runs = 0;
    std::int64_t y = y_lo;
#if VOSIM_HAS_SSE2
    if constexpr (sse2) {
        // Rows y and y + 1 in the two lanes, each step as row_run takes it.
        const __m128d cell = _mm_set1_pd(g.cell_size);
        const __m128d inv_cell = _mm_set1_pd(g.inv_cell_size);
        const __m128d py = _mm_set1_pd(p.y);
        const __m128d px = _mm_set1_pd(p.x);
        const __m128d padding = _mm_set1_pd(pad);
        const __m128d limit = _mm_set1_pd(limit_sq);
        const __m128d lo = _mm_set1_pd(static_cast<double>(g.min_cx));
        const __m128d hi = _mm_set1_pd(static_cast<double>(g.max_cx));
        // floor: round to the nearest whole number by adding and taking
        // away 1.5 * 2^52 (exact for magnitudes below 2^51), then one less
        // where that rounded up.
        const __m128d round = _mm_set1_pd(6755399441055744.0);
        const __m128d one = _mm_set1_pd(1.0);
        auto floor_pd = [&](__m128d v) {
            const __m128d nearest = _mm_sub_pd(_mm_add_pd(v, round), round);
            return _mm_sub_pd(nearest, _mm_and_pd(_mm_cmpgt_pd(nearest, v), one));
        };
        for (; y < y_hi; y += 2) {
            const __m128d band_lo = _mm_mul_pd(_mm_set_pd(static_cast<double>(y + 1), static_cast<double>(y)), cell);
            const __m128d band_hi = _mm_add_pd(band_lo, cell);
            const __m128d below = _mm_sub_pd(band_lo, py);
            const __m128d above = _mm_sub_pd(py, band_hi);
            const __m128d outside = _mm_sub_pd(_mm_max_pd(below, above), padding);
            const __m128d gap = _mm_max_pd(_mm_setzero_pd(), outside);
            const __m128d gap_sq = _mm_mul_pd(gap, gap);
            const int reached = _mm_movemask_pd(_mm_cmple_pd(gap_sq, limit));
            if (reached == 0) continue;
            const __m128d half = _mm_add_pd(_mm_sqrt_pd(_mm_sub_pd(limit, gap_sq)), padding);
            const __m128d from = floor_pd(_mm_min_pd(_mm_max_pd(_mm_mul_pd(_mm_sub_pd(px, half), inv_cell), lo), hi));
            const __m128d to = floor_pd(_mm_min_pd(_mm_max_pd(_mm_mul_pd(_mm_add_pd(px, half), inv_cell), lo), hi));
            const std::int64_t x_lo[2] = {_mm_cvttsd_si64(from), _mm_cvttsd_si64(_mm_unpackhi_pd(from, from))};
            const std::int64_t x_hi[2] = {_mm_cvttsd_si64(to), _mm_cvttsd_si64(_mm_unpackhi_pd(to, to))};
            for (int lane = 0; lane < 2; ++lane) {
                // (a lane out of reach has a chord of NaN, clamped to a cell: it reads, but does not count)
                const std::size_t row = static_cast<std::size_t>((y + lane - g.min_cy) * g.width - g.min_cx);
                begin[runs] = g.bucket_start[row + static_cast<std::size_t>(x_lo[lane])];
                end[runs] = g.bucket_start[row + static_cast<std::size_t>(x_hi[lane]) + 1];
                runs += (reached >> lane) & 1;
            }
        }
        // (an odd last row: row_run below)
    }
#endif
    for (; y <= y_hi; ++y) runs += static_cast<int>(row_run(g, p, y, limit_sq, pad, begin[runs], end[runs]));
    return runs;
}

}  // namespace vosim
