#include "kinematics/kinematics.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "state/state_check.hpp"
#include "parallel/parallel.hpp"
#include "parallel/threads.hpp"

namespace vosim {

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kInf = std::numeric_limits<double>::infinity();

bool nonholonomic(const AgentState& s, std::size_t i) {
    return s.kinematics[i] != static_cast<std::int8_t>(Kinematics::kHolonomic);
}

// sin(x) / x, with its series where the quotient loses digits.
double sinc(double x) {
    if (std::fabs(x) < 1e-3) {
        const double x2 = x * x;
        return 1.0 - x2 / 6.0 * (1.0 - x2 / 20.0);
    }
    return std::sin(x) / x;
}

// Keeps the part of a convex polygon where dot(normal, p) <= bound
// (Sutherland-Hodgman against one half-plane).
int clip(const Vec2* in, int count, Vec2 normal, double bound, Vec2* out) {
    int kept = 0;
    for (int k = 0; k < count; ++k) {
        const Vec2 a = in[k], b = in[(k + 1) % count];
        const double da = dot(normal, a) - bound, db = dot(normal, b) - bound;
        if (da <= 0.0) out[kept++] = a;
        if ((da < 0.0 && db > 0.0) || (da > 0.0 && db < 0.0)) out[kept++] = a + (da / (da - db)) * (b - a);
    }
    return kept;
}

// Own copy of `from` in `to`, reusing `spare` (to's previous buffer) when its size fits.
template <class T>
void copy_column(const Column<T>& from, Column<T>& to, Column<T>&& spare) {
    to = spare.elements() == from.elements() && spare.data() != from.data() ? std::move(spare)
                                                                             : Column<T>(from.elements());
    if (from.elements() > 0) std::memcpy(to.data(), from.data(), from.elements() * sizeof(T));
}

}  // namespace

DriveLimits drive_limits(const AgentState& s, std::size_t i) {
    DriveLimits limits;
    limits.kind = static_cast<Kinematics>(s.kinematics[i]);
    limits.max_speed = s.max_speed[i];
    limits.max_wheel_speed = s.max_wheel_speed[i];
    limits.wheel_track = s.wheel_track[i];
    limits.max_angular_speed = s.max_angular_speed[i];
    return limits;
}

Motion saturate(Motion motion, const DriveLimits& limits) {
    const double v = std::fabs(motion.speed), w = std::fabs(motion.turn_rate);
    double scale = 1.0;
    if (v > limits.max_speed) scale = limits.max_speed / v;
    if (w > limits.max_angular_speed) scale = std::fmin(scale, limits.max_angular_speed / w);
    if (limits.kind == Kinematics::kDifferentialDrive) {
        // The faster wheel turns at |v| + |w| L / 2.
        const double wheel = v + w * 0.5 * limits.wheel_track;
        if (wheel > limits.max_wheel_speed) scale = std::fmin(scale, limits.max_wheel_speed / wheel);
    }
    if (scale < 1.0) {
        motion.speed *= scale;
        motion.turn_rate *= scale;
    }
    return motion;
}

double wrap_angle(double angle) {
    double wrapped = std::remainder(angle, 2.0 * kPi);  // [-pi, pi]
    if (wrapped <= -kPi) wrapped += 2.0 * kPi;
    return wrapped;
}

Pose advance_pose(Pose pose, Motion motion, double dt) {
    // Along an arc of turn phi the chord is v dt sin(phi / 2) / (phi / 2),
    // in the direction of the heading halfway.
    const double half_turn = 0.5 * motion.turn_rate * dt;
    const double mid = pose.heading + half_turn;
    const double chord = motion.speed * dt * sinc(half_turn);
    pose.position += chord * Vec2(std::cos(mid), std::sin(mid));
    pose.heading = wrap_angle(pose.heading + motion.turn_rate * dt);
    return pose;
}

int realisable_polygon(const DriveLimits& limits, double distance, Vec2 (&vertices)[kMaxRealisableVertices]) {
    Vec2 a[kMaxRealisableVertices], b[kMaxRealisableVertices];
    int count = 4;
    const double side = limits.max_angular_speed * distance;  // the largest w D (inf: none)
    if (limits.kind == Kinematics::kUnicycle) {
        a[0] = Vec2(-limits.max_speed, -side);
        a[1] = Vec2(limits.max_speed, -side);
        a[2] = Vec2(limits.max_speed, side);
        a[3] = Vec2(-limits.max_speed, side);
    } else {
        // |v| + |w D| L / (2 D) <= v_wheel.
        const double wheel = limits.max_wheel_speed;
        const double sideways = limits.wheel_track > 0.0 ? 2.0 * distance * wheel / limits.wheel_track : 0.0;
        a[0] = Vec2(wheel, 0.0);
        a[1] = Vec2(0.0, sideways);
        a[2] = Vec2(-wheel, 0.0);
        a[3] = Vec2(0.0, -sideways);
        count = clip(a, count, Vec2(1.0, 0.0), limits.max_speed, b);
        count = clip(b, count, Vec2(-1.0, 0.0), limits.max_speed, a);
        if (side < kInf) {
            count = clip(a, count, Vec2(0.0, 1.0), side, b);
            count = clip(b, count, Vec2(0.0, -1.0), side, a);
        }
    }
    // Drop vertices that coincide with the previous one (a clip through a
    // vertex, or a zero limit).
    int kept = 0;
    for (int k = 0; k < count; ++k) {
        if (kept > 0 && !(abs_sq(a[k] - vertices[kept - 1]) >= kSmallestNormal)) continue;
        vertices[kept++] = a[k];
    }
    while (kept > 1 && !(abs_sq(vertices[kept - 1] - vertices[0]) >= kSmallestNormal)) --kept;
    return kept;
}

