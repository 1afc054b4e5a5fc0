// The per-agent field table (agent_fields.hpp) and the agent state it drives.
#include <doctest/doctest.h>

#include <cstdint>
#include <cmath>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "state/agent_state.hpp"
#include "state/state_check.hpp"

using namespace vosim;

TEST_CASE("every row has a unique name, a width, a doc and a default within its range") {
    std::set<std::string> names;
    for (const FieldInfo& f : kAgentFields) {
        CHECK(names.insert(f.name).second);
        CHECK((f.width == 1 || f.width == kVector));
        CHECK(std::string(f.doc).back() == '.');
        // NaN: not set yet (exit_time), allowed for the engine's read-only fields only.
        if (std::isnan(f.default_value)) {
            CHECK(f.role == FieldRole::kReadOnly);
        } else if (f.default_value != kRequired && f.default_value != kDerived) {
            CHECK(within(f.default_value, f.range));
        }
    }
}

TEST_CASE("for_each_column visits every row once with its width (vectors: the dimension)") {
    for (int dimensions : {2, 3}) {
        AgentState state(2, dimensions);
        std::vector<std::string> visited;
        state.for_each_column([&](auto&, int width, const char* name) {
            visited.push_back(name);
            bool found = false;
            for (const FieldInfo& f : kAgentFields) {
                const int expected = f.width == kVector ? dimensions : f.width;
                found = found || (name == std::string(f.name) && expected == width);
            }
            CHECK(found);
        });
        CHECK(visited.size() == std::size(kAgentFields));
    }
    CHECK_THROWS_AS(AgentState(1, 4), std::invalid_argument);
}

namespace {
// One agent per scene, every input repeating one value (steps of 0).
struct Inputs {
    double zero2[2] = {0.0, 0.0};
    double position[2] = {1.0, 2.0};
    double one = 1.0;
    double horizon = 2.0;
    std::int32_t neighbours = 4;
    std::uint8_t goal = 0;
    std::int8_t holonomic = 0;
    AgentInput input() {
        AgentInput in;
        in.positions = {position, 0, 0};
        in.velocities = in.pref_velocities = in.goals = {zero2, 0, 0};
        in.radius = in.max_speed = in.pref_speed = in.neighbor_dist = in.arrival_radius = in.priority =
            in.max_acceleration = in.acceleration_interval = in.uncertainty_offset = {&one, 0, 0};
        in.time_horizon = in.time_horizon_obst = {&horizon, 0, 0};
        in.max_neighbors = {&neighbours, 0, 0};
        in.has_goal = in.remove_at_goal = {&goal, 0, 0};
        in.kinematics = {&holonomic, 0, 0};
        in.headings = {zero2, 0, 0};
        in.wheel_track = in.max_wheel_speed = in.max_angular_speed = in.effective_center_distance = {&one, 0, 0};
        in.tracking_error = in.tracking_time = {&one, 0, 0};
        in.start_time = {zero2, 0, 0};
        return in;
    }
};
}  // namespace

TEST_CASE("append copies every input field; the check names a field out of its range") {
    AgentState state(2);
    Inputs values;
    const std::vector<std::int64_t> ids = state.append(1, values.input());
    CHECK(ids == std::vector<std::int64_t>{0, 1});
    CHECK(state.positions[2 * state.index(1, 0) + 1] == 2.0);
    CHECK(state.time_horizon[state.index(1, 0)] == 2.0);
    CHECK(state.max_neighbors[state.index(0, 0)] == 4);
    CHECK(state.active[state.index(0, 0)] == 1);
    CHECK_NOTHROW(check_state(state));
    state.uncertainty_offset.materialize()[state.index(1, 0)] = -1.0;
    CHECK_THROWS_WITH_AS(check_state(state), doctest::Contains("agent id 1 (scene 1, slot 0): uncertainty_offset is -1"),
                         std::invalid_argument);
    state.uncertainty_offset.materialize()[state.index(1, 0)] = 0.0;
    state.velocities[2 * state.index(0, 0)] = 1e16;
    CHECK_THROWS_WITH_AS(check_state(state), doctest::Contains("velocity is 1e+16"), std::invalid_argument);
}

TEST_CASE("append refuses an input field without values, naming it, and changes nothing") {
    AgentState state(1);
    Inputs values;
    AgentInput input = values.input();
    input.tracking_time = {};
    CHECK_THROWS_WITH_AS(state.append(2, input), doctest::Contains("input field tracking_time"), std::invalid_argument);
    CHECK(state.count() == 0);
    CHECK(state.append(1, values.input()).size() == 1);
}

TEST_CASE("derived defaults name an input field of derived default and one resolved before it") {
    std::set<std::string> resolved;
    for (const FieldInfo& info : kAgentFields) {
        if (info.role == FieldRole::kInput && info.default_value != kDerived) resolved.insert(info.name);
    }
    for (const DerivedDefault& row : kDerivedDefaults) {
        INFO(row.field);
        bool derived_input = false;
        for (const FieldInfo& info : kAgentFields) {
            derived_input = derived_input || (std::string(info.name) == row.field && info.role == FieldRole::kInput &&
                                              info.default_value == kDerived);
        }
        CHECK(derived_input);
        CHECK(resolved.count(row.from) == 1);
        CHECK(row.scale > 0.0);
        resolved.insert(row.field);
    }
}
