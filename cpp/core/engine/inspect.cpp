// Engine::inspect, one path for both dimensions: what the method would see and decide for
// one agent at the next step, computed on demand without advancing.
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/engine.hpp"
#include "engine/goals_phase.hpp"
#include "engine/integrate_phase.hpp"
#include "kinematics/integration.hpp"  // cap_speed
#include "kinematics/kinematics.hpp"

namespace vosim {

namespace {

// The drive (its model and heading; for a non-holonomic agent what the
// method sees of it, its effective centre), as inspect() reports it.
void record_drive(const AgentState& s, const AgentState& seen, std::size_t i, bool drive, Record& out) {
    out.text("kinematics", kKinematicsNames[static_cast<int>(s.kinematics[i])]);
    out.real("heading", s.headings[i]);
    if (!drive) return;
    Record centre;
    centre.vector("position", seen.position(i));
    centre.vector("velocity", seen.velocity(i));
    centre.real("radius", seen.radius[i]);
    out.record("effective_center", std::move(centre));
}

// Obstacle edges facing the agent, nearest first: (k, 2, 2).
void record_edges(Span<ObstacleNeighbor> edges, Record& out) {
    std::vector<double> flat;
    for (const ObstacleNeighbor& edge : edges) {
        const auto [a, b] = edge.endpoints();
        flat.insert(flat.end(), {a.x, a.y, b.x, b.y});
    }
    out.reals("obstacle_edges", {static_cast<std::size_t>(edges.size()), 2, 2}, std::move(flat));
}

// Obstacle surfaces in reach (shared set first).
void record_contacts(Span<ObstacleContact3> contacts, Record& out) {
    std::vector<Vec3> points, normals;
    std::vector<double> distances, ids;
    for (const ObstacleContact3& c : contacts) {
        points.push_back(c.point);
        normals.push_back(c.normal);
        distances.push_back(c.distance);
        ids.push_back(c.obstacle);
    }
    Record record;
    record.vectors("point", points);
    record.vectors("normal", normals);
    record.column("distance", RecordEntry::Type::real, std::move(distances));
    record.column("obstacle", RecordEntry::Type::integer, std::move(ids));
    out.record("obstacle_contacts", std::move(record));
}

}  // namespace

template <class V>
std::size_t Engine::prepare_inspection(int scene, int slot, Workspace& ws) {
    if (scene < 0 || scene >= state_.scenes() || slot < 0 || slot >= state_.count()) {
        throw std::invalid_argument("no agent slot " + std::to_string(slot) + " in scene " + std::to_string(scene));
    }
    validate();
    build_obstacles();
    features_.advance_goals(state_, obstacles_.sight());  // as the next step will (idempotent)
    update_pref_velocities<V>(state_, goal_settings_.noise, goal_settings_.deadlock, step_count_,
                              StepClock{time_, time_step_});
    features_.steer(state_, StepClock{time_, time_step_});  // as the goals phase does
    GridOf<V> grid;
    build_grid<V>(state_, scene, grid);
    const std::size_t i = state_.index(scene, slot);
    ws.agent_buffer.resize(neighbor_capacity(i));
    auto& near = ws.obstacle_runs<V>().buffer;
    const int found = gather_neighbors<V>(grid, scene, slot, ws.agent_buffer.data(), &near);
    ws.agent_neighbors = {ws.agent_buffer.data(), found};
    ws.set_obstacles_near<V>(Span<ObstaclesNearOf<V>>{near.data(), static_cast<int>(near.size())});
    return i;
}

template <class V>
DiagnosticsOf<V> Engine::inspect(int scene, int slot) {
    if (dimensions() != kDim<V>) {
        throw std::invalid_argument("inspect: this simulator has dimensions=" + std::to_string(dimensions()) +
                                    ", not " + std::to_string(kDim<V>));
    }
    BusyGuard guard(busy_);
    Workspace ws;
    const std::size_t i = prepare_inspection<V>(scene, slot, ws);
    DiagnosticsOf<V> d;
    d.method = method_->name();
    d.position = state_.position<V>(i);
    d.velocity = state_.velocity<V>(i);
    d.pref_velocity = state_.pref_velocity<V>(i);
    d.radius = state_.radius[i];
    d.max_speed = state_.max_speed[i];
    for (const Neighbor& n : ws.agent_neighbors) d.agent_neighbors.push_back(n.slot);
    // Non-holonomic agents move in the plane only (validate() refuses them in
    // space), so in space the method sees the state itself.
    nonholonomic_ = has_nonholonomic(state_);
    if (nonholonomic_) present_state(*method_, state_, presented_);
    const AgentState& seen = seen_state();
    const bool drive = nonholonomic_ && state_.kinematics[i] != 0;
    if constexpr (kDim<V> == 2) {
        record_drive(state_, seen, i, drive, d.surroundings);
        record_edges(ws.obstacle_neighbors, d.surroundings);
    } else {
        record_contacts(ws.obstacle_contacts, d.surroundings);
    }
    if (!state_.active[i]) {
        d.new_velocity = d.target_velocity = d.velocity;  // an inactive agent does not move
        return d;
    }
    std::unique_ptr<StepData> step_data;
    method_->prepare_step(seen, step_data);
    method_->in<V>().inspect(
        SceneOf<V>{{seen, scene, time_step_, step_count_, step_data.get(), &features_, &features_.seam()}}, slot, ws, d);
    if (!method_->may_exceed_max_speed() && state_.kinematics[i] == 0) {  // as the step does
        d.new_velocity = cap_speed(d.new_velocity, d.max_speed);
    }
    if (!method_->models_acceleration(dimensions())) d.target_velocity = d.new_velocity;
    if constexpr (kDim<V> == 2) {
        if (drive) {
            // What the robot will do: the method's velocity (of its
            // presentation) through integration, without touching the state.
            d.surroundings.vector("method_velocity", d.new_velocity);
            const Motion motion = realised_motion(state_, *method_, i, d.new_velocity,
                                                  !method_->models_acceleration(dimensions()), time_step_);
            const double heading = wrap_angle(state_.headings[i] + motion.turn_rate * time_step_);
            d.new_velocity = motion.speed * Vec2(std::cos(heading), std::sin(heading));
            d.surroundings.real("new_angular_velocity", motion.turn_rate);
        }
    }
    return d;
}

template DiagnosticsOf<Vec2> Engine::inspect<Vec2>(int scene, int slot);
template DiagnosticsOf<Vec3> Engine::inspect<Vec3>(int scene, int slot);

}  // namespace vosim
