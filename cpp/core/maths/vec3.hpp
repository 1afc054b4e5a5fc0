// Three-dimensional vector maths for 3D agents and obstacles, mirroring
// vec2.hpp (same names, so geometry templated on the vector type reads the
// same in both dimensions). Everything is inline: these sit on inner loops.
#pragma once

#include <cmath>

#include "maths/vec2.hpp"  // sqr, kSmallestNormal

namespace vosim {

struct Vec3 {
    double x = 0.0;
    double y = 0.0;
    double z = 0.0;

    constexpr Vec3() = default;
    constexpr Vec3(double x_, double y_, double z_) : x(x_), y(y_), z(z_) {}

    constexpr Vec3 operator-() const { return {-x, -y, -z}; }
    constexpr Vec3 operator+(Vec3 o) const { return {x + o.x, y + o.y, z + o.z}; }
    constexpr Vec3 operator-(Vec3 o) const { return {x - o.x, y - o.y, z - o.z}; }
    constexpr Vec3 operator*(double s) const { return {x * s, y * s, z * s}; }
    constexpr Vec3 operator/(double s) const { return {x / s, y / s, z / s}; }
    Vec3& operator+=(Vec3 o) { x += o.x; y += o.y; z += o.z; return *this; }
    Vec3& operator-=(Vec3 o) { x -= o.x; y -= o.y; z -= o.z; return *this; }
    Vec3& operator*=(double s) { x *= s; y *= s; z *= s; return *this; }
};

constexpr Vec3 operator*(double s, Vec3 v) { return {s * v.x, s * v.y, s * v.z}; }

constexpr double dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

constexpr Vec3 cross(Vec3 a, Vec3 b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

constexpr double abs_sq(Vec3 v) { return dot(v, v); }

inline double length(Vec3 v) { return std::sqrt(abs_sq(v)); }

inline Vec3 normalize(Vec3 v) { return v / length(v); }

// |v| > limit, also when the squared length underflows (see vec2.hpp).
inline bool longer_than(Vec3 v, double limit) {
    const double v_sq = abs_sq(v);
    const double limit_sq = limit * limit;
    if (v_sq >= kSmallestNormal && limit_sq >= kSmallestNormal) return v_sq > limit_sq;
    return std::hypot(v.x, v.y, v.z) > limit;
}

// normalize(v) * length_wanted for v != 0, also when abs_sq(v) underflows.
inline Vec3 with_length(Vec3 v, double length_wanted) {
    const double v_sq = abs_sq(v);
    const double v_length = v_sq >= kSmallestNormal ? std::sqrt(v_sq) : std::hypot(v.x, v.y, v.z);
    return v / v_length * length_wanted;
}

// A unit vector perpendicular to the unit vector n.
inline Vec3 any_perpendicular(Vec3 n) {
    const Vec3 axis = std::fabs(n.x) < 0.9 ? Vec3(1.0, 0.0, 0.0) : Vec3(0.0, 1.0, 0.0);
    return normalize(cross(n, axis));
}

inline bool is_finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

}  // namespace vosim
