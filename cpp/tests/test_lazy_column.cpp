// Lazy columns (lazy_column.hpp): one value while every agent holds it, an
// ordinary column once one differs; the agent state keeps each agent's value
// through appends, growth, removal and restores, and a step leaves them alone.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "crowd.hpp"
#include "engine/engine.hpp"
#include "state/agent_state.hpp"
#include "state/state_check.hpp"

using namespace vosim;

namespace {

// A crowd of n agents in a row, 3 m apart, each bound 10 m ahead.
Crowd row(int n) {
    std::vector<Vec2> starts, goals;
    for (int k = 0; k < n; ++k) {
        starts.push_back(Vec2(3.0 * k, 0.0));
        goals.push_back(Vec2(3.0 * k, 10.0));
    }
    return Crowd(starts, goals);
}

std::vector<double> priorities(const AgentState& s, int scene) {
    std::vector<double> out;
    for (int k = 0; k < s.count(); ++k) out.push_back(s.priority[s.index(scene, k)]);
    return out;
}

}  // namespace

TEST_CASE("a lazy column reads its one value everywhere until materialized, then holds values of its own") {
    LazyColumn<double> column(5, 2.5);
    CHECK(column.uniform());
    CHECK(column.data() == nullptr);
    CHECK(column.elements() == 5);
    for (std::size_t i = 0; i < 5; ++i) CHECK(column[i] == 2.5);
    Column<double>& values = column.materialize();
    CHECK_FALSE(column.uniform());
    CHECK(values.elements() == 5);
    column.written(3) = -1.0;
    CHECK(column[3] == -1.0);
    CHECK(column[4] == 2.5);
    CHECK(&column.materialize() == &values);  // once materialized, it stays so
    CHECK(column[3] == -1.0);
    column.assign_uniform(7, 0.0);
    CHECK(column.uniform());
    CHECK(column.elements() == 7);
    CHECK(column[6] == 0.0);
    LazyColumn<double> empty;
    CHECK(empty.materialize().data() == nullptr);  // nothing to hold
    CHECK(empty.uniform());
}

TEST_CASE("same_bits tells NaN from NaN alike and -0 from 0") {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK(same_bits(nan, nan));
    CHECK_FALSE(same_bits(0.0, -0.0));
    CHECK(same_bits(std::int8_t{-1}, std::int8_t{-1}));
}

TEST_CASE("the fields kLazyFields lists, and only those, have lazy columns") {
    int lazy = 0;
    AgentState(1).for_each_column([&](auto& column, int, const char* name) {
        const bool is_lazy = is_lazy_column_v<std::remove_reference_t<decltype(column)>>;
        CHECK_MESSAGE(is_lazy == stored_lazily(name), name);
        lazy += is_lazy;
    });
    CHECK(lazy == static_cast<int>(std::size(kLazyFields)));
    CHECK(stored_lazily("priority"));
    CHECK_FALSE(stored_lazily("positions"));
    CHECK_FALSE(stored_lazily("priorit"));
}

TEST_CASE("appending agents that share a value keeps a lazy column as that value; another value materializes it") {
    AgentState state(2);
    Crowd crowd = row(3);
    AgentInput in = crowd.input();
    std::vector<double> two(3, 2.0);
    in.priority = {two.data(), 0, 1};  // one per agent, all equal: scanned
    state.append(3, in);
    CHECK(state.priority.uniform());
    CHECK(state.priority.value() == 2.0);  // (no agent yet: any value will do)
    CHECK(state.exit_time.uniform());
    CHECK(std::isnan(state.exit_time[state.index(1, 2)]));
    CHECK(state.exit_sink[state.index(0, 1)] == -1);

    const double same = 2.0;
    in.priority = {&same, 0, 0};  // one value for all (steps of 0)
    state.append(2, in);
    CHECK(state.priority.uniform());
    CHECK(state.capacity() >= 5);

    const double other = 5.0;
    AgentState later(1);
    later.append(3, in);
    in.priority = {&other, 0, 0};  // one value, not the column's
    later.append(2, in);
    CHECK_FALSE(later.priority.uniform());
    CHECK(priorities(later, 0) == std::vector<double>{2, 2, 2, 5, 5});

    std::vector<double> mixed = {2.0, 3.0};
    in.priority = {mixed.data(), 0, 1};
    state.append(2, in);
    CHECK_FALSE(state.priority.uniform());
    for (int b = 0; b < 2; ++b) {
        CHECK(priorities(state, b) == std::vector<double>{2, 2, 2, 2, 2, 2, 3});
    }
    CHECK(state.start_time.uniform());  // the others untouched
    CHECK(state.kinematics.uniform());
    CHECK_NOTHROW(check_state(state));
}

