// Sinks and the exits phase (features/sinks/sinks.hpp, engine/exit_phase.hpp), worked
// out by hand: agents walking at 1 m/s in steps of 0.1 s.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "engine/engine.hpp"
#include "features/sinks/sinks.hpp"
#include "maths/polygon.hpp"
#include "parallel/threads.hpp"

#include "crowd.hpp"

using namespace vosim;

namespace {

std::size_t at(const Engine& engine, int slot) { return engine.state().index(0, slot); }

Sinks& sinks_of(Engine& engine) { return engine.features().get<Sinks>(); }

int add_sink(Engine& engine, int scene, const Vec2* points, int count, bool line) {
    return sinks_of(engine).add(scene, engine.state(), points, count, line);
}

}  // namespace

TEST_CASE("sink geometry: even-odd inside, a move that reaches the line from either side") {
    const std::vector<Vec2> square{Vec2(0, 0), Vec2(1, 0), Vec2(1, 1), Vec2(0, 1)};
    CHECK(inside_polygon(square, Vec2(0.5, 0.5)));
    CHECK_FALSE(inside_polygon(square, Vec2(1.5, 0.5)));
    CHECK_FALSE(inside_polygon(square, Vec2(0.5, -0.1)));
    const Vec2 a(0, -1), b(0, 1);
    CHECK(crosses_segment(a, b, Vec2(-0.1, 0), Vec2(0.1, 0)));
    CHECK(crosses_segment(a, b, Vec2(0.1, 0.5), Vec2(-0.1, 0.5)));   // the other way
    CHECK_FALSE(crosses_segment(a, b, Vec2(-0.1, 2), Vec2(0.1, 2)));  // past its end
    CHECK_FALSE(crosses_segment(a, b, Vec2(-0.3, 0), Vec2(-0.1, 0)));  // short of it
}

TEST_CASE("sinks refuse what reaches nobody and name the bad point") {
    Engine engine(2, 0.1);
    const Vec2 line[] = {Vec2(0, 0), Vec2(0, 0)};
    CHECK_THROWS_AS(add_sink(engine, -1, line, 2, true), std::invalid_argument);
    const Vec2 flat[] = {Vec2(0, 0), Vec2(1, 1), Vec2(2, 2)};
    CHECK_THROWS_AS(add_sink(engine, -1, flat, 3, false), std::invalid_argument);
    const Vec2 bad[] = {Vec2(0, 0), Vec2(std::nan(""), 1)};
    CHECK_THROWS_WITH_AS(add_sink(engine, -1, bad, 2, true), doctest::Contains("points[1]"), std::invalid_argument);
    const Vec2 ok[] = {Vec2(0, 0), Vec2(0, 1)};
    CHECK_THROWS_AS(add_sink(engine, 2, ok, 2, true), std::invalid_argument);  // no scene 2
    CHECK(add_sink(engine, 1, ok, 2, true) == 0);
    CHECK(add_sink(engine, -1, ok, 2, true) == 1);
    sinks_of(engine).remove(0);
    CHECK_THROWS_AS(sinks_of(engine).remove(0), std::invalid_argument);
    CHECK(add_sink(engine, -1, ok, 2, true) == 2);  // ids are never reused
    Engine space(1, 0.1, 3);
    CHECK_THROWS_AS(add_sink(space, -1, ok, 2, true), std::invalid_argument);
}

TEST_CASE("agents leave through a line, an area and at their goal, inside run(), counted by the metrics") {
    // Three agents from x = 0 at 1 m/s: one towards a line at x = 0.55, one
    // into an area from x = 0.75, one to a goal at x = 2 with
    // remove_at_goal and arrival radius 1.75.
    Crowd crowd({Vec2(0, 0), Vec2(0, 5), Vec2(0, 10)}, {Vec2(9, 0), Vec2(9, 5), Vec2(2, 10)}, 1.0);
    crowd.arrival[2] = 1.75;
    AgentInput in = crowd.input();
    std::vector<std::uint8_t> remove = {0, 0, 1};
    in.remove_at_goal = {remove.data(), 0, 1};
    Engine engine(1, 0.1);
    engine.add_agents(crowd.size(), in);
    const Vec2 line[] = {Vec2(0.55, -1), Vec2(0.55, 1)};
    const Vec2 area[] = {Vec2(0.75, 4), Vec2(2, 4), Vec2(2, 6), Vec2(0.75, 6)};
    CHECK(add_sink(engine, -1, line, 2, true) == 0);
    CHECK(add_sink(engine, -1, area, 4, false) == 1);
    const AgentState& s = engine.state();
    CHECK(std::isnan(s.exit_time[at(engine, 0)]));
    CHECK(s.exit_sink[at(engine, 0)] == -1);

    RunOptions options;
    options.steps = 20;
    Recording recording;
    recording.max_frames = frames_for(options.steps, options.record_every);
    const RunResult result = engine.run(options, recording, Tick{});
    REQUIRE_FALSE(result.error);
    // The goal: 0.3 after 3 steps (within 1.75 of 2), leaves at t = 0.3.
    // The line: crossed in the step 0.5 -> 0.6, t = 0.6; the area: entered at 0.8.
    CHECK(s.exit_time[at(engine, 2)] == doctest::Approx(0.3));
    CHECK(s.exit_sink[at(engine, 2)] == -1);
    CHECK(s.exit_time[at(engine, 0)] == doctest::Approx(0.6));
    CHECK(s.exit_sink[at(engine, 0)] == 0);
    CHECK(s.exit_time[at(engine, 1)] == doctest::Approx(0.8));
    CHECK(s.exit_sink[at(engine, 1)] == 1);
    for (int slot = 0; slot < 3; ++slot) CHECK_FALSE(s.active[at(engine, slot)]);
    CHECK(s.ids[at(engine, 2)] == 2);  // ids and slots stay
    // Left where it was when it left, and stays there.
    CHECK(s.position(at(engine, 0)).x == doctest::Approx(0.6));

    const RunMetrics& m = *result.metrics;
    CHECK(m.exits[0] == 3);
    CHECK(m.last_exit_time[0] == doctest::Approx(0.8));
    CHECK(m.exit_step == std::vector<std::int64_t>{6, 8, 3});
    CHECK(m.arrival_step == std::vector<std::int64_t>{-1, -1, 3});  // leaving at its goal is arriving
    CHECK(m.arrival_rate[0] == doctest::Approx(1.0 / 3.0));
    CHECK(m.agent_mean_speed[0] == doctest::Approx(1.0));  // until it left, not diluted by the run
}

