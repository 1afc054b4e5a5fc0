// The funnel algorithm (string pulling): the shortest path from a start to
// a goal through a corridor of portals, such as the shared edges of a chain
// of triangles in a navigation mesh.
#pragma once

#include <vector>

#include "maths/vec2.hpp"

namespace vosim {

// `left[k]` and `right[k]` are the ends of portal k as seen by someone
// walking from `start` towards `goal`. Returns the corners of the shortest
// path through the portals, in order, ending with `goal` (the start is not
// included).
// The start or goal may lie on portals (a shared edge or corner of a mesh):
// the path passes those at the start or goal itself.
std::vector<Vec2> pull_string(Vec2 start, Vec2 goal, const Vec2* left, const Vec2* right, std::size_t portals);

}  // namespace vosim
