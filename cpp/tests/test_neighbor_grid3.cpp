// The 3D neighbour grid (neighbor_grid3.hpp) against brute force.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "spatial/neighbor_grid3.hpp"

using namespace vosim;

namespace {
std::vector<Neighbor> brute_force(const std::vector<double>& p, Vec3 q, double range, int max_k, int self) {
    std::vector<Neighbor> all;
    for (int k = 0; k * 3 < static_cast<int>(p.size()); ++k) {
        if (k == self) continue;
        const double d = abs_sq(Vec3(p[3 * k], p[3 * k + 1], p[3 * k + 2]) - q);
        if (d < range * range) all.push_back({d, k});
    }
    std::sort(all.begin(), all.end(), closer);
    if (static_cast<int>(all.size()) > max_k) all.resize(max_k);
    return all;
}
}  // namespace

TEST_CASE("k nearest in 3D equal brute force, ties by slot, for cells of any size") {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> coordinate(-10.0, 10.0);
    std::vector<double> p(3 * 300);
    for (double& x : p) x = std::round(coordinate(rng));  // integer lattice: many ties
    for (double cell : {0.5, 3.0, 50.0}) {
        NeighborGrid3 grid;
        grid.build(p.data(), nullptr, 300, cell);
        CHECK(grid.size() == 300);
        for (int k = 0; k < 300; k += 7) {
            const Vec3 q(p[3 * k], p[3 * k + 1], p[3 * k + 2]);
            std::vector<Neighbor> found(6);
            const int n = grid.nearest(q, 4.0, 6, k, found.data());
            const std::vector<Neighbor> expected = brute_force(p, q, 4.0, 6, k);
            REQUIRE(n == static_cast<int>(expected.size()));
            for (int j = 0; j < n; ++j) CHECK(found[j].slot == expected[j].slot);
        }
    }
}

TEST_CASE("inactive agents are not indexed, and a far outlier does not break the grid") {
    const std::vector<double> p{0, 0, 0, 1, 0, 0, 2, 0, 0, 1e15, -1e15, 1e14};
    const std::uint8_t active[] = {1, 0, 1, 1};
    NeighborGrid3 grid;
    grid.build(p.data(), active, 4, 1.0);
    CHECK(grid.size() == 3);
    std::vector<Neighbor> found(3);
    CHECK(grid.nearest(Vec3(0, 0, 0), 5.0, 3, 0, found.data()) == 1);
    CHECK(found[0].slot == 2);
    int seen = 0;
    grid.for_each_within(Vec3(0, 0, 0), 1e16, [&](std::int32_t, double) { ++seen; });
    CHECK(seen == 3);
}

TEST_CASE("dense and hashed 3D grids agree with brute force for ranges finer and coarser than the cells") {
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> coordinate(-20.0, 20.0);
    const int n = 500;
    std::vector<double> p(3 * n);
    for (double& x : p) x = coordinate(rng);
    // Every 10th point a copy of the one before it: exact ties.
    for (int k = 10; k < n; k += 10) std::copy(&p[3 * (k - 1)], &p[3 * k], &p[3 * k]);
    // (cell, coarse): dense with fine cells, dense after falling back to the
    // coarse size, hashed.
    const double sizes[][2] = {{4.0, 0.0}, {0.5, 6.0}, {0.5, 0.0}};
    for (const auto& size : sizes) {
        NeighborGrid3 grid;
        grid.build(p.data(), nullptr, n, size[0], size[1]);
        CHECK(grid.dense() == (size[0] != 0.5 || size[1] != 0.0));
        for (double range : {0.3, 3.0, 8.0, 100.0, static_cast<double>(INFINITY)}) {
            for (int k = 0; k < n; k += 13) {
                const Vec3 q(p[3 * k] + 0.25, p[3 * k + 1], p[3 * k + 2] - 0.5);
                for (int max_k : {1, 10, 200}) {
                    std::vector<Neighbor> found(static_cast<std::size_t>(max_k));
                    const int got = grid.nearest(q, range, max_k, k, found.data());
                    const std::vector<Neighbor> expected = brute_force(p, q, range, max_k, k);
                    REQUIRE(got == static_cast<int>(expected.size()));
                    for (int j = 0; j < got; ++j) {
                        CHECK(found[j].slot == expected[j].slot);
                        CHECK(found[j].dist_sq == expected[j].dist_sq);
                    }
                }
                int within = 0;
                grid.for_each_within(q, range, [&](std::int32_t, double) { ++within; });
                CHECK(within == static_cast<int>(brute_force(p, q, range, n, -1).size()));
            }
        }
    }
}

