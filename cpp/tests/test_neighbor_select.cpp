// Ranking a query's candidates (neighbor_select.hpp) in closer's order, and
// the floor that assigns points to cells (floor_int.hpp).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "spatial/neighbor_select.hpp"
#include "maths/floor_int.hpp"

using namespace vosim;

TEST_CASE_TEMPLATE("select_nearest keeps the max_k nearest in closer's order", Path, std::true_type, std::false_type) {
    constexpr bool sse2 = Path::value;
    std::mt19937 rng(11);
    for (int n : {0, 1, 2, 7, 10, 31, kRankMax, kRankMax + 1, 90}) {
        for (int max_k : {1, 3, 10, 100}) {
            std::vector<double> dist(n + 1);  // select_nearest's room to pad
            std::vector<std::int32_t> slot(n);
            std::vector<Neighbor> expected;
            for (int i = 0; i < n; ++i) {
                dist[i] = static_cast<double>(rng() % 7) * 0.5;
                slot[i] = i * 3 + 1;  // distinct slots, as in a query
                expected.push_back(Neighbor{dist[i], slot[i], 0});
            }
            std::sort(expected.begin(), expected.end(), closer);
            expected.resize(std::min(n, max_k));
            std::vector<Neighbor> out(std::max(1, max_k));
            const int kept = select_nearest<sse2>(dist.data(), slot.data(), n, max_k, out.data());
            REQUIRE(kept == static_cast<int>(expected.size()));
            for (int i = 0; i < kept; ++i) {
                CHECK(out[i].dist_sq == expected[i].dist_sq);
                CHECK(out[i].slot == expected[i].slot);
            }
        }
    }
}

TEST_CASE_TEMPLATE("select_nearest with distinct distances, every count and every odd tail", Path, std::true_type, std::false_type) {
    constexpr bool sse2 = Path::value;
    // The usual case (no ties): places counted by distance alone.
    std::mt19937 rng(17);
    std::uniform_real_distribution<double> any(0.0, 12.25);
    for (int n = 0; n <= kRankMax; ++n) {
        std::vector<double> dist(n + 1);  // select_nearest's room to pad
        std::vector<std::int32_t> slot(n);
        std::vector<Neighbor> expected;
        for (int i = 0; i < n; ++i) {
            dist[i] = any(rng);
            slot[i] = static_cast<std::int32_t>(rng() % 100000);
            expected.push_back(Neighbor{dist[i], slot[i], 0});
        }
        std::sort(expected.begin(), expected.end(), closer);
        for (int max_k : {1, 10, kRankMax}) {
            std::vector<Neighbor> out(max_k);
            const int kept = select_nearest<sse2>(dist.data(), slot.data(), n, max_k, out.data());
            REQUIRE(kept == std::min(n, max_k));
            for (int i = 0; i < kept; ++i) {
                CHECK(out[i].dist_sq == expected[i].dist_sq);
                CHECK(out[i].slot == expected[i].slot);
            }
        }
    }
}

TEST_CASE_TEMPLATE("count_below counts exactly for two bounds, NaN never below", Path, std::true_type, std::false_type) {
    constexpr bool sse2 = Path::value;
    const std::vector<double> dist{3.0, 1.0, 2.0, 1.0, 5.0, 0.5};
    std::int64_t a = -1, b = -1;
    count_below<sse2>(dist.data(), 6, 2.0, 3.5, a, b);
    CHECK(a == 3);
    CHECK(b == 5);
    count_below<sse2>(dist.data(), 4, 1.0, 9.0, a, b);
    CHECK(a == 0);
    CHECK(b == 4);
    count_below<sse2>(dist.data(), 0, 9.0, 9.0, a, b);
    CHECK(a == 0);
    CHECK(b == 0);
    count_below<sse2>(dist.data(), 6, std::nan(""), 0.5, a, b);
    CHECK(a == 0);
    CHECK(b == 0);
}

