// The engine's side of its obstacles (obstacles/scene_obstacles.hpp, which
// owns them): the engine's checks (the dimension, busy) before a change, and
// each agent's reach in the neighbour gathering.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "engine/engine.hpp"

namespace vosim {

int Engine::add_obstacle(int scene, const Vec2* points, int count, ObstacleKind kind, bool moving, Vec2 velocity) {
    require_plane("add_obstacle");
    if (scene < -1 || scene >= state_.scenes()) {
        throw std::invalid_argument("scene must be -1 (all scenes) or in [0, " +
                                    std::to_string(state_.scenes()) + "), got " + std::to_string(scene));
    }
    BusyGuard guard(busy_);
    return obstacles_.add(scene, points, count, kind, moving, velocity);
}

void Engine::remove_obstacle(int scene, int id) {
    obstacles_.set(scene);  // the scene checked before the busy check
    BusyGuard guard(busy_);
    obstacles_.remove(scene, id);
}

void Engine::set_obstacle_velocity(int scene, int id, Vec2 velocity) {
    obstacles_.set(scene);
    BusyGuard guard(busy_);
    obstacles_.set_velocity(scene, id, velocity);
}

const ObstacleSet& Engine::obstacles(int scene) const { return obstacles_.set(scene); }

std::vector<int> Engine::scenes_with_obstacles() const { return obstacles_.scenes_with_own(); }

bool Engine::blocked(int scene, Vec2 p, bool with_moving) const { return obstacles_.blocked(scene, p, with_moving); }

double Engine::obstacle_clearance(int scene, Vec2 p) const { return obstacles_.clearance(scene, p); }

void Engine::build_obstacles() {
    if (dimensions() == 3) {
        obstacles_.build3();
    } else {
        obstacles_.build();
    }
}

void Engine::append_obstacle_neighbors(int scene, std::size_t i, std::vector<ObstacleNeighbor>& out) const {
    if (dimensions() != 2 || obstacles_.open_plane()) return;  // obstacle edges are plane geometry
    // RVO2's range: anything the agent could reach within the obstacle time
    // horizon (at least one step) at full speed, plus its radius. A
    // non-holonomic agent's method sees its effective centre, up to D ahead
    // with a radius larger by D: 2 D more; or (NH-ORCA) its own centre with
    // a radius larger by tracking_error.
    const double centre = state_.kinematics[i] != 0
                              ? std::fmax(2.0 * state_.effective_center_distance[i], state_.tracking_error[i])
                              : 0.0;
    // A horizon shorter than the step would miss an edge the step reaches:
    // at least one step (as in 3D).
    const double horizon = std::fmax(state_.time_horizon_obst[i], time_step_);
    const double range = horizon * state_.max_speed[i] + state_.radius[i] + centre;
    const bool both_sides = method_ && method_->sees_edges_from_both_sides();
    obstacles_.near_edges(scene, state_.position(i), range * range, both_sides, out);
}

ObstacleSet3& Engine::obstacles3_for_change(int scene) {
    if (dimensions() != 3) {
        throw std::invalid_argument("3D obstacle shapes need a 3D simulator; this one has dimensions=" +
                                    std::to_string(dimensions()));
    }
    obstacles_.set3(scene);  // the scene checked before the busy check
    if (busy()) {
        throw std::runtime_error("the simulator is busy: another call is running on it in another thread; "
                                 "change obstacles after it returns");
    }
    return obstacles_.set3_for_change(scene);
}

const ObstacleSet3& Engine::obstacles3(int scene) const { return obstacles_.set3(scene); }

int Engine::penetrated_obstacle3(int scene, Vec3 p, double radius, bool& shared) const {
    return const_cast<SceneObstacles&>(obstacles_).penetrated3(scene, p, radius, shared);  // builds if changed
}

void Engine::append_obstacle_neighbors(int scene, std::size_t i, std::vector<ObstacleContact3>& out) const {
    // Anything the agent could reach within the obstacle time horizon at
    // full speed, and at least within one step (the planes hold for a step).
    const double horizon = std::max(state_.time_horizon_obst[i], time_step_);
    const double range = horizon * state_.max_speed[i] + state_.radius[i];
    obstacles_.near_surfaces(scene, state_.position<Vec3>(i), range, out);
}

}  // namespace vosim
