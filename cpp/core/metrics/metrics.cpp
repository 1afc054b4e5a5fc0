#include "metrics/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace vosim {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::uint64_t pair_key(std::int64_t a, std::int64_t b) {
    // Ids are below 2^62 (they count agents); mixing keeps the set's buckets even.
    std::uint64_t h = static_cast<std::uint64_t>(a) * 0x9E3779B97F4A7C15ull;
    return h ^ (static_cast<std::uint64_t>(b) + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2));
}

}  // namespace

void StateTally::reset(int scenes) {
    min_clearance.assign(scenes, kInf);
    overlapping.assign(scenes, 0);
    max_penetration.assign(scenes, 0.0);
    obstacle_hits.assign(scenes, 0);
    max_obstacle_penetration.assign(scenes, 0.0);
    pairs.clear();
    pairs_seen.assign(scenes, 0);
}

RunMetrics::RunMetrics(const AgentState& state, int threads, std::int64_t record_every, MetricsSettings settings)
    : scenes_(state.scenes()),
      count_(state.count()),
      capacity_(state.capacity()),
      record_every_(record_every),
      settings_(settings),
      tallies_(threads) {
    const std::size_t total = static_cast<std::size_t>(scenes_) * capacity_;
    const std::size_t dims = static_cast<std::size_t>(state.dimensions());
    start_.assign(state.positions.data(), state.positions.data() + total * dims);
    last_acceleration_.assign(total * dims, 0.0);
    has_acceleration_.assign(total, 0);
    path_.assign(total, 0.0);
    peak_accel_.assign(total, 0.0);
    peak_turn_.assign(total, 0.0);
    sum_dv_.assign(total, 0.0);
    sum_da_.assign(total, 0.0);
    path_at_arrival_.assign(total, kNaN);
    straight_at_arrival_.assign(total, kNaN);
    arrived_at_.assign(total, -1);
    exited_at_.assign(total, -1);
    stall_.assign(total, 0);
    longest_stall_.assign(total, 0);
    goal_seeking_.assign(total, 0);
    distinct_pairs_.resize(scenes_);
    pairs_capped_.assign(scenes_, 0);
    overlap_steps_.assign(scenes_, 0);
    obstacle_steps_.assign(scenes_, 0);
    penetration_.assign(scenes_, 0.0);
    obstacle_penetration_.assign(scenes_, 0.0);
    clearance_.assign(scenes_, kInf);
}

void RunMetrics::begin_state(std::int64_t step, int threads) {
    state_step_ = step;
    if (static_cast<int>(tallies_.size()) < threads) tallies_.resize(threads);
    for (StateTally& t : tallies_) {
        t.reset(scenes_);
        t.pair_cap = pair_cap();
        t.keep_pairs.assign(scenes_, 1);
        for (int b = 0; b < scenes_; ++b) t.keep_pairs[b] = pairs_capped_[b] ? 0 : 1;
    }
}

void RunMetrics::end_state() {
    // Merge in thread order for counts and exact min/max (order-independent),
    // pairs in one set per scene (a set: independent of order too). A state
    // with more overlapping pairs than the cap, or a run with more distinct
    // ones, is capped whatever the threads saw: the same for any thread count.
    const std::int64_t cap = pair_cap();
    std::vector<double> clearance(scenes_, kInf);
    std::vector<std::int64_t> pairs_now(scenes_, 0);
    for (const StateTally& t : tallies_) {
        for (int b = 0; b < scenes_; ++b) {
            clearance[b] = std::fmin(clearance[b], t.min_clearance[b]);
            overlap_steps_[b] += t.overlapping[b];
            penetration_[b] = std::fmax(penetration_[b], t.max_penetration[b]);
            obstacle_steps_[b] += t.obstacle_hits[b];
            obstacle_penetration_[b] = std::fmax(obstacle_penetration_[b], t.max_obstacle_penetration[b]);
            pairs_now[b] = std::min(cap + 1, pairs_now[b] + t.pairs_seen[b]);
        }
    }
    auto release = [&](int b) {
        pairs_capped_[b] = 1;
        std::unordered_set<std::uint64_t>().swap(distinct_pairs_[b]);
    };
    for (int b = 0; b < scenes_; ++b) {
        if (pairs_now[b] > cap) release(b);
    }
    for (const StateTally& t : tallies_) {
        for (const StateTally::Pair& p : t.pairs) {
            if (pairs_capped_[p.scene]) continue;
            distinct_pairs_[p.scene].insert(pair_key(p.a, p.b));
            if (static_cast<std::int64_t>(distinct_pairs_[p.scene].size()) > cap) release(p.scene);
        }
    }
    for (int b = 0; b < scenes_; ++b) clearance_[b] = std::fmin(clearance_[b], clearance[b]);
    // Frames are every record_every-th state and the last one: a state that
    // is not a multiple is kept only until the next state comes.
    if (!series_steps.empty() && series_steps.back() % record_every_ != 0) {
        series_steps.pop_back();
        min_clearance_series.resize(min_clearance_series.size() - scenes_);
        collisions_series.resize(collisions_series.size() - scenes_);
    }
    series_steps.push_back(state_step_);
    min_clearance_series.insert(min_clearance_series.end(), clearance.begin(), clearance.end());
    collisions_series.insert(collisions_series.end(), pairs_now.begin(), pairs_now.end());
}

std::size_t RunMetrics::slot_index(std::size_t storage_index) const {
    const std::size_t b = storage_index / capacity_;
    return b * count_ + storage_index % capacity_;
}