TEST_CASE("a lazy column's values follow the agents through growth and removal") {
    AgentState state(1);
    Crowd crowd = row(4);
    AgentInput in = crowd.input();
    std::vector<double> values = {1.0, 4.0, 5.0, 6.0};
    in.priority = {values.data(), 0, 1};
    const std::vector<std::int64_t> ids = state.append(4, in);
    REQUIRE_FALSE(state.priority.uniform());
    const double seven = 7.0;
    Crowd more = row(40);  // grows the capacity
    AgentInput later = more.input();
    later.priority = {&seven, 0, 0};
    state.append(40, later);
    REQUIRE(state.count() == 44);
    const std::int64_t gone[] = {ids[1], ids[2]};
    state.remove(gone, 2);
    REQUIRE(state.count() == 42);
    CHECK(state.priority[0] == 1.0);
    CHECK(state.priority[1] == 6.0);
    CHECK(state.priority[41] == 7.0);
    CHECK(state.tracking_time.uniform());  // removal keeps one value as one
    CHECK(state.tracking_time[41] == 1.0);
}

TEST_CASE("reset makes every lazy column one zero; a check reads a lazy column's one value once") {
    AgentState state(1);
    Crowd crowd = row(2);
    state.append(2, crowd.input());
    CHECK_NOTHROW(check_state(state));
    state.uncertainty_offset.assign_uniform(state.uncertainty_offset.elements(), -2.0);
    CHECK_THROWS_WITH_AS(check_state(state), doctest::Contains("agent id 0 (scene 0, slot 0): uncertainty_offset is -2"),
                         std::invalid_argument);
    state.priority.materialize();
    state.reset(3, 9);
    CHECK(state.priority.uniform());
    CHECK(state.priority[2] == 0.0);
    CHECK(state.uncertainty_offset[2] == 0.0);
}

TEST_CASE("steps leave the lazy columns of a plain ORCA crowd as one value; exits and deadlock timers make theirs") {
    Crowd crowd = row(30);
    Engine engine(1, 0.1);
    engine.add_agents(crowd.size(), crowd.input());
    for (int k = 0; k < 5; ++k) REQUIRE(engine.step());
    const AgentState& s = engine.state();
    int lazy = 0;
    const_cast<AgentState&>(s).for_each_column([&](auto& column, int, const char* name) {
        if constexpr (is_lazy_column_v<std::remove_reference_t<decltype(column)>>) {
            CHECK_MESSAGE(column.uniform(), name);
            ++lazy;
        }
    });
    CHECK(lazy == static_cast<int>(std::size(kLazyFields)));

    // Agents that will leave at their goal but are not there yet: the exit
    // columns stay one value; in the step of the first exit they are made.
    Crowd far = row(3);
    std::fill(far.remove_at_goal.begin(), far.remove_at_goal.end(), 1);
    Engine later(1, 0.1);
    later.add_agents(far.size(), far.input());
    for (int k = 0; k < 3; ++k) REQUIRE(later.step());
    CHECK(later.state().exit_time.uniform());
    CHECK(later.state().exit_sink.uniform());

    // Agents that leave at their goal get exit times: the column is made for it.
    Crowd leaving = row(3);
    std::fill(leaving.remove_at_goal.begin(), leaving.remove_at_goal.end(), 1);
    leaving.goals = leaving.positions;  // already there
    Engine exits(1, 0.1);
    exits.add_agents(leaving.size(), leaving.input());
    REQUIRE(exits.step());
    CHECK_FALSE(exits.state().exit_time.uniform());
    for (int k = 0; k < 3; ++k) {
        CHECK(exits.state().exit_time[k] == doctest::Approx(0.1));
        CHECK(exits.state().active[k] == 0);
    }
}

TEST_CASE("a snapshot restores a column of one value as one value, and differing values as they were") {
    Crowd crowd = row(3);
    std::vector<double> values = {1.0, 2.0, 3.0};
    AgentInput in = crowd.input();
    in.priority = {values.data(), 0, 1};
    Engine engine(1, 0.1);
    engine.add_agents(crowd.size(), in);
    const EngineSnapshot saved = engine.snapshot();
    Engine restored(1, 0.1);
    restored.restore(saved);
    const AgentState& s = restored.state();
    CHECK_FALSE(s.priority.uniform());
    CHECK(priorities(s, 0) == values);
    CHECK(s.start_time.uniform());
    CHECK(s.max_acceleration.uniform());
    CHECK(s.max_acceleration[2] == std::numeric_limits<double>::infinity());
    CHECK(std::isnan(s.exit_time[1]));
}
