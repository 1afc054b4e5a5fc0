// ORCA half-planes for static obstacle edges (van den Berg et al. 2011,
// section 6; RVO2's obstacle lines). An obstacle cannot move, so the agent
// takes the whole avoidance: the line bounds the velocity obstacle of the
// edge (truncated at time_horizon_obst) directly, not half of it.
//
// A moving obstacle does not yield either (no reciprocity): its velocity
// obstacle is the static one translated by its velocity v_o (van den Berg et
// al. 2011, section 6, with the obstacle's motion as in Fiorini & Shiller's
// velocity obstacles of moving obstacles). So the lines are computed for the
// agent's velocity relative to the obstacle, v - v_o, and shifted by v_o.
#include <cmath>
#include <limits>

#include "methods/orca/linear_program.hpp"
#include "methods/geometry.hpp"
#include "methods/orca/orca.hpp"

namespace vosim {

namespace {

// On leaving scope, shifts the line added to `lines` since `size` (if any)
// by `shift`, when `moving`.
struct ShiftNewLine {
    std::vector<Line>& lines;
    std::size_t size;
    bool moving;
    Vec2 shift;
    ~ShiftNewLine() {
        if (moving && lines.size() > size) lines.back().point = lines.back().point + shift;
    }
};

// Direction of w, or of `fallback` when w vanishes.
Vec2 unit_or(Vec2 w, Vec2 fallback) {
    const double len = length(w);
    return len > 0.0 ? w / len : normalize(fallback);
}

}  // namespace

void append_obstacle_lines(const SceneView& scene, int slot, const Workspace& ws,
                           std::vector<Line>& lines) {
    if (ws.obstacle_neighbors.empty()) return;
    const AgentState& s = scene.state;
    const std::size_t self = scene.index(slot);
    const Vec2 position = s.position(self);
    const Vec2 agent_velocity = s.velocity(self);
    const double radius = s.radius[self];
    const double radius_sq = radius * radius;
    // Obeying a line for one step keeps the agent out of the edge only when
    // the horizon is at least the step: a shorter one (RVO2 takes it as
    // given) lets a long step carry the agent through the wall.
    const double inv_horizon = 1.0 / std::fmax(s.time_horizon_obst[self], scene.time_step);
    constexpr double kInf = std::numeric_limits<double>::infinity();

    for (const ObstacleNeighbor& neighbor : ws.obstacle_neighbors) {
        const ObstacleSet& set = *neighbor.set;
        // Static edges take the plain path (no shift at all), exactly as RVO2.
        const bool moving = set.is_moving();
        const Vec2 shift = set.velocity();
        const Vec2 velocity = moving ? agent_velocity - shift : agent_velocity;
        // Whichever way this iteration ends, a line it added for a moving
        // obstacle is moved back out of the obstacle's frame.
        const ShiftNewLine shift_back{lines, lines.size(), moving, shift};
        int v1 = neighbor.vertex;
        int v2 = set.next(v1);
        const Vec2 rel1 = set.point(v1) - position;
        const Vec2 rel2 = set.point(v2) - position;

        // Skip the edge when both of its (truncated, inflated) ends are
        // already excluded by an earlier obstacle line.
        bool covered = false;
        for (const Line& line : lines) {
            const Vec2 point = moving ? line.point - shift : line.point;  // in the obstacle's frame
            if (det(inv_horizon * rel1 - point, line.direction) - inv_horizon * radius >= -kParallelEpsilon &&
                det(inv_horizon * rel2 - point, line.direction) - inv_horizon * radius >= -kParallelEpsilon) {
                covered = true;
                break;
            }
        }
        if (covered) continue;

        const double dist_sq1 = abs_sq(rel1);
        const double dist_sq2 = abs_sq(rel2);
        const Vec2 edge = set.point(v2) - set.point(v1);
        const double s_along = dot(-rel1, edge) / abs_sq(edge);  // projection of the agent onto the edge
        const double dist_sq_line = abs_sq(-rel1 - s_along * edge);

        // Already touching: move straight away from the contact.
        if (s_along < 0.0 && dist_sq1 <= radius_sq) {
            if (set.convex(v1)) lines.push_back({Vec2(), normalize(Vec2(-rel1.y, rel1.x))});
            continue;  // a concave corner is handled by its other edge
        }
        if (s_along > 1.0 && dist_sq2 <= radius_sq) {
            // Leave it to the next edge unless this one is the one facing the agent.
            if (set.convex(v2) && det(rel2, set.unit_dir(v2)) >= 0.0) {
                lines.push_back({Vec2(), normalize(Vec2(-rel2.y, rel2.x))});
            }
            continue;
        }
        if (s_along >= 0.0 && s_along < 1.0 && dist_sq_line <= radius_sq) {
            lines.push_back({Vec2(), -set.unit_dir(v1)});
            continue;
        }

        // Not touching: the velocity obstacle is bounded by two legs and a
        // cut-off segment (or a single vertex's disc when seen obliquely).
        Vec2 left_direction, right_direction;
        if (s_along < 0.0 && dist_sq_line <= radius_sq) {
            // Seen obliquely: the first vertex alone defines the obstacle.
            if (!set.convex(v1)) continue;
            v2 = v1;
            left_direction = left_leg(rel1, radius, dist_sq1);
            right_direction = right_leg(rel1, radius, dist_sq1);
        } else if (s_along > 1.0 && dist_sq_line <= radius_sq) {
            // Seen obliquely: the second vertex alone defines the obstacle.
            if (!set.convex(v2)) continue;
            v1 = v2;
            left_direction = left_leg(rel2, radius, dist_sq2);
            right_direction = right_leg(rel2, radius, dist_sq2);
        } else {
            // A concave vertex's leg extends the cut-off line instead.
            left_direction = set.convex(v1) ? left_leg(rel1, radius, dist_sq1) : -set.unit_dir(v1);
            right_direction = set.convex(v2) ? right_leg(rel2, radius, dist_sq2) : set.unit_dir(v1);
        }

        // A leg through a convex vertex must not point into the neighbouring
        // edge; take that edge's cut-off line instead. Projections onto such a
        // "foreign" leg add no constraint (the neighbouring edge does).
        bool left_foreign = false;
        bool right_foreign = false;
        const int left_neighbor = set.prev(v1);
        if (set.convex(v1) && det(left_direction, -set.unit_dir(left_neighbor)) >= 0.0) {
            left_direction = -set.unit_dir(left_neighbor);
            left_foreign = true;
        }
        if (set.convex(v2) && det(right_direction, set.unit_dir(v2)) <= 0.0) {
            right_direction = set.unit_dir(v2);
            right_foreign = true;
        }

        // Cut-off centres: the ends of the edge scaled by 1 / horizon.
        const Vec2 left_cutoff = inv_horizon * (set.point(v1) - position);
        const Vec2 right_cutoff = inv_horizon * (set.point(v2) - position);
        const Vec2 cutoff_vector = right_cutoff - left_cutoff;
        const bool single_vertex = v1 == v2;

        // Where the current velocity projects onto the obstacle's boundary.
        const double t = single_vertex ? 0.5 : dot(velocity - left_cutoff, cutoff_vector) / abs_sq(cutoff_vector);
        const double t_left = dot(velocity - left_cutoff, left_direction);
        const double t_right = dot(velocity - right_cutoff, right_direction);

        if ((t < 0.0 && t_left < 0.0) || (single_vertex && t_left < 0.0 && t_right < 0.0)) {
            // Nearest to the left cut-off circle.
            const Vec2 unit_w = unit_or(velocity - left_cutoff, -rel1);
            lines.push_back({left_cutoff + radius * inv_horizon * unit_w, Vec2(unit_w.y, -unit_w.x)});
            continue;
        }
        if (t > 1.0 && t_right < 0.0) {
            // Nearest to the right cut-off circle.
            const Vec2 unit_w = unit_or(velocity - right_cutoff, -rel2);
            lines.push_back({right_cutoff + radius * inv_horizon * unit_w, Vec2(unit_w.y, -unit_w.x)});
            continue;
        }

        // Otherwise the nearest of the cut-off segment and the two legs.
        const double dist_cutoff = (t < 0.0 || t > 1.0 || single_vertex)
                                       ? kInf
                                       : abs_sq(velocity - (left_cutoff + t * cutoff_vector));
        const double dist_left = t_left < 0.0 ? kInf : abs_sq(velocity - (left_cutoff + t_left * left_direction));
        const double dist_right =
            t_right < 0.0 ? kInf : abs_sq(velocity - (right_cutoff + t_right * right_direction));

        if (dist_cutoff <= dist_left && dist_cutoff <= dist_right) {
            const Vec2 direction = -set.unit_dir(v1);
            lines.push_back({left_cutoff + radius * inv_horizon * perp(direction), direction});
        } else if (dist_left <= dist_right) {
            if (left_foreign) continue;
            lines.push_back({left_cutoff + radius * inv_horizon * perp(left_direction), left_direction});
        } else {
            if (right_foreign) continue;
            const Vec2 direction = -right_direction;
            lines.push_back({right_cutoff + radius * inv_horizon * perp(direction), direction});
        }
    }
}

}  // namespace vosim
