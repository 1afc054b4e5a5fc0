// A periodic axis (spatial/periodic.hpp, features/periodic/periodic_axis.hpp): positions
// wrap with their goals, the neighbour search looks across the seam at the
// nearest image, and a pair across the seam moves exactly as the same pair
// translated away from it. Agents of radius 0.5 walking at 1 m/s, dt 0.1 s.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "engine/engine.hpp"
#include "features/periodic/periodic_axis.hpp"
#include "spatial/neighbor_grid.hpp"
#include "spatial/periodic_nearest.hpp"

#include "crowd.hpp"

using namespace vosim;

namespace {

// As the bindings set and read it: the engine's periodic-axis feature.
void set_periodic(Engine& engine, int axis, double low, double high) {
    engine.features().get<PeriodicAxis>().set(Periodic{axis, low, high}, *engine.method(), engine.dimensions());
}
const Periodic& periodic_of(const Engine& engine) { return engine.features().get<PeriodicAxis>().axis(); }

}  // namespace

TEST_CASE("nearest_periodic finds an agent across the seam at its nearest image, once") {
    // Period [0, 10): the agent at 0.2 is 0.5 from the one at 9.7 through the seam.
    const std::vector<double> positions{9.7, 0.0, 0.2, 0.0, 5.0, 0.0};
    NeighborGrid grid;
    grid.build(positions.data(), nullptr, 3, 1.0);
    const Periodic periodic{0, 0.0, 10.0};
    std::vector<Neighbor> out(2), scratch;
    const int n = nearest_periodic(grid, periodic, Vec2(0.2, 0.0), 2.0, 2, 1, out.data(), scratch);
    REQUIRE(n == 1);
    CHECK(out[0].slot == 0);
    CHECK(out[0].image == -1);  // seen at 9.7 - 10 = -0.3
    CHECK(out[0].dist_sq == doctest::Approx(0.25));
    // Without the axis it is out of range.
    CHECK(nearest_periodic(grid, Periodic{}, Vec2(0.2, 0.0), 2.0, 2, 1, out.data(), scratch) == 0);
    // A range longer than half the period lists each agent once, at its nearer image.
    const int all = nearest_periodic(grid, periodic, Vec2(0.2, 0.0), 9.0, 2, 1, out.data(), scratch);
    REQUIRE(all == 2);
    CHECK(out[0].slot == 0);
    CHECK(out[0].image == -1);
    CHECK(out[1].slot == 2);
    CHECK(out[1].image == 0);
}

TEST_CASE("for_each_within_periodic visits each agent once, at its nearest image") {
    const std::vector<double> positions{9.7, 0.0, 0.2, 0.0, 5.0, 0.0};
    NeighborGrid grid;
    grid.build(positions.data(), nullptr, 3, 1.0);
    auto visits = [&](const Periodic& periodic, Vec2 p, double range) {
        std::vector<Neighbor> seen;
        for_each_within_periodic(grid, periodic, p, range,
                                 [&](std::int32_t slot, double d) { seen.push_back({d, slot, 0}); });
        return seen;
    };
    const Periodic periodic{0, 0.0, 10.0};
    // Through the seam: 9.7 is 0.5 from 0.2.
    std::vector<Neighbor> seen = visits(periodic, Vec2(0.2, 0.0), 1.0);
    REQUIRE(seen.size() == 2);  // itself (slot 1, 0 away) and slot 0 across the seam
    for (const Neighbor& n : seen) CHECK(n.dist_sq == doctest::Approx(n.slot == 0 ? 0.25 : 0.0));
    // Without the axis, or far from both seams, the plain query.
    CHECK(visits(Periodic{}, Vec2(0.2, 0.0), 1.0).size() == 1);
    CHECK(visits(periodic, Vec2(5.0, 0.0), 1.0).size() == 1);
    // A range longer than half the period (slot 2 is in range at two images):
    // every agent once, at its nearest image.
    seen = visits(periodic, Vec2(0.2, 0.0), 6.0);
    REQUIRE(seen.size() == 3);
    CHECK(seen[0].slot == 0);
    CHECK(seen[0].dist_sq == doctest::Approx(0.25));
    CHECK(seen[1].slot == 1);
    CHECK(seen[2].slot == 2);
    CHECK(seen[2].dist_sq == doctest::Approx(4.8 * 4.8));
}

