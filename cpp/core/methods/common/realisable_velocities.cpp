#include "methods/common/realisable_velocities.hpp"

#include <cmath>

#include "kinematics/kinematics.hpp"

namespace vosim {

bool append_realisable_polygon(const AgentState& s, std::size_t i, std::vector<Line>& lines, double& fastest) {
    Vec2 local[kMaxRealisableVertices];
    const int count = realisable_polygon(drive_limits(s, i), s.effective_center_distance[i], local);
    fastest = 0.0;
    if (count < 3) return false;
    // The agent's frame: x forward along the heading, y to its left.
    const Vec2 forward(std::cos(s.headings[i]), std::sin(s.headings[i]));
    const Vec2 left = perp(forward);
    Vec2 vertex[kMaxRealisableVertices];
    for (int k = 0; k < count; ++k) {
        vertex[k] = local[k].x * forward + local[k].y * left;
        fastest = std::fmax(fastest, length(local[k]));
    }
    for (int k = 0; k < count; ++k) {
        lines.push_back(Line{vertex[k], normalize(vertex[(k + 1) % count] - vertex[k])});
    }
    return true;
}

}  // namespace vosim
