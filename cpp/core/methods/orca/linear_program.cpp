#include "methods/orca/linear_program.hpp"

#include <cmath>

#include "maths/min_max_number.hpp"

namespace vosim {

namespace {

// Optimises on line `k` alone: the segment of it inside the speed disc, cut
// by lines 0..k-1. Returns false when that segment is empty.
bool solve_on_line(const std::vector<Line>& lines, std::size_t k, double max_speed, Vec2 target,
                   bool direction_mode, Vec2& result) {
    const Line& line = lines[k];
    // Points line.point + t * line.direction inside the disc solve
    // t^2 + 2 t (point . direction) + |point|^2 - max_speed^2 <= 0.
    const double along = dot(line.point, line.direction);
    const double discriminant = sqr(along) + sqr(max_speed) - abs_sq(line.point);
    if (discriminant < 0.0) return false;  // the disc lies wholly to the right of the line

    const double root = std::sqrt(discriminant);
    double t_low = -along - root;
    double t_high = -along + root;

    for (std::size_t i = 0; i < k; ++i) {
        const double denominator = det(line.direction, lines[i].direction);
        const double numerator = det(lines[i].direction, line.point - lines[i].point);
        if (std::fabs(denominator) <= kParallelEpsilon) {
            // Parallel: line k is either wholly admissible for line i or not at all.
            if (numerator < 0.0) return false;
            continue;
        }
        const double t = numerator / denominator;
        // Line i bounds line k on the right or on the left, by the sign of
        // the denominator: a coin toss for the branch predictor, so both
        // bounds are computed and selected.
        const bool right = denominator >= 0.0;
        const double high = min_number(t_high, t);
        const double low = max_number(t_low, t);
        t_high = right ? high : t_high;
        t_low = right ? t_low : low;
        if (t_low > t_high) return false;
    }

    double t;
    if (direction_mode) {
        t = dot(target, line.direction) > 0.0 ? t_high : t_low;
    } else {
        t = dot(line.direction, target - line.point);
        if (t < t_low) {
            t = t_low;
        } else if (t > t_high) {
            t = t_high;
        }
    }
    result = line.point + t * line.direction;
    return true;
}

}  // namespace

std::size_t solve_nearest(const std::vector<Line>& lines, double max_speed, Vec2 target,
                          bool direction_mode, Vec2& result) {
    if (direction_mode) {
        result = target * max_speed;  // target is a unit direction here
    } else if (longer_than(target, max_speed)) {
        result = with_length(target, max_speed);
    } else {
        result = target;
    }
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (det(lines[i].direction, lines[i].point - result) > 0.0) {
            // The current optimum violates line i: the new optimum lies on it.
            const Vec2 previous = result;
            if (!solve_on_line(lines, i, max_speed, target, direction_mode, result)) {
                result = previous;
                return i;
            }
        }
    }
    return lines.size();
}

void solve_least_violation(const std::vector<Line>& lines, std::size_t hard_count,
                           std::size_t first_failed, double max_speed, double bisector_weight,
                           std::vector<Line>& projected, Vec2& result) {
    double violation = 0.0;
    for (std::size_t i = first_failed; i < lines.size(); ++i) {
        const Line& line_i = lines[i];
        if (det(line_i.direction, line_i.point - result) <= violation) continue;

        // Line i is violated more than the current optimum allows: solve a
        // program in which every earlier soft line j is replaced by the line
        // where its violation equals that of line i.
        projected.assign(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(hard_count));
        for (std::size_t j = hard_count; j < i; ++j) {
            const Line& line_j = lines[j];
            Line bisector;
            const double determinant = det(line_i.direction, line_j.direction);
            if (std::fabs(determinant) <= kParallelEpsilon) {
                if (dot(line_i.direction, line_j.direction) > 0.0) continue;  // same direction
                bisector.point = 0.5 * (line_i.point + line_j.point);
            } else {
                bisector.point =
                    line_i.point +
                    (det(line_j.direction, line_i.point - line_j.point) / determinant) *
                        line_i.direction;
            }
            bisector.direction =
                normalize(bisector_weight * line_j.direction - line_i.direction);
            projected.push_back(bisector);
        }

        const Vec2 previous = result;
        // Push as far as possible in the direction away from line i.
        if (solve_nearest(projected, max_speed, perp(line_i.direction), true, result) <
            projected.size()) {
            // Cannot fail in exact arithmetic (the previous result is feasible);
            // on round-off keep the previous result.
            result = previous;
        }
        violation = det(line_i.direction, line_i.point - result);
    }
}

}  // namespace vosim