TEST_CASE("a removed sink lets agents through; a sink of another scene does not take them") {
    const Crowd crowd({Vec2(0, 0)}, {Vec2(9, 0)}, 1.0);
    Engine engine(2, 0.1);
    engine.add_agents(crowd.size(), crowd.input());
    const Vec2 line[] = {Vec2(0.25, -1), Vec2(0.25, 1)};
    sinks_of(engine).remove(add_sink(engine, -1, line, 2, true));
    add_sink(engine, 1, line, 2, true);
    for (int k = 0; k < 5; ++k) REQUIRE(engine.step());
    const AgentState& s = engine.state();
    CHECK(s.active[s.index(0, 0)]);
    CHECK_FALSE(s.active[s.index(1, 0)]);
    CHECK(s.exit_sink[s.index(1, 0)] == 1);
}

TEST_CASE("sinks survive a snapshot; a state without them restores with none") {
    const Crowd crowd({Vec2(0, 0)}, {Vec2(9, 0)}, 1.0);
    Engine engine(1, 0.1);
    engine.add_agents(crowd.size(), crowd.input());
    const Vec2 line[] = {Vec2(0.25, -1), Vec2(0.25, 1)};
    sinks_of(engine).remove(add_sink(engine, -1, line, 2, true));
    add_sink(engine, -1, line, 2, true);
    EngineSnapshot saved = engine.snapshot();
    Engine copy(1, 0.1);
    copy.restore(saved);
    REQUIRE(sinks_of(copy).all().size() == 2);
    CHECK(sinks_of(copy).all()[0].removed);
    for (int k = 0; k < 5; ++k) REQUIRE(copy.step());
    CHECK(copy.state().exit_sink[0] == 1);
    REQUIRE(saved.features.size() == 1);
    EngineSnapshot degenerate = saved;
    saved.features.clear();
    Engine without(1, 0.1);
    without.restore(saved);
    CHECK_FALSE(sinks_of(without).any_live());
    for (auto& [name, values] : degenerate.features[0].arrays.reals) {
        if (name == "points") std::fill(values.begin(), values.end(), 0.0);  // the line's ends coincide: refused
    }
    CHECK_THROWS_WITH_AS(without.restore(degenerate), doctest::Contains("sinks: sink 1: sink: the line's 2 points coincide"),
                         std::invalid_argument);
}

TEST_CASE("a sink takes agents only while open (by the step's middle); its hours survive a snapshot") {
    // Two agents at 1 m/s into the same area from x = 0.25: inside after
    // the 3rd step (x = 0.3). One sink opens at t = 0.42 (the 5th step,
    // middle 0.45, is the first open one: it leaves at 0.5), the other
    // closes at 0.2 (the agent arrives in the 3rd step, middle 0.25: too late).
    const Crowd crowd({Vec2(0, 0), Vec2(0, 5)}, {Vec2(9, 0), Vec2(9, 5)}, 1.0);
    Engine engine(1, 0.1);
    engine.add_agents(crowd.size(), crowd.input());
    const Vec2 opening[] = {Vec2(0.25, -1), Vec2(5, -1), Vec2(5, 1), Vec2(0.25, 1)};
    const Vec2 closing[] = {Vec2(0.25, 4), Vec2(5, 4), Vec2(5, 6), Vec2(0.25, 6)};
    sinks_of(engine).set_open(add_sink(engine, -1, opening, 4, false), 0.42, INFINITY);
    sinks_of(engine).set_open(add_sink(engine, -1, closing, 4, false), -INFINITY, 0.2);
    CHECK_THROWS_AS(sinks_of(engine).set_open(0, 1.0, 1.0), std::invalid_argument);  // closes not after opens
    CHECK_THROWS_AS(sinks_of(engine).set_open(0, NAN, 1.0), std::invalid_argument);
    CHECK_THROWS_AS(sinks_of(engine).set_open(2, 0.0, 1.0), std::invalid_argument);  // no sink 2
    const EngineSnapshot saved = engine.snapshot();
    for (int k = 0; k < 8; ++k) REQUIRE(engine.step());
    const AgentState& s = engine.state();
    CHECK(s.exit_time[at(engine, 0)] == doctest::Approx(0.5));
    CHECK(s.exit_sink[at(engine, 0)] == 0);
    CHECK(s.active[at(engine, 1)]);
    Engine copy(1, 0.1);
    copy.restore(saved);
    CHECK(sinks_of(copy).all()[0].opens == 0.42);
    CHECK(sinks_of(copy).all()[1].closes == 0.2);
    for (int k = 0; k < 8; ++k) REQUIRE(copy.step());
    CHECK(copy.state().exit_time[at(copy, 0)] == doctest::Approx(0.5));
    CHECK(copy.state().active[at(copy, 1)]);
}
