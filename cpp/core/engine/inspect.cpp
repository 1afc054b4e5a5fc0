// Engine::inspect, one path for both dimensions: what the method would see and decide for
// one agent at the next step, computed on demand without advancing.
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

#include "engine/engine.hpp"
#include "engine/goals_phase.hpp"
#include "engine/integrate_phase.hpp"
#include "kinematics/integration.hpp"  // cap_speed
#include "kinematics/kinematics.hpp"

namespace vosim {

template <class V>
std::size_t Engine::prepare_inspection(int scene, int slot, Workspace& ws) {
    if (scene < 0 || scene >= state_.scenes() || slot < 0 || slot >= state_.count()) {
        throw std::invalid_argument("no agent slot " + std::to_string(slot) + " in scene " + std::to_string(scene));
    }
    validate();
    build_obstacles();
    waypoints_.advance(state_);  // as the next step will (it is idempotent)
    update_pref_velocities<V>(state_, method_->preference_noise(), method_->deadlock_resolution(), step_count_,
                              StepClock{time_, time_step_});
    speed_zones_.apply(state_);  // as the goals phase does
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
DiagnosticsFor<V> Engine::inspect(int scene, int slot) {
    if (dimensions() != kDim<V>) {
        throw std::invalid_argument("inspect: this simulator has dimensions=" + std::to_string(dimensions()) +
                                    ", not " + std::to_string(kDim<V>));
    }
    BusyGuard guard(busy_);
    Workspace ws;
    const std::size_t i = prepare_inspection<V>(scene, slot, ws);
    DiagnosticsFor<V> d;
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
        for (const ObstacleNeighbor& edge : ws.obstacle_neighbors) {
            const auto [a, b] = edge.endpoints();
            d.obstacle_edges.push_back(a);
            d.obstacle_edges.push_back(b);
        }
        d.heading = state_.headings[i];
        d.kinematics = kKinematicsNames[static_cast<int>(state_.kinematics[i])];
        if (drive) {
            d.presented_position = seen.position(i);
            d.presented_velocity = seen.velocity(i);
            d.presented_radius = seen.radius[i];
        }
    } else {
        d.obstacle_contacts.assign(ws.obstacle_contacts.begin(), ws.obstacle_contacts.end());
    }
    if (!state_.active[i]) {
        d.new_velocity = d.target_velocity = d.velocity;  // an inactive agent does not move
        return d;
    }
    std::unique_ptr<StepData> step_data;
    method_->prepare_step(seen, step_data);
    method_inspect<V>(*method_, SceneView{seen, scene, time_step_, step_count_, step_data.get(), &waypoints_, &periodic_}, slot,
                      ws, d);
    if (!method_->may_exceed_max_speed() && state_.kinematics[i] == 0) {  // as the step does
        d.new_velocity = cap_speed(d.new_velocity, d.max_speed);
    }
    if (!method_->models_acceleration(dimensions())) d.target_velocity = d.new_velocity;
    if constexpr (kDim<V> == 2) {
        if (drive) {
            // What the robot will do: the method's velocity (of its
            // presentation) through integration, without touching the state.
            d.method_velocity = d.new_velocity;
            const Motion motion = realised_motion(state_, *method_, i, d.new_velocity,
                                                  !method_->models_acceleration(dimensions()), time_step_);
            const double heading = wrap_angle(state_.headings[i] + motion.turn_rate * time_step_);
            d.new_velocity = motion.speed * Vec2(std::cos(heading), std::sin(heading));
            d.new_turn_rate = motion.turn_rate;
        }
    }
    return d;
}

template Diagnostics Engine::inspect<Vec2>(int scene, int slot);
template Diagnostics3 Engine::inspect<Vec3>(int scene, int slot);

}  // namespace vosim
