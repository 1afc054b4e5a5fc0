// ORCA's half-plane for each agent neighbour (RVO2's Agent::computeNewVelocity,
// the agent part). The taker's values are read once, and the lines are
// written in place rather than appended one by one.
#include <cmath>

#include "methods/geometry.hpp"
#include "methods/orca/orca.hpp"

namespace vosim {

namespace {

// What a line needs of the agent that takes it.
struct Taker {
    int slot;
    Vec2 position;
    Vec2 velocity;
    double radius;
    double priority;
    double inv_horizon;
    double inv_time_step;
};

// The half-plane neighbour `n` leaves the taker. kEqualPriorities: every
// agent has the same priority (its column holds one value), so each takes
// half, without reading the neighbour's.
template <bool kEqualPriorities>
Line agent_line(const SceneView& scene, const Taker& self, const Neighbor& n) {
    const AgentState& s = scene.state;
    const std::size_t other = scene.index(n.slot);
    const Vec2 rel_position = scene.neighbor_position(n) - self.position;
    const Vec2 rel_velocity = self.velocity - s.velocity(other);
    const double dist_sq = abs_sq(rel_position);
    const double combined_radius = self.radius + s.radius[other];
    const double combined_radius_sq = sqr(combined_radius);

    Line line;
    Vec2 u;  // smallest change of the relative velocity that leaves the obstacle
    if (dist_sq > combined_radius_sq) {
        // Not overlapping: the velocity obstacle is a cone truncated by a
        // disc of radius combined_radius / horizon around rel_position /
        // horizon. w runs from that disc's centre to the relative velocity.
        const Vec2 w = rel_velocity - self.inv_horizon * rel_position;
        const double w_length_sq = abs_sq(w);
        const double w_dot_position = dot(w, rel_position);
        if (w_dot_position < 0.0 && sqr(w_dot_position) > combined_radius_sq * w_length_sq) {
            // Nearest boundary point is on the truncating disc.
            const double w_length = std::sqrt(w_length_sq);
            const Vec2 unit_w = w / w_length;
            line.direction = Vec2(unit_w.y, -unit_w.x);
            u = (combined_radius * self.inv_horizon - w_length) * unit_w;
        } else {
            // Nearest boundary point is on one of the cone's legs: the
            // tangents from the origin to the disc around rel_position.
            line.direction = det(rel_position, w) > 0.0 ? left_leg(rel_position, combined_radius, dist_sq)
                                                        : -right_leg(rel_position, combined_radius, dist_sq);
            u = dot(rel_velocity, line.direction) * line.direction - rel_velocity;
        }
    } else {
        // Overlapping: leave the obstacle truncated at one time step, so
        // that the pair separates within the step.
        Vec2 w = rel_velocity - self.inv_time_step * rel_position;
        double w_length = length(w);
        Vec2 unit_w;
        if (w_length > 0.0) {
            unit_w = w / w_length;
        } else if (dist_sq > 0.0) {
            // w vanishes: push straight apart.
            unit_w = -rel_position / std::sqrt(dist_sq);
        } else {
            // Coincident agents with equal velocities: no direction is
            // preferred, so split them along x, opposite ways for the two.
            unit_w = Vec2(n.slot > self.slot ? -1.0 : 1.0, 0.0);
        }
        line.direction = Vec2(unit_w.y, -unit_w.x);
        u = (combined_radius * self.inv_time_step - w_length) * unit_w;
    }
    // Each agent of the pair takes its share of u: half when their
    // priorities are equal (RVO2), less for the one of higher priority.
    const double share = kEqualPriorities ? 0.5 : avoidance_share(self.priority, s.priority[other]);
    line.point = self.velocity + share * u;
    return line;
}

}  // namespace

void append_agent_lines(const SceneView& scene, int slot, const Workspace& ws, std::vector<Line>& lines) {
    const AgentState& s = scene.state;
    const std::size_t self = scene.index(slot);
    const Taker taker{slot,
                      s.position(self),
                      s.velocity(self),
                      s.radius[self],
                      s.priority[self],
                      1.0 / s.time_horizon[self],
                      1.0 / scene.time_step};
    const Span<Neighbor> neighbors = ws.agent_neighbors;
    const std::size_t first = lines.size();
    lines.resize(first + static_cast<std::size_t>(neighbors.size()));
    Line* out = lines.data() + first;
    if (s.priority.uniform()) {
        for (int k = 0; k < neighbors.size(); ++k) out[k] = agent_line<true>(scene, taker, neighbors[k]);
    } else {
        for (int k = 0; k < neighbors.size(); ++k) out[k] = agent_line<false>(scene, taker, neighbors[k]);
    }
}

}  // namespace vosim
