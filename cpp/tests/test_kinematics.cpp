// The kinematic model of non-holonomic agents (kinematics.hpp).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "kinematics/kinematics.hpp"

using namespace vosim;

namespace {
constexpr double kPi = 3.14159265358979323846;

DriveLimits differential_drive(double wheel_speed, double track, double max_speed, double max_turn) {
    DriveLimits limits;
    limits.kind = Kinematics::kDifferentialDrive;
    limits.max_wheel_speed = wheel_speed;
    limits.wheel_track = track;
    limits.max_speed = max_speed;
    limits.max_angular_speed = max_turn;
    return limits;
}
}  // namespace

TEST_CASE("saturation scales speed and turn rate by one factor, to the tightest limit") {
    const DriveLimits limits = differential_drive(1.0, 0.5, 2.0, std::numeric_limits<double>::infinity());
    // The faster wheel: 1 + 4 * 0.25 = 2, twice the limit.
    const Motion m = saturate(Motion{1.0, 4.0}, limits);
    CHECK(m.speed == doctest::Approx(0.5));
    CHECK(m.turn_rate == doctest::Approx(2.0));
    // Within the limits: unchanged.
    const Motion inside = saturate(Motion{0.3, -1.0}, limits);
    CHECK(inside.speed == 0.3);
    CHECK(inside.turn_rate == -1.0);
    // A unicycle has no wheels: speed and turn rate apart.
    DriveLimits unicycle = limits;
    unicycle.kind = Kinematics::kUnicycle;
    unicycle.max_angular_speed = 1.0;
    const Motion u = saturate(Motion{1.0, 4.0}, unicycle);
    CHECK(u.speed == doctest::Approx(0.25));
    CHECK(u.turn_rate == doctest::Approx(1.0));
}

TEST_CASE("poses move along the exact arc, headings wrapped to (-pi, pi]") {
    // A quarter circle of radius 1 from the origin heading +x ends at (1, 1).
    const Pose quarter = advance_pose(Pose{Vec2(0.0, 0.0), 0.0}, Motion{1.0, 1.0}, kPi / 2);
    CHECK(quarter.position.x == doctest::Approx(1.0));
    CHECK(quarter.position.y == doctest::Approx(1.0));
    CHECK(quarter.heading == doctest::Approx(kPi / 2));
    // A small turn (the series) against the closed form of the arc.
    const double v = 2.0, w = 0.0099, dt = 0.1, heading = 0.5;
    const Pose small = advance_pose(Pose{Vec2(1.0, 2.0), heading}, Motion{v, w}, dt);
    CHECK(small.position.x == doctest::Approx(1.0 + v / w * (std::sin(heading + w * dt) - std::sin(heading))).epsilon(1e-12));
    CHECK(small.position.y == doctest::Approx(2.0 - v / w * (std::cos(heading + w * dt) - std::cos(heading))).epsilon(1e-12));
    CHECK(wrap_angle(kPi) == kPi);
    CHECK(wrap_angle(-kPi) == kPi);
    CHECK(wrap_angle(3 * kPi / 2) == doctest::Approx(-kPi / 2));
    CHECK(advance_pose(Pose{Vec2(), 3.0}, Motion{0.0, 1.0}, 1.0).heading == doctest::Approx(4.0 - 2 * kPi));
}

TEST_CASE("the realisable polygon is the wheel diamond cut by the speed and turn limits") {
    Vec2 v[kMaxRealisableVertices];
    // D = L / 2: a square diamond of reach v_wheel.
    int count = realisable_polygon(differential_drive(1.0, 0.5, 1.0, std::numeric_limits<double>::infinity()), 0.25, v);
    REQUIRE(count == 4);
    for (int k = 0; k < count; ++k) CHECK(std::fabs(v[k].x) + std::fabs(v[k].y) == doctest::Approx(1.0));
    // Counter-clockwise.
    double area = 0.0;
    for (int k = 0; k < count; ++k) area += det(v[k], v[(k + 1) % count]);
    CHECK(area > 0.0);
    // A turn limit of 2 rad/s at D = 0.25 cuts the diamond at |w D| <= 0.5.
    count = realisable_polygon(differential_drive(1.0, 0.5, 1.0, 2.0), 0.25, v);
    CHECK(count == 6);
    for (int k = 0; k < count; ++k) CHECK(std::fabs(v[k].y) <= 0.5 + 1e-15);
    // A zero wheel speed leaves no area.
    CHECK(realisable_polygon(differential_drive(0.0, 0.5, 1.0, 2.0), 0.25, v) < 3);
}

TEST_CASE("the effective centre's velocity maps back to the motion that realises it") {
    const double heading = 0.7, distance = 0.3;
    const Vec2 h(std::cos(heading), std::sin(heading));
    const Motion m = effective_center_motion(0.8 * h + (1.5 * distance) * perp(h), heading, distance);
    CHECK(m.speed == doctest::Approx(0.8));
    CHECK(m.turn_rate == doctest::Approx(1.5));
}