TEST_CASE("an agent leaving the period wraps back by one period, its goal with it") {
    Crowd crowd({Vec2(9.95, 0.0)}, {Vec2(50.0, 0.0)}, 2.0);
    Engine engine(1, 0.1);
    engine.add_agents(crowd.size(), crowd.input());
    set_periodic(engine, 0, 0.0, 10.0);
    REQUIRE(engine.step());
    const AgentState& s = engine.state();
    CHECK(s.positions[0] == doctest::Approx(0.05));
    CHECK(s.positions[1] == 0.0);
    CHECK(s.goals[0] == doctest::Approx(40.0));
    CHECK(s.velocities[0] == doctest::Approx(1.0));
}

TEST_CASE("a pair across the seam moves exactly as the same pair away from it") {
    // Head-on, 0.8 m apart through the seam at x = 10 (so overlapping: radius 0.5 each).
    Crowd across({Vec2(9.6, 0.05), Vec2(0.4, 0.0)}, {Vec2(60.0, 0.05), Vec2(-50.0, 0.0)}, 3.0);
    Crowd inside({Vec2(4.6, 0.05), Vec2(5.4, 0.0)}, {Vec2(55.0, 0.05), Vec2(-45.0, 0.0)}, 3.0);
    Engine periodic(1, 0.1), plain(1, 0.1);
    periodic.add_agents(across.size(), across.input());
    plain.add_agents(inside.size(), inside.input());
    set_periodic(periodic, 0, 0.0, 10.0);
    int width = 0;
    const std::vector<std::int32_t> table = periodic.neighbor_table(width);
    CHECK(table[0] == 1);
    CHECK(table[width] == 0);
    for (int step = 0; step < 20; ++step) {
        REQUIRE(periodic.step());
        REQUIRE(plain.step());
        for (int i = 0; i < 2; ++i) {
            CHECK(periodic.state().velocities[2 * i] == doctest::Approx(plain.state().velocities[2 * i]).epsilon(1e-9));
            CHECK(periodic.state().velocities[2 * i + 1] ==
                  doctest::Approx(plain.state().velocities[2 * i + 1]).epsilon(1e-9));
        }
    }
    // They did avoid each other: the y gap grew.
    CHECK(std::abs(periodic.state().positions[1] - periodic.state().positions[3]) > 0.5);
}

TEST_CASE("set_periodic refuses bad axes, bounds and 3D, naming them; a snapshot carries it") {
    Engine engine(1, 0.1);
    CHECK_THROWS_WITH_AS(set_periodic(engine, 2, 0.0, 1.0), doctest::Contains("axis is 2"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(set_periodic(engine, 0, 1.0, 1.0), doctest::Contains("period"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(set_periodic(engine, 1, 0.0, INFINITY), doctest::Contains("high is"), std::invalid_argument);
    CHECK_FALSE(periodic_of(engine).on());
    Engine space(1, 0.1, 3);
    CHECK_THROWS_WITH_AS(set_periodic(space, 0, 0.0, 1.0), doctest::Contains("2D"), std::invalid_argument);
    set_periodic(engine, 1, -2.0, 3.0);
    Engine copy(1, 0.1);
    copy.restore(engine.snapshot());
    CHECK(periodic_of(copy).axis == 1);
    CHECK(periodic_of(copy).low == -2.0);
    CHECK(periodic_of(copy).high == 3.0);
    set_periodic(engine, -1, 0.0, 0.0);
    CHECK_FALSE(periodic_of(engine).on());
}
