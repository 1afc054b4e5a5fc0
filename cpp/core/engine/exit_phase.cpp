#include "engine/exit_phase.hpp"

#include <atomic>

#include "parallel/parallel.hpp"
#include "parallel/threads.hpp"

namespace vosim {

bool wants_exits(const AgentState& s, const SceneFeatures& features) {
    if (features.live_exits() != nullptr) return true;
    if (s.remove_at_goal.uniform() && !s.remove_at_goal.value()) return false;  // no agent leaves at its goal
    for (int b = 0; b < s.scenes(); ++b) {
        for (int slot = 0; slot < s.count(); ++slot) {
            const std::size_t i = s.index(b, slot);
            if (s.remove_at_goal[i] && s.active[i]) return true;
        }
    }
    return false;
}

template <class V>
void remove_exits(AgentState& s, const SceneFeatures& features, RunMetrics* metrics,
                  const StepClock& clock, std::int64_t step_count) {
    const std::int64_t total = static_cast<std::int64_t>(s.scenes()) * s.capacity();
    const SceneFeature* exits = kDim<V> == 2 ? features.live_exits() : nullptr;  // (planar: sinks refuse 3D)
    const double exit_time = clock.now + clock.time_step;
    const double middle = clock.now + 0.5 * clock.time_step;  // sinks open by the middle: no rounding decides
    // Where agent i goes: -2 stays, -1 leaves at its goal, else the sink it enters.
    // (Scalars captured by value: captured by reference, the test took about
    // ten more instructions per agent.)
    const auto exit_of = [&s, exits, &features, middle](std::int64_t i) {
        if (i % s.capacity() >= s.count() || !s.active[i]) return -2;
        const std::size_t at = static_cast<std::size_t>(i);
        if (s.remove_at_goal[at] && s.has_goal[at] &&
            abs_sq(s.position<V>(at) - s.goal<V>(at)) <= sqr(s.arrival_radius[at]) && !features.goal_ahead(s, at)) {
            return -1;
        }
        if (exits != nullptr) {
            const int id = exits->exit_taken(s, at, middle);
            if (id >= 0) return id;
        }
        return -2;
    };
    if (s.exit_time.uniform() && s.exit_sink.uniform()) {
        // Nobody has left yet and the exit columns hold one value each: they
        // are made (12 bytes an agent) only in the step of the first exit,
        // which is looked for first (every other step reads each agent once,
        // as below).
        std::atomic<bool> anyone{false};
        parallel_for_values(total, max_threads(), [&](std::int64_t i) {
            if (!anyone.load(std::memory_order_relaxed) && exit_of(i) != -2) {
                anyone.store(true, std::memory_order_relaxed);
            }
        });
        if (!anyone.load()) return;
    }
    Column<double>& exit_times = s.exit_time.materialize();  // (lazy columns: written below, in parallel)
    Column<std::int32_t>& exit_sinks = s.exit_sink.materialize();
    parallel_for_values(total, max_threads(), [&](std::int64_t i) {
        const int sink = exit_of(i);
        if (sink == -2) return;
        const std::size_t at = static_cast<std::size_t>(i);
        s.active[at] = 0;
        exit_times[at] = exit_time;
        exit_sinks[at] = sink;
        if (metrics) metrics->observe_exit(at, step_count + 1);
    });
}

template void remove_exits<Vec2>(AgentState&, const SceneFeatures&, RunMetrics*,
                                 const StepClock&, std::int64_t);
template void remove_exits<Vec3>(AgentState&, const SceneFeatures&, RunMetrics*,
                                 const StepClock&, std::int64_t);

}  // namespace vosim
