#include "methods/social_force/social_force.hpp"

#include <cmath>
#include <utility>

#include "limits.hpp"
#include "maths/bounded_exp.hpp"
#include "maths/segment.hpp"
#include "methods/require.hpp"

namespace vosim {

namespace {

struct SocialForceScratch final : MethodScratch {
    LocalProblem problem;
};

// The force (N) of a contact along unit n (towards the agent) with overlap
// `reach - distance`: exponential repulsion plus, when touching, the body
// force along n and sliding friction along t = perp(n) from the tangential
// velocity `slide` (the other's velocity relative to the agent).
Vec2 contact_force(const SocialForceParams& p, double scale, Vec2 n, double reach, double distance, Vec2 slide) {
    const double overlap = std::fmax(0.0, reach - distance);
    const Vec2 t = perp(n);
    return n * (scale * bounded_exp((reach - distance) / p.force_distance) + p.body_force * overlap) +
           t * (p.friction * overlap * dot(slide, t));
}

}  // namespace

void check_social_force_params(const SocialForceParams& p) {
    require_in_range("mass", p.mass, kMinSocialForceMass, kMaxMagnitude);
    require_in_range("reaction_time", p.reaction_time, kMinReactionTime, kMaxMagnitude);
    require_in_range("agent_scale", p.agent_scale, 0.0, kMaxMagnitude);
    require_in_range("obstacle_scale", p.obstacle_scale, 0.0, kMaxMagnitude);
    require_in_range("force_distance", p.force_distance, 0.0, kMaxMagnitude, true);
    require_in_range("body_force", p.body_force, 0.0, kMaxMagnitude);
    require_in_range("friction", p.friction, 0.0, kMaxMagnitude);
}

Vec2 social_force_velocity(const SocialForceParams& p, const LocalAgent& agent, const LocalNeighbor* neighbors,
                           int neighbor_count, const LocalEdge* edges, int edge_count, double time_step,
                           Record* forces) {
    const Vec2 driving = (agent.pref_velocity - agent.velocity) / p.reaction_time;
    Vec2 from_agents;
    for (int k = 0; k < neighbor_count; ++k) {
        const LocalNeighbor& other = neighbors[k];
        const Vec2 d = agent.position - other.position;
        const double distance = length(d);
        // Coincident centres: the lower slot goes -x, the other +x.
        const Vec2 n = distance > 0.0 ? d / distance : Vec2(agent.order < other.order ? -1.0 : 1.0, 0.0);
        from_agents += contact_force(p, p.agent_scale, n, agent.radius + other.radius, distance,
                                     other.velocity - agent.velocity);
    }
    Vec2 from_walls;
    for (int k = 0; k < edge_count; ++k) {
        const LocalEdge& edge = edges[k];
        const Vec2 d = agent.position - closest_on_segment(edge.a, edge.b, agent.position);
        const double distance = length(d);
        Vec2 n;
        if (distance > 0.0) {
            n = d / distance;
        } else {
            const Vec2 along = edge.b - edge.a;  // on the edge: out of the solid (right of a -> b)
            const double along_length = length(along);
            if (!(along_length > 0.0)) continue;
            n = Vec2(along.y, -along.x) / along_length;
        }
        from_walls += contact_force(p, p.obstacle_scale, n, agent.radius, distance, agent.velocity * -1.0);
    }
    from_agents = from_agents / p.mass;
    from_walls = from_walls / p.mass;
    if (forces) {
        forces->vector("driving", driving);
        forces->vector("agents", from_agents);
        forces->vector("walls", from_walls);
    }
    return agent.velocity + (driving + from_agents + from_walls) * time_step;
}

SocialForce::SocialForce(SocialForceParams params) : params_(params) { check_social_force_params(params_); }

std::unique_ptr<MethodScratch> SocialForce::make_scratch() const { return std::make_unique<SocialForceScratch>(); }

Vec2 SocialForce::solve(const SceneView& scene, int slot, Workspace& ws, Record* forces) const {
    LocalProblem& problem = this->scratch<SocialForceScratch>(ws).problem;
    build_local_problem(scene, slot, ws, problem);
    return social_force_velocity(params_, problem.agent, problem.neighbors.data(), problem.neighbor_count(),
                                 problem.edges.data(), problem.edge_count(), problem.time_step, forces);
}

Vec2 SocialForce::new_velocity(const SceneOf<Vec2>& scene, int slot, Workspace& ws) const {
    return solve(scene, slot, ws, nullptr);
}

void SocialForce::inspect(const SceneOf<Vec2>& scene, int slot, Workspace& ws, DiagnosticsOf<Vec2>& out) const {
    Record forces;
    out.new_velocity = solve(scene, slot, ws, &forces);
    out.method_record.record("forces", std::move(forces));
}

}  // namespace vosim
