#include "methods/orca/orca.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "limits.hpp"
#include "methods/common/half_space_record.hpp"
#include "methods/orca/linear_program.hpp"
#include "methods/orca/nh_orca.hpp"
#include "methods/common/reachable_velocities.hpp"
#include "methods/common/realisable_velocities.hpp"
#include "methods/common/trackable_velocities.hpp"
#include "methods/geometry.hpp"
#include "methods/require.hpp"
#include "state/state_check.hpp"

namespace vosim {

Orca::Orca(OrcaConfig config) : config_(config) {
    require_in_range("bisector_weight", config_.bisector_weight, 0.0, kMaxMagnitude, true);
    require_in_range("time_gap", config_.time_gap, 0.0, kMaxMagnitude, false);
}

// The headway rule's least preferred speed, as a share of the free one.
constexpr double kHeadwayFloor = 0.1;

template <class V>
V headway_preferred_velocity(const SceneView& scene, int slot, const Workspace& ws, double time_gap) {
    const AgentState& s = scene.state;
    const std::size_t self = scene.index(slot);
    const V preferred = s.pref_velocity<V>(self);
    const double speed = length(preferred);
    if (time_gap <= 0.0 || speed <= 0.0) return preferred;
    const V e = preferred / speed;
    const V position = s.position<V>(self);
    // Spacing (distance less both radii) to the nearest neighbour ahead whose
    // centre lies within both radii of the line of motion.
    double spacing = std::numeric_limits<double>::infinity();
    for (int k = 0; k < ws.agent_neighbors.size(); ++k) {
        const V d = scene.neighbor_position<V>(ws.agent_neighbors[k]) - position;
        const double along = dot(e, d);
        const double reach = s.radius[self] + s.radius[scene.index(ws.agent_neighbors[k].slot)];
        if (along > 0.0 && abs_sq(d) - sqr(along) <= sqr(reach)) {
            spacing = std::fmin(spacing, length(d) - reach);
        }
    }
    // Never below a tenth of the preferred speed: with nothing but the cap,
    // two agents each ahead of the other (crossing paths, a queue turning a
    // corner) would both stand for good; so they edge round as ORCA allows.
    const double capped = std::fmin(speed, std::fmax(std::fmax(spacing, 0.0) / time_gap, kHeadwayFloor * speed));
    return capped < speed ? e * capped : preferred;
}

template Vec2 headway_preferred_velocity<Vec2>(const SceneView&, int, const Workspace&, double);
template Vec3 headway_preferred_velocity<Vec3>(const SceneView&, int, const Workspace&, double);

OrcaDecision Orca::decide(const SceneView& scene, int slot, Workspace& ws) const {
    OrcaScratch& own = scratch<OrcaScratch>(ws);
    const AgentState& s = scene.state;
    const std::size_t self = scene.index(slot);
    own.lines.clear();
    OrcaDecision decision;
    const Vec2 preferred = headway_preferred_velocity<Vec2>(scene, slot, ws, config_.time_gap);
    double max_speed = s.max_speed[self];
    const double reach = config_.acceleration_in_program ? s.max_acceleration[self] * scene.time_step
                                                         : std::numeric_limits<double>::infinity();
    const bool limited = reach < std::numeric_limits<double>::infinity();
    // The reachable polygon, the realisable one of a non-holonomic agent
    // (ORCA-DD: its effective centre's velocities within the drive's
    // limits; NH-ORCA: the velocities it tracks within its tracking error),
    // then obstacle lines: linear program 3 keeps them as hard constraints.
    if (limited && !append_reachable_polygon(s.velocity(self), reach, preferred, own.lines)) {
        decision.velocity = s.velocity(self);  // no change is reachable
        return decision;
    }
    const bool tracking = config_.nonholonomic == NonholonomicModel::kTrackingError;
    if (s.kinematics[self] != 0 &&
        !(tracking ? append_trackable_polygon(s, self, scene.time_step, own.lines, max_speed)
                   : append_realisable_polygon(s, self, own.lines, max_speed))) {
        decision.velocity = Vec2();  // a drive with a zero limit cannot move
        return decision;
    }
    const std::size_t polygon_end = own.lines.size();
    append_obstacle_lines(scene, slot, ws, own.lines);
    decision.hard_lines = own.lines.size();
    append_agent_lines(scene, slot, ws, own.lines);

    Vec2 result;
    if (limited) {
        decision.used_least_violation =
            solve_within_reach(own.lines, polygon_end, decision.hard_lines, s.velocity(self), reach, max_speed,
                               preferred, config_.bisector_weight, own.projected_lines, result);
        decision.velocity = result;
        ws.used_fallback = decision.used_least_violation;
        return decision;
    }
    const std::size_t failed =
        solve_nearest(own.lines, max_speed, preferred, false, result);
    if (failed < own.lines.size()) {
        solve_least_violation(own.lines, decision.hard_lines, failed, max_speed,
                              config_.bisector_weight, own.projected_lines, result);
        decision.used_least_violation = true;
    }
    decision.velocity = result;
    ws.used_fallback = decision.used_least_violation;
    return decision;
}

Presented Orca::present_agent(const AgentState& s, std::size_t i) const {
    if (config_.nonholonomic == NonholonomicModel::kTrackingError) return present_tracking_robot(s, i);
    return Method::present_agent(s, i);
}

Motion Orca::motion_from_method(Vec2 u, const AgentState& s, std::size_t i, double time_step) const {
    if (config_.nonholonomic == NonholonomicModel::kTrackingError) return tracking_robot_motion(u, s, i, time_step);
    return Method::motion_from_method(u, s, i, time_step);
}

void Orca::check_agents(const AgentState& s, double time_step) const {
    if (config_.nonholonomic == NonholonomicModel::kTrackingError) check_tracking_errors(s, time_step);
}

Vec2 Orca::new_velocity(const SceneOf<Vec2>& scene, int slot, Workspace& ws) const {
    return decide(scene, slot, ws).velocity;
}

void Orca::inspect(const SceneOf<Vec2>& scene, int slot, Workspace& ws, DiagnosticsOf<Vec2>& out) const {
    const OrcaDecision decision = decide(scene, slot, ws);
    out.new_velocity = decision.velocity;
    // lines: its half-planes, the first (obstacle) ones hard.
    record_lines(scratch<OrcaScratch>(ws).lines, decision.hard_lines, out.method_record);
    out.used_fallback = decision.used_least_violation;
    out.target_velocity = out.new_velocity;  // reached at once (the engine sets it unless ORCA keeps the limit)
}

}  // namespace vosim
