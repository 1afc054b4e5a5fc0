// 3D obstacle shapes (obstacles3d.hpp): closest points from outside, on
// edges and corners, inside and far away; checks; the set's query and cull.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "obstacles/obstacles3d.hpp"

using namespace vosim;

namespace {

constexpr std::array<double, 9> kIdentity{1, 0, 0, 0, 1, 0, 0, 0, 1};

void check_vec(Vec3 got, Vec3 want) {
    CHECK(got.x == doctest::Approx(want.x));
    CHECK(got.y == doctest::Approx(want.y));
    CHECK(got.z == doctest::Approx(want.z));
}

// The unit cube [0, 1]^3 as six half-spaces.
Shape3 unit_cube_polyhedron() {
    return make_polyhedron({Vec3(1, 0, 0), Vec3(-1, 0, 0), Vec3(0, 1, 0), Vec3(0, -1, 0), Vec3(0, 0, 1), Vec3(0, 0, -1)},
                           {1, 0, 1, 0, 1, 0});
}

}  // namespace

TEST_CASE("half-space: signed distance along the normal, solid behind it") {
    const Shape3 ground = make_half_space(Vec3(0, 0, 0), Vec3(0, 0, 2));  // the normal is normalised
    ObstacleContact3 c = closest_on_shape(ground, Vec3(3, 4, 5));
    CHECK(c.distance == doctest::Approx(5.0));
    check_vec(c.point, Vec3(3, 4, 0));
    check_vec(c.normal, Vec3(0, 0, 1));
    c = closest_on_shape(ground, Vec3(1, 1, -0.5));
    CHECK(c.distance == doctest::Approx(-0.5));
    check_vec(c.point, Vec3(1, 1, 0));
}

TEST_CASE("sphere: outside, inside and at the centre") {
    const Shape3 s = make_sphere(Vec3(1, 2, 3), 2.0);
    ObstacleContact3 c = closest_on_shape(s, Vec3(1, 2, 8));
    CHECK(c.distance == doctest::Approx(3.0));
    check_vec(c.point, Vec3(1, 2, 5));
    check_vec(c.normal, Vec3(0, 0, 1));
    c = closest_on_shape(s, Vec3(2, 2, 3));
    CHECK(c.distance == doctest::Approx(-1.0));
    check_vec(c.point, Vec3(3, 2, 3));
    check_vec(c.normal, Vec3(1, 0, 0));
    c = closest_on_shape(s, Vec3(1, 2, 3));
    CHECK(c.distance == doctest::Approx(-2.0));
    CHECK(std::abs(length(c.normal) - 1.0) < 1e-12);
}

TEST_CASE("axis-aligned box: faces, edges, corners, inside") {
    const Shape3 box = make_box(Vec3(0, 0, 0), Vec3(1, 2, 3), kIdentity);
    SUBCASE("facing a face") {
        const ObstacleContact3 c = closest_on_shape(box, Vec3(4, 0.5, -1));
        CHECK(c.distance == doctest::Approx(3.0));
        check_vec(c.point, Vec3(1, 0.5, -1));
        check_vec(c.normal, Vec3(1, 0, 0));
    }
    SUBCASE("facing an edge") {
        const ObstacleContact3 c = closest_on_shape(box, Vec3(2, 3, 0));
        CHECK(c.distance == doctest::Approx(std::sqrt(2.0)));
        check_vec(c.point, Vec3(1, 2, 0));
        check_vec(c.normal, Vec3(1, 1, 0) / std::sqrt(2.0));
    }
    SUBCASE("facing a corner") {
        const ObstacleContact3 c = closest_on_shape(box, Vec3(-2, -3, 4));
        CHECK(c.distance == doctest::Approx(std::sqrt(3.0)));
        check_vec(c.point, Vec3(-1, -2, 3));
    }
    SUBCASE("inside: the nearest face") {
        const ObstacleContact3 c = closest_on_shape(box, Vec3(0.2, 1.5, 0));
        CHECK(c.distance == doctest::Approx(-0.5));
        check_vec(c.point, Vec3(0.2, 2, 0));
        check_vec(c.normal, Vec3(0, 1, 0));
    }
    SUBCASE("on the surface") {
        CHECK(closest_on_shape(box, Vec3(1, 0, 0)).distance == doctest::Approx(0.0));
    }
}

