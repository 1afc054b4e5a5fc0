// The engine's 3D obstacle world: one set shared by every scene and one per
// scene (made on demand), built before each step and queried per agent.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "engine/engine.hpp"
#include "parallel/threads.hpp"

namespace vosim {

namespace {

void check_scene(int scene, int scenes) {
    if (scene < -1 || scene >= scenes) {
        throw std::invalid_argument("scene must be -1 (all scenes) or in [0, " + std::to_string(scenes) +
                                    "), got " + std::to_string(scene));
    }
}

}  // namespace

ObstacleSet3& Engine::obstacles3_for_change(int scene) {
    if (dimensions() != 3) {
        throw std::invalid_argument("3D obstacle shapes need a 3D simulator; this one has dimensions=" +
                                    std::to_string(dimensions()));
    }
    check_scene(scene, state_.scenes());
    if (busy()) {
        throw std::runtime_error("the simulator is busy: another call is running on it in another thread; "
                                 "change obstacles after it returns");
    }
    if (scene < 0) return shared_obstacles3_;
    if (scene_obstacles3_.empty()) scene_obstacles3_.resize(state_.scenes());
    if (!scene_obstacles3_[scene]) scene_obstacles3_[scene] = std::make_unique<ObstacleSet3>();
    return *scene_obstacles3_[scene];
}

const ObstacleSet3& Engine::obstacles3(int scene) const {
    check_scene(scene, state_.scenes());
    static const ObstacleSet3 none;
    if (scene < 0) return shared_obstacles3_;
    const ObstacleSet3* own = scene_obstacles3_.empty() ? nullptr : scene_obstacles3_[scene].get();
    return own ? *own : none;
}

int Engine::penetrated_obstacle3(int scene, Vec3 p, double radius, bool& shared) const {
    if (!shared_obstacles3_.built() || !obstacles3(scene).built()) {
        const_cast<Engine*>(this)->build_obstacles3();
    }
    const int id = shared_obstacles3_.first_penetrating(p, radius);
    shared = id >= 0;
    return shared ? id : obstacles3(scene).first_penetrating(p, radius);
}

void Engine::build_obstacles3() {
    // Only sets changed since their last build.
    if (!shared_obstacles3_.built()) shared_obstacles3_.build();
    for (auto& set : scene_obstacles3_) {
        if (set && !set->built()) set->build();
    }
}

void Engine::append_obstacle_neighbors(int scene, std::size_t i, std::vector<ObstacleContact3>& out) const {
    const ObstacleSet3& own = obstacles3(scene);
    if (shared_obstacles3_.empty() && own.empty()) return;
    // Anything the agent could reach within the obstacle time horizon at
    // full speed, and at least within one step (the planes hold for a step).
    const double horizon = std::max(state_.time_horizon_obst[i], time_step_);
    const double range = horizon * state_.max_speed[i] + state_.radius[i];
    const Vec3 p = state_.position<Vec3>(i);
    shared_obstacles3_.query(p, range, out);
    own.query(p, range, out);
}

}  // namespace vosim
