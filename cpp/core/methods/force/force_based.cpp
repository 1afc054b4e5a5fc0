#include "force_based.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "limits.hpp"
#include "methods/require.hpp"
#include "state_check.hpp"

namespace vosim {

namespace {

double ramp(double penetration, double distance) {
    const double x = std::fmin(1.0, std::fmax(0.0, penetration / distance));
    return x * x;
}

// Unit vector from `from` towards `to`, or the tie-breaking direction when
// they coincide.
Vec2 away(Vec2 to, Vec2 from, bool lower) {
    const Vec2 d = to - from;
    const double len = length(d);
    if (len > 0.0) return d / len;
    return Vec2(lower ? -1.0 : 1.0, 0.0);
}

struct ForceScratch final : MethodScratch {
    LocalProblem problem;
};

}  // namespace

void check_force_params(const ForceParams& p) {
    const auto positive = [](double value, const char* name) { require_in_range(name, value, 0.0, kMaxMagnitude, true); };
    const auto non_negative = [](double value, const char* name) { require_in_range(name, value, 0.0, kMaxMagnitude); };
    positive(p.steering_time, "steering_time");
    positive(p.separation_distance, "separation_distance");
    non_negative(p.separation_stiffness, "separation_stiffness");
    positive(p.avoidance_time, "avoidance_time");
    positive(p.avoidance_distance, "avoidance_distance");
    non_negative(p.avoidance_stiffness, "avoidance_stiffness");
    non_negative(p.standing_scale, "standing_scale");
    non_negative(p.standing_speed, "standing_speed");
    positive(p.obstacle_distance, "obstacle_distance");
    non_negative(p.obstacle_stiffness, "obstacle_stiffness");
}

Vec2 force_based_velocity(const ForceParams& p, const LocalAgent& agent, int agent_order,
                          const LocalNeighbor* neighbors, int neighbor_count, const LocalEdge* segments,
                          int segment_count, double time_step, std::vector<NamedVector>* forces) {
    // Steering: close the gap to the preferred velocity within steering_time
    // (never overshooting within one step).
    const double gain = std::fmin(1.0 / p.steering_time, 1.0 / time_step);
    const Vec2 steering = (agent.pref_velocity - agent.velocity) * gain;

    Vec2 separation, avoidance, obstacle;
    for (int k = 0; k < neighbor_count; ++k) {
        const LocalNeighbor& other = neighbors[k];
        const bool lower = agent_order < other.order;
        const double standing = length(other.velocity) < p.standing_speed ? p.standing_scale : 1.0;
        const double reach = agent.radius + other.radius;

        const Vec2 rel_position = agent.position - other.position;
        const double distance = length(rel_position);
        separation += away(agent.position, other.position, lower) * (p.separation_stiffness * standing *
                      ramp(reach + p.separation_distance - distance, p.separation_distance));

        // Closest point of approach if this agent follows its preference.
        const Vec2 rel_velocity = agent.pref_velocity - other.velocity;
        const double speed_sq = abs_sq(rel_velocity);
        double t = speed_sq > 0.0 ? -dot(rel_position, rel_velocity) / speed_sq : 0.0;
        t = std::fmin(p.avoidance_time, std::fmax(0.0, t));
        const Vec2 closest = rel_position + rel_velocity * t;
        const double gap = length(closest);
        Vec2 direction;
        if (gap > 0.0) {
            direction = closest / gap;
        } else if (speed_sq > 0.0) {
            direction = perp(rel_velocity) / std::sqrt(speed_sq) * -1.0;  // dead ahead: pass on the right
        } else {
            direction = away(agent.position, other.position, lower);
        }
        avoidance += direction * (p.avoidance_stiffness * standing * (1.0 - t / p.avoidance_time) *
                                  ramp(reach + p.avoidance_distance - gap, p.avoidance_distance));
    }
    for (int k = 0; k < segment_count; ++k) {
        const Vec2 a = segments[k].a, b = segments[k].b;
        const Vec2 edge = b - a;
        const Vec2 normal = Vec2(edge.y, -edge.x) / length(edge);  // right of a -> b: out of the solid
        const double distance = std::sqrt(dist_sq_point_segment(a, b, agent.position));
        obstacle += normal * (p.obstacle_stiffness *
                              ramp(agent.radius + p.obstacle_distance - distance, p.obstacle_distance));
    }

    const Vec2 acceleration = steering + separation + avoidance + obstacle;
    // Limited with sqrt rather than geometry.hpp's clamp_speed (hypot): the
    // same up to the last bit, and hypot would cost a few percent of a step.
    Vec2 v = agent.velocity + acceleration * time_step;
    const double speed = length(v);
    if (speed > agent.max_speed) v = v * (agent.max_speed / speed);
    // Walls hold: no motion into an edge the agent touches (or would reach
    // within the step).
    for (int k = 0; k < segment_count; ++k) {
        const Vec2 a = segments[k].a, b = segments[k].b;
        const Vec2 edge = b - a;
        const Vec2 normal = Vec2(edge.y, -edge.x) / length(edge);
        const double distance = std::sqrt(dist_sq_point_segment(a, b, agent.position));
        const double into = -dot(v, normal);
        if (into > 0.0 && distance - agent.radius - into * time_step < 0.0) {
            v += normal * (into - std::fmax(0.0, distance - agent.radius) / time_step);
        }
    }
    if (forces) {
        forces->push_back({"steering", steering});
        forces->push_back({"separation", separation});
        forces->push_back({"avoidance", avoidance});
        forces->push_back({"obstacles", obstacle});
        forces->push_back({"total", acceleration});
    }
    return v;
}

ForceBased::ForceBased(ForceParams params) : params_(params) { check_force_params(params_); }

std::unique_ptr<MethodScratch> ForceBased::make_scratch() const { return std::make_unique<ForceScratch>(); }

Vec2 ForceBased::solve(const SceneView& scene, int slot, Workspace& ws, std::vector<NamedVector>* forces) const {
    auto& scratch = this->scratch<ForceScratch>(ws);
    LocalProblem& problem = scratch.problem;
    build_local_problem(scene, slot, ws, problem);
    return force_based_velocity(params_, problem.agent, problem.agent.order, problem.neighbors.data(),
                                problem.neighbor_count(), problem.edges.data(), problem.edge_count(),
                                problem.time_step, forces);
}

Vec2 ForceBased::new_velocity(const SceneView& scene, int slot, Workspace& ws) const {
    return solve(scene, slot, ws, nullptr);
}

void ForceBased::inspect(const SceneView& scene, int slot, Workspace& ws, Diagnostics& out) const {
    out.new_velocity = solve(scene, slot, ws, &out.forces);
}

}  // namespace vosim