Presented present_effective_center(const AgentState& s, std::size_t i) {
    const double distance = s.effective_center_distance[i];
    const Vec2 heading(std::cos(s.headings[i]), std::sin(s.headings[i]));
    Presented p;
    p.position = s.position(i) + distance * heading;
    p.velocity = s.velocity(i) + (s.angular_velocities[i] * distance) * perp(heading);
    p.radius = s.radius[i] + distance;
    return p;
}

Motion effective_center_motion(Vec2 u, double heading, double distance) {
    const Vec2 h(std::cos(heading), std::sin(heading));
    return Motion{dot(u, h), dot(u, perp(h)) / distance};
}

bool has_nonholonomic(const AgentState& s) {
    if (s.kinematics.uniform() && s.kinematics.value() == 0) return false;  // all holonomic: no scan
    const std::int64_t total = static_cast<std::int64_t>(s.scenes()) * s.capacity();
    // A parallel scan (a serial one would be a step's serial part).
    const std::int64_t items = items_of(total, kValuesPerItem);
    std::vector<std::uint8_t> found(static_cast<std::size_t>(items), 0);
    parallel_for(items, max_threads(), [&](std::int64_t item) {
        const std::int64_t end = std::min(total, (item + 1) * kValuesPerItem);
        for (std::int64_t i = item * kValuesPerItem; i < end; ++i) {
            if (s.kinematics[i] != 0 && i % s.capacity() < s.count() && s.active[i]) {
                found[static_cast<std::size_t>(item)] = 1;
                return;
            }
        }
    });
    return std::find(found.begin(), found.end(), 1) != found.end();
}

DriveFault drive_fault(Kinematics kind, double wheel_track, double effective_center_distance,
                       double max_angular_speed) {
    if (kind == Kinematics::kHolonomic) return {};
    if (kind == Kinematics::kDifferentialDrive && !(wheel_track > 0.0)) return {"wheel_track", wheel_track, "> 0"};
    if (!(effective_center_distance > 0.0)) {
        return {"effective_center_distance", effective_center_distance, "> 0"};
    }
    if (!(max_angular_speed > 0.0)) return {"max_angular_speed", max_angular_speed, "> 0"};
    if (kind == Kinematics::kUnicycle && !std::isfinite(max_angular_speed)) {
        return {"max_angular_speed", max_angular_speed, "finite"};
    }
    return {};
}

void check_kinematics(const AgentState& s) {
    // Only non-holonomic agents have anything to check: most crowds have none.
    if (!has_nonholonomic(s)) return;
    for (int b = 0; b < s.scenes(); ++b) {
        for (int slot = 0; slot < s.count(); ++slot) {
            const std::size_t i = s.index(b, slot);
            if (!s.active[i] || !nonholonomic(s, i)) continue;
            const std::string who = describe_agent(s, b, slot) + " (kinematics='" +
                                    kKinematicsNames[static_cast<int>(s.kinematics[i])] + "')";
            if (s.dimensions() != 2) {
                throw std::invalid_argument(who + ": non-holonomic agents move in the plane only; this simulator "
                                                  "has dimensions=" + std::to_string(s.dimensions()));
            }
            const DriveFault fault = drive_fault(static_cast<Kinematics>(s.kinematics[i]), s.wheel_track[i],
                                                 s.effective_center_distance[i], s.max_angular_speed[i]);
            if (fault.field) {
                throw std::invalid_argument(who + ": " + fault.field + " is " + format_number(fault.value) +
                                            "; it must be " + fault.need + ". Nothing was advanced.");
            }
        }
    }
}

namespace {

// A number as Python's repr of a float writes it (0.0, inf, 1e-05).
std::string python_float_text(double value) {
    std::string text = format_number(value);
    if (text.find_first_not_of("-0123456789") == std::string::npos) text += ".0";
    return text;
}

}  // namespace

void check_new_drives(const AgentInput& in, int scenes, int n, int dimensions, bool name_scenes) {
    for (int b = 0; b < scenes; ++b) {
        for (int k = 0; k < n; ++k) {
            const auto kind = static_cast<Kinematics>(in.kinematics.at(b, k));
            if (kind == Kinematics::kHolonomic) continue;
            const std::string at = (name_scenes ? std::to_string(b) + ", " : std::string()) + std::to_string(k);
            const std::string agent = std::string("; a '") + kKinematicsNames[static_cast<int>(kind)] +
                                      "' agent needs ";
            if (dimensions != 2) {
                throw std::invalid_argument("kinematics[" + at + "] is '" + kKinematicsNames[static_cast<int>(kind)] +
                                            "'" + agent + "a 2D simulator (this one has dimensions=" +
                                            std::to_string(dimensions) + ")");
            }
            const DriveFault fault = drive_fault(kind, in.wheel_track.at(b, k), in.effective_center_distance.at(b, k),
                                                 in.max_angular_speed.at(b, k));
            if (fault.field) {
                throw std::invalid_argument(std::string(fault.field) + "[" + at + "] is " +
                                            python_float_text(fault.value) + agent + "it " + fault.need);
            }
        }
    }
}

void share_state_for_presentation(const AgentState& s, AgentState& presented) {
    Column<double> positions = std::move(presented.positions), velocities = std::move(presented.velocities);
    Column<double> radius = std::move(presented.radius);
    presented = s;  // shares every column...
    copy_column(s.positions, presented.positions, std::move(positions));  // ...but these three
    copy_column(s.velocities, presented.velocities, std::move(velocities));
    copy_column(s.radius, presented.radius, std::move(radius));
}

}  // namespace vosim