TEST_CASE("crowded 3D cells (k-d trees) agree with brute force: agents on one spot, and a dense cluster") {
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> spread(-30.0, 30.0);
    std::uniform_real_distribution<double> jitter(-0.05, 0.05);
    const int n = 1200;
    std::vector<double> p(3 * n);
    for (int k = 0; k < n; ++k) {
        for (int d = 0; d < 3; ++d) {
            double& x = p[3 * static_cast<std::size_t>(k) + d];
            if (k % 3 == 0) {
                x = 1.0;  // 400 agents on one point
            } else if (k % 3 == 1) {
                x = -4.0 + jitter(rng);  // 400 in a small cube
            } else {
                x = spread(rng);
            }
        }
    }
    const double sizes[][2] = {{10.0, 0.0}, {0.01, 0.0}};  // dense; hashed (the spread is too wide for 0.01 cells)
    for (const auto& size : sizes) {
        NeighborGrid3 grid;
        grid.build(p.data(), nullptr, n, size[0], size[1]);
        CHECK(grid.dense() == (size[0] == 10.0));
        for (double range : {0.02, 0.5, 10.0, static_cast<double>(INFINITY)}) {
            for (int k = 0; k < n; k += 11) {
                const Vec3 q(p[3 * k], p[3 * k + 1] + (k % 2 ? 0.01 : 0.0), p[3 * k + 2]);
                for (int max_k : {1, 10, 60}) {
                    std::vector<Neighbor> found(static_cast<std::size_t>(max_k));
                    const int got = grid.nearest(q, range, max_k, k, found.data());
                    const std::vector<Neighbor> expected = brute_force(p, q, range, max_k, k);
                    REQUIRE(got == static_cast<int>(expected.size()));
                    for (int j = 0; j < got; ++j) {
                        CHECK(found[j].slot == expected[j].slot);
                        CHECK(found[j].dist_sq == expected[j].dist_sq);
                    }
                }
                int within = 0;
                grid.for_each_within(q, range, [&](std::int32_t, double) { ++within; });
                CHECK(within == static_cast<int>(brute_force(p, q, range, n, -1).size()));
            }
        }
    }
}

TEST_CASE("cells_across: the SSE2 and plain paths give the clamped floor of both ends") {
    // Ends on cell borders, just beside them and far outside [lo, hi], with
    // origins and cell widths that round.
    std::mt19937_64 rng(41);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int trial = 0; trial < 20000; ++trial) {
        const double origin = (unit(rng) - 0.5) * 1e3;
        const double cell = 0.1 + unit(rng) * 3.0;
        const double inv = 1.0 / cell;
        const double lo = std::floor(unit(rng) * 8.0);
        const double hi = lo + std::floor(unit(rng) * 8.0);
        double from = origin + (unit(rng) * 20.0 - 6.0) * cell;
        if (trial % 4 == 0) from = origin + std::floor(from - origin) * cell;  // a border
        if (trial % 4 == 1) from = std::nextafter(origin + std::floor(from - origin) * cell, -1e300);
        const double to = from + unit(rng) * 5.0 * cell;
        auto reference = [&](double x) {
            const double c = std::floor((x - origin) * inv);
            return static_cast<std::int64_t>(std::min(std::max(c, lo), hi));
        };
        std::int64_t first_a, last_a, first_b, last_b;
        cells_across<true>(from, to, origin, inv, lo, hi, first_a, last_a);
        cells_across<false>(from, to, origin, inv, lo, hi, first_b, last_b);
        REQUIRE(first_a == reference(from));
        REQUIRE(last_a == reference(to));
        REQUIRE(first_b == first_a);
        REQUIRE(last_b == last_a);
        REQUIRE(first_a <= last_a);
    }
    std::int64_t first, last;
    cells_across<true>(-1e300, 1e300, 0.0, 1.0, 0.0, 2147483647.0, first, last);
    CHECK(first == 0);
    CHECK(last == 2147483647);
}
