// NH-ORCA's tracking-error model (nh_orca.hpp): the closed-form speed bound
// against a simulated tracking, the controls against the drive's limits, and
// the polygon against the exact set of trackable velocities.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "methods/orca/nh_orca.hpp"

using namespace vosim;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kInf = std::numeric_limits<double>::infinity();

TrackingLimits limits_of(double max_speed, double wheel_speed, double track, double turn, double error,
                         double time) {
    TrackingLimits l;
    l.max_speed = max_speed;
    l.max_wheel_speed = wheel_speed;
    l.wheel_track = track;
    l.max_angular_speed = turn;
    l.tracking_error = error;
    l.tracking_time = time;
    return l;
}

// Robots of every regime: the error bound alone, turning limited by the
// wheels (a wide track), by max_angular_speed, a unicycle, an error so
// large that only the speed limits bind, a wheel speed above max_speed.
std::vector<TrackingLimits> robots() {
    return {limits_of(2.0, 2.0, 0.5, kInf, 0.1, 0.5),  limits_of(2.0, 2.0, 3.0, kInf, 0.3, 0.25),
            limits_of(1.0, 1.0, 0.5, 1.0, 0.05, 0.5),  limits_of(1.5, kInf, 0.0, 2.0, 0.2, 1.0),
            limits_of(2.0, 2.0, 0.5, kInf, 1.0, 0.5),  limits_of(1.0, 3.0, 0.4, kInf, 0.1, 0.3)};
}

// The largest distance between the holonomic path at `velocity` (the
// robot's frame) and the robot's under tracking_motion, integrated in
// small Euler steps over the turn and as long again after it.
double simulated_error(const TrackingLimits& limits, Vec2 velocity) {
    const Motion motion = tracking_motion(limits, velocity);
    const double angle = std::atan2(velocity.y, velocity.x);
    const double turn = turn_time(limits, angle);
    const double speed = length(velocity);
    const int steps = 20000;
    const double dt = 2.0 * turn / steps;
    Vec2 robot;
    double heading = 0.0, worst = 0.0;
    for (int k = 0; k < steps; ++k) {
        const double t = k * dt;
        // Midpoint rule: the turn ends exactly at T_theta, then straight at V.
        const bool turning = t < turn;
        const double w = turning ? motion.turn_rate : 0.0;
        const double v = turning ? motion.speed : speed;
        const double mid = heading + 0.5 * w * dt;
        robot += v * dt * Vec2(std::cos(mid), std::sin(mid));
        heading += w * dt;
        worst = std::fmax(worst, length(velocity * (t + dt) - robot));
    }
    return worst;
}

// The polygon's distance from the origin along `unit` (the origin is inside).
double polygon_reach(const Vec2* vertices, int count, Vec2 unit) {
    double reach = kInf;
    for (int k = 0; k < count; ++k) {
        const Vec2 a = vertices[k], edge = vertices[(k + 1) % count] - vertices[k];
        const double denominator = det(unit, edge);
        if (denominator > 0.0) reach = std::fmin(reach, det(a, edge) / denominator);
    }
    return reach;
}

}  // namespace

TEST_CASE("the speed factor theta sin(theta) / (2 (1 - cos theta)): 1 ahead, pi / 4 across, 0 behind") {
    CHECK(tracking_speed_factor(0.0) == 1.0);
    CHECK(tracking_speed_factor(kPi / 2) == doctest::Approx(kPi / 4).epsilon(1e-14));
    CHECK(tracking_speed_factor(-kPi / 2) == doctest::Approx(kPi / 4).epsilon(1e-14));
    CHECK(std::fabs(tracking_speed_factor(kPi)) < 1e-15);
    // The series and the quotient agree where they meet.
    const double a = 1e-4;
    const double below = tracking_speed_factor(a * (1 - 1e-9)), above = tracking_speed_factor(a * (1 + 1e-9));
    CHECK(below == doctest::Approx(above).epsilon(1e-13));
}

TEST_CASE("the closed-form error after the turn is the simulated one, and v* minimises it") {
    for (double angle = -3.1; angle <= 3.1; angle += 0.05) {
        const double v_star = tracking_speed_factor(angle);
        const double error = tracking_error_after_turn(angle, 1.0, 1.0, v_star);
        CHECK(error == doctest::Approx(std::fabs(std::sin(0.5 * angle))).epsilon(1e-12));
        CHECK(tracking_error_after_turn(angle, 1.0, 1.0, v_star * 1.01) >= error);
        CHECK(tracking_error_after_turn(angle, 1.0, 1.0, v_star * 0.99) >= error);
    }
}

TEST_CASE("at the largest trackable speed, every direction stays within the tracking error") {
    for (const TrackingLimits& limits : robots()) {
        double tightest = 0.0;
        for (int k = -180; k <= 180; ++k) {
            const double angle = kPi * k / 180.0;
            const double speed = max_tracking_speed(limits, angle);
            REQUIRE(speed > 0.0);
            const double error = simulated_error(limits, speed * Vec2(std::cos(angle), std::sin(angle)));
            CHECK(error <= limits.tracking_error * (1.0 + 1e-3));
            tightest = std::fmax(tightest, error / limits.tracking_error);
        }
        // The bound is the largest: somewhere it is reached (except where
        // only the speed limits bind, the fifth robot, whose error is 1 m).
        if (limits.tracking_error < 1.0) CHECK(tightest > 0.99);
    }
}

