// The 3D neighbour grid (neighbor_grid3.hpp) against brute force.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "neighbor_grid3.hpp"

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
