#include "methods/common/reachable_velocities.hpp"

#include <cmath>

#include "methods/orca/linear_program.hpp"

namespace vosim {

namespace {

constexpr double kPi = 3.14159265358979323846;

// Unit vectors of the vertices, the first along +x.
struct Corners {
    Vec2 unit[kReachableSides];
    Corners() {
        for (int k = 0; k < kReachableSides; ++k) {
            const double angle = 2.0 * kPi * k / kReachableSides;
            unit[k] = Vec2(std::cos(angle), std::sin(angle));
        }
    }
};
const Corners kCorners;

}  // namespace

bool append_reachable_polygon(Vec2 velocity, double reach, Vec2 preferred, std::vector<Line>& lines) {
    const Vec2 wanted = preferred - velocity;
    const Vec2 towards = abs_sq(wanted) > 0.0 ? normalize(wanted) : Vec2(1.0, 0.0);
    Vec2 vertex[kReachableSides];
    for (int k = 0; k < kReachableSides; ++k) {
        const Vec2 c = kCorners.unit[k];
        vertex[k] = velocity + reach * Vec2(towards.x * c.x - towards.y * c.y, towards.x * c.y + towards.y * c.x);
    }
    for (int k = 0; k < kReachableSides; ++k) {
        const Vec2 edge = vertex[(k + 1) % kReachableSides] - vertex[k];
        if (!(abs_sq(edge) >= kSmallestNormal)) return false;  // vertices merged by rounding
    }
    for (int k = 0; k < kReachableSides; ++k) {
        lines.push_back(Line{vertex[k], normalize(vertex[(k + 1) % kReachableSides] - vertex[k])});
    }
    return true;
}

bool solve_within_reach(const std::vector<Line>& lines, std::size_t polygon_end, std::size_t hard_end,
                        Vec2 velocity, double reach, double max_speed, Vec2 preferred, double bisector_weight,
                        std::vector<Line>& scratch, Vec2& result) {
    const std::size_t failed = solve_nearest(lines, max_speed, preferred, false, result);
    if (failed == lines.size()) return false;
    if (failed < polygon_end) {
        // The speed disc is out of reach: brake as hard as the polygon allows.
        const double speed = length(velocity);
        const double brake = std::fmin(speed, reach * std::cos(kPi / kReachableSides));
        result = speed > 0.0 ? velocity * ((speed - brake) / speed) : velocity;
        return true;
    }
    if (failed < hard_end) {
        // Obstacles out of reach: only the polygon stays hard.
        scratch.assign(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(polygon_end));
        solve_nearest(scratch, max_speed, preferred, false, result);
        solve_least_violation(lines, polygon_end, polygon_end, max_speed, bisector_weight, scratch, result);
        return true;
    }
    solve_least_violation(lines, hard_end, failed, max_speed, bisector_weight, scratch, result);
    return true;
}

}  // namespace vosim