TEST_CASE("the largest speed: the straight speed ahead, eps / T_pi behind, symmetric") {
    const TrackingLimits limits = limits_of(1.0, 3.0, 0.4, kInf, 0.1, 0.3);
    CHECK(max_tracking_speed(limits, 0.0) == 1.0);
    CHECK(max_tracking_speed(limits, kPi) == doctest::Approx(0.1 / 0.3).epsilon(1e-12));
    const TrackingLimits slow_turn = limits_of(2.0, 2.0, 3.0, kInf, 0.3, 0.25);
    CHECK(turn_time(slow_turn, kPi) == doctest::Approx(kPi * 3.0 / 4.0));
    CHECK(max_tracking_speed(slow_turn, kPi) == doctest::Approx(0.3 / (kPi * 0.75)));
    for (double angle = 0.01; angle < kPi; angle += 0.1) {
        CHECK(max_tracking_speed(limits, angle) == max_tracking_speed(limits, -angle));
    }
}

TEST_CASE("the controls keep every limit of the drive, for any velocity") {
    for (const TrackingLimits& limits : robots()) {
        for (int k = -36; k <= 36; ++k) {
            for (const double speed : {1e-9, 0.01, 0.3, 1.0, 2.0, 10.0}) {
                const double angle = kPi * k / 36.0;
                const Motion m = tracking_motion(limits, speed * Vec2(std::cos(angle), std::sin(angle)));
                CHECK(m.speed >= 0.0);
                CHECK(m.speed <= limits.max_speed * (1 + 1e-12));
                CHECK(std::fabs(m.turn_rate) <= limits.max_angular_speed * (1 + 1e-12));
                CHECK(m.speed + std::fabs(m.turn_rate) * 0.5 * limits.wheel_track <=
                      limits.max_wheel_speed * (1 + 1e-12));
                // It turns towards the velocity, reaching it after T_theta.
                const double wrapped = std::atan2(std::sin(angle), std::cos(angle));
                CHECK(m.turn_rate * turn_time(limits, angle) == doctest::Approx(wrapped));
            }
        }
        const Motion rest = tracking_motion(limits, Vec2());
        CHECK(rest.speed == 0.0);
        CHECK(rest.turn_rate == 0.0);
    }
}

TEST_CASE("the polygon is convex, holds the origin and lies inside the exact set") {
    for (const TrackingLimits& limits : robots()) {
        Vec2 vertices[kMaxTrackingVertices];
        const int count = tracking_polygon(limits, vertices);
        REQUIRE(count >= 3);
        double largest = 0.0;
        for (int k = 0; k < count; ++k) largest = std::fmax(largest, length(vertices[k]));
        for (int k = 0; k < count; ++k) {
            const Vec2 a = vertices[k], b = vertices[(k + 1) % count], c = vertices[(k + 2) % count];
            CHECK(det(b - a, c - b) >= -1e-9 * largest * largest);  // convex
            CHECK(det(a, b) > 0.0);                                  // the origin strictly inside
        }
        // Along 20,000 directions: inside the exact set; and how much is lost.
        double polygon_area = 0.0, exact_area = 0.0, worst_ratio = 1.0;
        const int directions = 20000;
        for (int j = 0; j < directions; ++j) {
            const double angle = -kPi + 2.0 * kPi * (j + 0.5) / directions;
            const double reach = polygon_reach(vertices, count, Vec2(std::cos(angle), std::sin(angle)));
            const double exact = max_tracking_speed(limits, angle);
            CHECK(reach <= exact * (1.0 + 1e-9));
            worst_ratio = std::fmin(worst_ratio, reach / exact);
            polygon_area += 0.5 * reach * reach;
            exact_area += 0.5 * exact * exact;
        }
        INFO("the polygon holds " << 100.0 * polygon_area / exact_area << " % of the exact area, "
                                  << 100.0 * worst_ratio << " % of its reach at worst");
        CHECK(polygon_area > 0.9 * exact_area);
    }
}

TEST_CASE("a robot that cannot move, or a tracking error or time not > 0, has no polygon") {
    Vec2 vertices[kMaxTrackingVertices];
    CHECK(tracking_polygon(limits_of(0.0, 2.0, 0.5, kInf, 0.1, 0.5), vertices) == 0);
    CHECK(tracking_polygon(limits_of(2.0, 0.0, 0.5, kInf, 0.1, 0.5), vertices) == 0);
    CHECK(tracking_polygon(limits_of(2.0, 2.0, 0.5, 0.0, 0.1, 0.5), vertices) == 0);
    CHECK(tracking_polygon(limits_of(2.0, 2.0, 0.5, kInf, 0.0, 0.5), vertices) == 0);
    CHECK(tracking_polygon(limits_of(2.0, 2.0, 0.5, kInf, -0.1, 0.5), vertices) == 0);
    CHECK(tracking_polygon(limits_of(2.0, 2.0, 0.5, kInf, 0.1, 0.0), vertices) == 0);
    CHECK(tracking_polygon(limits_of(2.0, 2.0, 0.5, kInf, std::nan(""), 0.5), vertices) == 0);
}
