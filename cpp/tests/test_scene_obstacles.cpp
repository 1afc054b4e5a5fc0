// The scenes' obstacles as one unit (obstacles/scene_obstacles.hpp): the
// shared set and each scene's own, made on demand; scenes checked by name;
// a saved plane comes back with the same ids, removed ones included, and
// restoring it leaves the 3D sets alone.
#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "obstacles/scene_obstacles.hpp"

using namespace vosim;

namespace {

const std::vector<Vec2> kSquare{Vec2(1, 1), Vec2(2, 1), Vec2(2, 2), Vec2(1, 2)};

int add_square(SceneObstacles& obstacles, int scene, Vec2 shift = Vec2()) {
    std::vector<Vec2> points = kSquare;
    for (Vec2& p : points) p = p + shift;
    return obstacles.add(scene, points.data(), static_cast<int>(points.size()), ObstacleKind::polygon, false, Vec2());
}

}  // namespace

TEST_CASE("scene obstacles: the shared set and each scene's own, made on demand, scenes checked") {
    SceneObstacles obstacles(3);
    CHECK(obstacles.open_plane());
    CHECK(add_square(obstacles, -1) == 0);
    CHECK(add_square(obstacles, 2, Vec2(5, 0)) == 0);
    CHECK(add_square(obstacles, 2, Vec2(10, 0)) == 1);
    CHECK_FALSE(obstacles.open_plane());
    CHECK(obstacles.scenes_with_own() == std::vector<int>{2});
    CHECK(obstacles.set(1).empty());  // a scene without its own sees only the shared set
    obstacles.build();
    CHECK(obstacles.blocked(1, Vec2(1.5, 1.5), true));        // the shared square
    CHECK_FALSE(obstacles.blocked(1, Vec2(6.5, 1.5), true));  // scene 2's own
    CHECK(obstacles.blocked(2, Vec2(6.5, 1.5), true));
    CHECK(obstacles.clearance(0, Vec2(3.0, 1.5)) == doctest::Approx(1.0));
    CHECK(obstacles.clearance(0, Vec2(1.5, 1.5)) == doctest::Approx(-0.5));
    CHECK_THROWS_WITH_AS(add_square(obstacles, 3), "scene must be -1 (all scenes) or in [0, 3), got 3",
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(obstacles.set(-2), "scene must be -1 (shared) or in [0, 3), got -2", std::invalid_argument);
    CHECK_THROWS_WITH_AS(obstacles.remove(1, 0), "obstacle is 0; scene 1 has no obstacles of its own",
                         std::invalid_argument);
}

TEST_CASE("scene obstacles: the gathering's query lists the shared set's edges before a scene's own") {
    SceneObstacles obstacles(2);
    add_square(obstacles, -1);
    add_square(obstacles, 1, Vec2(3, 0));
    obstacles.build();
    std::vector<ObstacleNeighbor> near;
    obstacles.near_edges(0, Vec2(3.0, 1.5), 100.0, false, near);
    const std::size_t shared_only = near.size();
    CHECK(shared_only > 0);
    near.clear();
    obstacles.near_edges(1, Vec2(3.0, 1.5), 100.0, false, near);
    CHECK(near.size() > shared_only);
    std::vector<ObstacleNeighbor> none;
    SceneObstacles open(2);
    open.near_edges(0, Vec2(), 100.0, false, none);
    CHECK(none.empty());
}

TEST_CASE("scene obstacles: a saved plane comes back with its ids; restoring it keeps the 3D sets") {
    SceneObstacles obstacles(2);
    add_square(obstacles, -1);
    add_square(obstacles, 0, Vec2(5, 0));
    add_square(obstacles, 0, Vec2(10, 0));
    obstacles.remove(0, 0);  // ids go on after a removal
    std::vector<SavedObstacle> saved;
    obstacles.save(saved);
    REQUIRE(saved.size() == 3);
    CHECK(saved[1].removed);

    SceneObstacles target(2);
    target.set3_for_change(1).add(make_sphere(Vec3(0, 0, 0), 1.0));
    target.take_plane(SceneObstacles::restored_plane(saved, 2));
    CHECK(target.set(0).obstacle_count() == 2);
    CHECK_FALSE(target.set(0).live(0));
    CHECK(add_square(target, 0, Vec2(20, 0)) == 2);
    CHECK_FALSE(target.set3(1).empty());

    std::vector<SavedObstacle> crafted = saved;
    crafted[2].scene = 5;
    CHECK_THROWS_WITH_AS(SceneObstacles::restored_plane(crafted, 2), "saved state: obstacle 2 belongs to scene 5",
                         std::invalid_argument);
    crafted = saved;
    crafted[1].points = kSquare;
    CHECK_THROWS_WITH_AS(SceneObstacles::restored_plane(crafted, 2),
                         "saved state: obstacle 1 is removed but has vertices", std::invalid_argument);
}
