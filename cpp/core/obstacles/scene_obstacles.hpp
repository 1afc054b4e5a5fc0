// The obstacles of an engine's scenes, one unit: a set seen by every scene
// and one per scene (made on demand, so that a batch of many scenes without
// obstacles of their own costs nothing), in the plane (ObstacleSet) and in
// space (ObstacleSet3). It owns their changes and checks, their builds and
// motion, the queries the step makes, and their part of a saved state.
// Scenes are numbered -1 (the shared set) and 0 .. scenes - 1.
#pragma once

#include <memory>
#include <vector>

#include "maths/vec2.hpp"
#include "maths/vec3.hpp"
#include "obstacles/obstacles.hpp"
#include "obstacles/obstacles3d.hpp"
#include "obstacles/sight_obstacles.hpp"

namespace vosim {

// An obstacle as a saved state holds it. Every obstacle id ever given is
// saved, removed ones too, so that ids stay the same after a restore.
struct SavedObstacle {
    int scene = -1;  // -1: seen by every scene
    ObstacleKind kind = ObstacleKind::polygon;
    std::vector<Vec2> points;  // as given to add_obstacle (empty once removed)
    bool removed = false;
    bool moving = false;
    Vec2 velocity;      // moving: its velocity now
    Vec2 displacement;  // moving: how far it has moved since it was added
};

class SceneObstacles {
public:
    explicit SceneObstacles(int scenes) : scenes_(scenes) {}

    // The plane. add returns the id within the scene's set (scene -1: the shared set); changes take effect
    // at the next build. Bad scenes and ids are refused (std::invalid_argument naming them).
    int add(int scene, const Vec2* points, int count, ObstacleKind kind, bool moving, Vec2 velocity);
    void remove(int scene, int id);
    void set_velocity(int scene, int id, Vec2 velocity);
    const ObstacleSet& set(int scene) const {  // an empty set for a scene without its own (inline: per agent)
        if (scene < -1 || scene >= scenes_) check_scene(scene, "shared");
        if (scene < 0) return shared_;
        const ObstacleSet* own = own_.empty() ? nullptr : own_[static_cast<std::size_t>(scene)].get();
        return own ? *own : kNone;
    }
    std::vector<int> scenes_with_own() const;  // ascending
    bool blocked(int scene, Vec2 p, bool with_moving) const;  // p in the solid the scene sees
    double clearance(int scene, Vec2 p) const;                // the signed distance to it
    void build();                                             // every set, scene by scene in parallel
    void advance(double time_step);                           // the moving ones move
    // std::invalid_argument naming the first moving obstacle out of the working range.
    void check_moving() const;
    // What the goals phase may look past; the sets themselves (own: per scene, null or missing: none).
    SightObstacles sight() const { return {&shared_, &own_}; }
    const ObstacleSet& shared() const { return shared_; }
    const std::vector<std::unique_ptr<ObstacleSet>>& own() const { return own_; }
    // Whether no plane set was ever given an obstacle (the usual open space: the gathering's first check).
    bool open_plane() const { return shared_.empty() && own_.empty(); }
    // The edges within sqrt(range_sq) of p, the shared set's first among equally distant ones, appended to
    // `out` (nothing to do for a scene without any: checked first, cheaply).
    // (Inline: the gathering calls it for every agent.)
    void near_edges(int scene, Vec2 p, double range_sq, bool both_sides, std::vector<ObstacleNeighbor>& out) const {
        if (open_plane()) return;
        const ObstacleSet& own = set(scene);
        if (shared_.empty() && own.empty()) return;
        const std::size_t first = out.size();
        shared_.query(p, range_sq, out, first, both_sides);
        own.query(p, range_sq, out, first, both_sides);
    }

    // Space: a scene's set to change between steps, or to read; the first obstacle a ball penetrates (-1:
    // none; `shared`: whether of the shared set; sets changed since their last build are built first);
    // the surfaces within `range` of p.
    ObstacleSet3& set3_for_change(int scene);
    const ObstacleSet3& set3(int scene) const {
        if (scene < -1 || scene >= scenes_) check_scene(scene, "all scenes");
        if (scene < 0) return shared3_;
        const ObstacleSet3* own = own3_.empty() ? nullptr : own3_[static_cast<std::size_t>(scene)].get();
        return own ? *own : kNone3;
    }
    int penetrated3(int scene, Vec3 p, double radius, bool& shared);
    void build3();  // the sets changed since their last build
    void near_surfaces(int scene, Vec3 p, double range, std::vector<ObstacleContact3>& out) const {
        const ObstacleSet3& own = set3(scene);
        if (shared3_.empty() && own.empty()) return;
        shared3_.query(p, range, out);
        own.query(p, range, out);
    }

    // The plane's part of a saved state (space's shapes are re-added by the Python package), and its checked
    // inverse for `scenes` scenes (std::invalid_argument naming the obstacle by its index in `saved`).
    // restored_plane builds the plane's sets aside (nothing else); take_plane then replaces this object's
    // plane sets by them, leaving its 3D sets as they are.
    void save(std::vector<SavedObstacle>& out) const;
    static SceneObstacles restored_plane(const std::vector<SavedObstacle>& saved, int scenes);
    void take_plane(SceneObstacles&& other);

private:
    // std::invalid_argument unless scene is -1 or a scene ("-1 (<shared_name>)" in the message).
    void check_scene(int scene, const char* shared_name) const;
    ObstacleSet& existing_set(int scene, int id);  // the shared set, or a scene's own (refused if none)

    static const ObstacleSet kNone;
    static const ObstacleSet3 kNone3;

    int scenes_;
    ObstacleSet shared_;
    std::vector<std::unique_ptr<ObstacleSet>> own_;
    ObstacleSet3 shared3_;
    std::vector<std::unique_ptr<ObstacleSet3>> own3_;
};

}  // namespace vosim
