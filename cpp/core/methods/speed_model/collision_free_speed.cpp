#include "methods/speed_model/collision_free_speed.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "limits.hpp"
#include "maths/bounded_exp.hpp"
#include "maths/segment.hpp"
#include "methods/require.hpp"

namespace vosim {

namespace {

struct SpeedModelScratch final : MethodScratch {
    LocalProblem problem;
};

// The smallest spacing (distance minus the radii) to a neighbour ahead along
// unit e whose centre lies within the radii's sum of the line of motion.
double spacing_ahead(const LocalAgent& agent, const LocalNeighbor* neighbors, int neighbor_count, Vec2 e) {
    double spacing = std::numeric_limits<double>::infinity();
    for (int k = 0; k < neighbor_count; ++k) {
        const Vec2 d = neighbors[k].position - agent.position;
        const double reach = agent.radius + neighbors[k].radius;
        if (dot(e, d) > 0.0 && std::fabs(det(e, d)) <= reach) spacing = std::fmin(spacing, length(d) - reach);
    }
    return spacing;
}

// Whether closed segments p-q and a-b meet (touching counts).
bool segments_meet(Vec2 p, Vec2 q, Vec2 a, Vec2 b) {
    const double d1 = det(q - p, a - p), d2 = det(q - p, b - p);
    const double d3 = det(b - a, p - a), d4 = det(b - a, q - a);
    if (d1 == 0.0 && d2 == 0.0) {  // collinear: whether the spans overlap along the line
        const Vec2 u = q - p;
        const double ta = dot(a - p, u), tb = dot(b - p, u), end = dot(u, u);
        return std::fmax(ta, tb) >= 0.0 && std::fmin(ta, tb) <= end;
    }
    return d1 * d2 <= 0.0 && d3 * d4 <= 0.0;
}

// JuPedSim's model does not see a neighbour behind a wall: one whose centre
// the straight line from the agent's reaches only through an edge neither
// repels nor slows it.
void drop_hidden_neighbors(LocalProblem& problem) {
    if (problem.edges.empty()) return;
    const Vec2 from = problem.agent.position;
    auto hidden = [&](const LocalNeighbor& other) {
        for (const LocalEdge& edge : problem.edges) {
            if (segments_meet(from, other.position, edge.a, edge.b)) return true;
        }
        return false;
    };
    problem.neighbors.erase(std::remove_if(problem.neighbors.begin(), problem.neighbors.end(), hidden),
                            problem.neighbors.end());
}

// Halvings of the step when the direction reverses within it: the balance
// point to about 1e-5 of a step.
constexpr int kBalanceBisections = 16;

// The preferred direction e0 turned by the exponential repulsions of the
// neighbours (at their current positions) and of the walls, for the agent
// standing at `at`: not normalised.
Vec2 turned_direction(const CollisionFreeSpeedParams& p, const LocalAgent& agent, const LocalNeighbor* neighbors,
                      int neighbor_count, const LocalEdge* edges, int edge_count, Vec2 at) {
    Vec2 direction = agent.pref_velocity / length(agent.pref_velocity);
    for (int k = 0; k < neighbor_count; ++k) {
        const Vec2 d = at - neighbors[k].position;
        const double distance = length(d);
        if (!(distance > 0.0)) continue;  // coincident centres: no direction to push in
        const double reach = agent.radius + neighbors[k].radius;
        direction += d / distance * (p.neighbor_strength * bounded_exp((reach - distance) / p.neighbor_range));
    }
    for (int k = 0; k < edge_count; ++k) {
        const Vec2 d = at - closest_on_segment(edges[k].a, edges[k].b, at);
        const double distance = length(d);
        if (!(distance > 0.0)) continue;
        direction += d / distance * (p.wall_strength * bounded_exp((agent.radius - distance) / p.wall_range));
    }
    return direction;
}

}  // namespace

void check_collision_free_speed_params(const CollisionFreeSpeedParams& p) {
    require_in_range("time_gap", p.time_gap, 0.0, kMaxMagnitude, true);
    require_in_range("neighbor_strength", p.neighbor_strength, 0.0, kMaxMagnitude);
    require_in_range("neighbor_range", p.neighbor_range, 0.0, kMaxMagnitude, true);
    require_in_range("wall_strength", p.wall_strength, 0.0, kMaxMagnitude);
    require_in_range("wall_range", p.wall_range, 0.0, kMaxMagnitude, true);
}

Vec2 collision_free_speed_velocity(const CollisionFreeSpeedParams& p, const LocalAgent& agent,
                                   const LocalNeighbor* neighbors, int neighbor_count, const LocalEdge* edges,
                                   int edge_count, double time_step) {
    const double pref_speed = length(agent.pref_velocity);
    const double v0 = std::fmin(pref_speed, agent.max_speed);
    if (agent.at_goal || !(v0 > 0.0)) return Vec2();
    const Vec2 e0 = agent.pref_velocity / pref_speed;

    // Direction: the preferred one turned by exponential repulsions.
    const Vec2 direction = turned_direction(p, agent, neighbors, neighbor_count, edges, edge_count, agent.position);
    const double direction_length = length(direction);
    const Vec2 e = direction_length > 0.0 ? direction / direction_length : e0;

    // Speed: from the smallest spacing to a neighbour ahead in the direction
    // of motion. Walls do not slow (JuPedSim's model): they turn the direction
    // and hold below.
    double speed = std::fmin(std::fmax(spacing_ahead(agent, neighbors, neighbor_count, e) / p.time_gap, 0.0), v0);

    // Where walls push against the preferred direction, the direction is
    // discontinuous at the point where they balance it: a full-speed step
    // crosses that point and the next one comes back, for ever (0.134 m each
    // way at dt 0.1, while the speed reads 1.34 m/s). The model's continuous
    // motion stops there, so the step ends at the balance point when the
    // direction reverses within it (found by bisection, neighbours held
    // still); elsewhere nothing changes.
    if (edge_count > 0 && speed > 0.0) {
        const Vec2 by_walls = turned_direction(p, agent, nullptr, 0, edges, edge_count, agent.position);
        const auto ahead = [&](double s) {
            return dot(turned_direction(p, agent, nullptr, 0, edges, edge_count, agent.position + e * s), by_walls);
        };
        double reach = speed * time_step;
        if (ahead(reach) < 0.0) {
            double lo = 0.0;
            for (int k = 0; k < kBalanceBisections; ++k) {
                const double mid = 0.5 * (lo + reach);
                (ahead(mid) < 0.0 ? reach : lo) = mid;
            }
            speed = lo / time_step;
        }
    }
    Vec2 v = e * speed;

    if (!p.wall_hold) return v;
    bool held = false;
    // Walls hold: no motion into an edge the agent touches or would reach
    // within the step.
    for (int k = 0; k < edge_count; ++k) {
        const Vec2 d = agent.position - closest_on_segment(edges[k].a, edges[k].b, agent.position);
        const double distance = length(d);
        if (!(distance > 0.0)) continue;
        const Vec2 normal = d / distance;
        const double into = -dot(v, normal);
        if (into > 0.0 && distance - agent.radius - into * time_step < 0.0) {
            v += normal * (into - std::fmax(0.0, distance - agent.radius) / time_step);
            held = true;
        }
    }
    // Sliding along a wall turns the motion: the headway law then holds along
    // the motion actually taken, so a sliding agent does not walk into a
    // neighbour outside its first lane.
    const double held_speed = length(v);
    if (held && held_speed > 0.0) {
        const Vec2 along = v / held_speed;
        v = along * std::fmin(held_speed,
                              std::fmax(spacing_ahead(agent, neighbors, neighbor_count, along) / p.time_gap, 0.0));
    }
    return v;
}

CollisionFreeSpeed::CollisionFreeSpeed(CollisionFreeSpeedParams params) : params_(params) {
    check_collision_free_speed_params(params_);
}

std::unique_ptr<MethodScratch> CollisionFreeSpeed::make_scratch() const {
    return std::make_unique<SpeedModelScratch>();
}

Vec2 CollisionFreeSpeed::new_velocity(const SceneOf<Vec2>& scene, int slot, Workspace& ws) const {
    auto& scratch = this->scratch<SpeedModelScratch>(ws);
    LocalProblem& problem = scratch.problem;
    build_local_problem(scene, slot, ws, problem);
    drop_hidden_neighbors(problem);
    return collision_free_speed_velocity(params_, problem.agent, problem.neighbors.data(), problem.neighbor_count(),
                                         problem.edges.data(), problem.edge_count(), problem.time_step);
}

}  // namespace vosim
