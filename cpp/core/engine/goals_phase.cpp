#include "engine/goals_phase.hpp"

#include <cmath>

#include "maths/counter_rng.hpp"
#include "kinematics/kinematics.hpp"
#include "parallel/parallel.hpp"
#include "parallel/threads.hpp"

namespace vosim {

namespace {
constexpr double kTwoPi = 6.283185307179586;
}  // namespace

template <class V>
void update_pref_velocities(AgentState& s, const PreferenceNoise& noise, const DeadlockResolution& deadlock,
                            std::int64_t step_count, const StepClock& clock) {
    const std::int64_t total = static_cast<std::int64_t>(s.scenes()) * s.capacity();
    const std::uint64_t step = static_cast<std::uint64_t>(step_count);
    parallel_for_values(total, max_threads(), [&](std::int64_t i) {
        if (i % s.capacity() >= s.count() || !s.active[i] || !s.has_goal[i]) return;
        if (waiting_to_start(s, static_cast<std::size_t>(i), clock)) {
            store(s.pref_velocities.data(), static_cast<std::size_t>(i), V{});
            return;
        }
        // RVO2 examples' rule: head for the goal, at pref_speed at most.
        V to_goal = s.goal<V>(i) - s.position<V>(i);
        const double dist_sq = abs_sq(to_goal);
        if (dist_sq >= kSmallestNormal && sqr(s.pref_speed[i]) >= kSmallestNormal) {
            if (dist_sq > sqr(s.pref_speed[i])) {
                to_goal = to_goal * (s.pref_speed[i] / std::sqrt(dist_sq));
            }
        } else if (longer_than(to_goal, s.pref_speed[i])) {
            // Lengths whose squares underflow.
            to_goal = to_goal * (s.pref_speed[i] / hypot_of(to_goal));
        }
        if (s.detour_side[i] != 0) {
            // A detour turns the preferred velocity (+1: clockwise, to the
            // right; in 3D about the z axis, seen from above).
            const double angle = -s.detour_side[i] * deadlock.turn;
            const double c = std::cos(angle), sn = std::sin(angle);
            const double x = to_goal.x;
            to_goal.x = c * x - sn * to_goal.y;
            to_goal.y = sn * x + c * to_goal.y;
        }
        if (noise.magnitude > 0.0) {
            // Drawn from (seed, agent id, step): independent of threads and slots.
            CounterRng rng(mix_seed(mix_seed(noise.seed, static_cast<std::uint64_t>(s.ids[i])), step));
            const double angle = kTwoPi * rng.next_unit();
            const double length = noise.magnitude * rng.next_unit();
            if constexpr (kDim<V> == 2) {
                to_goal += Vec2(std::cos(angle), std::sin(angle)) * length;
            } else {
                // A uniform direction on the sphere: uniform height, uniform azimuth.
                const double z = 2.0 * rng.next_unit() - 1.0;
                const double ring = std::sqrt(std::fmax(0.0, 1.0 - z * z));
                to_goal += Vec3(ring * std::cos(angle), ring * std::sin(angle), z) * length;
            }
        }
        store(s.pref_velocities.data(), static_cast<std::size_t>(i), to_goal);
    });
}

void present_state(const Method& method, const AgentState& s, AgentState& presented) {
    share_state_for_presentation(s, presented);
    const std::int64_t total = static_cast<std::int64_t>(s.scenes()) * s.capacity();
    parallel_for_values(total, max_threads(), [&](std::int64_t k) {
        const std::size_t i = static_cast<std::size_t>(k);
        if (k % s.capacity() >= s.count() || !s.active[i] || s.kinematics[i] == 0) return;
        const Presented p = method.present_agent(s, i);
        store(presented.positions.data(), i, p.position);
        store(presented.velocities.data(), i, p.velocity);
        presented.radius[i] = p.radius;
    });
}

template void update_pref_velocities<Vec2>(AgentState&, const PreferenceNoise&, const DeadlockResolution&,
                                           std::int64_t, const StepClock&);
template void update_pref_velocities<Vec3>(AgentState&, const PreferenceNoise&, const DeadlockResolution&,
                                           std::int64_t, const StepClock&);

}  // namespace vosim
