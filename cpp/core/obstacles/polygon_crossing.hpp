// Whether a closed polygon's outline touches itself: two edges that are not
// neighbours sharing a point (a crossing, a touching vertex, a vertex on an
// edge, or a collinear overlap).
#pragma once

#include <utility>

#include "maths/vec2.hpp"

namespace vosim {

// Whether non-adjacent edges i < j of the closed polygon of `count` vertices
// share a point.
bool polygon_edges_touch(const Vec2* points, int count, int i, int j);

// Whether any two non-adjacent edges share a point: a sweep line over the
// edges (Shamos and Hoey), O(n log n) whatever the shape. Each pair it
// meets is tested as polygon_edges_touch tests it, so it agrees with testing
// every pair wherever the orientation tests are exact (integer coordinates,
// scaled by any power of two); a vertex within round-off of another edge,
// not on it exactly, may be read either way by either check.
bool polygon_touches_itself(const Vec2* points, int count);

// The first pair (i, j), i < j, in lexicographic order, of non-adjacent
// edges that share a point; (-1, -1) when there is none. Decided by the
// sweep; a polygon that touches itself then has its first pair named by
// comparing the edges that share cells of an edge grid.
std::pair<int, int> polygon_first_touch(const Vec2* points, int count);

}  // namespace vosim
