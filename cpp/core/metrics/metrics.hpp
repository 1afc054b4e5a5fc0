// Metrics gathered while a run steps, per scene and per agent (named and
// defined in metric_table.hpp, which the vosim.metrics documentation shows).
//
// Every state of a run (the start and the state after each step) is observed
// once, while the next step's neighbours are found (or by a last pass after
// the run): agent overlaps (exhaustively), the smallest clearance among
// neighbours, obstacle penetrations. Motion (path, changes of velocity and
// acceleration, arrival, stalls) is observed at integration. Per-thread tallies
// are merged in scene order, so results do not depend on the thread count.
#pragma once

#include <algorithm>
#include <cstdint>
#include <unordered_set>
#include <vector>

#include "metrics/metric_table.hpp"
#include "state/agent_state.hpp"
#include "maths/vec.hpp"

namespace vosim {

struct MetricsSettings {
    double stall_speed = 0.05;       // below this speed a goal-seeking agent that has not arrived stalls
    std::int64_t stall_steps = 40;   // stalled this many steps in a row: counted as stalled
};

// What one thread saw of the state being observed.
struct StateTally {
    std::vector<double> min_clearance;        // per scene
    std::vector<std::int64_t> overlapping;    // per scene: agents overlapping another
    std::vector<double> max_penetration;      // per scene
    std::vector<std::int64_t> obstacle_hits;  // per scene: agents overlapping an obstacle edge
    std::vector<double> max_obstacle_penetration;
    struct Pair {
        int scene;
        std::int64_t a, b;  // ids, a < b
    };
    // Overlapping pairs, reported until a scene's count passes pair_cap (then
    // that state has too many to count; past the cap nothing is enumerated,
    // so memory and time stay linear in the agents however many overlap).
    std::vector<Pair> pairs;
    std::vector<std::int64_t> pairs_seen;   // per scene, at most pair_cap + 1
    std::vector<std::uint8_t> keep_pairs;   // per scene: the run still collects distinct pairs
    std::int64_t pair_cap = 0;
    bool counting_pairs(int scene) const { return pairs_seen[scene] <= pair_cap; }
    void add_pair(int scene, std::int64_t a, std::int64_t b) {
        if (++pairs_seen[scene] > pair_cap) return;
        if (keep_pairs[scene]) pairs.push_back({scene, a, b});
    }
    void reset(int scenes);
};

// Distinct overlapping pairs kept per agent slot of a scene (above: counted
// as "more than the cap").
constexpr std::int64_t kPairsPerAgent = 16;

class RunMetrics {
public:
    RunMetrics(const AgentState& state, int threads, std::int64_t record_every, MetricsSettings settings);

    // ---- observing states (the engine calls these)
    // Starts observing the state after `step` steps, with up to `threads` threads.
    void begin_state(std::int64_t step, int threads);
    StateTally& tally(int thread) { return tallies_[thread]; }
    void end_state();

    // ---- observing motion at integration (storage index i, in parallel)
    // (V: the engine's vector type).
    template <class V>
    void observe_motion(std::size_t i, V old_velocity, V new_velocity, V new_position, double dt,
                        std::int64_t step_after, bool goal_seeking, bool arrived_now, bool waiting);
    // The agent left the simulation at the end of step `step_after` (the exits phase).
    void observe_exit(std::size_t i, std::int64_t step_after) { exited_at_[i] = step_after; }
    // The agent's realised turn rate over the step (|heading change| / dt).
    void observe_turn(std::size_t i, double turn_rate) { peak_turn_[i] = std::max(peak_turn_[i], turn_rate); }

    // ---- results
    void finish(const AgentState& state, std::int64_t steps_done, double time_step,
                const std::vector<std::int64_t>& fallbacks);

    int scenes() const { return scenes_; }
    int count() const { return count_; }

    // The results (after finish), one member per row of the metric table:
    // per scene (scenes), per agent (scenes x count, scene-major) and per
    // observed state that a trajectory frame may need (frames x scenes).
#define VOSIM_METRIC_MEMBER(name, scope, T, unit, doc) std::vector<T> name;
    VOSIM_RUN_METRICS(VOSIM_METRIC_MEMBER)
#undef VOSIM_METRIC_MEMBER
    // Pairs a scene keeps track of (distinct over the run, or in one state);
    // collisions_series counts at most pair_cap() + 1.
    std::int64_t pair_cap() const { return kPairsPerAgent * std::max(count_, 1); }
    // The step of each row of the series (every record_every-th step, and the last).
    std::vector<std::int64_t> series_steps;

private:
    std::size_t slot_index(std::size_t storage_index) const;

    int scenes_, count_, capacity_;
    std::int64_t record_every_;
    MetricsSettings settings_;
    std::int64_t state_step_ = -1;
    std::vector<StateTally> tallies_;
    std::vector<std::unordered_set<std::uint64_t>> distinct_pairs_;  // per scene, made on first pair
    std::vector<std::uint8_t> pairs_capped_;  // per scene: distinct pairs passed the cap (set released)

    // Per agent, by storage index (slots do not move during a run).
    // Vectors of the engine's dimension, components side by side.
    std::vector<double> start_;
    std::vector<double> last_acceleration_;
    std::vector<std::uint8_t> has_acceleration_;
    std::vector<double> path_, sum_dv_, sum_da_, path_at_arrival_, straight_at_arrival_, peak_accel_,
        peak_turn_;
    std::vector<std::int64_t> arrived_at_, exited_at_;
    std::vector<std::int32_t> stall_, longest_stall_;
    std::vector<std::uint8_t> goal_seeking_;
    // Per scene, over the states observed so far.
    std::vector<std::int64_t> overlap_steps_, obstacle_steps_;
    std::vector<double> penetration_, obstacle_penetration_, clearance_;
};

template <class V>
void RunMetrics::observe_motion(std::size_t i, V old_velocity, V new_velocity, V new_position, double dt,
                                std::int64_t step_after, bool goal_seeking, bool arrived_now, bool waiting) {
    const double speed = length(new_velocity);
    path_[i] += speed * dt;
    sum_dv_[i] += length(new_velocity - old_velocity);
    const V acceleration = (new_velocity - old_velocity) / dt;
    if (has_acceleration_[i]) sum_da_[i] += length(acceleration - load<V>(last_acceleration_.data(), i));
    peak_accel_[i] = std::max(peak_accel_[i], length(acceleration));
    store(last_acceleration_.data(), i, acceleration);
    has_acceleration_[i] = 1;
    goal_seeking_[i] = goal_seeking ? 1 : 0;
    if (goal_seeking && arrived_now && arrived_at_[i] < 0) {
        arrived_at_[i] = step_after;
        path_at_arrival_[i] = path_[i];
        straight_at_arrival_[i] = length(new_position - load<V>(start_.data(), i));
    }
    if (goal_seeking && !arrived_now && !waiting && speed < settings_.stall_speed) {  // waiting: for its start time
        longest_stall_[i] = std::max(longest_stall_[i], ++stall_[i]);
    } else {
        stall_[i] = 0;
    }
}

}  // namespace vosim
