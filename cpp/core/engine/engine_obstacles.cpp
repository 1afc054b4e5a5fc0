// The engine's obstacle world in the plane: the shared polygon set and one
// per scene (made on demand), their changes, builds and queries.
#include <cmath>
#include <stdexcept>
#include <string>

#include "engine/engine.hpp"
#include "parallel/parallel.hpp"
#include "parallel/threads.hpp"

namespace vosim {

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
    // Scene by scene on the engine's pool (parallel.hpp).
    parallel_for(scenes, max_threads(), [&](std::int64_t b) {
        if (scene_obstacles_[b]) scene_obstacles_[b]->build();
    });
}

void Engine::append_obstacle_neighbors(int scene, std::size_t i, std::vector<ObstacleNeighbor>& out) const {
    if (dimensions() != 2) return;  // obstacle edges are plane geometry
    if (shared_obstacles_.empty() && scene_obstacles_.empty()) return;  // (the usual open space, first)
    const ObstacleSet& own = obstacles(scene);
    if (shared_obstacles_.empty() && own.empty()) return;
    // RVO2's range: anything the agent could reach within the obstacle time
    // horizon (at least one step) at full speed, plus its radius. Shared obstacles come first
    // among equally distant edges. A non-holonomic agent's method sees its
    // effective centre, up to D ahead with a radius larger by D: 2 D more;
    // or (NH-ORCA) its own centre with a radius larger by tracking_error.
    const double centre = state_.kinematics[i] != 0
                              ? std::fmax(2.0 * state_.effective_center_distance[i], state_.tracking_error[i])
                              : 0.0;
    // A horizon shorter than the step would miss an edge the step reaches:
    // at least one step (as in 3D).
    const double horizon = std::fmax(state_.time_horizon_obst[i], time_step_);
    const double range = horizon * state_.max_speed[i] + state_.radius[i] + centre;
    const Vec2 p = state_.position(i);
    const std::size_t first = out.size();
    const bool both_sides = method_ && method_->sees_edges_from_both_sides();
    shared_obstacles_.query(p, range * range, out, first, both_sides);
    own.query(p, range * range, out, first, both_sides);
}

}  // namespace vosim
