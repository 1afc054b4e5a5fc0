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
#include "integration.hpp"
#include "orca.hpp"
#include "state_check.hpp"
#include "threads.hpp"

namespace vosim {

namespace {

constexpr double kTwoPi = 6.283185307179586;

// Agents of one chunk: their neighbours are found in one pass, then the
// method runs over them in a second, so each pass can be timed cheaply.
constexpr std::int64_t kChunkAgents = 64;

double largest_active_radius(const AgentState& s) {
    double largest = 0.0;
    for (int b = 0; b < s.scenes(); ++b) {
        for (int slot = 0; slot < s.count(); ++slot) {
            const std::size_t i = s.index(b, slot);
            if (s.active[i]) largest = std::fmax(largest, s.radius[i]);
        }
    }
    return largest;
}

// When a ticker is polled between blocks of phase 3, each block aims at
// this much wall time (against microseconds to start one): the block size
// adapts to the cost per agent, which ranges from under a microsecond to
// tens of microseconds with hundreds of neighbours.
constexpr double kBlockSeconds = 0.005;
constexpr std::int64_t kFirstBlockAgentsPerThread = 1024;

// The first exception thrown inside a parallel loop (exceptions must not
// leave an OpenMP region), by loop index so that the same one is reported
// whatever the thread count.
class FirstError {
public:
    void keep(std::int64_t index, std::exception_ptr error) {
#pragma omp critical(vosim_first_error)
        {
            if (!error_ || index < index_) {
                index_ = index;
                error_ = std::move(error);
            }
        }
    }
    void rethrow() const {
        if (error_) std::rethrow_exception(error_);
    }

private:
    std::int64_t index_ = 0;
    std::exception_ptr error_;
};

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
    : state_(scenes, dimensions), time_step_(0.0), method_(std::make_shared<Orca>()) {
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

int Engine::add_obstacle(int scene, const Vec2* points, int count, ObstacleKind kind, bool moving, Vec2 velocity) {
    require_plane("add_obstacle");
    if (scene < -1 || scene >= state_.scenes()) {
        throw std::invalid_argument("scene must be -1 (all scenes) or in [0, " +
                                    std::to_string(state_.scenes()) + "), got " + std::to_string(scene));
    }
    BusyGuard guard(busy_);
    if (scene < 0) return shared_obstacles_.add(points, count, kind, moving, velocity);
    // Per-scene sets are made on demand: a batch of many scenes without
    // obstacles of their own costs nothing.
    if (scene_obstacles_.empty()) scene_obstacles_.resize(state_.scenes());
    if (!scene_obstacles_[scene]) scene_obstacles_[scene] = std::make_unique<ObstacleSet>();
    return scene_obstacles_[scene]->add(points, count, kind, moving, velocity);
}

void Engine::remove_obstacle(int scene, int id) {
    ObstacleSet& set = const_cast<ObstacleSet&>(obstacles(scene));  // checks the scene
    BusyGuard guard(busy_);
    if (scene >= 0 && (scene_obstacles_.empty() || !scene_obstacles_[scene])) {
        throw std::invalid_argument("obstacle is " + std::to_string(id) + "; scene " + std::to_string(scene) +
                                    " has no obstacles of its own");
    }
    set.remove(id);
}

void Engine::set_obstacle_velocity(int scene, int id, Vec2 velocity) {
    ObstacleSet& set = const_cast<ObstacleSet&>(obstacles(scene));
    BusyGuard guard(busy_);
    if (scene >= 0 && (scene_obstacles_.empty() || !scene_obstacles_[scene])) {
        throw std::invalid_argument("obstacle is " + std::to_string(id) + "; scene " + std::to_string(scene) +
                                    " has no obstacles of its own");
    }
    set.set_velocity(id, velocity);
}

const ObstacleSet& Engine::obstacles(int scene) const {
    if (scene < -1 || scene >= state_.scenes()) {
        throw std::invalid_argument("scene must be -1 (shared) or in [0, " + std::to_string(state_.scenes()) +
                                    "), got " + std::to_string(scene));
    }
    static const ObstacleSet none;
    if (scene < 0) return shared_obstacles_;
    const ObstacleSet* own = scene_obstacles_.empty() ? nullptr : scene_obstacles_[scene].get();
    return own ? *own : none;
}

std::vector<int> Engine::scenes_with_obstacles() const {
    std::vector<int> scenes;
    for (std::size_t b = 0; b < scene_obstacles_.size(); ++b) {
        if (scene_obstacles_[b] && !scene_obstacles_[b]->empty()) scenes.push_back(static_cast<int>(b));
    }
    return scenes;
}

bool Engine::blocked(int scene, Vec2 p, bool with_moving) const {
    return blocked_by(shared_obstacles_, obstacles(scene), p, with_moving);
}

double Engine::obstacle_clearance(int scene, Vec2 p) const {
    const double d = std::fmin(shared_obstacles_.distance(p), obstacles(scene).distance(p));
    return blocked(scene, p) ? -d : d;
}

void Engine::build_obstacles() {
    if (dimensions() == 3) {
        build_obstacles3();
        return;
    }
    shared_obstacles_.build();
    const int scenes = state_.scenes();
    if (scene_obstacles_.empty()) return;
#pragma omp parallel for schedule(dynamic, 1) num_threads(max_threads()) if (scenes > 1)
    for (int b = 0; b < scenes; ++b) {
        if (scene_obstacles_[b]) scene_obstacles_[b]->build();
    }
}

void Engine::append_obstacle_neighbors(int scene, std::size_t i, std::vector<ObstacleNeighbor>& out) const {
    if (dimensions() != 2) return;  // obstacle edges are plane geometry
    const ObstacleSet& own = obstacles(scene);
    if (shared_obstacles_.empty() && own.empty()) return;
    // RVO2's range: anything the agent could reach within the obstacle time
    // horizon at full speed, plus its radius. Shared obstacles come first
    // among equally distant edges.
    const double range = state_.time_horizon_obst[i] * state_.max_speed[i] + state_.radius[i];
    const Vec2 p = state_.position(i);
    const std::size_t first = out.size();
    shared_obstacles_.query(p, range * range, out, first);
    own.query(p, range * range, out, first);
}

int Engine::scene_of(std::int64_t k) const {
    // The last scene starting at or before k (empty scenes start where the
    // next one does, and are skipped).
    const auto after = std::upper_bound(scene_starts_.begin(), scene_starts_.end(), k);
    return static_cast<int>(after - scene_starts_.begin()) - 1;
}

int Engine::neighbor_capacity(std::size_t i) const {
    // Never more neighbours than other agents in a scene.
    return std::max(0, std::min(state_.max_neighbors[i], state_.count() - 1));
}

template <class V>
int Engine::gather_neighbors(const GridOf<V>& grid, int scene, int slot, Neighbor* agents,
                             std::vector<ObstaclesNearOf<V>>* edges) const {
    const std::size_t i = state_.index(scene, slot);
    const int count =
        grid.nearest(state_.position<V>(i), state_.neighbor_dist[i], neighbor_capacity(i), slot, agents);
    if (edges) append_obstacle_neighbors(scene, i, *edges);
    return count;
}

template <class V>
void Engine::find_neighbors(std::int64_t begin, std::int64_t end, Workspace& ws) const {
    auto& near = ws.obstacles_near<V>();
    auto& near_starts = ws.obstacles_near_starts<V>();
    near.clear();
    near_starts.clear();
    ws.agent_starts.clear();
    std::size_t used = 0;
    int scene = scene_of(begin);
    for (std::int64_t k = begin; k < end; ++k) {
        while (k >= scene_starts_[scene + 1]) ++scene;
        const int slot = slot_at(scene, k);
        const std::size_t i = state_.index(scene, slot);
        const int wanted = neighbor_capacity(i);
        if (ws.agent_buffer.size() < used + wanted) {
            ws.agent_buffer.resize(std::max(used + wanted, 2 * ws.agent_buffer.size()));
        }
        Neighbor* const found = ws.agent_buffer.data() + used;
        ws.agent_starts.push_back(used);
        near_starts.push_back(near.size());
        const int count = gather_neighbors<V>(grids<V>()[scene], scene, slot, found, &near);
        used += static_cast<std::size_t>(count);
        if (metrics_ && state_.active[i]) {
            const std::size_t first_edge = near_starts.back();
            observe_agent<V>(scene, slot, i, {found, count}, wanted,
                          {near.data() + first_edge, static_cast<int>(near.size() - first_edge)},
                          metrics_->tally(thread_index()));
        }
    }
    ws.agent_starts.push_back(used);
    near_starts.push_back(near.size());
}

template <class V>
void Engine::observe_agent(int scene, int slot, std::size_t i, Span<Neighbor> agents, int wanted,
                           Span<ObstaclesNearOf<V>> edges, StateTally& tally) const {
    const AgentState& s = state_;
    const double radius = s.radius[i];
    const double reach = radius + metrics_largest_radius_;  // farthest a disc could overlap this one
    double clearance = std::numeric_limits<double>::infinity();
    double penetration = 0.0;
    bool overlapping = false;
    auto consider = [&](int other, double dist_sq) {
        const std::size_t j = s.index(scene, other);
        const double gap = std::sqrt(dist_sq) - radius - s.radius[j];
        clearance = std::fmin(clearance, gap);
        if (gap < 0.0) {
            overlapping = true;
            penetration = std::fmax(penetration, -gap);
            // Each overlapping pair is seen by both agents; the lower slot reports it.
            if (slot < other) tally.pairs.push_back({scene, std::min(s.ids[i], s.ids[j]), std::max(s.ids[i], s.ids[j])});
        }
    };
    // The neighbour list holds every overlapping agent when it reaches
    // beyond any possible overlap; otherwise a search of that reach does.
    const bool complete = s.neighbor_dist[i] >= reach && wanted > 0 &&
                          (agents.size() < wanted || agents[agents.size() - 1].dist_sq >= reach * reach);
    // Neighbours come nearest first, and neighbour k's clearance is at least
    // sqrt(d_k) - reach: once that cannot beat the best so far (nor overlap),
    // the rest cannot either. Usually one or two square roots per agent.
    for (const Neighbor& n : agents) {
        const double bound = clearance + reach;
        if (n.dist_sq >= reach * reach && bound >= 0.0 && n.dist_sq >= bound * bound) break;
        if (complete) {
            consider(n.slot, n.dist_sq);
        } else {
            clearance = std::fmin(clearance, std::sqrt(n.dist_sq) - radius - s.radius[s.index(scene, n.slot)]);
        }
    }
    if (!complete && reach > 0.0) {
        grids<V>()[scene].for_each_within(s.position<V>(i), reach, [&](std::int32_t other, double dist_sq) {
            if (other != slot) consider(other, dist_sq);
        });
    }
    tally.min_clearance[scene] = std::fmin(tally.min_clearance[scene], clearance);
    if (overlapping) {
        ++tally.overlapping[scene];
        tally.max_penetration[scene] = std::fmax(tally.max_penetration[scene], penetration);
    }
    double edge_penetration = 0.0;
    bool hit = false;
    for (const auto& edge : edges) {
        if constexpr (kDim<V> == 2) {
            if (edge.dist_sq < radius * radius) {
                hit = true;
                edge_penetration = std::fmax(edge_penetration, radius - std::sqrt(edge.dist_sq));
            }
        } else if (edge.distance < radius) {  // a surface: signed distance
            hit = true;
            edge_penetration = std::fmax(edge_penetration, radius - edge.distance);
        }
    }
    if (hit) {
        ++tally.obstacle_hits[scene];
        tally.max_obstacle_penetration[scene] = std::fmax(tally.max_obstacle_penetration[scene], edge_penetration);
    }
}

void Engine::observe_state() {
    with_vector_type([&](auto v) { const_cast<Engine*>(this)->observe_state_in<decltype(v)>(); });
}

template <class V>
void Engine::observe_state_in() {
    build_obstacles();
    build_neighbor_index<V>();
    const int threads = max_threads();
    prepare_workspaces(threads);
    metrics_largest_radius_ = largest_active_radius(state_);
    metrics_->begin_state(step_count_, threads);
    const std::int64_t total = agents_in_order();
    const std::int64_t chunks = (total + kChunkAgents - 1) / kChunkAgents;
    FirstError failure;
#pragma omp parallel for schedule(static, 4) num_threads(threads) if (total >= kParallelMinAgents)
    for (std::int64_t c = 0; c < chunks; ++c) {
        try {
            find_neighbors<V>(c * kChunkAgents, std::min(total, (c + 1) * kChunkAgents), workspaces_[thread_index()]);
        } catch (...) {
            failure.keep(c, std::current_exception());
        }
    }
    failure.rethrow();
    metrics_->end_state();
}

void Engine::remove_agents(const std::int64_t* ids, std::size_t count) {
    BusyGuard guard(busy_);
    state_.remove(ids, count);
    waypoints_.forget_removed(state_);
}

void Engine::set_waypoints(const std::int64_t* ids, std::size_t count, const std::int64_t* offsets,
                           const Vec2* points, const double* radius) {
    require_plane("waypoints");
    BusyGuard guard(busy_);
    replace_waypoints(ids, count, offsets, points, radius);
}

void Engine::replace_waypoints(const std::int64_t* ids, std::size_t count, const std::int64_t* offsets,
                               const Vec2* points, const double* radius) {
    // Check everything first: a refused call changes nothing.
    std::vector<std::pair<int, int>> where(count);
    for (std::size_t k = 0; k < count; ++k) {
        if (!state_.locate(ids[k], where[k].first, where[k].second)) {
            throw std::invalid_argument("ids[" + std::to_string(k) + "]: no agent with id " + std::to_string(ids[k]));
        }
        if (!within(radius[k], kNonNegativeRange)) {
            throw std::invalid_argument("radius[" + std::to_string(k) + "] is " + format_number(radius[k]) +
                                        "; it must be " + describe(kNonNegativeRange));
        }
        if (offsets[k + 1] < offsets[k]) throw std::invalid_argument("offsets must not decrease");
        for (std::int64_t p = offsets[k]; p < offsets[k + 1]; ++p) {
            if (!within(points[p].x, kCoordinateRange) || !within(points[p].y, kCoordinateRange)) {
                throw std::invalid_argument("waypoints[" + std::to_string(k) + "][" + std::to_string(p - offsets[k]) +
                                            "] is (" + format_number(points[p].x) + ", " + format_number(points[p].y) +
                                            "); it must be " + describe(kCoordinateRange));
            }
        }
    }
    for (std::size_t k = 0; k < count; ++k) {
        if (offsets[k + 1] == offsets[k]) {
            waypoints_.clear(ids[k]);
        } else {
            waypoints_.set(state_, ids[k], where[k].first, where[k].second,
                           std::vector<Vec2>(points + offsets[k], points + offsets[k + 1]), radius[k]);
        }
    }
}

std::vector<Vec2> Engine::final_goals() const {
    require_plane("final_goals");
    const AgentState& s = state_;
    std::vector<Vec2> out(static_cast<std::size_t>(s.scenes()) * s.count());
    for (int b = 0; b < s.scenes(); ++b) {
        for (int slot = 0; slot < s.count(); ++slot) out[b * s.count() + slot] = s.goal(s.index(b, slot));
    }
    for (const auto& [id, track] : waypoints_.tracks()) {
        int scene = 0, slot = 0;
        if (s.locate(id, scene, slot)) out[scene * s.count() + slot] = track.points.back();
    }
    return out;
}

std::vector<std::int32_t> Engine::waypoints_remaining() const {
    std::vector<std::int32_t> out;
    waypoints_.remaining(state_, out);
    return out;
}

void Engine::validate() const {
    check_state(state_);
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
#pragma omp parallel for schedule(static) num_threads(max_threads()) if (total >= kParallelMinValues)
    for (std::int64_t i = 0; i < total; ++i) {
        if (i % s.capacity() >= s.count() || !s.active[i] || !s.has_goal[i]) continue;
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
    }
}

template <class V>
void Engine::build_neighbor_index() {
    scene_starts_.clear();
    // Without agents there is nothing to index (and a batch of very many
    // empty scenes costs nothing).
    if (state_.count() == 0) return;
    const int scenes = state_.scenes();
    const int threads = max_threads();
    auto& grid = grids<V>();
    if (static_cast<int>(grid.size()) != scenes) grid.resize(scenes);
    FirstError failure;
    if (scenes == 1) {
        // One scene: its grid is built by the whole team.
        build_grid<V>(state_, 0, grid[0], threads);
    } else {
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads) \
    if (static_cast<std::int64_t>(scenes) * state_.count() >= kParallelMinAgents)
        for (int b = 0; b < scenes; ++b) {
            try {
                build_grid<V>(state_, b, grid[b]);
            } catch (...) {
                failure.keep(b, std::current_exception());
            }
        }
        failure.rethrow();
    }
    scene_starts_.resize(static_cast<std::size_t>(scenes) + 1);
    scene_starts_[0] = 0;
    cell_orders_.resize(scenes);
    for (int b = 0; b < scenes; ++b) {
        scene_starts_[b + 1] = scene_starts_[b] + grid[b].size();
        cell_orders_[b] = grid[b].slots_in_cell_order().data();
    }
}

void Engine::prepare_workspaces(int threads) {
    if (static_cast<int>(workspaces_.size()) < threads) workspaces_.resize(threads);
}

template <class V>
bool Engine::compute_new_velocities(Ticker* ticker, std::int64_t steps_done) {
    const int threads = max_threads();
    prepare_workspaces(threads);

    const Method& method = *method_;
    const std::int64_t total = agents_in_order();
    // Per-scene counters only when there are agents: a batch of very many
    // empty scenes costs nothing.
    if (total > 0 && static_cast<int>(fallbacks_.size()) != state_.scenes()) fallbacks_.resize(state_.scenes(), 0);
    // With a ticker, agents are processed in blocks of a few milliseconds'
    // work and the ticker is polled between blocks; the results do not depend
    // on the blocks (every agent's velocity depends on the frozen state only).
    // Blocks never shrink below the first size: on a machine busy with other
    // work a block's wall time is mostly waiting for a core, and ever smaller
    // blocks would then mean ever more waits at their ends.
    const std::int64_t smallest_block = kFirstBlockAgentsPerThread * threads;
    std::int64_t block = ticker ? kFirstBlockAgentsPerThread * threads : total;
    std::int64_t first_bad = total;
    FirstError failure;
    double query_seconds = 0.0, method_seconds = 0.0;
    if (metrics_) {
        // This step's neighbour search observes the state before it.
        metrics_largest_radius_ = largest_active_radius(state_);
        metrics_->begin_state(step_count_, threads);
    }
    for (std::int64_t start = 0, stop = 0; start < total; start = stop) {
        stop = std::min(total, start + block);
        const auto began = std::chrono::steady_clock::now();
        const std::int64_t chunks = (stop - start + kChunkAgents - 1) / kChunkAgents;
#pragma omp parallel num_threads(threads) if (stop - start >= kParallelMinAgents)
        {
            Workspace& ws = workspaces_[thread_index()];
            double query_time = 0.0, method_time = 0.0;
            std::int64_t bad = total;
#pragma omp for schedule(static, 4)
            for (std::int64_t c = 0; c < chunks; ++c) {
                const std::int64_t begin = start + c * kChunkAgents;
                const std::int64_t end = std::min(stop, begin + kChunkAgents);
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
                        const SceneView view{state_, scene, time_step_, step_count_};
                        V v = method_velocity<V>(method, view, slot, ws);
                        v = cap_speed(v, state_.max_speed[i]);
                        store(state_.new_velocities.data(), i, v);
                        if (!is_finite(v)) bad = std::min(bad, k);
                        if (ws.used_fallback) {
#pragma omp atomic
                            ++fallbacks_[scene];
                        }
                    }
                    const auto t2 = std::chrono::steady_clock::now();
                    query_time += std::chrono::duration<double>(t1 - t0).count();
                    method_time += std::chrono::duration<double>(t2 - t1).count();
                } catch (...) {
                    failure.keep(k, std::current_exception());
                }
            }
#pragma omp critical(vosim_phase_times)
            {
                first_bad = std::min(first_bad, bad);
                query_seconds += query_time;
                method_seconds += method_time;
            }
        }
        failure.rethrow();
        if (stop < total) {
            const double took =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
            const double scale =
                took > 0.0 ? std::fmin(4.0, std::fmax(0.25, kBlockSeconds / took)) : 4.0;
            block = std::max(smallest_block,
                             static_cast<std::int64_t>(static_cast<double>(block) * scale));
            if (!ticker->poll(steps_done)) return false;
        }
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
#pragma omp parallel for schedule(static) num_threads(max_threads()) if (total >= kParallelMinValues)
    for (std::int64_t i = 0; i < total; ++i) {
        if (i % s.capacity() >= s.count() || !s.active[i]) continue;
        const std::size_t at = static_cast<std::size_t>(i);
        V v = load<V>(s.new_velocities.data(), at);
        const V old_velocity = s.velocity<V>(at);
        if (s.max_acceleration[i] < std::numeric_limits<double>::infinity()) {
            // The old velocity may exceed max_speed (users write velocities):
            // the blend must not.
            v = cap_speed(limit_acceleration(old_velocity, v, s.max_acceleration[i], dt), s.max_speed[i]);
        }
        store(s.velocities.data(), at, v);
        store(s.positions.data(), at, s.position<V>(at) + v * dt);
        if (metrics_ || deadlock.rule != DeadlockRule::kNone) {
            const bool seeking = s.has_goal[i] != 0;
            const bool arrived = seeking && abs_sq(s.position<V>(at) - s.goal<V>(at)) <= sqr(s.arrival_radius[i]) &&
                                 !waypoints_.has_more(s, at);
            if (metrics_) {
                metrics_->observe_motion(at, old_velocity, v, s.position<V>(at), dt, step_count_ + 1, seeking,
                                         arrived);
            }
            if (deadlock.rule != DeadlockRule::kNone) {
                update_deadlock_state(deadlock, at, longer_than(v, deadlock.stall_fraction * s.pref_speed[i]),
                                      seeking && !arrived);
            }
        }
    }
    // Moving obstacles move with the agents, after the velocities were chosen
    // against their current place and velocity.
    shared_obstacles_.advance(dt);
    for (auto& set : scene_obstacles_) {
        if (set) set->advance(dt);
    }
    time_ += time_step_;
    ++step_count_;
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
    if (state_.active[i]) {
        method_->inspect(SceneView{state_, scene, time_step_, step_count_}, slot, ws, d);
        d.new_velocity = cap_speed(d.new_velocity, d.max_speed);  // as the step does
    } else {
        d.new_velocity = d.velocity;  // an inactive agent does not move
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
        method_->inspect_3d(SceneView{state_, scene, time_step_, step_count_}, slot, ws, d);
        d.new_velocity = cap_speed(d.new_velocity, d.max_speed);  // as the step does
    } else {
        d.new_velocity = d.velocity;  // an inactive agent does not move
    }
    return d;
}

std::vector<std::int32_t> Engine::neighbor_table(int& width) {
    BusyGuard guard(busy_);
    validate();
    const AgentState& s = state_;
    width = 1;
    for (int b = 0; b < s.scenes() && s.count() > 0; ++b) {
        for (int slot = 0; slot < s.count(); ++slot) {
            const std::size_t i = s.index(b, slot);
            if (s.active[i]) width = std::max(width, s.max_neighbors[i]);
        }
    }
    width = std::min(width, std::max(1, s.count() - 1));
    std::vector<std::int32_t> table(static_cast<std::size_t>(s.scenes()) * s.count() * width, -1);
    if (s.count() == 0) return table;
    const int columns = width;
    with_vector_type([&](auto v) {
        using V = decltype(v);
        GridOf<V> grid;
        std::vector<Neighbor> found(columns);
        for (int b = 0; b < s.scenes(); ++b) {
            build_grid<V>(s, b, grid);
            for (int slot = 0; slot < s.count(); ++slot) {
                const std::size_t i = s.index(b, slot);
                if (!s.active[i]) continue;
                // width >= every active agent's neighbour capacity.
                const int n = gather_neighbors<V>(grid, b, slot, found.data(), nullptr);
                const std::size_t row = (static_cast<std::size_t>(b) * s.count() + slot) * columns;
                for (int k = 0; k < n; ++k) table[row + k] = found[k].slot;
            }
        }
    });
    return table;
}

}  // namespace vosim
