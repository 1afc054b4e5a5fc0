// The integrate phase's obstacle guard (engine/obstacle_guard.hpp), on cases
// worked out by hand: agents of radius 0.25 against walls.
#include <doctest/doctest.h>

#include <vector>

#include "engine/obstacle_guard.hpp"

using namespace vosim;

namespace {

ObstacleSet walls(const std::vector<std::vector<Vec2>>& lines) {
    ObstacleSet set;
    for (const auto& line : lines) set.add(line.data(), static_cast<int>(line.size()), ObstacleKind::wall);
    set.build();
    return set;
}

Vec2 guarded(const ObstacleSet& set, Vec2 position, Vec2 desired) {
    static const ObstacleSet none;
    std::vector<ObstacleNeighbor> near;
    return keep_clear_of_obstacles(set, none, position, desired, 0.25, near);
}

}  // namespace

TEST_CASE("head-on into a wall the agent stops where its body touches it") {
    const ObstacleSet set = walls({{Vec2(0.0, -5.0), Vec2(0.0, 5.0)}});
    // From x = -0.5 the body touches the wall at x = -0.25: 0.25 of the 0.4 wanted.
    const Vec2 d = guarded(set, Vec2(-0.5, 0.0), Vec2(0.4, 0.0));
    CHECK(d.x == doctest::Approx(0.25));
    CHECK(d.y == doctest::Approx(0.0));
}

TEST_CASE("into a wall at 45 degrees the agent slides along it") {
    const ObstacleSet set = walls({{Vec2(0.0, -5.0), Vec2(0.0, 5.0)}});
    const Vec2 d = guarded(set, Vec2(-0.3, 0.0), Vec2(0.4, 0.4));
    CHECK(d.x == doctest::Approx(0.05));
    CHECK(d.y == doctest::Approx(0.4));
}

TEST_CASE("into a concave corner the agent stops touching both walls") {
    const ObstacleSet set = walls({{Vec2(-5.0, 0.0), Vec2(0.0, 0.0), Vec2(0.0, -5.0)}});
    const Vec2 d = guarded(set, Vec2(-0.5, -0.5), Vec2(0.5, 0.5));
    CHECK(d.x == doctest::Approx(0.25));
    CHECK(d.y == doctest::Approx(0.25));
}

TEST_CASE("an agent already overlapping a wall goes no deeper and may leave") {
    const ObstacleSet set = walls({{Vec2(0.0, -5.0), Vec2(0.0, 5.0)}});
    const Vec2 in = guarded(set, Vec2(-0.1, 0.0), Vec2(0.1, 0.2));
    CHECK(in.x == doctest::Approx(0.0));
    CHECK(in.y == doctest::Approx(0.2));
    const Vec2 out = guarded(set, Vec2(-0.1, 0.0), Vec2(-0.1, 0.0));
    CHECK(out.x == -0.1);
    CHECK(out.y == 0.0);
}

TEST_CASE("past a wall's end the agent rounds it, clear of the end point") {
    const ObstacleSet set = walls({{Vec2(0.0, 0.0), Vec2(0.0, 5.0)}});
    // Straight below the end (0, 0), moving right: the end's half-plane is
    // y <= -0.25, so the motion is free.
    const Vec2 free = guarded(set, Vec2(0.0, -0.3), Vec2(0.4, 0.0));
    CHECK(free.x == 0.4);
    CHECK(free.y == 0.0);
    // Diagonally before it: the half-plane is the tangent to the end's circle
    // of radius 0.25 at right angles to the way to the agent; the motion is
    // projected onto it (slides round, clear of the end).
    const Vec2 start(-0.3, -0.3);
    const Vec2 d = guarded(set, start, Vec2(0.4, 0.0));
    CHECK(d.x > 0.0);
    CHECK(length(start + d) >= 0.25 - 1e-12);
}

TEST_CASE("with no edge within reach the motion is returned as it was") {
    const ObstacleSet set = walls({{Vec2(0.0, -5.0), Vec2(0.0, 5.0)}});
    const Vec2 desired(0.1 / 3.0, 0.7 / 3.0);
    const Vec2 d = guarded(set, Vec2(-2.0, 0.0), desired);
    CHECK(d.x == desired.x);
    CHECK(d.y == desired.y);
}
