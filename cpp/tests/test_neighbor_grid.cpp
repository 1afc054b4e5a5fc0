// The agent neighbour index (neighbor_grid.hpp) against brute force.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "spatial/neighbor_grid.hpp"

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
