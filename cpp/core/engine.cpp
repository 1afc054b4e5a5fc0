#include "engine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include "limits.hpp"
#include "counter_rng.hpp"
#include "engine_internal.hpp"
#include "integration.hpp"
#include "kinematics.hpp"
#include "methods/orca/orca.hpp"
#include "parallel.hpp"
#include "state_check.hpp"
#include "threads.hpp"

namespace vosim {

using namespace engine_detail;

namespace {

constexpr double kTwoPi = 6.283185307179586;

// A holonomic agent slower than this fraction of its max_speed keeps its
// heading (the direction of a velocity that is ~0 is noise).
constexpr double kRestingSpeed = 1e-6;
// Squared tangent of the turn below which a holonomic agent keeps its heading.
constexpr double kSameDirection = 1e-24;

}  // namespace

Ticker::Ticker(Tick tick, double seconds)
    : tick_(std::move(tick)), seconds_(seconds), last_(std::chrono::steady_clock::now()) {}

bool Ticker::poll(std::int64_t steps_done) {
    if (!tick_) return true;
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - last_).count() < seconds_) return true;
    last_ = now;
    return tick_(steps_done);
}

Engine::BusyGuard::BusyGuard(std::atomic<bool>& flag) : flag_(flag) {
    if (flag_.exchange(true)) {
        throw std::runtime_error(
            "the simulator is busy: another call (step, run, add or remove agents) is running on it "
            "in another thread; use one simulator per thread or wait for that call to return");
    }
}

Engine::BusyGuard::~BusyGuard() { flag_.store(false); }

Engine::Engine(int scenes, double time_step, int dimensions)
    : state_(scenes, dimensions), time_step_(0.0), method_(std::make_shared<Orca>()), presented_(scenes, dimensions) {
    set_time_step(time_step);
}

void Engine::require_plane(const char* what) const {
    if (dimensions() != 2) {
        throw std::invalid_argument(std::string(what) + " needs a 2D simulator; this one has dimensions=" +
                                    std::to_string(dimensions()));
    }
}

void Engine::set_time_step(double time_step) {
    if (!within(time_step, kTimeRange)) {
        throw std::invalid_argument("time_step is " + format_number(time_step) + "; it must be " +
                                    describe(kTimeRange));
    }
    BusyGuard guard(busy_);
    time_step_ = time_step;
}

void Engine::set_method(std::shared_ptr<const Method> method) {
    if (!method) throw std::invalid_argument("method must not be None");
    if (!method->supports_dimensions(dimensions())) {
        throw std::invalid_argument("method " + method->name() + " does not support dimensions=" +
                                    std::to_string(dimensions()) + " (" + method->dimensions_note() + ")");
    }
    BusyGuard guard(busy_);
    method_ = std::move(method);
}

std::vector<std::int64_t> Engine::add_agents(int n, const AgentInput& input) {
    BusyGuard guard(busy_);
    return state_.append(n, input);
}

void Engine::remove_agents(const std::int64_t* ids, std::size_t count) {
    BusyGuard guard(busy_);
    state_.remove(ids, count);
    waypoints_.forget_removed(state_);
}

void Engine::validate() const {
    check_state(state_);
    check_kinematics(state_);
    shared_obstacles_.check_moving(-1);
    for (std::size_t b = 0; b < scene_obstacles_.size(); ++b) {
        if (scene_obstacles_[b]) scene_obstacles_[b]->check_moving(static_cast<int>(b));
    }
}

