#include "methods/force/force_based.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "limits.hpp"
#include "methods/require.hpp"
#include "state/state_check.hpp"

namespace vosim {

namespace {

double ramp(double penetration, double distance) {
    const double x = std::fmin(1.0, std::fmax(0.0, penetration / distance));
    return x * x;
}

// Unit vector from `from` towards `to`, or the tie-breaking direction when
// they coincide.
template <class V>
V away(V to, V from, bool lower) {
    const V d = to - from;
    const double len = length(d);
    if (len > 0.0) return d / len;
    V along_x;
    along_x.x = lower ? -1.0 : 1.0;
    return along_x;
}

// The unit direction to the right of a (nonzero) relative velocity: in the
// plane its clockwise perpendicular; in space the same seen from above,
// or -y for a vertical one.
Vec2 right_of(Vec2 v, double speed) { return perp(v) / speed * -1.0; }
Vec3 right_of(Vec3 v, double) {
    const Vec3 side = cross(v, Vec3(0.0, 0.0, 1.0));
    const double side_length = length(side);
    return side_length > 0.0 ? side / side_length : Vec3(0.0, -1.0, 0.0);
}

struct ForceScratch final : MethodScratch {
    LocalProblem problem;
    LocalProblem3 problem3;
    std::vector<ForceSurface<Vec2>> surfaces;
    std::vector<ForceSurface<Vec3>> surfaces3;
};

// The direction from a segment's (solid on its left) point nearest p to p,
// and their distance: the edge's outward normal beside the edge, radial
// from its end beyond it (so that a door's jamb pushes sideways, not back,
// and the walls-hold rule lets an agent round it); the outward normal for
// p on the segment.
ForceSurface<Vec2> surface_of(const LocalEdge& segment, Vec2 p) {
    const Vec2 edge = segment.b - segment.a;
    const double length_sq = abs_sq(edge);
    const double t = std::fmin(1.0, std::fmax(0.0, dot(p - segment.a, edge) / length_sq));
    const Vec2 away = p - (segment.a + edge * t);
    const double distance = length(away);
    if (distance > 0.0) return {away / distance, distance};
    return {Vec2(edge.y, -edge.x) / std::sqrt(length_sq), 0.0};  // right of a -> b: out of the solid
}

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

template <class V>
V force_based_velocity(const ForceParams& p, const LocalAgentT<V>& agent, int agent_order,
                       const LocalNeighborT<V>* neighbors, int neighbor_count, const ForceSurface<V>* surfaces,
                       int surface_count, double time_step, std::vector<NamedVector>* forces) {
    // Steering: close the gap to the preferred velocity within steering_time
    // (never overshooting within one step).
    const double gain = std::fmin(1.0 / p.steering_time, 1.0 / time_step);
    const V steering = (agent.pref_velocity - agent.velocity) * gain;

    V separation, avoidance, obstacle;
    for (int k = 0; k < neighbor_count; ++k) {
        const LocalNeighborT<V>& other = neighbors[k];
        const bool lower = agent_order < other.order;
        const double standing = length(other.velocity) < p.standing_speed ? p.standing_scale : 1.0;
        const double reach = agent.radius + other.radius;

        const V rel_position = agent.position - other.position;
        const double distance = length(rel_position);
        separation += away(agent.position, other.position, lower) * (p.separation_stiffness * standing *
                      ramp(reach + p.separation_distance - distance, p.separation_distance));

        // Closest point of approach if this agent follows its preference.
        const V rel_velocity = agent.pref_velocity - other.velocity;
        const double speed_sq = abs_sq(rel_velocity);
        double t = speed_sq > 0.0 ? -dot(rel_position, rel_velocity) / speed_sq : 0.0;
        t = std::fmin(p.avoidance_time, std::fmax(0.0, t));
        const V closest = rel_position + rel_velocity * t;
        const double gap = length(closest);
        V direction;
        if (gap > 0.0) {
            direction = closest / gap;
        } else if (speed_sq > 0.0) {
            direction = right_of(rel_velocity, std::sqrt(speed_sq));  // dead ahead: pass on the right
        } else {
            direction = away(agent.position, other.position, lower);
        }
        avoidance += direction * (p.avoidance_stiffness * standing * (1.0 - t / p.avoidance_time) *
                                  ramp(reach + p.avoidance_distance - gap, p.avoidance_distance));
    }
    for (int k = 0; k < surface_count; ++k) {
        const V normal = surfaces[k].normal;
        const double distance = surfaces[k].distance;
        obstacle += normal * (p.obstacle_stiffness *
                              ramp(agent.radius + p.obstacle_distance - distance, p.obstacle_distance));
    }

    // Walls steer, they do not brake: the obstacles' push loses its part
    // against the preferred velocity, so that the margins of a door's two
    // jambs (each pushing back) cannot hold an agent in front of a door
    // narrower than 2 (radius + obstacle_distance). The walls themselves
    // still hold (below, and the engine's obstacle guard).
    const double pref_sq = abs_sq(agent.pref_velocity);
    const double against = dot(obstacle, agent.pref_velocity);
    if (pref_sq > 0.0 && against < 0.0) obstacle -= agent.pref_velocity * (against / pref_sq);

    const V acceleration = steering + separation + avoidance + obstacle;
    // Limited with sqrt rather than geometry.hpp's clamp_speed (hypot): the
    // same up to the last bit, and hypot would cost a few percent of a step.
    V v = agent.velocity + acceleration * time_step;
    const double speed = length(v);
    if (speed > agent.max_speed) v = v * (agent.max_speed / speed);
    // An agent at its final goal stands there: the others' separation and
    // avoidance would otherwise push it off and it would drift about its goal
    // for good (the others see it standing and go round).
    if (agent.at_goal) v = V();
    // Walls hold: no motion into an edge the agent touches (or would reach
    // within the step).
    for (int k = 0; k < surface_count; ++k) {
        const V normal = surfaces[k].normal;
        const double distance = surfaces[k].distance;
        const double into = -dot(v, normal);
        if (into > 0.0 && distance - agent.radius - into * time_step < 0.0) {
            v += normal * (into - std::fmax(0.0, distance - agent.radius) / time_step);
        }
    }
    if constexpr (kDim<V> == 2) {
        if (forces) {
            forces->push_back({"steering", steering});
            forces->push_back({"separation", separation});
            forces->push_back({"avoidance", avoidance});
            forces->push_back({"obstacles", obstacle});
            forces->push_back({"total", acceleration});
        }
    }
    return v;
}

template Vec2 force_based_velocity<Vec2>(const ForceParams&, const LocalAgent&, int, const LocalNeighbor*, int,
                                         const ForceSurface<Vec2>*, int, double, std::vector<NamedVector>*);
template Vec3 force_based_velocity<Vec3>(const ForceParams&, const LocalAgent3&, int, const LocalNeighbor3*, int,
                                         const ForceSurface<Vec3>*, int, double, std::vector<NamedVector>*);

Vec2 force_based_velocity(const ForceParams& p, const LocalAgent& agent, int agent_order,
                          const LocalNeighbor* neighbors, int neighbor_count, const LocalEdge* segments,
                          int segment_count, double time_step, std::vector<NamedVector>* forces) {
    std::vector<ForceSurface<Vec2>> surfaces;
    for (int k = 0; k < segment_count; ++k) surfaces.push_back(surface_of(segments[k], agent.position));
    return force_based_velocity<Vec2>(p, agent, agent_order, neighbors, neighbor_count, surfaces.data(),
                                      segment_count, time_step, forces);
}

ForceBased::ForceBased(ForceParams params) : params_(params) { check_force_params(params_); }

std::unique_ptr<MethodScratch> ForceBased::make_scratch() const { return std::make_unique<ForceScratch>(); }

Vec2 ForceBased::solve(const SceneView& scene, int slot, Workspace& ws, std::vector<NamedVector>* forces) const {
    auto& scratch = this->scratch<ForceScratch>(ws);
    LocalProblem& problem = scratch.problem;
    build_local_problem(scene, slot, ws, problem);
    scratch.surfaces.clear();
    for (const LocalEdge& edge : problem.edges) scratch.surfaces.push_back(surface_of(edge, problem.agent.position));
    return force_based_velocity<Vec2>(params_, problem.agent, problem.agent.order, problem.neighbors.data(),
                                      problem.neighbor_count(), scratch.surfaces.data(),
                                      static_cast<int>(scratch.surfaces.size()), problem.time_step, forces);
}

Vec3 ForceBased::new_velocity(const SceneOf<Vec3>& scene, int slot, Workspace& ws) const {
    auto& scratch = this->scratch<ForceScratch>(ws);
    LocalProblem3& problem = scratch.problem3;
    build_local_problem(scene, slot, ws, problem);
    scratch.surfaces3.clear();
    for (int k = 0; k < problem.contact_count; ++k) {
        scratch.surfaces3.push_back({problem.contacts[k].normal, problem.contacts[k].distance});
    }
    return force_based_velocity<Vec3>(params_, problem.agent, problem.agent.order, problem.neighbors.data(),
                                      problem.neighbor_count(), scratch.surfaces3.data(),
                                      static_cast<int>(scratch.surfaces3.size()), problem.time_step, nullptr);
}

Vec2 ForceBased::new_velocity(const SceneOf<Vec2>& scene, int slot, Workspace& ws) const {
    return solve(scene, slot, ws, nullptr);
}

void ForceBased::inspect(const SceneOf<Vec2>& scene, int slot, Workspace& ws, DiagnosticsOf<Vec2>& out) const {
    std::vector<NamedVector> forces;
    out.new_velocity = solve(scene, slot, ws, &forces);
    // forces: the accelerations by kind, each a vector.
    Record record;
    for (const NamedVector& force : forces) record.vector(force.name, force.value);
    out.method_record.record("forces", std::move(record));
}

}  // namespace vosim