TEST_CASE("oriented box: a 45-degree turn about z") {
    const double c45 = std::sqrt(0.5);
    const Shape3 box = make_box(Vec3(0, 0, 0), Vec3(1, 1, 1), {c45, -c45, 0, c45, c45, 0, 0, 0, 1});
    // Its corner (local (1, -1, 0)) points along +x at distance sqrt(2).
    const ObstacleContact3 c = closest_on_shape(box, Vec3(3, 0, 0));
    CHECK(c.distance == doctest::Approx(3.0 - std::sqrt(2.0)));
    check_vec(c.point, Vec3(std::sqrt(2.0), 0, 0));
    check_vec(c.normal, Vec3(1, 0, 0));
    // Its face normal (local +x) is (c45, c45, 0).
    const ObstacleContact3 f = closest_on_shape(box, Vec3(2 * c45, 2 * c45, 0.5));
    CHECK(f.distance == doctest::Approx(1.0));
    check_vec(f.normal, Vec3(c45, c45, 0));
}

TEST_CASE("polyhedron: the unit cube from half-spaces agrees with the box") {
    const Shape3 poly = unit_cube_polyhedron();
    CHECK(poly.faces.size() == 6);
    CHECK(poly.vertices.size() == 8);
    const Shape3 box = make_box(Vec3(0.5, 0.5, 0.5), Vec3(0.5, 0.5, 0.5), kIdentity);
    const std::vector<Vec3> probes{Vec3(2, 0.5, 0.5), Vec3(2, 2, 0.5), Vec3(-1, -1, -1), Vec3(0.5, 0.5, 0.9),
                                   Vec3(0.1, 0.5, 0.5), Vec3(1.5, -0.3, 0.2), Vec3(100, 50, -70)};
    for (const Vec3& p : probes) {
        const ObstacleContact3 a = closest_on_shape(poly, p);
        const ObstacleContact3 b = closest_on_shape(box, p);
        CHECK(a.distance == doctest::Approx(b.distance));
        check_vec(a.point, b.point);
        check_vec(a.normal, b.normal);
    }
}

TEST_CASE("polyhedron: a tetrahedron, its corner and repeated or redundant planes") {
    // x, y, z >= 0 and x + y + z <= 1, plus a repeated plane and one that only touches a vertex.
    const Shape3 t = make_polyhedron(
        {Vec3(-1, 0, 0), Vec3(0, -1, 0), Vec3(0, 0, -1), Vec3(1, 1, 1), Vec3(2, 2, 2), Vec3(1, 0, 0)},
        {0, 0, 0, 1, 2, 1});
    CHECK(t.faces.size() == 4);
    CHECK(t.vertices.size() == 4);
    const ObstacleContact3 c = closest_on_shape(t, Vec3(-1, -1, -1));
    CHECK(c.distance == doctest::Approx(std::sqrt(3.0)));
    check_vec(c.point, Vec3(0, 0, 0));
    const ObstacleContact3 far = closest_on_shape(t, Vec3(3, 0, 0));
    CHECK(far.distance == doctest::Approx(2.0));
    check_vec(far.point, Vec3(1, 0, 0));
}

