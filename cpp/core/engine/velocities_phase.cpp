// Phase 3 of the step, velocities: every agent's new velocity from the
// method, over the frozen state, in parallel (run_in_blocks): each chunk of
// agents in processing order gathers its neighbours (index phase's grids),
// then asks the method. Reads the state the method sees; writes
// new_velocities and the fallback counters; during a run that gathers
// metrics, the neighbour search also observes the state before the step.
#include <chrono>
#include <stdexcept>
#include <string>

#include "engine/block_runner.hpp"
#include "engine/engine.hpp"
#include "engine/engine_internal.hpp"
#include "kinematics/integration.hpp"  // cap_speed
#include "parallel/atomic_count.hpp"
#include "state/state_check.hpp"

namespace vosim {

using namespace engine_detail;

template <class V>
bool Engine::compute_new_velocities(Ticker* ticker, std::int64_t steps_done) {
    const int threads = max_threads();
    prepare_workspaces(threads);

    const Method& method = *method_;
    const bool cap_speeds = !method.may_exceed_max_speed();
    const AgentState& seen = seen_state();
    method.prepare_step(seen, step_data_);
    const std::int64_t total = order_.total();
    // Per-scene counters only when there are agents: a batch of very many
    // empty scenes costs nothing.
    if (total > 0 && static_cast<int>(fallbacks_.size()) != state_.scenes()) fallbacks_.resize(state_.scenes(), 0);
    if (metrics_) {
        // This step's neighbour search observes the state before it.
        metrics_largest_radius_ = largest_active_radius(state_);
        metrics_->begin_state(step_count_, threads);
    }
    const BlockRun run = run_in_blocks(total, threads, velocity_seconds_per_agent_, ticker, steps_done,
                                       [&](std::int64_t begin, std::int64_t end, std::int64_t& k, ChunkTally& tally) {
        Workspace& ws = workspaces_[thread_index()];
        const auto t0 = std::chrono::steady_clock::now();
        find_neighbors<V>(begin, end, ws);
        const auto t1 = std::chrono::steady_clock::now();
        int scene = order_.scene_of(begin);
        for (; k < end; ++k) {
            while (k >= order_.start(scene + 1)) ++scene;
            const int slot = order_.slot_at(scene, k);
            const std::size_t i = state_.index(scene, slot);
            const std::size_t row = static_cast<std::size_t>(k - begin);
            ws.agent_neighbors = {ws.agent_buffer.data() + ws.agent_starts[row],
                                  static_cast<int>(ws.agent_starts[row + 1] - ws.agent_starts[row])};
            {
                auto& near = ws.obstacle_runs<V>().buffer;
                auto& starts = ws.obstacle_runs<V>().starts;
                ws.set_obstacles_near<V>(Span<ObstaclesNearOf<V>>{
                    near.data() + starts[row], static_cast<int>(starts[row + 1] - starts[row])});
            }
            ws.used_fallback = false;
            const SceneOf<V> view{{seen, scene, time_step_, step_count_, step_data_.get(), &features_, &features_.seam()}};
            V v = method.in<V>().new_velocity(view, slot, ws);
            // (Integration saturates non-holonomic agents' velocities.)
            if (cap_speeds && !(nonholonomic_ && state_.kinematics[i] != 0)) {
                v = cap_speed(v, state_.max_speed[i]);
            }
            store(state_.new_velocities.data(), i, v);
            if (!is_finite(v)) tally.first_bad = std::min(tally.first_bad, k);
            if (ws.used_fallback) atomic_increment(fallbacks_[scene]);
        }
        const auto t2 = std::chrono::steady_clock::now();
        tally.first_seconds += std::chrono::duration<double>(t1 - t0).count();
        tally.second_seconds += std::chrono::duration<double>(t2 - t1).count();
    });
    if (!run.finished) return false;
    phase_times_.neighbor_queries += run.first_seconds / run.team;
    phase_times_.method += run.second_seconds / run.team;
    // What the next step's plan goes by (block_runner.hpp's plan_blocks).
    velocity_seconds_per_agent_ = total > 0 ? (run.first_seconds + run.second_seconds) / static_cast<double>(total) : 0.0;
    if (metrics_) metrics_->end_state();
    if (run.first_bad < total) {
        const int bad_scene = order_.scene_of(run.first_bad);
        const int bad_slot = order_.slot_at(bad_scene, run.first_bad);
        const std::size_t i = state_.index(bad_scene, bad_slot);
        throw std::runtime_error(
            "internal error: " + method.name() + " produced a non-finite velocity for " +
            describe_agent(state_, bad_scene, bad_slot) +
            "; the state was not advanced. Please report this with the inputs that caused it (id " +
            std::to_string(state_.ids[i]) + ").");
    }
    return true;
}

template bool Engine::compute_new_velocities<Vec2>(Ticker*, std::int64_t);
template bool Engine::compute_new_velocities<Vec3>(Ticker*, std::int64_t);

}  // namespace vosim