void RunMetrics::finish(const AgentState& state, std::int64_t steps_done, double time_step,
                        const std::vector<std::int64_t>& scene_fallbacks) {
    const std::size_t agents = static_cast<std::size_t>(scenes_) * count_;
    arrival_step.assign(agents, -1);
    exit_step.assign(agents, -1);
    path_length.assign(agents, 0.0);
    peak_acceleration.assign(agents, 0.0);
    peak_angular_speed.assign(agents, 0.0);
    agent_path_efficiency.assign(agents, kNaN);
    agent_mean_speed.assign(agents, kNaN);
    longest_stall.assign(agents, 0);

    collision_agent_steps = overlap_steps_;
    obstacle_agent_steps = obstacle_steps_;
    max_penetration = penetration_;
    max_obstacle_penetration = obstacle_penetration_;
    min_clearance = clearance_;
    fallbacks = scene_fallbacks;
    fallbacks.resize(scenes_, 0);
    collision_pairs.assign(scenes_, 0);
    collision_pairs_capped = pairs_capped_;
    stalled_agents.assign(scenes_, 0);
    arrival_rate.assign(scenes_, kNaN);
    makespan.assign(scenes_, kNaN);
    mean_travel_time.assign(scenes_, kNaN);
    mean_path_length.assign(scenes_, kNaN);
    path_efficiency.assign(scenes_, kNaN);
    mean_speed.assign(scenes_, kNaN);
    exits.assign(scenes_, 0);
    last_exit_time.assign(scenes_, kNaN);
    sum_abs_dv.assign(scenes_, 0.0);
    sum_abs_da.assign(scenes_, 0.0);

    const double duration = static_cast<double>(steps_done) * time_step;
    for (int b = 0; b < scenes_; ++b) {
        collision_pairs[b] =
            pairs_capped_[b] ? pair_cap() + 1 : static_cast<std::int64_t>(distinct_pairs_[b].size());
        std::int64_t live = 0, seeking = 0, arrived = 0, efficient = 0, timed = 0;
        std::int64_t last_arrival = 0, last_exit = 0;
        double path_sum = 0.0, travel_sum = 0.0, efficiency_sum = 0.0, speed_sum = 0.0;
        for (int slot = 0; slot < count_; ++slot) {
            const std::size_t i = state.index(b, slot);
            const std::size_t k = slot_index(i);
            path_length[k] = path_[i];
            peak_acceleration[k] = peak_accel_[i];
            // A holonomic agent's heading only follows its velocity (a reversal
            // is a half-turn in one step): its turn rate means nothing.
            peak_angular_speed[k] = state.kinematics[i] == 0 ? kNaN : peak_turn_[i];
            arrival_step[k] = arrived_at_[i];
            exit_step[k] = exited_at_[i];
            longest_stall[k] = longest_stall_[i];
            // Speed while travelling: until arrival for those that arrived
            // (not diluted by the time they then wait for the others), or
            // until they left.
            const double travelled = arrived_at_[i] >= 0 ? path_at_arrival_[i] : path_[i];
            const double travel_time = arrived_at_[i] >= 0 ? static_cast<double>(arrived_at_[i]) * time_step
                                       : exited_at_[i] >= 0 ? static_cast<double>(exited_at_[i]) * time_step
                                                            : duration;
            if (travel_time > 0.0) agent_mean_speed[k] = travelled / travel_time;
            if (arrived_at_[i] >= 0 && path_at_arrival_[i] > 0.0) {
                agent_path_efficiency[k] = straight_at_arrival_[i] / path_at_arrival_[i];
            } else if (arrived_at_[i] >= 0) {
                agent_path_efficiency[k] = 1.0;  // arrived without moving
            }
            // Agents that left during the run are inactive now but were part of it.
            if ((!state.active[i] && exited_at_[i] < 0) || state.ids[i] < 0) continue;
            ++live;
            if (exited_at_[i] >= 0) {
                ++exits[b];
                last_exit = std::max(last_exit, exited_at_[i]);
            }
            path_sum += path_[i];
            if (!std::isnan(agent_mean_speed[k])) {
                speed_sum += agent_mean_speed[k];
                ++timed;
            }
            sum_abs_dv[b] += sum_dv_[i];
            sum_abs_da[b] += sum_da_[i];
            if (longest_stall_[i] >= settings_.stall_steps) ++stalled_agents[b];
            if (!goal_seeking_[i] && !state.has_goal[i]) continue;
            ++seeking;
            if (arrived_at_[i] < 0) continue;
            ++arrived;
            last_arrival = std::max(last_arrival, arrived_at_[i]);
            travel_sum += static_cast<double>(arrived_at_[i]) * time_step;
            if (!std::isnan(agent_path_efficiency[k])) {
                efficiency_sum += agent_path_efficiency[k];
                ++efficient;
            }
        }
        if (exits[b] > 0) last_exit_time[b] = static_cast<double>(last_exit) * time_step;
        if (live > 0) {
            mean_path_length[b] = path_sum / static_cast<double>(live);
            if (timed > 0) mean_speed[b] = speed_sum / static_cast<double>(timed);
        }
        if (seeking > 0) {
            arrival_rate[b] = static_cast<double>(arrived) / static_cast<double>(seeking);
            if (arrived == seeking) makespan[b] = static_cast<double>(last_arrival) * time_step;
        }
        if (arrived > 0) mean_travel_time[b] = travel_sum / static_cast<double>(arrived);
        if (efficient > 0) path_efficiency[b] = efficiency_sum / static_cast<double>(efficient);
    }
}

}  // namespace vosim
