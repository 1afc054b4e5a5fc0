// Waiting stages (features/waiting) and the scene features' table, on the core alone.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "crowd.hpp"
#include "engine/engine.hpp"
#include "features/scene_features.hpp"
#include "features/waiting/waiting_stages.hpp"

using namespace vosim;

namespace {

// Two walkers 3 and 5 m behind a queue of two places along -x from the origin, bound for x = 10.
void add_two_walkers(Engine& engine) {
    const Crowd crowd({Vec2(-3.0, 0.5), Vec2(-5.0, -0.5)}, {Vec2(10.0, 1.0), Vec2(10.0, -1.0)});
    engine.add_agents(crowd.size(), crowd.input());
}

WaitingStage queue_of_two() {
    WaitingStage stage;
    stage.slots = {Vec2(0.0, 0.0), Vec2(-0.8, 0.0)};
    stage.release_after = 1.0;
    return stage;
}

}  // namespace

TEST_CASE("a queue takes its members in arrival order and releases the front after release_after") {
    Engine engine(1, 0.1);
    add_two_walkers(engine);
    auto& stages = engine.features().get<WaitingStages>();
    const std::vector<std::int64_t> ids{1, 0};  // joined in reverse
    stages.add(queue_of_two(), engine.state(), ids.data(), ids.size());
    for (int k = 0; k < 300; ++k) engine.step();
    REQUIRE(stages.released().size() == 2);
    CHECK(stages.released()[0].id == 0);  // the nearer one arrived first
    CHECK(stages.released()[1].id == 1);
    CHECK(stages.released()[1].time - stages.released()[0].time >= 1.0 - 1e-9);
    CHECK(stages.members().empty());
}

TEST_CASE("bad stages and joins are refused and change nothing") {
    Engine engine(1, 0.1);
    add_two_walkers(engine);
    auto& stages = engine.features().get<WaitingStages>();
    WaitingStage bad = queue_of_two();
    bad.reach = 0.0;
    CHECK_THROWS_AS(stages.add(bad, engine.state()), std::invalid_argument);
    bad = queue_of_two();
    bad.slots[1].x = std::nan("");
    CHECK_THROWS_AS(stages.add(bad, engine.state()), std::invalid_argument);
    const std::vector<std::int64_t> unknown{0, 7};
    CHECK_THROWS_AS(stages.add(queue_of_two(), engine.state(), unknown.data(), unknown.size()), std::invalid_argument);
    CHECK(stages.stages().empty());
    CHECK(stages.members().empty());
    CHECK(engine.features().empty());
}

TEST_CASE("the features' saved parts come back whole, and damaged ones are refused") {
    Engine engine(1, 0.1);
    add_two_walkers(engine);
    const std::vector<std::int64_t> ids{0, 1};
    engine.features().get<WaitingStages>().add(queue_of_two(), engine.state(), ids.data(), ids.size());
    for (int k = 0; k < 50; ++k) engine.step();
    const std::vector<SavedFeature> saved = engine.features().save();
    REQUIRE(saved.size() == 1);
    CHECK(saved[0].name == std::string("waiting"));
    SceneFeatures restored;
    restored.restore(saved, engine.state(), *engine.method());
    CHECK(restored.get<WaitingStages>().members().size() == engine.features().get<WaitingStages>().members().size());

    std::vector<SavedFeature> twice{saved[0], saved[0]};
    CHECK_THROWS_AS(restored.restore(twice, engine.state(), *engine.method()), std::invalid_argument);
    std::vector<SavedFeature> unknown{{"elevator", {}}};
    CHECK_THROWS_AS(restored.restore(unknown, engine.state(), *engine.method()), std::invalid_argument);
    std::vector<SavedFeature> damaged = saved;
    for (auto& [name, values] : damaged[0].arrays.integers) {
        if (name == "member_stages") values[0] = 5;
    }
    CHECK_THROWS_AS(restored.restore(damaged, engine.state(), *engine.method()), std::invalid_argument);
    // A refused restore leaves what was there.
    CHECK(restored.get<WaitingStages>().stages().size() == 1);
}
