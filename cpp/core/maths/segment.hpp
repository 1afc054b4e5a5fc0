// The point of a segment nearest to a point, for any vector type.
#pragma once

#include <cmath>

namespace vosim {

// The point of segment [a, b] nearest to p (a when the segment is a point).
template <class V>
V closest_on_segment(V a, V b, V p) {
    const V ab = b - a;
    const double len_sq = abs_sq(ab);
    const double t = len_sq > 0.0 ? std::fmin(1.0, std::fmax(0.0, dot(p - a, ab) / len_sq)) : 0.0;
    return a + ab * t;
}

}  // namespace vosim
