#include "engine/observe_phase.hpp"

#include <cmath>

#include "parallel/parallel.hpp"
#include "maths/counter_rng.hpp"
#include "kinematics/kinematics.hpp"  // wrap_turn
#include "parallel/threads.hpp"

namespace vosim {

namespace {

// Deadlock resolution's per-agent timer and detour, after agent i's new
// velocity (travelling: seeking a goal it has not reached). Their columns are
// materialized (observe_motion).
void update_deadlock_state(AgentState& s, const DeadlockResolution& rule, std::uint64_t seed, std::size_t i,
                           bool moving, bool travelling, double time_step, std::int64_t step_count) {
    double& timer = s.deadlock_timer.written(i);
    std::int8_t& side = s.detour_side.written(i);
    if (!travelling) {
        timer = 0.0;
        side = 0;
    } else if (side != 0) {
        timer -= time_step;
        if (timer <= 0.0) {
            timer = 0.0;
            side = 0;
        }
    } else if (moving) {
        timer = 0.0;
    } else {
        timer += time_step;
        if (timer >= rule.patience) {
            // Drawn from (seed, agent id, step): independent of threads and slots.
            const std::uint64_t kDetourStream = 0xD7E4A11B5EEDull;
            CounterRng rng(mix_seed(mix_seed(seed ^ kDetourStream, static_cast<std::uint64_t>(s.ids[i])),
                                    static_cast<std::uint64_t>(step_count)));
            timer = rule.hold * (0.5 + rng.next_unit());
            side = rule.rule == DeadlockRule::kSidestep || rng.next_unit() < 0.5 ? 1 : -1;
        }
    }
}

}  // namespace

template <class V>
void observe_motion(AgentState& s, const MotionBefore& before, const GoalSettings& settings, const SceneFeatures& features,
                    RunMetrics* metrics, const StepClock& clock, std::int64_t step_count, const std::uint8_t* held) {
    const double dt = clock.time_step;
    const std::int64_t total = static_cast<std::int64_t>(s.scenes()) * s.capacity();
    const DeadlockResolution deadlock = settings.deadlock;
    const std::uint64_t seed = settings.noise.seed;
    if (deadlock.rule != DeadlockRule::kNone) {  // (lazy columns: written in parallel below)
        s.deadlock_timer.materialize();
        s.detour_side.materialize();
    }
    parallel_for_values(total, max_threads(), [&](std::int64_t i) {
        if (i % s.capacity() >= s.count() || !s.active[i]) return;
        const std::size_t at = static_cast<std::size_t>(i);
        const V v = s.velocity<V>(at);
        const bool seeking = s.has_goal[i] != 0;
        const bool arrived = seeking && abs_sq(s.position<V>(at) - s.goal<V>(at)) <= sqr(s.arrival_radius[i]) &&
                             !features.goal_ahead(s, at);
        // Neither stalled nor deadlocked: waiting for its start time, or held by a scene feature.
        const bool waiting = seeking && (waiting_to_start(s, at, clock) || (held != nullptr && held[at] != 0));
        if (metrics) {
            metrics->observe_motion(at, load<V>(before.velocities.data(), at), v, s.position<V>(at), dt,
                                    step_count + 1, seeking, arrived, waiting);
            metrics->observe_turn(at, std::fabs(wrap_turn(s.headings[i] - before.headings[at])) / dt);
        }
        if (deadlock.rule != DeadlockRule::kNone) {
            update_deadlock_state(s, deadlock, seed, at, longer_than(v, deadlock.stall_fraction * s.pref_speed[i]),
                                  seeking && !arrived && !waiting, dt, step_count);
        }
    });
}

template void observe_motion<Vec2>(AgentState&, const MotionBefore&, const GoalSettings&, const SceneFeatures&, RunMetrics*,
                                   const StepClock&, std::int64_t, const std::uint8_t*);
template void observe_motion<Vec3>(AgentState&, const MotionBefore&, const GoalSettings&, const SceneFeatures&, RunMetrics*,
                                   const StepClock&, std::int64_t, const std::uint8_t*);

}  // namespace vosim
