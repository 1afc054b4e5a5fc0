// Two-dimensional vector maths used by every method. Everything is inline:
// these functions sit on the innermost loops.
#pragma once

#include <cmath>

namespace vosim {

struct Vec2 {
    double x = 0.0;
    double y = 0.0;

    constexpr Vec2() = default;
    constexpr Vec2(double x_, double y_) : x(x_), y(y_) {}

    constexpr Vec2 operator-() const { return {-x, -y}; }
    constexpr Vec2 operator+(Vec2 o) const { return {x + o.x, y + o.y}; }
    constexpr Vec2 operator-(Vec2 o) const { return {x - o.x, y - o.y}; }
    constexpr Vec2 operator*(double s) const { return {x * s, y * s}; }
    constexpr Vec2 operator/(double s) const { return {x / s, y / s}; }
    Vec2& operator+=(Vec2 o) { x += o.x; y += o.y; return *this; }
    Vec2& operator-=(Vec2 o) { x -= o.x; y -= o.y; return *this; }
    Vec2& operator*=(double s) { x *= s; y *= s; return *this; }
};

constexpr Vec2 operator*(double s, Vec2 v) { return {s * v.x, s * v.y}; }

constexpr double dot(Vec2 a, Vec2 b) { return a.x * b.x + a.y * b.y; }

// z-component of the 3D cross product: > 0 when b lies counter-clockwise of a.
constexpr double det(Vec2 a, Vec2 b) { return a.x * b.y - a.y * b.x; }

constexpr double abs_sq(Vec2 v) { return dot(v, v); }

inline double length(Vec2 v) { return std::sqrt(abs_sq(v)); }

inline Vec2 normalize(Vec2 v) { return v / length(v); }

constexpr double sqr(double s) { return s * s; }

// Below this a square has lost precision (it is subnormal) or underflowed to
// zero: vectors shorter than about 1e-154 need care.
constexpr double kSmallestNormal = 2.2250738585072014e-308;

// |v| > limit, also for vectors whose squared length underflows: compares
// the squares (fast, and what RVO2 does) whenever both are normal numbers,
// the lengths otherwise.
inline bool longer_than(Vec2 v, double limit) {
    const double v_sq = abs_sq(v);
    const double limit_sq = limit * limit;
    if (v_sq >= kSmallestNormal && limit_sq >= kSmallestNormal) return v_sq > limit_sq;
    return std::hypot(v.x, v.y) > limit;
}

// normalize(v) * length_wanted for v != 0, also when v's squared length
// underflows (where normalize would divide by zero).
inline Vec2 with_length(Vec2 v, double length_wanted) {
    const double v_sq = abs_sq(v);
    const double v_length = v_sq >= kSmallestNormal ? std::sqrt(v_sq) : std::hypot(v.x, v.y);
    return v / v_length * length_wanted;
}

// Counter-clockwise perpendicular.
constexpr Vec2 perp(Vec2 v) { return {-v.y, v.x}; }

inline bool is_finite(Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); }

// Squared distance from point p to the segment [a, b].
inline double dist_sq_point_segment(Vec2 a, Vec2 b, Vec2 p) {
    const Vec2 ab = b - a;
    const double len_sq = abs_sq(ab);
    if (len_sq == 0.0) return abs_sq(p - a);
    const double t = dot(p - a, ab) / len_sq;
    if (t < 0.0) return abs_sq(p - a);
    if (t > 1.0) return abs_sq(p - b);
    return abs_sq(p - (a + t * ab));
}

}  // namespace vosim
