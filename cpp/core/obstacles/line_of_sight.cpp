// Line of sight past obstacle edges: waypoint tracks that move on when the
// next waypoint is in view ask it once per agent and step. Every edge whose
// box, grown by the clearance, meets the segment's box is measured; large
// maps look only in the edge grid's cells under that box.
#include <algorithm>

#include "obstacles/obstacles.hpp"

namespace vosim {

namespace {

// Whether segment a-b comes within `clearance` of edge p-q (touching counts).
bool edge_blocks(Vec2 a, Vec2 b, Vec2 p, Vec2 q, double clearance) {
    const double o1 = det(b - a, p - a), o2 = det(b - a, q - a);
    const double o3 = det(q - p, a - p), o4 = det(q - p, b - p);
    if (((o1 < 0 && o2 > 0) || (o1 > 0 && o2 < 0)) && ((o3 < 0 && o4 > 0) || (o3 > 0 && o4 < 0))) return true;
    // Not crossing: the nearest points include an end of one of the two.
    const double d = std::min(std::min(dist_sq_point_segment(a, b, p), dist_sq_point_segment(a, b, q)),
                              std::min(dist_sq_point_segment(p, q, a), dist_sq_point_segment(p, q, b)));
    return d == 0.0 || d < clearance * clearance;
}

}  // namespace

bool ObstacleSet::sight_clear(Vec2 a, Vec2 b, double clearance) const {
    const Vec2 lo(std::min(a.x, b.x) - clearance, std::min(a.y, b.y) - clearance);
    const Vec2 hi(std::max(a.x, b.x) + clearance, std::max(a.y, b.y) + clearance);
    const auto blocks = [&](std::int32_t v) {
        const Vec2 p = point_[v], q = point_[next_[v]];
        if (std::max(p.x, q.x) < lo.x || std::min(p.x, q.x) > hi.x || std::max(p.y, q.y) < lo.y ||
            std::min(p.y, q.y) > hi.y) {
            return false;
        }
        return edge_blocks(a, b, p, q, clearance);
    };
    if (use_grid_) {
        int c0, r0, c1, r1;
        if (grid_.cells_of_box(lo, hi, c0, r0, c1, r1)) {
            for (int r = r0; r <= r1; ++r) {
                for (int c = c0; c <= c1; ++c) {
                    for (const std::int32_t* e = grid_.begin(c, r); e != grid_.end(c, r); ++e) {
                        if (blocks(*e)) return false;
                    }
                }
            }
        }
    } else {
        for (std::int32_t v = 0; v < vertex_count(); ++v) {
            if (blocks(v)) return false;
        }
    }
    for (const auto& child : children_) {
        if (child && !child->sight_clear(a, b, clearance)) return false;
    }
    return true;
}

}  // namespace vosim
