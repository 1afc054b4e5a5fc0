#include "methods/avo/avo2_programs.hpp"

#include <algorithm>
#include <cmath>

namespace vosim::avo {

namespace {

// Optimum on line `index`, bounded by the disc and by lines[0..index).
bool program1(const std::vector<Linef>& lines, std::size_t index, float radius, Vecf target, bool direction_mode,
              Vecf& result) {
    const Linef& line = lines[index];
    const float along = dot(line.point, line.direction);
    const float discriminant = along * along + radius * radius - abs_sq(line.point);
    if (discriminant < 0.0F) return false;  // the disc misses the line
    const float root = std::sqrt(discriminant);
    float t_left = -along - root;
    float t_right = -along + root;
    for (std::size_t i = 0; i < index; ++i) {
        const float denominator = det(line.direction, lines[i].direction);
        const float numerator = det(lines[i].direction, line.point - lines[i].point);
        if (std::fabs(denominator) <= kAvoEpsilon<float>) {
            // (Almost) parallel: line i either excludes all of it or nothing.
            if (numerator < 0.0F) return false;
            continue;
        }
        const float t = numerator / denominator;
        // std::min/std::max keep their first argument when t is NaN.
        if (denominator >= 0.0F) {
            t_right = std::min(t_right, t);
        } else {
            t_left = std::max(t_left, t);
        }
        if (t_left > t_right) return false;
    }
    if (direction_mode) {
        result = line.point + (dot(target, line.direction) > 0.0F ? t_right : t_left) * line.direction;
    } else {
        const float t = dot(line.direction, target - line.point);
        const float chosen = t < t_left ? t_left : (t > t_right ? t_right : t);
        result = line.point + chosen * line.direction;
    }
    return true;
}

}  // namespace

std::size_t library_program2(const std::vector<Linef>& lines, float radius, Vecf target, bool direction_mode,
                             Vecf& result) {
    if (direction_mode) {
        result = target * radius;
    } else if (abs_sq(target) > radius * radius) {
        result = unit(target) * radius;
    } else {
        result = target;
    }
    for (std::size_t k = 0; k < lines.size(); ++k) {
        if (det(lines[k].direction, lines[k].point - result) > 0.0F) {
            const Vecf before = result;
            if (!program1(lines, k, radius, target, direction_mode, result)) {
                result = before;
                return k;
            }
        }
    }
    return lines.size();
}

void library_program3(const std::vector<Linef>& lines, std::size_t hard_count, float radius, Vecf& result,
                      std::vector<Linef>& projected) {
    float distance = 0.0F;
    for (std::size_t k = hard_count; k < lines.size(); ++k) {
        if (det(lines[k].direction, lines[k].point - result) <= distance) continue;
        // Line k is violated more than the worst so far: move along it,
        // bounded by the bisectors with the earlier soft lines.
        projected.assign(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(hard_count));
        for (std::size_t j = hard_count; j < k; ++j) {
            Linef bisector;
            const float determinant = det(lines[k].direction, lines[j].direction);
            if (std::fabs(determinant) <= kAvoEpsilon<float>) {
                if (dot(lines[k].direction, lines[j].direction) > 0.0F) continue;  // same direction
                bisector.point = 0.5F * (lines[k].point + lines[j].point);
            } else {
                bisector.point = lines[k].point +
                                 (det(lines[j].direction, lines[k].point - lines[j].point) / determinant) *
                                     lines[k].direction;
            }
            bisector.direction = unit(lines[j].direction - lines[k].direction);
            projected.push_back(bisector);
        }
        const Vecf before = result;
        if (library_program2(projected, radius, Vecf(-lines[k].direction.y, lines[k].direction.x), true, result) <
            projected.size()) {
            result = before;  // round-off only: the old result is feasible
        }
        distance = det(lines[k].direction, lines[k].point - result);
    }
}

}  // namespace vosim::avo
