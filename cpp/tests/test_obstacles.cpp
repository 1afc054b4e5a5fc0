// Obstacle sets (obstacles.hpp): checks, the solid part, and edge queries.
#include <doctest/doctest.h>

#include <random>
#include <stdexcept>
#include <vector>

#include "obstacles/obstacles.hpp"
#include "obstacles/polygon_crossing.hpp"

using namespace vosim;

namespace {
const std::vector<Vec2> kSquare{Vec2(0.0, 0.0), Vec2(2.0, 0.0), Vec2(2.0, 2.0), Vec2(0.0, 2.0)};  // counter-clockwise
}

TEST_CASE("clockwise polygons and repeated vertices are refused with the name") {
    const std::vector<Vec2> clockwise(kSquare.rbegin(), kSquare.rend());
    CHECK_THROWS_AS(check_obstacle(clockwise.data(), 4, ObstacleKind::polygon, "square"), std::invalid_argument);
    const std::vector<Vec2> repeated{Vec2(0.0, 0.0), Vec2(0.0, 0.0), Vec2(1.0, 1.0)};
    CHECK_THROWS_WITH_AS(check_obstacle(repeated.data(), 3, ObstacleKind::polygon, "tri"),
                         doctest::Contains("tri"), std::invalid_argument);
    CHECK_NOTHROW(check_obstacle(kSquare.data(), 4, ObstacleKind::polygon, "square"));
}

TEST_CASE("orientation is read the same far from the origin") {
    std::vector<Vec2> far;
    for (const Vec2& p : kSquare) far.push_back(p + Vec2(1e12, 1e12));
    CHECK_NOTHROW(check_obstacle(far.data(), 4, ObstacleKind::polygon, "square"));
    const std::vector<Vec2> clockwise(far.rbegin(), far.rend());
    CHECK_THROWS_AS(check_obstacle(clockwise.data(), 4, ObstacleKind::polygon, "square"), std::invalid_argument);
}

TEST_CASE("the sweep line finds a self-touching outline exactly when some pair of edges touches") {
    // Small polygons on a coarse integer grid: crossings, touching vertices,
    // vertices on edges, collinear overlaps and vertical edges everywhere.
    std::mt19937 random(1);
    int compared = 0, touching = 0;
    for (int trial = 0; trial < 60000; ++trial) {
        const int count = 3 + static_cast<int>(random() % 12), side = 2 + static_cast<int>(random() % 6);
        std::vector<Vec2> points;
        for (int k = 0; k < count; ++k) {
            points.emplace_back(static_cast<double>(random() % side), static_cast<double>(random() % side));
        }
        bool refused_earlier = false;  // zero-length edges and zero-width spikes are refused before this check
        for (int k = 0; k < count; ++k) {
            const Vec2 a = points[(k + count - 1) % count], b = points[k], c = points[(k + 1) % count];
            refused_earlier |= (b.x == c.x && b.y == c.y) || (det(b - a, c - b) == 0.0 && dot(b - a, c - b) < 0.0);
        }
        if (refused_earlier) continue;
        bool expected = false;
        for (int i = 0; i < count && !expected; ++i) {
            for (int j = i + 2; j < count && !expected; ++j) expected = polygon_edges_touch(points.data(), count, i, j);
        }
        ++compared;
        touching += expected;
        REQUIRE(polygon_touches_itself(points.data(), count) == expected);
    }
    CHECK(compared > 15000);
    CHECK(touching > 1000);
    CHECK(compared - touching > 1000);
}

TEST_CASE("a polygon blocks its inside, a boundary its outside") {
    CHECK(blocks_point(kSquare.data(), 4, ObstacleKind::polygon, Vec2(1.0, 1.0)));
    CHECK_FALSE(blocks_point(kSquare.data(), 4, ObstacleKind::polygon, Vec2(3.0, 1.0)));
    CHECK(blocks_point(kSquare.data(), 4, ObstacleKind::boundary, Vec2(3.0, 1.0)));
    CHECK_FALSE(blocks_point(kSquare.data(), 4, ObstacleKind::boundary, Vec2(1.0, 1.0)));
}

TEST_CASE("a query finds the edges facing the agent within range, nearest first") {
    ObstacleSet set;
    set.add(kSquare.data(), 4, ObstacleKind::polygon);
    set.build();
    std::vector<ObstacleNeighbor> out;
    set.query(Vec2(3.0, 1.0), 1.5 * 1.5, out);  // right of the square: only its right edge
    REQUIRE(out.size() == 1);
    const auto [a, b] = out[0].endpoints();
    CHECK(a.x == 2.0);
    CHECK(b.x == 2.0);
    CHECK(out[0].dist_sq == doctest::Approx(1.0));
    out.clear();
    set.query(Vec2(3.0, 3.0), 3.0 * 3.0, out);  // the corner: the right and top edges
    REQUIRE(out.size() == 2);
    CHECK(out[0].dist_sq <= out[1].dist_sq);
    out.clear();
    set.query(Vec2(10.0, 1.0), 1.0, out);  // out of range
    CHECK(out.empty());
}

TEST_CASE("removed obstacles are no longer found") {
    ObstacleSet set;
    const int id = set.add(kSquare.data(), 4, ObstacleKind::polygon);
    set.remove(id);
    set.build();
    std::vector<ObstacleNeighbor> out;
    set.query(Vec2(3.0, 1.0), 4.0, out);
    CHECK(out.empty());
    CHECK(set.empty());
    CHECK_THROWS_AS(set.remove(id), std::invalid_argument);
}
