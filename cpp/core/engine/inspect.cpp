// Engine::inspect and inspect_3d: what the method would see and decide for
// one agent at the next step, computed on demand without advancing.
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
    if (nonholonomic_) present_state(*method_, state_, presented_);
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
        method_->inspect(SceneView{seen, scene, time_step_, step_count_, step_data.get(), &waypoints_}, slot, ws, d);
        if (!method_->may_exceed_max_speed() && state_.kinematics[i] == 0) {  // as the step does
            d.new_velocity = cap_speed(d.new_velocity, d.max_speed);
        }
        if (!method_->models_acceleration(dimensions())) d.target_velocity = d.new_velocity;
        if (nonholonomic_ && state_.kinematics[i] != 0) {
            // What the robot will do: the method's velocity (of its
            // presentation) through integration, without touching the state.
            d.method_velocity = d.new_velocity;
            const Motion motion = realised_motion(state_, *method_, i, d.new_velocity,
                                                  !method_->models_acceleration(dimensions()), time_step_);
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
        method_->inspect_3d(SceneView{state_, scene, time_step_, step_count_, step_data.get(), &waypoints_}, slot, ws, d);
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
