// The state check's range tests (outside_range.hpp): the SSE2 path and the
// plain one against one value at a time, on every count and with NaN,
// infinities and -0.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "maths/outside_range.hpp"

using namespace vosim;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

bool any_outside_one_by_one(const std::vector<double>& values, double lo, double hi) {
    for (const double v : values) {
        if (!(v >= lo && v <= hi)) return true;
    }
    return false;
}

}  // namespace

TEST_CASE_TEMPLATE("any_outside_range finds the one bad value wherever it is", Path, std::true_type, std::false_type) {
    constexpr bool sse2 = Path::value;
    for (int count = 0; count <= 11; ++count) {
        std::vector<double> values(count, 0.5);
        CHECK_FALSE(any_outside_range<sse2>(values.data(), count, 0.0, 1.0));
        for (int at = 0; at < count; ++at) {
            for (const double bad : {kNaN, -kInf, kInf, -1e-300, 1.0000000000000002}) {
                values[at] = bad;
                CHECK(any_outside_range<sse2>(values.data(), count, 0.0, 1.0));
                values[at] = 0.5;
            }
        }
    }
    // The bounds and -0 are inside.
    const std::vector<double> edges{0.0, -0.0, 1.0, 0.0, 1.0};
    CHECK_FALSE(any_outside_range<sse2>(edges.data(), 5, 0.0, 1.0));
    CHECK(any_outside_range<sse2>(edges.data(), 5, 1e-9, 1.0));
    // An unbounded range still refuses NaN.
    const std::vector<double> big{kInf, 1e308, kNaN};
    CHECK_FALSE(any_outside_range<sse2>(big.data(), 2, 0.0, kInf));
    CHECK(any_outside_range<sse2>(big.data(), 3, 0.0, kInf));
}

TEST_CASE_TEMPLATE("any_outside_range agrees with one value at a time on random data", Path, std::true_type, std::false_type) {
    constexpr bool sse2 = Path::value;
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> any(-2.0, 2.0);
    for (int trial = 0; trial < 2000; ++trial) {
        const int count = static_cast<int>(rng() % 40);
        std::vector<double> values(count);
        for (double& v : values) v = rng() % 50 == 0 ? kNaN : any(rng) * 0.55;
        REQUIRE(any_outside_range<sse2>(values.data(), count, -1.0, 1.0) == any_outside_one_by_one(values, -1.0, 1.0));
    }
}

TEST_CASE_TEMPLATE("any_outside_range_where looks only at the selected agents", Path, std::true_type, std::false_type) {
    constexpr bool sse2 = Path::value;
    for (int n = 0; n <= 9; ++n) {
        for (int at = 0; at < n; ++at) {
            // One bad value at agent `at`, of each width; it counts only when
            // that agent is selected.
            std::vector<double> one(n, 0.5), two(2 * n, 0.5), three(3 * n, 0.5);
            one[at] = kNaN;
            two[2 * at + 1] = -kInf;
            three[3 * at + 2] = 7.0;
            for (const bool wanted : {false, true}) {
                std::vector<std::uint8_t> selected(n, wanted ? 1 : 0);
                CHECK(any_outside_range_where<1, sse2>(one.data(), selected.data(), wanted, n, 0.0, 1.0));
                CHECK(any_outside_range_where<2, sse2>(two.data(), selected.data(), wanted, n, 0.0, 1.0));
                CHECK(any_outside_range_where<3, sse2>(three.data(), selected.data(), wanted, n, 0.0, 1.0));
                selected[at] = wanted ? 0 : 1;
                CHECK_FALSE(any_outside_range_where<1, sse2>(one.data(), selected.data(), wanted, n, 0.0, 1.0));
                CHECK_FALSE(any_outside_range_where<2, sse2>(two.data(), selected.data(), wanted, n, 0.0, 1.0));
                CHECK_FALSE(any_outside_range_where<3, sse2>(three.data(), selected.data(), wanted, n, 0.0, 1.0));
            }
        }
    }
}
