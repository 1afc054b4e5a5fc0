// The constraints methods hand back for inspection (their records) and build
// in their programs: a directed line in the plane, whose left side is
// admissible, and a plane in space, whose side along the normal is.
#pragma once

#include "maths/vec2.hpp"
#include "maths/vec3.hpp"

namespace vosim {

// A directed line; the admissible half-plane lies to its left.
struct Line {
    Vec2 point;
    Vec2 direction;
};

// A half-space of admissible velocities: dot(v - point, normal) >= 0.
struct Plane {
    Vec3 point;
    Vec3 normal;  // unit length
};

}  // namespace vosim
