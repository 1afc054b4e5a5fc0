#include "methods/orca/nh_orca.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "state/state_check.hpp"

namespace vosim {

namespace {

constexpr double kPi = 3.14159265358979323846;

// What the speed bound needs of one direction |theta|, computed once.
struct Direction {
    double angle = 0.0;       // |theta|
    double half_sin = 0.0;    // sin(|theta| / 2)
    double sinc = 1.0;        // sin(theta) / theta
    double speed_factor = 1.0;  // f(theta)
};

Direction direction(double angle) {
    Direction d;
    d.angle = std::fabs(angle);
    d.half_sin = std::sin(0.5 * d.angle);
    d.sinc = d.angle > 0.0 ? std::sin(d.angle) / d.angle : 1.0;
    d.speed_factor = tracking_speed_factor(d.angle);
    return d;
}

double max_speed_in(const TrackingLimits& limits, const Direction& d) {
    const double straight = std::fmin(limits.max_speed, limits.max_wheel_speed);
    if (!(straight > 0.0)) return 0.0;
    const double time = turn_time(limits, d.angle);
    const double limit = turning_speed_limit(limits, d.angle / time);
    if (d.half_sin == 0.0) return std::fmin(straight, limit);  // straight ahead: no error
    // With v = v* the error after the turn is V T_theta sin(theta / 2).
    const double error_speed = limits.tracking_error / time;
    const double at_optimum = error_speed / d.half_sin;
    if (at_optimum * d.speed_factor <= limit) return std::fmin(straight, at_optimum);
    // v* is out of the wheels' reach: the robot turns at v = limit, and the
    // squared error / T_theta^2 = V^2 - 2 V v sinc + v^2 (sin(theta/2) / (theta/2))^2,
    // increasing in V here, reaches eps / T_theta at the larger root.
    const double excess = 4.0 * sqr(sqr(d.half_sin)) / sqr(d.angle);  // c - sinc^2 = (1 - cos)^2 / theta^2
    const double root = limit * d.sinc + std::sqrt(std::fmax(0.0, sqr(error_speed) - sqr(limit) * excess));
    return std::fmin(straight, root);
}

// The directions of the vertices (every fourth) and of the checks between
// them: angle -pi + 2 pi j / (4 kTrackingDirections).
constexpr int kSamples = 4;
constexpr int kMinTrackingVertices = 8;
constexpr int kDirections = kSamples * kTrackingDirections;
struct DirectionTable {
    Direction at[kDirections];
    Vec2 unit[kDirections];
    DirectionTable() {
        for (int j = 0; j < kDirections; ++j) {
            const double angle = -kPi + 2.0 * kPi * j / kDirections;
            at[j] = direction(angle);
            unit[j] = Vec2(std::cos(angle), std::sin(angle));
        }
        unit[kDirections / 2] = Vec2(1.0, 0.0);  // exactly ahead
    }
};
const DirectionTable kTable;

// The distance from the origin along `unit` to the line through a and b.
double distance_along(Vec2 unit, Vec2 a, Vec2 b) {
    const Vec2 edge = b - a;
    return det(a, edge) / det(unit, edge);
}

}  // namespace

double tracking_speed_factor(double angle) {
    const double a = std::fabs(angle);
    if (a < 1e-4) return 1.0 - a * a / 12.0;  // the series: the quotient loses digits
    const double half = 0.5 * a;
    return half * std::cos(half) / std::sin(half);
}

double turn_time(const TrackingLimits& limits, double angle) {
    const double a = std::fabs(angle);
    double time = limits.tracking_time;
    if (a == 0.0) return time;
    time = std::fmax(time, a / limits.max_angular_speed);
    if (limits.wheel_track > 0.0) time = std::fmax(time, a * limits.wheel_track / (2.0 * limits.max_wheel_speed));
    return time;
}

double turning_speed_limit(const TrackingLimits& limits, double turn_rate) {
    double limit = limits.max_speed;
    if (limits.wheel_track > 0.0) {
        limit = std::fmin(limit, limits.max_wheel_speed - std::fabs(turn_rate) * 0.5 * limits.wheel_track);
    }
    return std::fmax(0.0, limit);
}

double max_tracking_speed(const TrackingLimits& limits, double angle) {
    return max_speed_in(limits, direction(angle));
}

double tracking_error_after_turn(double angle, double time, double holonomic_speed, double speed) {
    const Direction d = direction(angle);
    const Vec2 holonomic = holonomic_speed * time * Vec2(std::cos(angle), std::sin(angle));
    // Along the arc: chord v t sinc(theta / 2) at half the turn.
    const double half_sinc = d.angle > 0.0 ? d.half_sin / (0.5 * d.angle) : 1.0;
    const Vec2 robot = speed * time * half_sinc * Vec2(std::cos(0.5 * angle), std::sin(0.5 * angle));
    return length(holonomic - robot);
}

Motion tracking_motion(const TrackingLimits& limits, Vec2 velocity) {
    const double speed = std::hypot(velocity.x, velocity.y);
    if (!(speed > 0.0)) return {};
    const double angle = std::atan2(velocity.y, velocity.x);
    Motion motion;
    motion.turn_rate = angle / turn_time(limits, angle);
    motion.speed = std::fmin(speed * tracking_speed_factor(angle), turning_speed_limit(limits, motion.turn_rate));
    return motion;
}

int tracking_polygon(const TrackingLimits& limits, Vec2 (&vertices)[kMaxTrackingVertices]) {
    constexpr int n = kTrackingDirections;
    if (!(std::fmin(limits.max_speed, limits.max_wheel_speed) > 0.0) || !(limits.tracking_error > 0.0) ||
        !(limits.tracking_time > 0.0) || !(limits.max_angular_speed > 0.0) ||
        !std::isfinite(limits.tracking_time)) {
        return 0;
    }
    double radius[n];
    double largest = 0.0;
    for (int k = 0; k < n; ++k) {
        // The set is symmetric about the heading: the same speed at +-theta.
        radius[k] = k <= n / 2 ? max_speed_in(limits, kTable.at[kSamples * k]) : radius[n - k];
        largest = std::fmax(largest, radius[k]);
    }
    if (!(largest > 0.0)) return 0;
    Vec2 sampled[n];
    for (int k = 0; k < n; ++k) sampled[k] = radius[k] * kTable.unit[kSamples * k];

    // Inside the exact set between the vertices too (checked at the
    // directions between them): else shrink about the origin.
    double scale = 1.0;
    for (int k = 0; k < n; ++k) {
        const Vec2 a = sampled[k], b = sampled[(k + 1) % n];
        for (int j = kSamples * k + 1; j < kSamples * (k + 1); ++j) {
            const double reach = distance_along(kTable.unit[j], a, b);
            const double exact = max_speed_in(limits, kTable.at[j]);
            if (reach > exact) scale = std::fmin(scale, exact / reach);
        }
    }

    // Convex: the kernel of the sampled polygon, the intersection of its
    // edges' inner half-planes (a square around it clipped by each), which
    // is the polygon itself where the boundary is convex. The boundary
    // dents in only straight behind, where a drive that turns slowly takes
    // longer the further it turns; the kernel then loses the dent's sides.
    Vec2 a[kMaxTrackingVertices], b[kMaxTrackingVertices];
    const double side = 2.0 * largest;
    a[0] = Vec2(-side, -side);
    a[1] = Vec2(side, -side);
    a[2] = Vec2(side, side);
    a[3] = Vec2(-side, side);
    int count = 4;
    Vec2* in = a;
    Vec2* out = b;
    for (int k = 0; k < n; ++k) {
        const Vec2 from = sampled[k], edge = sampled[(k + 1) % n] - sampled[k];
        int kept = 0;
        for (int m = 0; m < count; ++m) {
            const Vec2 p = in[m], q = in[(m + 1) % count];
            const double dp = det(edge, p - from), dq = det(edge, q - from);  // >= 0: inside
            if (dp >= 0.0) out[kept++] = p;
            if ((dp >= 0.0) != (dq >= 0.0)) out[kept++] = p + (dp / (dp - dq)) * (q - p);
        }
        count = kept;
        std::swap(in, out);
    }
    // Drop vertices that rounding made coincide.
    const double merged = 1e-12 * largest;
    int kept = 0;
    for (int m = 0; m < count; ++m) {
        const Vec2 v = scale * in[m];
        if (kept > 0 && length(v - vertices[kept - 1]) <= merged) continue;
        vertices[kept++] = v;
    }
    while (kept > 1 && length(vertices[kept - 1] - vertices[0]) <= merged) --kept;

    // Fewer lines for the linear program, which pays for each: drop every
    // vertex that lies within a thousandth of the polygon's size of the
    // chord between its neighbours (never two neighbours, so that is all
    // any direction loses). A convex polygon minus a vertex is inside it.
    const double flat = 1e-3 * largest * scale;
    int count_left = 0;
    bool dropped_last = false;
    for (int m = 0; m < kept; ++m) {
        const Vec2 before = count_left > 0 ? vertices[count_left - 1] : vertices[kept - 1];
        const Vec2 after = vertices[(m + 1) % kept];
        const Vec2 chord = after - before;
        const double height = det(vertices[m] - before, chord) / length(chord);  // outwards: > 0
        if (!dropped_last && m > 0 && kept - (m - count_left) > kMinTrackingVertices && height < flat) {
            dropped_last = true;
            continue;
        }
        dropped_last = false;
        vertices[count_left++] = vertices[m];
    }
    return count_left;
}

TrackingLimits tracking_limits(const AgentState& s, std::size_t i, double time_step) {
    const DriveLimits drive = drive_limits(s, i);
    TrackingLimits limits;
    limits.kind = drive.kind;
    limits.max_speed = drive.max_speed;
    if (drive.kind == Kinematics::kDifferentialDrive) {
        limits.max_wheel_speed = drive.max_wheel_speed;
        limits.wheel_track = drive.wheel_track;
    }
    limits.max_angular_speed = drive.max_angular_speed;
    limits.tracking_error = s.tracking_error[i];
    limits.tracking_time = std::fmax(s.tracking_time[i], time_step);
    return limits;
}

double min_tracking_error(const TrackingLimits& limits) {
    const double speed = std::fmin(limits.max_speed, limits.max_wheel_speed);
    return kMinTrackingErrorShare * speed * turn_time(limits, 2.0 * kPi / kTrackingDirections);
}

void check_tracking_errors(const AgentState& s, double time_step) {
    for (int b = 0; b < s.scenes(); ++b) {
        for (int slot = 0; slot < s.count(); ++slot) {
            const std::size_t i = s.index(b, slot);
            if (!s.active[i] || s.kinematics[i] == static_cast<std::int8_t>(Kinematics::kHolonomic)) continue;
            const double floor = min_tracking_error(tracking_limits(s, i, time_step));
            if (s.tracking_error[i] < floor) {
                throw std::invalid_argument(
                    describe_agent(s, b, slot) + ": tracking_error is " + format_number(s.tracking_error[i]) +
                    "; NH-ORCA needs at least " + format_number(floor) + " (1e-4 x its top speed x its turn time, "
                    "here " + format_number(turn_time(tracking_limits(s, i, time_step), 2.0 * kPi / kTrackingDirections)) +
                    " s): below it the robot drifts. Nothing was advanced.");
            }
        }
    }
}

Presented present_tracking_robot(const AgentState& s, std::size_t i) {
    Presented p;
    p.position = s.position(i);
    p.velocity = s.velocity(i);
    p.radius = s.radius[i] + s.tracking_error[i];
    return p;
}

Motion tracking_robot_motion(Vec2 u, const AgentState& s, std::size_t i, double time_step) {
    const Vec2 forward(std::cos(s.headings[i]), std::sin(s.headings[i]));
    return tracking_motion(tracking_limits(s, i, time_step), Vec2(dot(u, forward), dot(u, perp(forward))));
}

}  // namespace vosim
