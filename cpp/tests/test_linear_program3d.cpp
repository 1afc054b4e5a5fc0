// ORCA-3D's linear programs (linear_program3d.hpp) on small cases with known optima.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "linear_program3d.hpp"

using namespace vosim;

namespace {
// The half-space x >= x0.
Plane at_least_x(double x0) { return {Vec3(x0, 0.0, 0.0), Vec3(1.0, 0.0, 0.0)}; }
Plane at_most_x(double x0) { return {Vec3(x0, 0.0, 0.0), Vec3(-1.0, 0.0, 0.0)}; }
Plane at_least_y(double y0) { return {Vec3(0.0, y0, 0.0), Vec3(0.0, 1.0, 0.0)}; }
}  // namespace

TEST_CASE("without planes the optimum is the target, or the target shortened to max_speed") {
    Vec3 result;
    CHECK(solve_nearest_3d({}, 2.0, Vec3(1.0, 1.0, 0.5), false, result) == 0);
    CHECK(result.z == 0.5);
    solve_nearest_3d({}, 1.0, Vec3(0.0, 3.0, 4.0), false, result);
    CHECK(result.y == doctest::Approx(0.6));
    CHECK(result.z == doctest::Approx(0.8));
}

TEST_CASE("one plane moves the optimum onto it; two onto their line; satisfied ones change nothing") {
    Vec3 result;
    CHECK(solve_nearest_3d({at_least_x(1.0)}, 5.0, Vec3(0.0, 0.5, 0.25), false, result) == 1);
    CHECK(result.x == doctest::Approx(1.0));
    CHECK(result.y == doctest::Approx(0.5));
    CHECK(result.z == doctest::Approx(0.25));
    CHECK(solve_nearest_3d({at_least_x(1.0), at_least_y(2.0)}, 5.0, Vec3(0.0, 0.0, 0.5), false, result) == 2);
    CHECK(result.x == doctest::Approx(1.0));
    CHECK(result.y == doctest::Approx(2.0));
    CHECK(result.z == doctest::Approx(0.5));
    CHECK(solve_nearest_3d({at_least_x(-1.0)}, 5.0, Vec3(0.25, 0.5, 0.0), false, result) == 1);
    CHECK(result.x == 0.25);
}

TEST_CASE("the speed ball clips the optimum within a plane") {
    Vec3 result;
    // x >= 0.6 in the unit ball, aiming far along y: the disc x = 0.6 of radius 0.8.
    CHECK(solve_nearest_3d({at_least_x(0.6)}, 1.0, Vec3(0.0, 10.0, 0.0), false, result) == 1);
    CHECK(result.x == doctest::Approx(0.6));
    CHECK(result.y == doctest::Approx(0.8));
    CHECK(std::fabs(result.z) < 1e-12);
}

TEST_CASE("contradictory planes fail, and the fallback minimises the largest violation") {
    Vec3 result;
    const std::vector<Plane> planes{at_least_x(1.0), at_most_x(-1.0)};
    const std::size_t failed = solve_nearest_3d(planes, 5.0, Vec3(0.0, 0.0, 0.0), false, result);
    CHECK(failed == 1);
    std::vector<Plane> projected;
    solve_least_violation_3d(planes, 0, failed, 5.0, projected, result);
    CHECK(result.x == doctest::Approx(0.0));  // both violated by 1
    // With the first plane hard, it holds and the second takes the violation.
    solve_least_violation_3d(planes, 1, failed, 5.0, projected, result);
    CHECK(result.x >= 1.0 - 1e-12);
}

TEST_CASE("a plane beyond the speed ball is infeasible") {
    Vec3 result;
    CHECK(solve_nearest_3d({at_least_x(3.0)}, 2.0, Vec3(0.0, 0.0, 0.0), false, result) == 0);
}
