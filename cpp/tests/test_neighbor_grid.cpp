// The agent neighbour index (neighbor_grid.hpp) against brute force.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "spatial/neighbor_grid.hpp"
#include "spatial/row_runs.hpp"

using namespace vosim;

namespace {
std::vector<Neighbor> brute_force(const std::vector<double>& xy, const std::vector<std::uint8_t>& active, int self,
                                  double range, int max_k) {
    std::vector<Neighbor> all;
    const Vec2 p(xy[2 * self], xy[2 * self + 1]);
    for (int k = 0; k < static_cast<int>(active.size()); ++k) {
        if (k == self || !active[k]) continue;
        const double d = abs_sq(Vec2(xy[2 * k], xy[2 * k + 1]) - p);
        if (d < range * range) all.push_back({d, k});
    }
    std::sort(all.begin(), all.end(), closer);
    if (static_cast<int>(all.size()) > max_k) all.resize(max_k);
    return all;
}
}  // namespace

TEST_CASE("nearest agrees with brute force, inactive agents left out, ties to the lower slot") {
    for (int count : {1, 7, 300}) {
        for (double cell : {0.5, 2.0, 50.0}) {
            std::mt19937 rng(static_cast<unsigned>(count));
            std::uniform_real_distribution<double> coordinate(-10.0, 10.0);
            std::vector<double> xy(2 * count);
            for (double& v : xy) v = std::round(coordinate(rng) * 4.0) / 4.0;  // duplicates and ties
            std::vector<std::uint8_t> active(count);
            for (int k = 0; k < count; ++k) active[k] = k % 5 != 3;
            NeighborGrid grid;
            grid.build(xy.data(), active.data(), count, cell);
            std::vector<Neighbor> found(10);
            for (int self = 0; self < count; ++self) {
                const int n = grid.nearest(Vec2(xy[2 * self], xy[2 * self + 1]), 3.0, 10, self, found.data());
                const std::vector<Neighbor> expected = brute_force(xy, active, self, 3.0, 10);
                REQUIRE(n == static_cast<int>(expected.size()));
                for (int k = 0; k < n; ++k) {
                    CHECK(found[k].slot == expected[k].slot);
                    CHECK(found[k].dist_sq == expected[k].dist_sq);
                }
            }
        }
    }
}

TEST_CASE("a range of zero finds nobody, not even agents on the same spot") {
    const std::vector<double> xy{0.0, 0.0, 0.0, 0.0};
    NeighborGrid grid;
    grid.build(xy.data(), nullptr, 2, 1.0);
    Neighbor found[2];
    CHECK(grid.nearest(Vec2(0.0, 0.0), 0.0, 2, 0, found) == 0);
    CHECK(grid.nearest(Vec2(0.0, 0.0), 1e-9, 2, 0, found) == 1);
}

TEST_CASE_TEMPLATE("row_runs: the SSE2 and plain paths give the same runs, each holding its row's points in range",
                   Path, std::true_type, std::false_type) {
    // A dense grid of 9 x 7 cells, bucket_start counting k points in cell
    // k; query points inside, on cell borders and outside, ranges that
    // reach past the grid, odd and even row counts.
    constexpr bool sse2 = Path::value;
    std::mt19937_64 rng(43);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int trial = 0; trial < 5000; ++trial) {
        const double cell = 0.25 + unit(rng) * 2.0;
        const std::int64_t min_cx = static_cast<std::int64_t>(unit(rng) * 40.0) - 20;
        const std::int64_t min_cy = static_cast<std::int64_t>(unit(rng) * 40.0) - 20;
        const std::int64_t width = 9, height = 7;
        std::vector<std::uint32_t> bucket_start(width * height + 1, 0);
        for (std::size_t b = 1; b < bucket_start.size(); ++b) bucket_start[b] = bucket_start[b - 1] + (b * 7) % 5;
        const RowGrid g{cell, 1.0 / cell, min_cx, min_cx + width - 1, min_cy, width, bucket_start.data()};
        Vec2 p((static_cast<double>(min_cx) + unit(rng) * 11.0 - 1.0) * cell,
               (static_cast<double>(min_cy) + unit(rng) * 9.0 - 1.0) * cell);
        if (trial % 3 == 0) p.y = static_cast<double>(min_cy + 3) * cell;  // on a border
        const double range = unit(rng) * 3.0 * cell;
        const double pad = trial % 2 == 0 ? 0.0 : 1e-9;
        const std::int64_t y_lo = std::max(min_cy, floor_to_int((p.y - range) / cell));
        const std::int64_t y_hi = std::min(min_cy + height - 1, floor_to_int((p.y + range) / cell));
        if (y_lo > y_hi) continue;
        std::uint32_t begin[16], end[16], plain_begin[16], plain_end[16];
        const int runs = row_runs<sse2>(g, p, y_lo, y_hi, range * range, pad, begin, end);
        int plain_runs = 0;
        for (std::int64_t y = y_lo; y <= y_hi; ++y) {
            plain_runs += static_cast<int>(row_run(g, p, y, range * range, pad, plain_begin[plain_runs], plain_end[plain_runs]));
        }
        REQUIRE(runs == plain_runs);
        for (int r = 0; r < runs; ++r) {
            CHECK(begin[r] == plain_begin[r]);
            CHECK(end[r] == plain_end[r]);
            CHECK(begin[r] <= end[r]);
        }
        // Every cell whose square the circle reaches (with a margin for
        // rounding) lies in its row's run.
        for (std::int64_t y = y_lo; y <= y_hi; ++y) {
            std::uint32_t row_begin = 0, row_end = 0;
            const bool reached = row_run(g, p, y, range * range, pad, row_begin, row_end);
            const double gy = std::max(0.0, std::max(y * cell - p.y, p.y - (y + 1) * cell));
            for (std::int64_t x = min_cx; x < min_cx + width; ++x) {
                const double gx = std::max(0.0, std::max(x * cell - p.x, p.x - (x + 1) * cell));
                if (!(gx * gx + gy * gy < range * range * (1.0 - 1e-9))) continue;
                REQUIRE(reached);
                const std::size_t b = static_cast<std::size_t>((y - min_cy) * width + (x - min_cx));
                CHECK(bucket_start[b] >= row_begin);
                CHECK(bucket_start[b + 1] <= row_end);
            }
        }
    }
}

