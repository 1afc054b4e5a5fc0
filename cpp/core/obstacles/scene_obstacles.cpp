#include "obstacles/scene_obstacles.hpp"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "limits.hpp"
#include "parallel/parallel.hpp"
#include "parallel/threads.hpp"

namespace vosim {

namespace {

[[noreturn]] void refuse(const std::string& what) { throw std::invalid_argument("saved state: " + what); }

void save_set(const ObstacleSet& set, int scene, std::vector<SavedObstacle>& out) {
    for (int o = 0; o < set.obstacle_count(); ++o) {
        SavedObstacle saved;
        saved.scene = scene;
        saved.kind = set.kind(o);
        saved.points = set.given_vertices(o);
        saved.removed = !set.live(o);
        saved.moving = set.moving(o);
        if (set.live(o) && set.moving(o)) {
            saved.velocity = set.velocity(o);
            saved.displacement = set.displacement(o);
        }
        out.push_back(std::move(saved));
    }
}

// Adds a saved obstacle to `set` as it was (k: its index in the snapshot).
void restore_obstacle(ObstacleSet& set, const SavedObstacle& o, std::size_t k) {
    const std::string name = "obstacle " + std::to_string(k);
    if (o.removed) {
        if (!o.points.empty()) refuse(name + " is removed but has vertices");
        set.add_removed(o.kind, o.moving);
        return;
    }
    if (!within(o.velocity.x, kCoordinateRange) || !within(o.velocity.y, kCoordinateRange) ||
        !std::isfinite(o.displacement.x) || !std::isfinite(o.displacement.y)) {
        refuse(name + " has a velocity or displacement out of range");
    }
    if (!o.moving && (o.velocity.x != 0.0 || o.velocity.y != 0.0 || o.displacement.x != 0.0 ||
                      o.displacement.y != 0.0)) {
        refuse(name + " is static but has a velocity or displacement");
    }
    // The displacement may exceed the range (an obstacle crossing the whole
    // working area); where it puts the vertices may not, as before every step
    // (ObstacleSet::check_moving), which saving also requires.
    for (const Vec2& p : o.points) {
        const Vec2 moved = p + o.displacement;
        if (!within(moved.x, kCoordinateRange) || !within(moved.y, kCoordinateRange)) {
            refuse(name + " has moved out of the working range: its vertices must be " + describe(kCoordinateRange));
        }
    }
    try {
        const int id = set.add(o.points.data(), static_cast<int>(o.points.size()), o.kind, o.moving, o.velocity);
        if (o.moving) set.set_displacement(id, o.displacement);
    } catch (const std::invalid_argument& error) {
        refuse(name + ": " + error.what());
    }
}

}  // namespace

void SceneObstacles::check_scene(int scene, const char* shared_name) const {
    if (scene < -1 || scene >= scenes_) {
        throw std::invalid_argument("scene must be -1 (" + std::string(shared_name) + ") or in [0, " +
                                    std::to_string(scenes_) + "), got " + std::to_string(scene));
    }
}

int SceneObstacles::add(int scene, const Vec2* points, int count, ObstacleKind kind, bool moving, Vec2 velocity) {
    check_scene(scene, "all scenes");
    if (scene < 0) return shared_.add(points, count, kind, moving, velocity);
    if (own_.empty()) own_.resize(static_cast<std::size_t>(scenes_));
    if (!own_[scene]) own_[scene] = std::make_unique<ObstacleSet>();
    return own_[scene]->add(points, count, kind, moving, velocity);
}

ObstacleSet& SceneObstacles::existing_set(int scene, int id) {
    check_scene(scene, "shared");
    if (scene < 0) return shared_;
    if (own_.empty() || !own_[scene]) {
        throw std::invalid_argument("obstacle is " + std::to_string(id) + "; scene " + std::to_string(scene) +
                                    " has no obstacles of its own");
    }
    return *own_[scene];
}

void SceneObstacles::remove(int scene, int id) { existing_set(scene, id).remove(id); }

void SceneObstacles::set_velocity(int scene, int id, Vec2 velocity) {
    existing_set(scene, id).set_velocity(id, velocity);
}

const ObstacleSet SceneObstacles::kNone;
const ObstacleSet3 SceneObstacles::kNone3;

std::vector<int> SceneObstacles::scenes_with_own() const {
    std::vector<int> scenes;
    for (std::size_t b = 0; b < own_.size(); ++b) {
        if (own_[b] && !own_[b]->empty()) scenes.push_back(static_cast<int>(b));
    }
    return scenes;
}

bool SceneObstacles::blocked(int scene, Vec2 p, bool with_moving) const {
    return blocked_by(shared_, set(scene), p, with_moving);
}

double SceneObstacles::clearance(int scene, Vec2 p) const {
    const double d = std::fmin(shared_.distance(p), set(scene).distance(p));
    return blocked(scene, p, true) ? -d : d;
}

void SceneObstacles::build() {
    shared_.build();
    if (own_.empty()) return;
    // Scene by scene on the engine's pool (parallel.hpp).
    parallel_for(scenes_, max_threads(), [&](std::int64_t b) {
        if (own_[b]) own_[b]->build();
    });
}

void SceneObstacles::advance(double time_step) {
    shared_.advance(time_step);
    for (auto& set : own_) {
        if (set) set->advance(time_step);
    }
}

void SceneObstacles::check_moving() const {
    shared_.check_moving(-1);
    for (std::size_t b = 0; b < own_.size(); ++b) {
        if (own_[b]) own_[b]->check_moving(static_cast<int>(b));
    }
}

ObstacleSet3& SceneObstacles::set3_for_change(int scene) {
    check_scene(scene, "all scenes");
    if (scene < 0) return shared3_;
    if (own3_.empty()) own3_.resize(static_cast<std::size_t>(scenes_));
    if (!own3_[scene]) own3_[scene] = std::make_unique<ObstacleSet3>();
    return *own3_[scene];
}

int SceneObstacles::penetrated3(int scene, Vec3 p, double radius, bool& shared) {
    if (!shared3_.built() || !set3(scene).built()) build3();
    const int id = shared3_.first_penetrating(p, radius);
    shared = id >= 0;
    return shared ? id : set3(scene).first_penetrating(p, radius);
}

void SceneObstacles::build3() {
    // Only sets changed since their last build.
    if (!shared3_.built()) shared3_.build();
    for (auto& set : own3_) {
        if (set && !set->built()) set->build();
    }
}

void SceneObstacles::save(std::vector<SavedObstacle>& out) const {
    save_set(shared_, -1, out);
    // Every scene's set, even one whose obstacles were all removed (its ids go on).
    for (std::size_t b = 0; b < own_.size(); ++b) {
        if (own_[b]) save_set(*own_[b], static_cast<int>(b), out);
    }
}

SceneObstacles SceneObstacles::restored_plane(const std::vector<SavedObstacle>& saved, int scenes) {
    SceneObstacles out(scenes);
    for (std::size_t k = 0; k < saved.size(); ++k) {
        const SavedObstacle& o = saved[k];
        if (o.scene < -1 || o.scene >= scenes) {
            refuse("obstacle " + std::to_string(k) + " belongs to scene " + std::to_string(o.scene));
        }
        if (static_cast<int>(o.kind) > static_cast<int>(ObstacleKind::boundary)) {
            refuse("obstacle " + std::to_string(k) + " has an unknown kind");
        }
        if (o.scene < 0) {
            restore_obstacle(out.shared_, o, k);
            continue;
        }
        if (out.own_.empty()) out.own_.resize(static_cast<std::size_t>(scenes));
        if (!out.own_[o.scene]) out.own_[o.scene] = std::make_unique<ObstacleSet>();
        restore_obstacle(*out.own_[o.scene], o, k);
    }
    return out;
}

void SceneObstacles::take_plane(SceneObstacles&& other) {
    shared_ = std::move(other.shared_);
    own_ = std::move(other.own_);
}

}  // namespace vosim
