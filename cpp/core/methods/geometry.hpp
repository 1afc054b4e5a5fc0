// Geometry the avoidance methods share: the legs of a velocity obstacle
// (tangents from the origin to a disc) and the speed clamp; the directed
// line of a half-plane constraint is the core's (half_spaces.hpp).
#pragma once

#include <cmath>

#include "half_spaces.hpp"  // Line
#include "maths/min_max_number.hpp"
#include "maths/vec2.hpp"

namespace vosim {

// Unit direction of the tangent ("leg") from the origin to the disc of
// `radius` around `centre`, dist_sq = |centre|^2 > radius^2: the left one
// (counter-clockwise of the centre) or the right one (clockwise).
inline Vec2 left_leg(Vec2 centre, double radius, double dist_sq) {
    const double leg = std::sqrt(max_number(0.0, dist_sq - radius * radius));
    return Vec2(centre.x * leg - centre.y * radius, centre.x * radius + centre.y * leg) / dist_sq;
}

inline Vec2 right_leg(Vec2 centre, double radius, double dist_sq) {
    const double leg = std::sqrt(max_number(0.0, dist_sq - radius * radius));
    return Vec2(centre.x * leg + centre.y * radius, -centre.x * radius + centre.y * leg) / dist_sq;
}

// v shortened to at most max_speed; hypot keeps tiny speeds from underflowing.
inline Vec2 clamp_speed(Vec2 v, double max_speed) {
    const double speed = std::hypot(v.x, v.y);
    return speed > max_speed ? v * (max_speed / speed) : v;
}

}  // namespace vosim