namespace {

// Runs gather_in_range on both paths over every run [begin, end) with begin
// below 8 and ends 3 apart, against query point p with range 3.5: the same
// candidates, each within range, not slot 47 (the query's own) nor slot 52
// (point 10, exactly at the range). Slots are 5 j + 2. Returns how many
// were gathered in all.
template <class V>
int gather_both_paths(const std::vector<V>& points, const std::vector<std::int32_t>& slots, V p) {
    int gathered = 0;
    for (std::uint32_t begin = 0; begin < 8; ++begin) {
        for (std::uint32_t end = begin; end <= points.size(); end += 3) {
            double dist_a[kGatherMax], dist_b[kGatherMax];
            std::int32_t slot_a[kGatherMax], slot_b[kGatherMax];
            const int n_a = gather_in_range<true>(points.data(), slots.data(), begin, end, p, 12.25, 47, dist_a, slot_a, 0);
            const int n_b = gather_in_range<false>(points.data(), slots.data(), begin, end, p, 12.25, 47, dist_b, slot_b, 0);
            REQUIRE(n_a == n_b);
            gathered += n_a;
            for (int i = 0; i < n_a; ++i) {
                CHECK(dist_a[i] == dist_b[i]);
                CHECK(dist_a[i] == abs_sq(points[static_cast<std::size_t>((slot_a[i] - 2) / 5)] - p));
                CHECK(slot_a[i] == slot_b[i]);
                CHECK(dist_a[i] < 12.25);
                CHECK(slot_a[i] != 47);
                CHECK(slot_a[i] != 52);
            }
        }
    }
    return gathered;
}

}  // namespace

TEST_CASE("gather_in_range: the SSE2 and plain paths gather the same candidates") {
    // Points near the range's edge and on the query point, the query's own
    // slot among them, every run length and start.
    std::mt19937 rng(23);
    std::uniform_real_distribution<double> any(-4.0, 4.0);
    std::vector<Vec2> points(64);
    std::vector<std::int32_t> slots(64);
    for (int j = 0; j < 64; ++j) {
        points[j] = j % 9 == 0 ? Vec2(0.25, -0.5) : Vec2(any(rng), any(rng));
        slots[j] = j * 5 + 2;
    }
    points[10] = Vec2(0.25 + 3.5, -0.5);  // exactly at the range: not within
    CHECK(gather_both_paths(points, slots, Vec2(0.25, -0.5)) > 1000);
}

TEST_CASE("gather_in_range in 3D: the SSE2 and plain paths gather the same candidates") {
    // As in 2D (the SSE2 path reads two points as three registers, so odd
    // starts matter), with a point just within range and one of NaN.
    std::mt19937 rng(29);
    std::uniform_real_distribution<double> any(-4.0, 4.0);
    std::vector<Vec3> points(64);
    std::vector<std::int32_t> slots(64);
    const Vec3 p(0.25, -0.5, 1.75);
    for (int j = 0; j < 64; ++j) {
        points[j] = j % 9 == 0 ? p : p + Vec3(any(rng), any(rng), any(rng));
        slots[j] = j * 5 + 2;
    }
    points[10] = p + Vec3(0.0, 0.0, 3.5);  // exactly at the range: not within
    points[20] = p + Vec3(2.0, 2.0, 2.0);  // 3.46..., within
    points[21] = Vec3(std::nan(""), 0.0, 0.0);  // never within
    CHECK(gather_both_paths(points, slots, p) > 1000);
}

TEST_CASE("floor_to_int is std::floor") {
    for (double x : {0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.999999999, -2.999999999, 1e15, -1e15, 4503599627370495.5,
                     -4503599627370495.5, 1e18, -1e18, 5e-324, -5e-324}) {
        CHECK(floor_to_int(x) == static_cast<std::int64_t>(std::floor(x)));
    }
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> any(-1e6, 1e6);
    for (int i = 0; i < 100000; ++i) {
        const double x = any(rng);
        REQUIRE(floor_to_int(x) == static_cast<std::int64_t>(std::floor(x)));
    }
}
