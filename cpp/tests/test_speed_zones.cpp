// Speed zones (features/speed_zones/speed_zones.hpp): their geometry and checks, and the
// factor applied in the goals phase, worked out by hand: agents walking at
// 1 m/s (able to do 2) in steps of 0.1 s.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "engine/engine.hpp"
#include "features/speed_zones/speed_zones.hpp"

#include "crowd.hpp"

using namespace vosim;

TEST_CASE("speed zone factors: inside multiplies, overlaps multiply, other scenes and removed zones do not") {
    SpeedZones zones;
    const Vec2 square[] = {Vec2(0, 0), Vec2(2, 0), Vec2(2, 2), Vec2(0, 2)};
    const Vec2 strip[] = {Vec2(1, -1), Vec2(5, -1), Vec2(5, 1), Vec2(1, 1)};  // over the square's lower right
    CHECK(zones.add(-1, 2, square, 4, 0.5) == 0);
    CHECK(zones.add(1, 2, strip, 4, 0.8) == 1);
    CHECK(zones.factor_at(0, Vec2(0.5, 1.5)) == 0.5);
    CHECK(zones.factor_at(0, Vec2(3, 0)) == 1.0);  // scene 1's zone only
    CHECK(zones.factor_at(1, Vec2(3, 0)) == 0.8);
    CHECK(zones.factor_at(1, Vec2(1.8, 0.1)) == doctest::Approx(0.4));
    CHECK(zones.factor_at(1, Vec2(-1, 0)) == 1.0);
    zones.remove(0);
    CHECK(zones.factor_at(1, Vec2(1.8, 0.1)) == 0.8);
    CHECK_THROWS_AS(zones.remove(0), std::invalid_argument);
    CHECK(zones.add(-1, 2, square, 4, 2.0) == 2);  // ids are never reused
}

TEST_CASE("speed zones refuse bad input, naming it") {
    SpeedZones zones;
    const Vec2 square[] = {Vec2(0, 0), Vec2(2, 0), Vec2(2, 2), Vec2(0, 2)};
    CHECK_THROWS_WITH_AS(zones.add(-1, 1, square, 4, 0.0), doctest::Contains("factor is 0"), std::invalid_argument);
    CHECK_THROWS_WITH_AS(zones.add(-1, 1, square, 4, 4.5), doctest::Contains("at most 4"), std::invalid_argument);
    CHECK_THROWS_AS(zones.add(-1, 1, square, 4, std::nan("")), std::invalid_argument);
    CHECK_THROWS_AS(zones.add(1, 1, square, 4, 0.5), std::invalid_argument);  // no scene 1
    CHECK_THROWS_AS(zones.add(-1, 1, square, 2, 0.5), std::invalid_argument);
    const Vec2 flat[] = {Vec2(0, 0), Vec2(1, 1), Vec2(2, 2)};
    CHECK_THROWS_WITH_AS(zones.add(-1, 1, flat, 3, 0.5), doctest::Contains("enclose no area"), std::invalid_argument);
    const Vec2 bad[] = {Vec2(0, 0), Vec2(1, 0), Vec2(1, INFINITY)};
    CHECK_THROWS_WITH_AS(zones.add(-1, 1, bad, 3, 0.5), doctest::Contains("polygon[2]"), std::invalid_argument);
    CHECK_FALSE(zones.any_live());
    Engine space(1, 0.1, 3);
    CHECK_THROWS_WITH_AS(space.features().get<SpeedZones>().add(-1, space.state(), square, 4, 0.5),
                         doctest::Contains("needs a 2D simulator"), std::invalid_argument);
}

TEST_CASE("the goals phase scales the preferred velocity inside a zone; max_speed still caps") {
    Crowd crowd({Vec2(0, 0), Vec2(0, 5), Vec2(0, 10)}, {Vec2(9, 0), Vec2(9, 5), Vec2(9, 10)}, 1.0);
    Engine engine(1, 0.1);
    engine.add_agents(crowd.size(), crowd.input());
    engine.state().max_speed[1] = 1.5;
    const Vec2 slow[] = {Vec2(-1, -1), Vec2(3, -1), Vec2(3, 1), Vec2(-1, 1)};
    const Vec2 fast[] = {Vec2(-1, 4), Vec2(3, 4), Vec2(3, 6), Vec2(-1, 6)};
    SpeedZones& zones = engine.features().get<SpeedZones>();
    zones.add(-1, engine.state(), slow, 4, 0.5);
    zones.add(-1, engine.state(), fast, 4, 2.0);
    REQUIRE(engine.step());
    const AgentState& s = engine.state();
    CHECK(s.pref_velocity(0).x == doctest::Approx(0.5));
    CHECK(s.pref_velocity(1).x == doctest::Approx(2.0));
    CHECK(s.pref_velocity(2).x == doctest::Approx(1.0));
    CHECK(s.velocity(0).x == doctest::Approx(0.5));
    CHECK(s.velocity(1).x == doctest::Approx(1.5));  // capped by its max_speed
    CHECK(s.pref_speed[0] == 1.0);                   // the agent's own preference is kept
    // Snapshots keep the zones.
    Engine copy(1, 0.1);
    copy.restore(engine.snapshot());
    const SpeedZones& restored = copy.features().get<SpeedZones>();
    REQUIRE(restored.all().size() == 2);
    CHECK(restored.all()[1].factor == 2.0);
    EngineSnapshot saved = engine.snapshot();
    REQUIRE(saved.features.size() == 1);
    for (auto& [name, values] : saved.features[0].arrays.reals) {
        if (name == "factors") values[0] = -1.0;
    }
    CHECK_THROWS_WITH_AS(copy.restore(saved), doctest::Contains("speed zone 0: speed zone: factor is -1"),
                         std::invalid_argument);
    CHECK(restored.all()[0].factor == 0.5);  // a refused restore changes nothing
}
