// Point in polygon and segment crossing, for areas and lines placed in a
// scene (sinks, speed zones).
#pragma once

#include <vector>

#include "maths/vec2.hpp"

namespace vosim {

// Even-odd: whether p is inside the polygon (either orientation).
bool inside_polygon(const std::vector<Vec2>& polygon, Vec2 p);
// Whether the move p0 -> p1 reaches the line through a-b within the segment
// (the side changes): a move from the left onto it counts, one that only
// touches it from the right does not (it crosses at the next step).
bool crosses_segment(Vec2 a, Vec2 b, Vec2 p0, Vec2 p1);

}  // namespace vosim