TEST_CASE("a build on several threads gives the one-thread grid: the same cell order and the same queries") {
    // Uniform (dense grid), clustered (blocks too large for the stack buffer,
    // trees), spread (hashed buckets) and all on one spot; every fifth agent
    // inactive in the first two.
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    struct Crowd {
        const char* name;
        std::vector<double> xy;
        std::vector<std::uint8_t> active;
    };
    std::vector<Crowd> crowds;
    const int n = 20000;
    Crowd uniform{"uniform", {}, {}}, clustered{"clustered", {}, {}}, spread{"spread", {}, {}}, spot{"one spot", {}, {}};
    for (int k = 0; k < n; ++k) {
        uniform.xy.insert(uniform.xy.end(), {2.0 * (k % 141) + unit(rng), 2.0 * (k / 141) + unit(rng)});
        uniform.active.push_back(k % 5 != 0);
        const bool packed = k % 10 < 8;
        clustered.xy.insert(clustered.xy.end(), {packed ? 3.0 * unit(rng) : 300.0 * unit(rng),
                                                 packed ? 3.0 * unit(rng) : 300.0 * unit(rng)});
        clustered.active.push_back(k % 5 != 0);
        spread.xy.insert(spread.xy.end(), {1e6 * unit(rng), 1e6 * unit(rng)});
        spread.active.push_back(1);
        spot.xy.insert(spot.xy.end(), {5.0, -7.0});
        spot.active.push_back(1);
    }
    for (const Crowd* crowd : {&uniform, &clustered, &spread, &spot}) {
        CAPTURE(crowd->name);
        NeighborGrid one;
        one.build(crowd->xy.data(), crowd->active.data(), n, 1.75, 0.0, 1);
        for (int threads : {2, 3, 4, 7, 16}) {
            CAPTURE(threads);
            NeighborGrid many;
            many.build(crowd->xy.data(), crowd->active.data(), n, 1.75, 0.0, threads);
            REQUIRE(many.slots_in_cell_order() == one.slots_in_cell_order());
            for (int self = 0; self < n; self += 97) {
                const Vec2 p(crowd->xy[2 * self], crowd->xy[2 * self + 1]);
                Neighbor a[10], b[10];
                const int found = one.nearest(p, 3.5, 10, self, a);
                REQUIRE(many.nearest(p, 3.5, 10, self, b) == found);
                for (int i = 0; i < found; ++i) {
                    CHECK(a[i].slot == b[i].slot);
                    CHECK(a[i].dist_sq == b[i].dist_sq);
                }
                const std::vector<Neighbor> expected = brute_force(crowd->xy, crowd->active, self, 3.5, 10);
                REQUIRE(static_cast<int>(expected.size()) == found);
                for (int i = 0; i < found; ++i) CHECK(b[i].slot == expected[i].slot);
            }
        }
    }
}

TEST_CASE("a build on many threads holds about the memory of a build on one") {
    // The parallel build's counters are per block of buckets, not per bucket:
    // per bucket they would take 4 bytes x threads x buckets (here about 5
    // bytes per agent and thread), per block under a quarter byte.
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> jitter(-0.4, 0.4);
    const int n = 40000;
    std::vector<double> xy;
    for (int k = 0; k < n; ++k) xy.insert(xy.end(), {2.0 * (k % 200) + jitter(rng), 2.0 * (k / 200) + jitter(rng)});
    NeighborGrid one;
    one.build(xy.data(), nullptr, n, 1.75, 0.0, 1);
    for (int threads : {2, 16, 64}) {
        CAPTURE(threads);
        NeighborGrid many;
        many.build(xy.data(), nullptr, n, 1.75, 0.0, threads);
        CHECK(many.held_bytes() <= one.held_bytes() + static_cast<std::size_t>(n) * threads / 4);
    }
}
