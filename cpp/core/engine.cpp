#include "engine.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "orca.hpp"
#include "counter_rng.hpp"
#include "integration.hpp"
#include "state_check.hpp"
#include "threads.hpp"

namespace vosim {

namespace {

constexpr double kTwoPi = 6.283185307179586;

// Indexes the active agents of a scene, with cells as wide as the largest
// neighbour distance so that most queries look at a 3 x 3 block.
void build_grid(const AgentState& s, int scene, NeighborGrid& grid) {
    double widest = 0.0;
    for (int slot = 0; slot < s.count(); ++slot) {
        const std::size_t i = s.index(scene, slot);
        if (s.active[i]) widest = std::fmax(widest, s.neighbor_dist[i]);
    }
    const std::size_t first = s.index(scene, 0);
    grid.build(s.positions.data() + 2 * first, s.active.data() + first, s.count(), widest);
}

}  // namespace

Engine::BusyGuard::BusyGuard(std::atomic<bool>& flag) : flag_(flag) {
    if (flag_.exchange(true)) {
        throw std::runtime_error(
            "the simulator is busy: another call (step, run, add or remove agents) is running on it "
            "in another thread; use one simulator per thread or wait for that call to return");
    }
}

Engine::BusyGuard::~BusyGuard() { flag_.store(false); }

Engine::Engine(int scenes, double time_step)
    : state_(scenes),
      time_step_(0.0),
      method_(std::make_shared<Orca>()),
      grids_(scenes),
      scene_obstacles_(scenes) {
    set_time_step(time_step);
}

void Engine::set_time_step(double time_step) {
    if (!(std::isfinite(time_step) && time_step > 0.0)) {
        throw std::invalid_argument("time_step must be finite and > 0, got " +
                                    format_number(time_step));
    }
    BusyGuard guard(busy_);
    time_step_ = time_step;
}

void Engine::set_method(std::shared_ptr<const Method> method) {
    if (!method) throw std::invalid_argument("method must not be None");
    BusyGuard guard(busy_);
    method_ = std::move(method);
}

std::vector<std::int64_t> Engine::add_agents(int n, const AgentInput& input) {
    BusyGuard guard(busy_);
    return state_.append(n, input);
}

int Engine::add_obstacle(int scene, const Vec2* points, int count, ObstacleKind kind) {
    if (scene < -1 || scene >= state_.scenes()) {
        throw std::invalid_argument("scene must be -1 (all scenes) or in [0, " +
                                    std::to_string(state_.scenes()) + "), got " + std::to_string(scene));
    }
    BusyGuard guard(busy_);
    return (scene < 0 ? shared_obstacles_ : scene_obstacles_[scene]).add(points, count, kind);
}

const ObstacleSet& Engine::obstacles(int scene) const {
    if (scene < -1 || scene >= state_.scenes()) {
        throw std::invalid_argument("scene must be -1 (shared) or in [0, " + std::to_string(state_.scenes()) +
                                    "), got " + std::to_string(scene));
    }
    return scene < 0 ? shared_obstacles_ : scene_obstacles_[scene];
}

bool Engine::blocked(int scene, Vec2 p) const { return blocked_by(shared_obstacles_, obstacles(scene), p); }

double Engine::obstacle_clearance(int scene, Vec2 p) const {
    const double d = std::fmin(shared_obstacles_.distance(p), obstacles(scene).distance(p));
    return blocked(scene, p) ? -d : d;
}

void Engine::build_obstacles() {
    shared_obstacles_.build();
    const int scenes = state_.scenes();
#pragma omp parallel for schedule(dynamic, 1) num_threads(max_threads()) if (scenes > 1)
    for (int b = 0; b < scenes; ++b) scene_obstacles_[b].build();
}

void Engine::find_obstacle_neighbors(int scene, std::size_t i, Workspace& ws) const {
    ws.obstacle_neighbors.clear();
    const ObstacleSet& own = scene_obstacles_[scene];
    if (shared_obstacles_.empty() && own.empty()) return;
    // RVO2's range: anything the agent could reach within the obstacle time
    // horizon at full speed, plus its radius. Shared obstacles come first
    // among equally distant edges.
    const double range = state_.time_horizon_obst[i] * state_.max_speed[i] + state_.radius[i];
    const Vec2 p = state_.position(i);
    shared_obstacles_.query(p, range * range, ws.obstacle_neighbors);
    own.query(p, range * range, ws.obstacle_neighbors);
}

void Engine::remove_agents(const std::int64_t* ids, std::size_t count) {
    BusyGuard guard(busy_);
    state_.remove(ids, count);
}

void Engine::validate() const { check_state(state_); }

void Engine::update_pref_velocities() {
    AgentState& s = state_;
    const std::int64_t total = static_cast<std::int64_t>(s.scenes()) * s.capacity();
    const PreferenceNoise noise = method_->preference_noise();
    const std::uint64_t step = static_cast<std::uint64_t>(step_count_);
#pragma omp parallel for schedule(static) num_threads(max_threads())
    for (std::int64_t i = 0; i < total; ++i) {
        if (i % s.capacity() >= s.count() || !s.active[i] || !s.has_goal[i]) continue;
        // RVO2 examples' rule: head for the goal, at pref_speed at most.
        Vec2 to_goal = s.goal(i) - s.position(i);
        const double dist_sq = abs_sq(to_goal);
        if (dist_sq > sqr(s.pref_speed[i])) {
            to_goal = to_goal * (s.pref_speed[i] / std::sqrt(dist_sq));
        }
        if (noise.magnitude > 0.0) {
            // Drawn from (seed, agent id, step): independent of threads and slots.
            CounterRng rng(mix_seed(mix_seed(noise.seed, static_cast<std::uint64_t>(s.ids[i])), step));
            const double angle = kTwoPi * rng.next_unit();
            const double length = noise.magnitude * rng.next_unit();
            to_goal += Vec2(std::cos(angle), std::sin(angle)) * length;
        }
        s.pref_velocities[2 * i] = to_goal.x;
        s.pref_velocities[2 * i + 1] = to_goal.y;
    }
}

void Engine::build_neighbor_index() {
    const int scenes = state_.scenes();
#pragma omp parallel for schedule(dynamic, 1) num_threads(max_threads()) if (scenes > 1)
    for (int b = 0; b < scenes; ++b) build_grid(state_, b, grids_[b]);

    order_.clear();
    for (int b = 0; b < scenes; ++b) {
        for (std::int32_t slot : grids_[b].slots_in_cell_order()) order_.emplace_back(b, slot);
    }
}

void Engine::prepare_workspaces(int threads) {
    int widest = 0;
    for (const auto& entry : order_) {
        widest = std::max(widest, state_.max_neighbors[state_.index(entry.first, entry.second)]);
    }
    // Never more neighbours than agents in a scene.
    widest = std::min(widest, std::max(0, state_.count() - 1));
    if (static_cast<int>(workspaces_.size()) < threads) workspaces_.resize(threads);
    for (Workspace& ws : workspaces_) {
        if (static_cast<int>(ws.agent_neighbors.size()) < widest) ws.agent_neighbors.resize(widest);
    }
}

void Engine::compute_new_velocities() {
    const int threads = max_threads();
    prepare_workspaces(threads);
    const Method& method = *method_;
    const std::int64_t total = static_cast<std::int64_t>(order_.size());
    std::int64_t first_bad = total;
#pragma omp parallel for schedule(static, 256) num_threads(threads) reduction(min : first_bad)
    for (std::int64_t k = 0; k < total; ++k) {
        const int scene = order_[k].first;
        const int slot = order_[k].second;
        Workspace& ws = workspaces_[thread_index()];
        const std::size_t i = state_.index(scene, slot);
        const int wanted = std::min(state_.max_neighbors[i],
                                    static_cast<int>(ws.agent_neighbors.size()));
        ws.agent_neighbor_count = grids_[scene].nearest(
            state_.position(i), state_.neighbor_dist[i], wanted, slot, ws.agent_neighbors.data());
        find_obstacle_neighbors(scene, i, ws);
        const SceneView view{state_, scene, time_step_, step_count_};
        const Vec2 v = method.new_velocity(view, slot, ws);
        state_.new_velocities[2 * i] = v.x;
        state_.new_velocities[2 * i + 1] = v.y;
        if (!is_finite(v)) first_bad = std::min(first_bad, k);
    }
    if (first_bad < total) {
        const std::size_t i = state_.index(order_[first_bad].first, order_[first_bad].second);
        throw std::runtime_error(
            "internal error: " + method.name() + " produced a non-finite velocity for " +
            describe_agent(state_, order_[first_bad].first, order_[first_bad].second) +
            "; the state was not advanced. Please report this with the inputs that caused it (id " +
            std::to_string(state_.ids[i]) + ").");
    }
}

void Engine::integrate() {
    AgentState& s = state_;
    const std::int64_t total = static_cast<std::int64_t>(s.scenes()) * s.capacity();
    const double dt = time_step_;
#pragma omp parallel for schedule(static) num_threads(max_threads())
    for (std::int64_t i = 0; i < total; ++i) {
        if (i % s.capacity() >= s.count() || !s.active[i]) continue;
        Vec2 v(s.new_velocities[2 * i], s.new_velocities[2 * i + 1]);
        if (s.max_acceleration[i] < std::numeric_limits<double>::infinity()) {
            v = limit_acceleration(s.velocity(i), v, s.max_acceleration[i], dt);
        }
        s.velocities[2 * i] = v.x;
        s.velocities[2 * i + 1] = v.y;
        s.positions[2 * i] += v.x * dt;
        s.positions[2 * i + 1] += v.y * dt;
    }
    time_ += time_step_;
    ++step_count_;
}

void Engine::advance() {
    build_obstacles();
    update_pref_velocities();
    build_neighbor_index();
    compute_new_velocities();
    integrate();
}

void Engine::step() {
    BusyGuard guard(busy_);
    validate();
    advance();
}

bool Engine::all_arrived() const {
    const AgentState& s = state_;
    for (int b = 0; b < s.scenes(); ++b) {
        for (int slot = 0; slot < s.count(); ++slot) {
            const std::size_t i = s.index(b, slot);
            if (!s.active[i] || !s.has_goal[i]) continue;
            if (abs_sq(s.position(i) - s.goal(i)) > sqr(s.arrival_radius[i])) return false;
        }
    }
    return true;
}

Diagnostics Engine::inspect(int scene, int slot) {
    if (scene < 0 || scene >= state_.scenes() || slot < 0 || slot >= state_.count()) {
        throw std::invalid_argument("no agent slot " + std::to_string(slot) + " in scene " + std::to_string(scene));
    }
    BusyGuard guard(busy_);
    validate();
    build_obstacles();
    update_pref_velocities();
    NeighborGrid grid;
    build_grid(state_, scene, grid);
    const std::size_t i = state_.index(scene, slot);
    Workspace ws;
    ws.agent_neighbors.resize(std::max(0, std::min(state_.max_neighbors[i], state_.count() - 1)));
    ws.agent_neighbor_count = grid.nearest(state_.position(i), state_.neighbor_dist[i],
                                           static_cast<int>(ws.agent_neighbors.size()), slot,
                                           ws.agent_neighbors.data());
    find_obstacle_neighbors(scene, i, ws);

    Diagnostics d;
    d.method = method_->name();
    d.position = state_.position(i);
    d.velocity = state_.velocity(i);
    d.pref_velocity = state_.pref_velocity(i);
    d.radius = state_.radius[i];
    d.max_speed = state_.max_speed[i];
    for (int k = 0; k < ws.agent_neighbor_count; ++k) d.agent_neighbors.push_back(ws.agent_neighbors[k].slot);
    for (const ObstacleNeighbor& edge : ws.obstacle_neighbors) {
        d.obstacle_edges.push_back(edge.set->point(edge.vertex));
        d.obstacle_edges.push_back(edge.set->point(edge.set->next(edge.vertex)));
    }
    if (state_.active[i]) {
        method_->inspect(SceneView{state_, scene, time_step_, step_count_}, slot, ws, d);
    } else {
        d.new_velocity = d.velocity;  // an inactive agent does not move
    }
    return d;
}

std::vector<std::int32_t> Engine::neighbor_table(int scene, int& width) {
    if (scene < 0 || scene >= state_.scenes()) {
        throw std::invalid_argument("scene must be in [0, " + std::to_string(state_.scenes()) +
                                    "), got " + std::to_string(scene));
    }
    BusyGuard guard(busy_);
    validate();
    NeighborGrid grid;
    build_grid(state_, scene, grid);
    width = 1;
    for (int slot = 0; slot < state_.count(); ++slot) {
        width = std::max(width, state_.max_neighbors[state_.index(scene, slot)]);
    }
    width = std::min(width, std::max(1, state_.count() - 1));
    std::vector<std::int32_t> table(static_cast<std::size_t>(state_.count()) * width, -1);
    std::vector<Neighbor> found(width);
    for (int slot = 0; slot < state_.count(); ++slot) {
        const std::size_t i = state_.index(scene, slot);
        if (!state_.active[i]) continue;
        const int n = grid.nearest(state_.position(i), state_.neighbor_dist[i],
                                   std::min(state_.max_neighbors[i], width), slot, found.data());
        for (int k = 0; k < n; ++k) table[static_cast<std::size_t>(slot) * width + k] = found[k].slot;
    }
    return table;
}

}  // namespace vosim
