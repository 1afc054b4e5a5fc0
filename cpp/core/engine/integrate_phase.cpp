#include "engine/integrate_phase.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/obstacle_guard.hpp"
#include "parallel/parallel.hpp"
#include "kinematics/integration.hpp"
#include "parallel/threads.hpp"

namespace vosim {

namespace {

// A holonomic agent slower than this fraction of its max_speed keeps its
// heading (the direction of a velocity that is ~0 is noise).
constexpr double kRestingSpeed = 1e-6;
// Squared tangent of the turn below which a holonomic agent keeps its heading.
constexpr double kSameDirection = 1e-24;

// Integration of non-holonomic agent i: the method's velocity of its
// presentation becomes a saturated motion along an arc.
void integrate_nonholonomic(AgentState& s, const Method& method, std::size_t i, bool clamp_acceleration,
                            double dt) {
    const Motion motion = realised_motion(s, method, i, load<Vec2>(s.new_velocities.data(), i), clamp_acceleration, dt);
    const Pose pose = advance_pose(Pose{s.position(i), s.headings[i]}, motion, dt);
    store(s.positions.data(), i, pose.position);
    store(s.velocities.data(), i, motion.speed * Vec2(std::cos(pose.heading), std::sin(pose.heading)));
    s.headings[i] = pose.heading;
    s.angular_velocities.written(i) = motion.turn_rate;  // (materialized by integrate)
}

// Agent i's velocity v, or the velocity of the displacement the obstacle
// guard lets it make instead.
Vec2 guarded_velocity(const ObstacleWorld& guard, const AgentState& s, std::size_t i, Vec2 v, double dt) {
    const ObstacleSet* own = guard.own[i / static_cast<std::size_t>(s.capacity())];
    static const ObstacleSet none;
    thread_local std::vector<ObstacleNeighbor> near;
    const Vec2 desired = v * dt;
    const Vec2 allowed = keep_clear_of_obstacles(*guard.shared, own ? *own : none, s.position(i), desired,
                                                 s.radius[i], near);
    return allowed.x == desired.x && allowed.y == desired.y ? v : allowed / dt;
}

}  // namespace

Motion realised_motion(const AgentState& s, const Method& method, std::size_t i, Vec2 u, bool clamp_acceleration,
                       double time_step) {
    const double accel = std::min(s.max_acceleration[i], method.acceleration_limit());
    if (clamp_acceleration && accel < std::numeric_limits<double>::infinity()) {
        // max_acceleration limits the change of the presented velocity (for
        // the effective centre: of v and of w D together).
        u = limit_acceleration(method.present_agent(s, i).velocity, u, accel, time_step);
    }
    return saturate(method.motion_from_method(u, s, i, time_step), drive_limits(s, i));
}

template <class V>
void integrate(AgentState& s, const Method& method, double dt, bool nonholonomic, MotionBefore* before,
               const ObstacleWorld* guard) {
    const std::int64_t total = static_cast<std::int64_t>(s.scenes()) * s.capacity();
    // A method that models acceleration has already kept to it.
    const bool clamp_acceleration = !method.models_acceleration(kDim<V>);
    const double method_accel = method.acceleration_limit();
    const bool cap_speeds = !method.may_exceed_max_speed();  // (as the velocities phase)
    if (kDim<V> == 2 && nonholonomic) s.angular_velocities.materialize();  // (lazy: written in parallel below)
    if (before) {
        before->velocities.resize(static_cast<std::size_t>(total) * kDim<V>);
        before->headings.resize(static_cast<std::size_t>(total));
    }
    parallel_for_values(total, max_threads(), [&](std::int64_t i) {
        if (i % s.capacity() >= s.count() || !s.active[i]) return;
        const std::size_t at = static_cast<std::size_t>(i);
        const V old_velocity = s.velocity<V>(at);
        if (before) {
            store(before->velocities.data(), at, old_velocity);
            before->headings[at] = s.headings[i];
        }
        if constexpr (kDim<V> == 2) {
            if (nonholonomic && s.kinematics[i] != 0) {
                integrate_nonholonomic(s, method, at, clamp_acceleration, dt);
                return;
            }
        }
        V v = load<V>(s.new_velocities.data(), at);
        const double accel = std::min(s.max_acceleration[i], method_accel);
        if (clamp_acceleration && accel < std::numeric_limits<double>::infinity()) {
            // The old velocity may exceed max_speed (users write velocities):
            // the blend must not.
            v = limit_acceleration(old_velocity, v, accel, dt);
            if (cap_speeds) v = cap_speed(v, s.max_speed[i]);
        }
        if constexpr (kDim<V> == 2) {
            if (guard) v = guarded_velocity(*guard, s, at, v, dt);
        }
        store(s.velocities.data(), at, v);
        store(s.positions.data(), at, s.position<V>(at) + v * dt);
        // A holonomic agent faces where it goes (cosmetic: its heading
        // plays no part in its motion), and keeps its heading at rest.
        // (Its turn rate is worked out only when metrics need it.) An
        // agent going on in the same direction, to within 1e-12 rad,
        // skips the atan2: most of a crowd, most of the time.
        const double speed_sq = v.x * v.x + v.y * v.y;
        if (speed_sq > sqr(kRestingSpeed * s.max_speed[i])) {
            const double cross = v.x * old_velocity.y - v.y * old_velocity.x;
            const double along = v.x * old_velocity.x + v.y * old_velocity.y;
            if (!(along > 0.0 && cross * cross <= kSameDirection * along * along)) {
                s.headings[i] = std::atan2(v.y, v.x);
            }
        }
    });
}

template void integrate<Vec2>(AgentState&, const Method&, double, bool, MotionBefore*, const ObstacleWorld*);
template void integrate<Vec3>(AgentState&, const Method&, double, bool, MotionBefore*, const ObstacleWorld*);

}  // namespace vosim
