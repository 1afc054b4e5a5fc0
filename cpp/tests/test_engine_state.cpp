// Restoring saved engine states (engine_state.cpp): every count, offset and
// value read from a snapshot is checked before it is used.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <variant>
#include <vector>

#include "engine/engine.hpp"
#include "engine/engine_state.hpp"
#include "navigation/waypoints.hpp"

using namespace vosim;

namespace {

// A snapshot of one agent (all fields zero but its id, time horizons and
// time step) heading along a three-point waypoint track.
EngineSnapshot one_agent_snapshot() {
    AgentState state(1, 2);
    state.reset(1, 1);
    state.ids[0] = 0;
    EngineSnapshot s;
    s.count = 1;
    s.next_id = 1;
    s.time_step = 0.1;
    state.for_each_column([&](auto& column, int width, const char* name) {
        using Value = std::remove_cv_t<std::remove_reference_t<decltype(column[0])>>;
        std::vector<Value> values;
        for (int d = 0; d < width; ++d) values.push_back(column[d]);  // (lazy columns hold no buffer)
        s.columns.push_back({name, width, values});
    });
    FeatureArrays track;  // as a state saved before advance rules existed: no "advance", no "origins"
    track.integers = {{"ids", {0}}, {"next", {0}}, {"offsets", {0, 3}}};
    track.reals = {{"radius", {0.5}}, {"points", {1.0, 0.0, 2.0, 0.0, 3.0, 0.0}}};
    s.features.push_back({Waypoints::kSavedName, track});
    // As an appended agent has it: left through no sink.
    for (SavedColumn& c : s.columns) {
        if (c.name == "exit_sink") std::get<std::vector<std::int32_t>>(c.values)[0] = -1;
    }
    return s;
}

template <typename T>
std::vector<T>& column(EngineSnapshot& s, const char* name) {
    for (SavedColumn& c : s.columns) {
        if (c.name == name) return std::get<std::vector<T>>(c.values);
    }
    throw std::logic_error(name);
}

}  // namespace

TEST_CASE("split_at_offsets checks every offset before reading") {
    const std::vector<double> flat{1, 2, 3, 4, 5, 6};
    const auto lists = split_at_offsets(flat, {0, 1, 3}, 2, "obstacle");
    REQUIRE(lists.size() == 2);
    CHECK(lists[0] == std::vector<double>{1, 2});
    CHECK(lists[1] == std::vector<double>{3, 4, 5, 6});
    CHECK_THROWS_AS(split_at_offsets(flat, {0, 1000000000, 3}, 2, "waypoint"), std::invalid_argument);
    CHECK_THROWS_AS(split_at_offsets(flat, {0, -5, 3}, 2, "waypoint"), std::invalid_argument);
    CHECK_THROWS_AS(split_at_offsets(flat, {0, 2, 1, 3}, 2, "waypoint"), std::invalid_argument);
    CHECK_THROWS_AS(split_at_offsets(flat, {0, 4}, 2, "waypoint"), std::invalid_argument);
    CHECK_THROWS_AS(split_at_offsets(flat, {}, 2, "waypoint"), std::invalid_argument);
    CHECK_THROWS_AS(split_at_offsets(flat, {0, 2}, 4, "waypoint"), std::invalid_argument);  // 6 values, not points of 4
    CHECK(split_at_offsets({}, {0}, 3, "waypoint").empty());
}

TEST_CASE("a snapshot is refused before anything is allocated for counts it does not carry") {
    Engine engine(1, 0.1);
    EngineSnapshot s = one_agent_snapshot();
    s.count = 2147483647;
    CHECK_THROWS_AS(engine.restore(s), std::invalid_argument);
    Engine wide(1000000000, 0.1);
    s.count = 1;
    s.scenes = 1000000000;
    CHECK_THROWS_AS(wide.restore(s), std::invalid_argument);
}

TEST_CASE("a snapshot with two tracks of one agent or hidden values out of range is refused") {
    Engine engine(1, 0.1);
    const EngineSnapshot good = one_agent_snapshot();
    engine.restore(good);

    EngineSnapshot twice = good;
    FeatureArrays& tracks = twice.features.front().arrays;
    tracks.integers = {{"ids", {0, 0}}, {"next", {0, 0}}, {"offsets", {0, 3, 6}}};
    tracks.reals = {{"radius", {0.5, 0.5}}, {"points", {1.0, 0.0, 2.0, 0.0, 3.0, 0.0, 1.0, 0.0, 2.0, 0.0, 3.0, 0.0}}};
    CHECK_THROWS_WITH_AS(engine.restore(twice), doctest::Contains("ascending agent id"), std::invalid_argument);

    EngineSnapshot side = good;
    column<std::int8_t>(side, "detour_side")[0] = 7;
    CHECK_THROWS_WITH_AS(engine.restore(side), doctest::Contains("detour_side[0, 0] is 7"), std::invalid_argument);

    EngineSnapshot timer = good;
    column<double>(timer, "deadlock_timer")[0] = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_WITH_AS(engine.restore(timer), doctest::Contains("deadlock_timer[0, 0] is nan"),
                         std::invalid_argument);

    EngineSnapshot exited = good;  // through a sink the state does not have
    column<std::int32_t>(exited, "exit_sink")[0] = 0;
    CHECK_THROWS_WITH_AS(engine.restore(exited), doctest::Contains("saved state: exit_sink[0, 0] is 0, but the state has no exits (sinks)"),
                         std::invalid_argument);

    EngineSnapshot turning = good;
    column<double>(turning, "angular_velocities")[0] = std::numeric_limits<double>::infinity();
    CHECK_THROWS_AS(engine.restore(turning), std::invalid_argument);
}
