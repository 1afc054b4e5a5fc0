// What geometry templated on the vector type needs to know about it: its
// dimension, and how it is read from and written to a column of a vector
// field (components side by side: [x, y] or [x, y, z] per agent).
#pragma once

#include <cstddef>

#include "maths/vec2.hpp"
#include "maths/vec3.hpp"

namespace vosim {

template <class V>
inline constexpr int kDim = 0;
template <>
inline constexpr int kDim<Vec2> = 2;
template <>
inline constexpr int kDim<Vec3> = 3;

// The vector of agent (storage index) i of a vector column.
template <class V>
inline V load(const double* column, std::size_t i) {
    const double* p = column + kDim<V> * i;
    if constexpr (kDim<V> == 2) {
        return {p[0], p[1]};
    } else {
        return {p[0], p[1], p[2]};
    }
}

template <class V>
inline void store(double* column, std::size_t i, V v) {
    double* p = column + kDim<V> * i;
    p[0] = v.x;
    p[1] = v.y;
    if constexpr (kDim<V> == 3) p[2] = v.z;
}

// Calls f(V()) with the vector type of `dimensions` (2 or 3): the one place
// where a dimension becomes a type.
template <class F>
decltype(auto) with_vector_type(int dimensions, F&& f) {
    if (dimensions == 3) return f(Vec3());
    return f(Vec2());
}

// hypot over the components: a length whose square may underflow.
inline double hypot_of(Vec2 v) { return std::hypot(v.x, v.y); }
inline double hypot_of(Vec3 v) { return std::hypot(v.x, v.y, v.z); }

}  // namespace vosim
