#include "methods/orca/linear_program3d.hpp"

#include <algorithm>
#include <cmath>

namespace vosim {

namespace {

struct Line3 {
    Vec3 point;
    Vec3 direction;  // unit length
};

// Linear program on a line (the intersection of plane `plane_no` with an
// earlier violated one) inside the ball, under planes [0, plane_no).
bool solve_on_line(const std::vector<Plane>& planes, std::size_t plane_no, const Line3& line, double radius,
                   Vec3 target, bool direction_mode, double parallel_epsilon, Vec3& result) {
    const double along = dot(line.point, line.direction);
    const double discriminant = sqr(along) + sqr(radius) - abs_sq(line.point);
    if (discriminant < 0.0) return false;  // the line misses the speed ball
    const double root = std::sqrt(discriminant);
    double t_left = -along - root;
    double t_right = -along + root;
    for (std::size_t i = 0; i < plane_no; ++i) {
        const double numerator = dot(planes[i].point - line.point, planes[i].normal);
        const double denominator = dot(line.direction, planes[i].normal);
        if (sqr(denominator) <= parallel_epsilon) {
            // The line is parallel to plane i: all of it or none of it is admissible.
            if (numerator > 0.0) return false;
            continue;
        }
        const double t = numerator / denominator;
        if (denominator >= 0.0) {
            t_left = std::max(t_left, t);
        } else {
            t_right = std::min(t_right, t);
        }
        if (t_left > t_right) return false;
    }
    if (direction_mode) {
        result = line.point + (dot(target, line.direction) > 0.0 ? t_right : t_left) * line.direction;
    } else {
        const double t = dot(line.direction, target - line.point);
        result = line.point + std::clamp(t, t_left, t_right) * line.direction;
    }
    return true;
}

// Linear program in plane `plane_no` inside the ball, under planes [0, plane_no).
bool solve_in_plane(const std::vector<Plane>& planes, std::size_t plane_no, double radius, Vec3 target,
                    bool direction_mode, double parallel_epsilon, Vec3& result) {
    const Plane& plane = planes[plane_no];
    const double plane_dist = dot(plane.point, plane.normal);
    const double plane_dist_sq = sqr(plane_dist);
    const double radius_sq = sqr(radius);
    if (plane_dist_sq > radius_sq) return false;  // the plane misses the speed ball
    // The plane cuts the ball in a disc of this centre and squared radius.
    const double disc_radius_sq = radius_sq - plane_dist_sq;
    const Vec3 disc_center = plane_dist * plane.normal;
    if (direction_mode) {
        const Vec3 in_plane = target - dot(target, plane.normal) * plane.normal;
        const double in_plane_sq = abs_sq(in_plane);
        result = in_plane_sq <= kParallelEpsilon3 ? disc_center
                                                  : disc_center + std::sqrt(disc_radius_sq / in_plane_sq) * in_plane;
    } else {
        result = target + dot(plane.point - target, plane.normal) * plane.normal;
        if (abs_sq(result) > radius_sq) {
            const Vec3 from_center = result - disc_center;
            result = disc_center + std::sqrt(disc_radius_sq / abs_sq(from_center)) * from_center;
        }
    }
    for (std::size_t i = 0; i < plane_no; ++i) {
        if (dot(planes[i].normal, planes[i].point - result) <= 0.0) continue;
        // Result violates plane i: the optimum lies on the line where planes i and plane_no meet.
        const Vec3 crossing = cross(planes[i].normal, plane.normal);
        if (abs_sq(crossing) <= parallel_epsilon) return false;  // parallel: plane_no is all excluded
        Line3 line;
        line.direction = normalize(crossing);
        const Vec3 line_normal = cross(line.direction, plane.normal);
        line.point = plane.point + (dot(planes[i].point - plane.point, planes[i].normal) /
                                    dot(line_normal, planes[i].normal)) * line_normal;
        if (!solve_on_line(planes, i, line, radius, target, direction_mode, parallel_epsilon, result)) return false;
    }
    return true;
}

}  // namespace

std::size_t solve_nearest_3d(const std::vector<Plane>& planes, double max_speed, Vec3 target, bool direction_mode,
                             Vec3& result, double parallel_epsilon) {
    if (direction_mode) {
        result = target * max_speed;
    } else if (abs_sq(target) > sqr(max_speed)) {
        result = normalize(target) * max_speed;
    } else {
        result = target;
    }
    for (std::size_t i = 0; i < planes.size(); ++i) {
        if (dot(planes[i].normal, planes[i].point - result) <= 0.0) continue;
        const Vec3 kept = result;
        if (!solve_in_plane(planes, i, max_speed, target, direction_mode, parallel_epsilon, result)) {
            result = kept;
            return i;
        }
    }
    return planes.size();
}

void solve_least_violation_3d(const std::vector<Plane>& planes, std::size_t hard_count, std::size_t first_failed,
                              double max_speed, std::vector<Plane>& projected, Vec3& result,
                              double parallel_epsilon) {
    double distance = 0.0;
    for (std::size_t i = first_failed; i < planes.size(); ++i) {
        if (dot(planes[i].normal, planes[i].point - result) <= distance) continue;
        // Plane i is violated more than any before it: minimise the largest
        // violation among planes [0, i] by the program of the soft planes
        // projected onto plane i (the planes where violating j equals
        // violating i), keeping the hard planes as they are.
        projected.assign(planes.begin(), planes.begin() + static_cast<std::ptrdiff_t>(hard_count));
        for (std::size_t j = hard_count; j < i; ++j) {
            Plane plane;
            const Vec3 crossing = cross(planes[j].normal, planes[i].normal);
            if (abs_sq(crossing) <= parallel_epsilon) {
                if (dot(planes[i].normal, planes[j].normal) > 0.0) continue;  // same direction
                plane.point = 0.5 * (planes[i].point + planes[j].point);   // opposite directions
            } else {
                const Vec3 line_normal = cross(crossing, planes[i].normal);
                plane.point = planes[i].point + (dot(planes[j].point - planes[i].point, planes[j].normal) /
                                                 dot(line_normal, planes[j].normal)) * line_normal;
            }
            plane.normal = normalize(planes[j].normal - planes[i].normal);
            projected.push_back(plane);
        }
        const Vec3 kept = result;
        if (solve_nearest_3d(projected, max_speed, planes[i].normal, true, result, parallel_epsilon) <
            projected.size()) {
            // In principle feasible by construction; round-off can say
            // otherwise, and then the current result is kept.
            result = kept;
        }
        distance = dot(planes[i].normal, planes[i].point - result);
    }
}

}  // namespace vosim
