// ORCA in three dimensions: the half-spaces of the RVO2-3D library, solved
// by the 3D linear programs (linear_program3d.hpp); a finite max_acceleration
// adds the reachable polyhedron (reachable_velocities3d.hpp) as hard planes.
#include <cmath>
#include <cstddef>
#include <limits>

#include "methods/common/half_space_record.hpp"
#include "methods/orca/linear_program3d.hpp"
#include "methods/common/reachable_velocities3d.hpp"
#include "methods/orca/orca.hpp"

namespace vosim {

namespace {

// An agent overlapping a shape leaves along its normal within one step, but
// at most at this share of its max speed: the plane then still cuts the
// ball of admissible speeds, leaving room (a full share would leave one point).
constexpr double kLeaveShare = 0.9;

}  // namespace

void append_obstacle_planes(const SceneView& scene, int slot, const Workspace& ws, std::vector<Plane>& planes) {
    if (ws.obstacle_contacts.empty()) return;
    const AgentState& s = scene.state;
    const std::size_t self = scene.index(slot);
    const double radius = s.radius[self];
    const double max_speed = s.max_speed[self];
    // Obeying a plane for one step keeps the agent's centre at least `radius`
    // from the obstacle's supporting plane at its closest point, hence out of
    // the (convex) obstacle: the horizon is at least one step.
    const double horizon = std::fmax(s.time_horizon_obst[self], scene.time_step);
    const std::size_t first = planes.size();
    bool overlapping = false;
    for (const ObstacleContact3& contact : ws.obstacle_contacts) {
        const double gap = contact.distance - radius;
        Plane plane;
        plane.normal = contact.normal;
        // Velocities along the normal of at least -gap / horizon; an agent
        // already touching it leaves within one step where its speed allows.
        plane.point = (gap >= 0.0 ? -gap / horizon : std::fmin(-gap / scene.time_step, kLeaveShare * max_speed)) *
                      contact.normal;
        overlapping = overlapping || gap < 0.0;
        planes.push_back(plane);
    }
    if (!overlapping) return;
    // Overlapping several faces at once (a corner, a wall thinner than the
    // agent) can ask for more than its speed allows together: then each of
    // them only forbids going deeper, which a standstill always satisfies.
    const std::vector<Plane> own(planes.begin() + static_cast<std::ptrdiff_t>(first), planes.end());
    Vec3 unused;
    if (solve_nearest_3d(own, max_speed, Vec3(), false, unused) < own.size()) {
        for (std::size_t k = 0; k < own.size(); ++k) {
            if (ws.obstacle_contacts[k].distance < radius) planes[first + k].point = Vec3();
        }
    }
}

void append_agent_planes(const SceneView& scene, int slot, const Workspace& ws, std::vector<Plane>& planes) {
    const AgentState& s = scene.state;
    const std::size_t self = scene.index(slot);
    const Vec3 position = s.position<Vec3>(self);
    const Vec3 velocity = s.velocity<Vec3>(self);
    const double radius = s.radius[self];
    const double inv_horizon = 1.0 / s.time_horizon[self];
    const double inv_time_step = 1.0 / scene.time_step;
    const bool equal_priorities = s.priority.uniform();

    for (int k = 0; k < ws.agent_neighbors.size(); ++k) {
        const int other_slot = ws.agent_neighbors[k].slot;
        const std::size_t other = scene.index(other_slot);
        const Vec3 rel_position = scene.neighbor_position<Vec3>(ws.agent_neighbors[k]) - position;
        const Vec3 rel_velocity = velocity - s.velocity<Vec3>(other);
        const double dist_sq = abs_sq(rel_position);
        const double combined_radius = radius + s.radius[other];
        const double combined_radius_sq = sqr(combined_radius);

        Plane plane;
        Vec3 u;  // smallest change of the relative velocity that leaves the obstacle
        if (dist_sq > combined_radius_sq) {
            // Not overlapping: the velocity obstacle is a cone truncated by
            // the ball of radius combined_radius / horizon around
            // rel_position / horizon; w runs from its centre to the relative velocity.
            const Vec3 w = rel_velocity - inv_horizon * rel_position;
            const double w_length_sq = abs_sq(w);
            const double w_dot_position = dot(w, rel_position);
            if (w_dot_position < 0.0 && sqr(w_dot_position) > combined_radius_sq * w_length_sq) {
                // Nearest boundary point is on the truncating sphere.
                const double w_length = std::sqrt(w_length_sq);
                const Vec3 unit_w = w / w_length;
                plane.normal = unit_w;
                u = (combined_radius * inv_horizon - w_length) * unit_w;
            } else {
                // Nearest boundary point is on the cone's side: the cone is
                // swept by the balls of radius combined_radius * t around
                // t * rel_position (t >= 0), and the nearest point lies on
                // the ball whose centre is along the normal through it (t in
                // RVO2-3D's closed form).
                const double a = dist_sq;
                const double b = dot(rel_position, rel_velocity);
                const double c = abs_sq(rel_velocity) -
                                 abs_sq(cross(rel_position, rel_velocity)) / (dist_sq - combined_radius_sq);
                const double t = (b + std::sqrt(std::fmax(0.0, sqr(b) - a * c))) / a;
                const Vec3 from_side = rel_velocity - t * rel_position;
                const double w_length = length(from_side);
                if (w_length > 0.0) {
                    const Vec3 unit_w = from_side / w_length;
                    plane.normal = unit_w;
                    u = (combined_radius * t - w_length) * unit_w;
                } else {
                    // The relative velocity is on the cone's axis side of
                    // degenerate round-off: leave sideways, perpendicular to the axis.
                    plane.normal = any_perpendicular(rel_position / std::sqrt(dist_sq));
                    u = combined_radius * t * plane.normal;
                }
            }
        } else {
            // Overlapping: leave the obstacle truncated at one time step, so
            // that the pair separates within the step.
            const Vec3 w = rel_velocity - inv_time_step * rel_position;
            const double w_length = length(w);
            Vec3 unit_w;
            if (w_length > 0.0) {
                unit_w = w / w_length;
            } else if (dist_sq > 0.0) {
                unit_w = -rel_position / std::sqrt(dist_sq);  // w vanishes: push straight apart
            } else {
                // Coincident agents with equal velocities: split them along
                // x, opposite ways for the two.
                unit_w = Vec3(other_slot > slot ? -1.0 : 1.0, 0.0, 0.0);
            }
            plane.normal = unit_w;
            u = (combined_radius * inv_time_step - w_length) * unit_w;
        }
        // (one priority for every agent: each takes half)
        const double share = equal_priorities ? 0.5 : avoidance_share(s.priority[self], s.priority[other]);
        plane.point = velocity + share * u;
        planes.push_back(plane);
    }
}

Vec3 Orca::decide_3d(const SceneView& scene, int slot, Workspace& ws, bool& used_least_violation,
                     std::size_t& hard_planes) const {
    const AgentState& s = scene.state;
    const std::size_t self = scene.index(slot);
    OrcaScratch& own = scratch<OrcaScratch>(ws);
    own.planes.clear();
    used_least_violation = false;
    hard_planes = 0;
    ws.used_fallback = false;
    const double reach = config_.acceleration_in_program ? s.max_acceleration[self] * scene.time_step
                                                         : std::numeric_limits<double>::infinity();
    const bool limited = reach < std::numeric_limits<double>::infinity();
    const Vec3 velocity = s.velocity<Vec3>(self);
    const Vec3 preferred = headway_preferred_velocity<Vec3>(scene, slot, ws, config_.time_gap);
    // The reachable polyhedron, then obstacle planes: linear program 4 keeps
    // them as hard constraints.
    if (limited && !append_reachable_polyhedron(velocity, reach, preferred, own.planes)) {
        return velocity;  // no change is reachable
    }
    const std::size_t polyhedron_end = own.planes.size();
    append_obstacle_planes(scene, slot, ws, own.planes);
    hard_planes = own.planes.size();
    append_agent_planes(scene, slot, ws, own.planes);
    const double max_speed = s.max_speed[self];
    Vec3 result;
    if (limited) {
        used_least_violation = solve_within_reach_3d(own.planes, polyhedron_end, hard_planes, velocity, reach,
                                                     max_speed, preferred, own.projected_planes,
                                                     result);
    } else {
        const std::size_t failed = solve_nearest_3d(own.planes, max_speed, preferred, false, result);
        used_least_violation = failed < own.planes.size();
        if (used_least_violation) {
            solve_least_violation_3d(own.planes, hard_planes, failed, max_speed, own.projected_planes, result);
        }
    }
    ws.used_fallback = used_least_violation;
    return result;
}

Vec3 Orca::new_velocity(const SceneOf<Vec3>& scene, int slot, Workspace& ws) const {
    bool fallback = false;
    std::size_t hard = 0;
    return decide_3d(scene, slot, ws, fallback, hard);
}

void Orca::inspect(const SceneOf<Vec3>& scene, int slot, Workspace& ws, DiagnosticsOf<Vec3>& out) const {
    bool fallback = false;
    std::size_t hard = 0;
    out.new_velocity = decide_3d(scene, slot, ws, fallback, hard);
    // planes: its half-spaces, the first (reachable polyhedron, obstacles) hard.
    record_planes(scratch<OrcaScratch>(ws).planes, hard, out.method_record);
    out.used_fallback = fallback;
    out.target_velocity = out.new_velocity;  // reached at once (the engine sets it unless ORCA keeps the limit)
}

}  // namespace vosim