template <class V>
void Engine::update_pref_velocities() {
    AgentState& s = state_;
    const std::int64_t total = static_cast<std::int64_t>(s.scenes()) * s.capacity();
    const PreferenceNoise noise = method_->preference_noise();
    const DeadlockResolution deadlock = method_->deadlock_resolution();
    const std::uint64_t step = static_cast<std::uint64_t>(step_count_);
    // (Passes over all values on the engine's pool: parallel.hpp.)
    parallel_for_values(total, max_threads(), [&](std::int64_t i) {
        if (i % s.capacity() >= s.count() || !s.active[i] || !s.has_goal[i]) return;
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

void Engine::prepare_workspaces(int threads) {
    if (static_cast<int>(workspaces_.size()) < threads) workspaces_.resize(threads);
}

template <class V>
bool Engine::compute_new_velocities(Ticker* ticker, std::int64_t steps_done) {
    const int threads = max_threads();
    prepare_workspaces(threads);

    const Method& method = *method_;
    const bool cap_speeds = !method.may_exceed_max_speed();
    const AgentState& seen = seen_state();
    method.prepare_step(seen, step_data_);
    const std::int64_t total = agents_in_order();
    // Per-scene counters only when there are agents: a batch of very many
    // empty scenes costs nothing.
    if (total > 0 && static_cast<int>(fallbacks_.size()) != state_.scenes()) fallbacks_.resize(state_.scenes(), 0);
    // One loop over chunks of agents on the engine's pool (parallel.hpp):
    // chunks go to whichever thread is free, so a thread that the system
    // deschedules delays the step by one chunk at most. With a ticker, the
    // calling thread polls it between its chunks; the results do not depend
    // on the chunks (every agent's velocity depends on the frozen state only).
    const std::int64_t chunks = (total + kChunkAgents - 1) / kChunkAgents;
    const int team = total >= kParallelMinAgents ? threads : 1;
    // Per-thread sums, each on its own cache line.
    struct alignas(64) ThreadSums {
        double query_time = 0.0, method_time = 0.0;
        std::int64_t bad = 0;
    };
    std::vector<ThreadSums> sums(static_cast<std::size_t>(threads));
    for (ThreadSums& t : sums) t.bad = total;
    FirstError failure;
    if (metrics_) {
        // This step's neighbour search observes the state before it.
        metrics_largest_radius_ = largest_active_radius(state_);
        metrics_->begin_state(step_count_, threads);
    }
    const auto chunk_body = [&](std::int64_t c) {
        const int t = thread_index();
        Workspace& ws = workspaces_[t];
        ThreadSums& mine = sums[static_cast<std::size_t>(t)];
        const std::int64_t begin = c * kChunkAgents;
        const std::int64_t end = std::min(total, begin + kChunkAgents);
        std::int64_t k = begin;
        try {
            const auto t0 = std::chrono::steady_clock::now();
            find_neighbors<V>(begin, end, ws);
            const auto t1 = std::chrono::steady_clock::now();
            int scene = scene_of(begin);
            for (; k < end; ++k) {
                while (k >= scene_starts_[scene + 1]) ++scene;
                const int slot = slot_at(scene, k);
                const std::size_t i = state_.index(scene, slot);
                const std::size_t row = static_cast<std::size_t>(k - begin);
                ws.agent_neighbors = {ws.agent_buffer.data() + ws.agent_starts[row],
                                      static_cast<int>(ws.agent_starts[row + 1] - ws.agent_starts[row])};
                {
                    auto& near = ws.obstacles_near<V>();
                    auto& starts = ws.obstacles_near_starts<V>();
                    ws.set_obstacles_near<V>(Span<ObstaclesNearOf<V>>{
                        near.data() + starts[row], static_cast<int>(starts[row + 1] - starts[row])});
                }
                ws.used_fallback = false;
                const SceneView view{seen, scene, time_step_, step_count_, step_data_.get()};
                V v = method_velocity<V>(method, view, slot, ws);
                // (Integration saturates non-holonomic agents' velocities.)
                if (cap_speeds && !(nonholonomic_ && state_.kinematics[i] != 0)) {
                    v = cap_speed(v, state_.max_speed[i]);
                }
                store(state_.new_velocities.data(), i, v);
                if (!is_finite(v)) mine.bad = std::min(mine.bad, k);
                if (ws.used_fallback) {
#pragma omp atomic
                    ++fallbacks_[scene];
                }
            }
            const auto t2 = std::chrono::steady_clock::now();
            mine.query_time += std::chrono::duration<double>(t1 - t0).count();
            mine.method_time += std::chrono::duration<double>(t2 - t1).count();
        } catch (...) {
            failure.keep(k, std::current_exception());
        }
    };
    bool finished = true;
    if (ticker) {
        finished = parallel_for_until(chunks, team, chunk_body, [&] { return !ticker->poll(steps_done); });
    } else {
        parallel_for(chunks, team, chunk_body);
    }
    failure.rethrow();
    if (!finished) return false;
    std::int64_t first_bad = total;
    double query_seconds = 0.0, method_seconds = 0.0;
    for (const ThreadSums& t : sums) {
        first_bad = std::min(first_bad, t.bad);
        query_seconds += t.query_time;
        method_seconds += t.method_time;
    }
    phase_times_.neighbors += query_seconds / threads;
    phase_times_.velocities += method_seconds / threads;
    if (metrics_) metrics_->end_state();
    if (first_bad < total) {
        const int bad_scene = scene_of(first_bad);
        const int bad_slot = slot_at(bad_scene, first_bad);
        const std::size_t i = state_.index(bad_scene, bad_slot);
        throw std::runtime_error(
            "internal error: " + method.name() + " produced a non-finite velocity for " +
            describe_agent(state_, bad_scene, bad_slot) +
            "; the state was not advanced. Please report this with the inputs that caused it (id " +
            std::to_string(state_.ids[i]) + ").");
    }
    return true;
}

template <class V>
void Engine::integrate() {
    AgentState& s = state_;
    const std::int64_t total = static_cast<std::int64_t>(s.scenes()) * s.capacity();
    const double dt = time_step_;
    const DeadlockResolution deadlock = method_->deadlock_resolution();
    // A method that models acceleration has already kept to it.
    const bool clamp_acceleration = !method_->models_acceleration(dimensions());
    const bool nonholonomic = nonholonomic_;
    // (Passes over all values on the engine's pool: parallel.hpp.)
    parallel_for_values(total, max_threads(), [&](std::int64_t i) {
        if (i % s.capacity() >= s.count() || !s.active[i]) return;
        const std::size_t at = static_cast<std::size_t>(i);
        const V old_velocity = s.velocity<V>(at);
        const double old_heading = s.headings[i];
        V v;
        if constexpr (kDim<V> == 2) {
            if (nonholonomic && s.kinematics[i] != 0) {
                integrate_nonholonomic(at, clamp_acceleration);
                v = s.velocity(at);
            }
        }
        if (!nonholonomic || s.kinematics[i] == 0) {
            v = load<V>(s.new_velocities.data(), at);
            if (clamp_acceleration && s.max_acceleration[i] < std::numeric_limits<double>::infinity()) {
                // The old velocity may exceed max_speed (users write velocities):
                // the blend must not.
                v = cap_speed(limit_acceleration(old_velocity, v, s.max_acceleration[i], dt), s.max_speed[i]);
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
        }
        if (metrics_ || deadlock.rule != DeadlockRule::kNone) {
            const bool seeking = s.has_goal[i] != 0;
            const bool arrived = seeking && abs_sq(s.position<V>(at) - s.goal<V>(at)) <= sqr(s.arrival_radius[i]) &&
                                 !waypoints_.has_more(s, at);
            if (metrics_) {
                metrics_->observe_motion(at, old_velocity, v, s.position<V>(at), dt, step_count_ + 1, seeking,
                                         arrived);
                metrics_->observe_turn(at, std::fabs(wrap_turn(s.headings[i] - old_heading)) / dt);
            }
            if (deadlock.rule != DeadlockRule::kNone) {
                update_deadlock_state(deadlock, at, longer_than(v, deadlock.stall_fraction * s.pref_speed[i]),
                                      seeking && !arrived);
            }
        }
    });
    // Moving obstacles move with the agents, after the velocities were chosen
    // against their current place and velocity.
    shared_obstacles_.advance(dt);
    for (auto& set : scene_obstacles_) {
        if (set) set->advance(dt);
    }
    time_ += time_step_;
    ++step_count_;
}

Motion Engine::realised_motion(std::size_t i, Vec2 u, bool clamp_acceleration) const {
    const AgentState& s = state_;
    const NonholonomicModel model = method_->nonholonomic_model();
    if (clamp_acceleration && s.max_acceleration[i] < std::numeric_limits<double>::infinity()) {
        // max_acceleration limits the change of the presented velocity (for
        // the effective centre: of v and of w D together).
        u = limit_acceleration(present_agent(model, s, i).velocity, u, s.max_acceleration[i], time_step_);
    }
    return saturate(motion_from_method(model, u, s, i, time_step_), drive_limits(s, i));
}

void Engine::integrate_nonholonomic(std::size_t i, bool clamp_acceleration) {
    AgentState& s = state_;
    const double dt = time_step_;
    const Motion motion = realised_motion(i, load<Vec2>(s.new_velocities.data(), i), clamp_acceleration);
    const Pose pose = advance_pose(Pose{s.position(i), s.headings[i]}, motion, dt);
    store(s.positions.data(), i, pose.position);
    store(s.velocities.data(), i, motion.speed * Vec2(std::cos(pose.heading), std::sin(pose.heading)));
    s.headings[i] = pose.heading;
    s.angular_velocities[i] = motion.turn_rate;
}

void Engine::update_deadlock_state(const DeadlockResolution& rule, std::size_t i, bool moving, bool travelling) {
    AgentState& s = state_;
    double& timer = s.deadlock_timer[i];
    std::int8_t& side = s.detour_side[i];
    if (!travelling) {
        timer = 0.0;
        side = 0;
    } else if (side != 0) {
        timer -= time_step_;
        if (timer <= 0.0) {
            timer = 0.0;
            side = 0;
        }
    } else if (moving) {
        timer = 0.0;
    } else {
        timer += time_step_;
        if (timer >= rule.patience) {
            // Drawn from (seed, agent id, step): independent of threads and slots.
            const std::uint64_t kDetourStream = 0xD7E4A11B5EEDull;
            CounterRng rng(mix_seed(mix_seed(method_->preference_noise().seed ^ kDetourStream,
                                             static_cast<std::uint64_t>(s.ids[i])),
                                    static_cast<std::uint64_t>(step_count_)));
            timer = rule.hold * (0.5 + rng.next_unit());
            side = rule.rule == DeadlockRule::kSidestep || rng.next_unit() < 0.5 ? 1 : -1;
        }
    }
}

bool Engine::advance(Ticker* ticker, std::int64_t steps_done) {
    return with_vector_type([&](auto v) { return advance_in<decltype(v)>(ticker, steps_done); });
}

template <class V>
bool Engine::advance_in(Ticker* ticker, std::int64_t steps_done) {
    // Phase 1 only rewrites the preferred velocities of goal-seeking agents
    // from their goals, which the next attempt computes identically: an
    // abandoned step leaves the state as it was.
    build_obstacles();
    waypoints_.advance(state_);
    update_pref_velocities<V>();
    nonholonomic_ = has_nonholonomic(state_);  // (validate refused them in 3D)
    if (nonholonomic_) present_state(method_->nonholonomic_model(), state_, presented_);
    const auto index_started = std::chrono::steady_clock::now();
    build_neighbor_index<V>();
    phase_times_.neighbors +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - index_started).count();
    if (!compute_new_velocities<V>(ticker, steps_done)) return false;
    const auto integration_started = std::chrono::steady_clock::now();
    integrate<V>();
    phase_times_.integration +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - integration_started).count();
    return true;
}

bool Engine::step(Ticker* ticker) {
    BusyGuard guard(busy_);
    validate();
    return advance(ticker, step_count_);
}

bool Engine::all_arrived() const {
    const AgentState& s = state_;
    if (s.count() == 0) return true;
    return with_vector_type([&](auto v) {
        using V = decltype(v);
        for (int b = 0; b < s.scenes(); ++b) {
            for (int slot = 0; slot < s.count(); ++slot) {
                const std::size_t i = s.index(b, slot);
                if (!s.active[i] || !s.has_goal[i]) continue;
                if (abs_sq(s.position<V>(i) - s.goal<V>(i)) > sqr(s.arrival_radius[i])) return false;
                if (waypoints_.has_more(s, i)) return false;
            }
        }
        return true;
    });
}

template <class V>
std::size_t Engine::prepare_inspection(int scene, int slot, Workspace& ws) {
    if (scene < 0 || scene >= state_.scenes() || slot < 0 || slot >= state_.count()) {
        throw std::invalid_argument("no agent slot " + std::to_string(slot) + " in scene " + std::to_string(scene));
    }
    validate();
    build_obstacles();
    waypoints_.advance(state_);  // as the next step will (it is idempotent)
    update_pref_velocities<V>();
    GridOf<V> grid;
    build_grid<V>(state_, scene, grid);
    const std::size_t i = state_.index(scene, slot);
    ws.agent_buffer.resize(neighbor_capacity(i));
    auto& near = ws.obstacles_near<V>();
    const int found = gather_neighbors<V>(grid, scene, slot, ws.agent_buffer.data(), &near);
    ws.agent_neighbors = {ws.agent_buffer.data(), found};
    ws.set_obstacles_near<V>(Span<ObstaclesNearOf<V>>{near.data(), static_cast<int>(near.size())});
    return i;
}

Diagnostics Engine::inspect(int scene, int slot) {
    require_plane("inspect");
    BusyGuard guard(busy_);
    Workspace ws;
    const std::size_t i = prepare_inspection<Vec2>(scene, slot, ws);
    Diagnostics d;
    d.method = method_->name();
    d.position = state_.position(i);
    d.velocity = state_.velocity(i);
    d.pref_velocity = state_.pref_velocity(i);
    d.radius = state_.radius[i];
    d.max_speed = state_.max_speed[i];
    for (const Neighbor& n : ws.agent_neighbors) d.agent_neighbors.push_back(n.slot);
    for (const ObstacleNeighbor& edge : ws.obstacle_neighbors) {
        const auto [a, b] = edge.endpoints();
        d.obstacle_edges.push_back(a);
        d.obstacle_edges.push_back(b);
    }
    nonholonomic_ = has_nonholonomic(state_);
    if (nonholonomic_) present_state(method_->nonholonomic_model(), state_, presented_);
    const AgentState& seen = seen_state();
    d.heading = state_.headings[i];
    d.kinematics = kKinematicsNames[static_cast<int>(state_.kinematics[i])];
    if (nonholonomic_ && state_.kinematics[i] != 0) {
        d.presented_position = seen.position(i);
        d.presented_velocity = seen.velocity(i);
        d.presented_radius = seen.radius[i];
    }
    if (state_.active[i]) {
        std::unique_ptr<StepData> step_data;
        method_->prepare_step(seen, step_data);
        method_->inspect(SceneView{seen, scene, time_step_, step_count_, step_data.get()}, slot, ws, d);
        if (!method_->may_exceed_max_speed() && state_.kinematics[i] == 0) {  // as the step does
            d.new_velocity = cap_speed(d.new_velocity, d.max_speed);
        }
        if (!method_->models_acceleration(dimensions())) d.target_velocity = d.new_velocity;
        if (nonholonomic_ && state_.kinematics[i] != 0) {
            // What the robot will do: the method's velocity (of its
            // presentation) through integration, without touching the state.
            d.method_velocity = d.new_velocity;
            const Motion motion =
                realised_motion(i, d.new_velocity, !method_->models_acceleration(dimensions()));
            const double heading = wrap_angle(state_.headings[i] + motion.turn_rate * time_step_);
            d.new_velocity = motion.speed * Vec2(std::cos(heading), std::sin(heading));
            d.new_turn_rate = motion.turn_rate;
        }
    } else {
        d.new_velocity = d.target_velocity = d.velocity;  // an inactive agent does not move
    }
    return d;
}

Diagnostics3 Engine::inspect_3d(int scene, int slot) {
    if (dimensions() != 3) {
        throw std::invalid_argument("inspect_3d needs a 3D simulator; this one has dimensions=" +
                                    std::to_string(dimensions()));
    }
    BusyGuard guard(busy_);
    Workspace ws;
    const std::size_t i = prepare_inspection<Vec3>(scene, slot, ws);
    Diagnostics3 d;
    d.method = method_->name();
    d.position = state_.position<Vec3>(i);
    d.velocity = state_.velocity<Vec3>(i);
    d.pref_velocity = state_.pref_velocity<Vec3>(i);
    d.radius = state_.radius[i];
    d.max_speed = state_.max_speed[i];
    for (const Neighbor& n : ws.agent_neighbors) d.agent_neighbors.push_back(n.slot);
    d.obstacle_contacts.assign(ws.obstacle_contacts.begin(), ws.obstacle_contacts.end());
    if (state_.active[i]) {
        std::unique_ptr<StepData> step_data;
        method_->prepare_step(state_, step_data);
        method_->inspect_3d(SceneView{state_, scene, time_step_, step_count_, step_data.get()}, slot, ws, d);
        if (!method_->may_exceed_max_speed()) {  // as the step does
            d.new_velocity = cap_speed(d.new_velocity, d.max_speed);
        }
        if (!method_->models_acceleration(dimensions())) d.target_velocity = d.new_velocity;
    } else {
        d.new_velocity = d.target_velocity = d.velocity;  // an inactive agent does not move
    }
    return d;
}

}  // namespace vosim
