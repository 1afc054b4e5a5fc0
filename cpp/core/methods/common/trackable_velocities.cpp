#include "methods/common/trackable_velocities.hpp"

#include <cmath>

#include "methods/orca/nh_orca.hpp"

namespace vosim {

namespace {

// The last polygon each thread built: robots of a scene mostly share their
// limits, and the polygon (in the robot's frame) depends on nothing else.
// A pure function's result, so reusing it changes no bit.
struct LastPolygon {
    bool valid = false;
    TrackingLimits limits;
    int count = 0;
    Vec2 vertices[kMaxTrackingVertices];
    Vec2 edges[kMaxTrackingVertices];  // unit directions of the edges
};
thread_local LastPolygon last_polygon;

}  // namespace

bool append_trackable_polygon(const AgentState& s, std::size_t i, double time_step, std::vector<Line>& lines,
                              double& fastest) {
    const TrackingLimits limits = tracking_limits(s, i, time_step);
    LastPolygon& last = last_polygon;
    if (!last.valid || last.limits != limits) {
        last.count = tracking_polygon(limits, last.vertices);
        for (int k = 0; k < last.count; ++k) {
            last.edges[k] = normalize(last.vertices[(k + 1) % last.count] - last.vertices[k]);
        }
        last.limits = limits;
        last.valid = true;
    }
    const int count = last.count;
    fastest = 0.0;
    if (count < 3) return false;
    // The agent's frame: x forward along the heading, y to its left.
    const Vec2 forward(std::cos(s.headings[i]), std::sin(s.headings[i]));
    const Vec2 left = perp(forward);
    for (int k = 0; k < count; ++k) {
        const Vec2 vertex = last.vertices[k], edge = last.edges[k];
        lines.push_back(Line{vertex.x * forward + vertex.y * left, edge.x * forward + edge.y * left});
        fastest = std::fmax(fastest, abs_sq(vertex));
    }
    fastest = std::sqrt(fastest);
    return true;
}

}  // namespace vosim