TEST_CASE("bad shapes are refused with the argument and the value") {
    CHECK_THROWS_WITH_AS(make_sphere(Vec3(0, 0, 0), 0.0), doctest::Contains("radius is 0"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(make_sphere(Vec3(NAN, 0, 0), 1.0), doctest::Contains("center"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(make_half_space(Vec3(0, 0, 0), Vec3(0, 0, 0)), doctest::Contains("normal"),
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(make_box(Vec3(0, 0, 0), Vec3(1, 0, 1), kIdentity), doctest::Contains("half_extents[1] is 0"),
                         std::invalid_argument);
    CHECK_THROWS_WITH_AS(make_box(Vec3(0, 0, 0), Vec3(1, 1, 1), {2, 0, 0, 0, 1, 0, 0, 0, 1}),
                         doctest::Contains("not orthonormal"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(make_box(Vec3(0, 0, 0), Vec3(1, 1, 1), {-1, 0, 0, 0, 1, 0, 0, 0, 1}),
                         doctest::Contains("determinant"), std::invalid_argument);
    // Unbounded: only three half-spaces of an octant plus a parallel one.
    CHECK_THROWS_WITH_AS(make_polyhedron({Vec3(-1, 0, 0), Vec3(0, -1, 0), Vec3(0, 0, -1), Vec3(0, 0, 1)}, {0, 0, 0, 1}),
                         doctest::Contains("bounded"), std::invalid_argument);
    // Empty: x <= 0 and x >= 1.
    CHECK_THROWS_AS(make_polyhedron({Vec3(1, 0, 0), Vec3(-1, 0, 0), Vec3(0, 1, 0), Vec3(0, -1, 0), Vec3(0, 0, 1),
                                     Vec3(0, 0, -1)},
                                    {0, -1, 1, 0, 1, 0}),
                    std::invalid_argument);
    // Too many half-spaces to enumerate quickly.
    const std::vector<Vec3> many(kMaxPolyhedronPlanes + 1, Vec3(1, 0, 0));
    CHECK_THROWS_WITH_AS(make_polyhedron(many, std::vector<double>(many.size(), 1.0)), doctest::Contains("at most 512"),
                         std::invalid_argument);
    // Zero volume: a flat slab 0 <= x <= 0.
    CHECK_THROWS_WITH_AS(make_polyhedron({Vec3(1, 0, 0), Vec3(-1, 0, 0), Vec3(0, 1, 0), Vec3(0, -1, 0),
                                          Vec3(0, 0, 1), Vec3(0, 0, -1)},
                                         {0, 0, 1, 0, 1, 0}),
                         doctest::Contains("no solid"), std::invalid_argument);
}

TEST_CASE("a set's query: within range, nearest first, removed ones gone") {
    ObstacleSet3 set;
    const int ground = set.add(make_half_space(Vec3(0, 0, 0), Vec3(0, 0, 1)));
    const int ball = set.add(make_sphere(Vec3(5, 0, 1), 1.0));
    const int crate = set.add(make_box(Vec3(-5, 0, 1), Vec3(1, 1, 1), kIdentity));
    set.build();
    std::vector<ObstacleContact3> out;
    set.query(Vec3(3, 0, 1), 2.5, out);
    REQUIRE(out.size() == 2);
    CHECK(out[0].obstacle == ground);  // 1 m below
    CHECK(out[1].obstacle == ball);    // 1 m away as well: ties by id
    CHECK(out[1].distance == doctest::Approx(1.0));
    out.clear();
    set.query(Vec3(0, 0, 50), 10.0, out);
    CHECK(out.empty());
    CHECK(set.first_penetrating(Vec3(-5, 0, 2.2), 0.5) == crate);
    CHECK(set.first_penetrating(Vec3(-5, 0, 2.6), 0.5) == -1);
    CHECK(set.nearest(Vec3(5, 0, 3)).obstacle == ball);
    set.remove(ball);
    set.build();
    out.clear();
    set.query(Vec3(3, 0, 1), 2.5, out);
    REQUIRE(out.size() == 1);
    CHECK(out[0].obstacle == ground);
    CHECK_THROWS_AS(set.remove(ball), std::invalid_argument);
}

TEST_CASE("the grid cull finds exactly what a scan finds") {
    ObstacleSet3 set;
    // 400 spheres and boxes of mixed sizes on a jittered lattice.
    unsigned state = 12345u;
    auto next = [&state]() {
        state = state * 1664525u + 1013904223u;
        return (state >> 8) / 16777216.0;
    };
    for (int k = 0; k < 400; ++k) {
        const Vec3 c(20.0 * next(), 20.0 * next(), 10.0 * next());
        if (k % 2 == 0) {
            set.add(make_sphere(c, 0.2 + 2.0 * next()));
        } else {
            set.add(make_box(c, Vec3(0.1 + next(), 0.1 + next(), 0.1 + 3.0 * next()), kIdentity));
        }
    }
    set.build();
    for (int q = 0; q < 200; ++q) {
        const Vec3 p(-5.0 + 30.0 * next(), -5.0 + 30.0 * next(), -5.0 + 20.0 * next());
        const double range = 4.0 * next();
        std::vector<ObstacleContact3> got;
        set.query(p, range, got);
        std::vector<int> want;
        for (int id : set.ids()) {
            if (closest_on_shape(set.shape(id), p).distance <= range) want.push_back(id);
        }
        REQUIRE(got.size() == want.size());
        for (std::size_t i = 1; i < got.size(); ++i) CHECK(got[i - 1].distance <= got[i].distance);
    }
}
