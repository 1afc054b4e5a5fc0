// ORCA's linear programs (linear_program.hpp) on small cases with known optima.
#include <doctest/doctest.h>

#include <vector>

#include "methods/orca/linear_program.hpp"

using namespace vosim;

namespace {
// The half-plane x >= x0: its line runs downwards, so the allowed side is on its left.
Line right_of(double x0) { return {Vec2(x0, 0.0), Vec2(0.0, -1.0)}; }
Line left_of(double x0) { return {Vec2(x0, 0.0), Vec2(0.0, 1.0)}; }
}  // namespace

TEST_CASE("without lines the optimum is the target, or the target shortened to max_speed") {
    Vec2 result;
    CHECK(solve_nearest({}, 2.0, Vec2(1.0, 1.0), false, result) == 0);
    CHECK(result.x == 1.0);
    CHECK(result.y == 1.0);
    solve_nearest({}, 2.0, Vec2(6.0, 8.0), false, result);
    CHECK(result.x == doctest::Approx(1.2));
    CHECK(result.y == doctest::Approx(1.6));
}

TEST_CASE("one line moves the optimum onto it") {
    Vec2 result;
    const std::vector<Line> lines{right_of(1.0)};
    CHECK(solve_nearest(lines, 5.0, Vec2(0.0, 0.5), false, result) == lines.size());
    CHECK(result.x == doctest::Approx(1.0));
    CHECK(result.y == doctest::Approx(0.5));
}

TEST_CASE("a satisfied line changes nothing") {
    Vec2 result;
    CHECK(solve_nearest({right_of(-1.0)}, 5.0, Vec2(0.25, 0.5), false, result) == 1);
    CHECK(result.x == 0.25);
    CHECK(result.y == 0.5);
}

TEST_CASE("contradicting lines: the first failing line is reported, then the least violation is found") {
    Vec2 result;
    const std::vector<Line> lines{right_of(1.0), left_of(-1.0)};
    const std::size_t failed = solve_nearest(lines, 5.0, Vec2(0.0, 0.0), false, result);
    REQUIRE(failed == 1);
    std::vector<Line> scratch;
    solve_least_violation(lines, 0, failed, 5.0, 1.0, scratch, result);
    // Both lines are violated by 1 at x = 0, the smallest largest violation.
    CHECK(result.x == doctest::Approx(0.0).epsilon(1e-9));
    CHECK(length(result) <= 5.0 + 1e-12);
}

TEST_CASE("hard lines stay satisfied in the least-violation program") {
    Vec2 result;
    const std::vector<Line> lines{right_of(1.0), left_of(-1.0)};
    std::vector<Line> scratch;
    solve_least_violation(lines, 1, 1, 5.0, 1.0, scratch, result);
    CHECK(result.x >= 1.0 - 1e-9);
}
