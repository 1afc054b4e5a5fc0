#include "maths/polygon.hpp"

namespace vosim {

bool inside_polygon(const std::vector<Vec2>& polygon, Vec2 p) {
    bool inside = false;
    const std::size_t n = polygon.size();
    for (std::size_t k = 0, j = n - 1; k < n; j = k++) {
        const Vec2 a = polygon[k], b = polygon[j];
        if ((a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y)) inside = !inside;
    }
    return inside;
}

bool crosses_segment(Vec2 a, Vec2 b, Vec2 p0, Vec2 p1) {
    // Sides of the line through a and b: > 0 left, else right or on it.
    const bool left0 = det(b - a, p0 - a) > 0.0;
    const bool left1 = det(b - a, p1 - a) > 0.0;
    if (left0 == left1) return false;
    // The move's line separates a and b (or passes through one of them).
    const double da = det(p1 - p0, a - p0);
    const double db = det(p1 - p0, b - p0);
    return !((da > 0.0 && db > 0.0) || (da < 0.0 && db < 0.0));
}

}  // namespace vosim
