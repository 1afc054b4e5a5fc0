// The engine driven from C++: a step checked by hand, determinism over
// thread counts, snapshots, run metrics, waypoints; and the navigation
// kernels (path search, funnel) and the edge grid against brute force.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "engine/block_runner.hpp"
#include "engine/engine.hpp"
#include "navigation/funnel.hpp"
#include "navigation/path_search.hpp"
#include "navigation/waypoints.hpp"
#include "spatial/edge_grid.hpp"
#include "parallel/threads.hpp"

#include "crowd.hpp"

using namespace vosim;

namespace {

bool same(Vec2 a, Vec2 b) { return a.x == b.x && a.y == b.y; }

Vec2 position(const Engine& engine, int slot) { return engine.state().position(engine.state().index(0, slot)); }
Vec2 velocity(const Engine& engine, int slot) { return engine.state().velocity(engine.state().index(0, slot)); }

// A 30 x 30 lattice of agents, each bound across it (a dense crossing;
// more agents than kParallelMinAgents, so that steps run in parallel).
Crowd lattice() {
    std::vector<Vec2> starts, goals;
    for (int k = 0; k < 900; ++k) {
        const Vec2 p(1.5 * (k % 30) + 0.01 * (k % 7), 1.5 * (k / 30) - 0.013 * (k % 5));
        starts.push_back(p);
        goals.push_back(Vec2(43.5, 43.5) - p);
    }
    return Crowd(starts, goals);
}

std::vector<double> positions_after(int threads, int steps) {
    set_max_threads(threads);
    const Crowd crowd = lattice();
    Engine engine(1, 0.1);
    engine.add_agents(crowd.size(), crowd.input());
    for (int k = 0; k < steps; ++k) engine.step();
    const AgentState& s = engine.state();
    return std::vector<double>(s.positions.data(), s.positions.data() + 2 * s.count());
}

}  // namespace

TEST_CASE("a step of two agents that do not see each other: each goes straight for its goal") {
    const Crowd crowd({Vec2(0.0, 0.0), Vec2(0.0, 5.0)}, {Vec2(10.0, 0.0), Vec2(0.0, 15.0)}, 1.0);
    Engine engine(1, 0.1);
    engine.add_agents(crowd.size(), crowd.input());
    REQUIRE(engine.step());
    CHECK(engine.step_count() == 1);
    CHECK(engine.time() == doctest::Approx(0.1));
    CHECK(same(velocity(engine, 0), Vec2(1.0, 0.0)));  // the preferred velocity, at pref_speed
    CHECK(same(velocity(engine, 1), Vec2(0.0, 1.0)));
    CHECK(position(engine, 0).x == doctest::Approx(0.1));
    CHECK(position(engine, 1).y == doctest::Approx(5.1));
}

TEST_CASE("an agent waits for its start time: still until the step that begins within half a step of it") {
    const Crowd crowd({Vec2(0.0, 0.0), Vec2(0.0, 5.0)}, {Vec2(10.0, 0.0), Vec2(10.0, 5.0)}, 1.0);
    std::vector<double> start_time = {0.0, 0.5};
    AgentInput in = crowd.input();
    in.start_time = {start_time.data(), 0, 1};
    Engine engine(1, 0.1);
    engine.add_agents(crowd.size(), in);
    for (int k = 0; k < 5; ++k) REQUIRE(engine.step());  // steps beginning at 0, 0.1, ..., 0.4
    CHECK(same(position(engine, 1), Vec2(0.0, 5.0)));
    CHECK(same(velocity(engine, 1), Vec2(0.0, 0.0)));
    CHECK(position(engine, 0).x == doctest::Approx(0.5));
    REQUIRE(engine.step());  // begins at 0.5 (a sum of five 0.1 s steps): it goes
    CHECK(same(velocity(engine, 1), Vec2(1.0, 0.0)));
}

TEST_CASE("a head-on pair at rest, by hand: ORCA lets each take half of the way out, 0.5 m/s") {
    // Relative position 3, combined radius 1, horizon 2: w = 0 - (3, 0) / 2,
    // |w| = 1.5 > 1/2, so the cut-off circle's line: point 0 + (1/2 - 1.5)
    // (-1, 0) / 2 = (0.5, 0), direction (0, 1). The preferred (1, 0)
    // projected on x <= 0.5 is (0.5, 0); the other agent mirrors it.
    const Crowd crowd({Vec2(0.0, 0.0), Vec2(3.0, 0.0)}, {Vec2(10.0, 0.0), Vec2(-7.0, 0.0)});
    Engine engine(1, 0.1);
    engine.add_agents(crowd.size(), crowd.input());
    REQUIRE(engine.step());
    CHECK(velocity(engine, 0).x == doctest::Approx(0.5));
    CHECK(velocity(engine, 0).y == doctest::Approx(0.0));
    CHECK(velocity(engine, 1).x == doctest::Approx(-0.5));
    CHECK(position(engine, 0).x == doctest::Approx(0.05));
    CHECK(position(engine, 1).x == doctest::Approx(2.95));
}

TEST_CASE("the same crowd gives the same bits on 1 and on every thread") {
    const int all = thread_limit();
    const std::vector<double> one = positions_after(1, 20);
    const std::vector<double> many = positions_after(std::max(2, all), 20);
    set_max_threads(all);
    REQUIRE(one.size() == many.size());
    CHECK(std::equal(one.begin(), one.end(), many.begin()));
}

TEST_CASE("restore brings back a snapshot: the steps after it repeat bit for bit") {
    const Crowd crowd = lattice();
    Engine engine(1, 0.1);
    engine.add_agents(crowd.size(), crowd.input());
    for (int k = 0; k < 5; ++k) engine.step();
    const EngineSnapshot saved = engine.snapshot();
    for (int k = 0; k < 5; ++k) engine.step();
    const std::vector<double> first(engine.state().positions.data(),
                                    engine.state().positions.data() + 2 * engine.state().count());
    engine.restore(saved);
    CHECK(engine.step_count() == 5);
    for (int k = 0; k < 5; ++k) engine.step();
    const std::vector<double> again(engine.state().positions.data(),
                                    engine.state().positions.data() + 2 * engine.state().count());
    CHECK(first == again);
    CHECK(engine.step_count() == 10);
}

TEST_CASE("run metrics: overlapping agents collide, path lengths add up, an agent near its goal arrives") {
    // Agents 0 and 1 overlap (0.6 apart, radii 0.5) and walk apart along y;
    // agent 2 stands 0.05 from its goal, within its arrival radius.
    const Crowd crowd({Vec2(0.0, 0.0), Vec2(0.6, 0.0), Vec2(20.0, 0.0)},
                      {Vec2(0.0, -50.0), Vec2(0.6, 50.0), Vec2(20.05, 0.0)}, 0.1);
    Engine engine(1, 0.1);
    engine.add_agents(crowd.size(), crowd.input());
    RunOptions options;
    options.steps = 10;
    std::vector<double> frames(2 * 3 * 11);
    Recording recording;
    recording.positions = frames.data();
    recording.max_frames = 11;
    const RunResult result = engine.run(options, recording, Tick());
    REQUIRE(static_cast<bool>(result.metrics));
    const RunMetrics& m = *result.metrics;
    CHECK(result.steps_done == 10);
    CHECK(result.frames == 11);
    CHECK(m.collision_pairs[0] >= 1);
    CHECK(m.path_length[0] == doctest::Approx(1.0));  // 10 steps at 1 m/s for 0.1 s
    CHECK(m.path_length[1] == doctest::Approx(1.0));
    CHECK(m.arrival_step[2] >= 0);
    CHECK(m.arrival_step[0] == -1);
    CHECK(frames[2 * 3 * 10 + 1] == doctest::Approx(-1.0));  // agent 0's y in the last frame
}

TEST_CASE("waypoints: an agent moves on at each, and its last one is its final goal") {
    const Crowd crowd({Vec2(0.0, 0.0)}, {Vec2(0.0, 0.0)});
    Engine engine(1, 0.1);
    engine.add_agents(1, crowd.input());
    const std::int64_t id = 0, offsets[2] = {0, 2};
    const double points[4] = {0.5, 0.0, 0.5, 0.5};
    const double radius = 0.05;
    Waypoints& waypoints = engine.features().get<Waypoints>();
    waypoints.replace(engine.state(), &id, 1, offsets, points, &radius, nullptr);
    std::vector<std::int32_t> left;
    waypoints.remaining(engine.state(), left);
    CHECK(left == std::vector<std::int32_t>{1});
    CHECK(engine.final_goals() == std::vector<double>{0.5, 0.5});
    // Within pref_speed * dt of a goal the preferred velocity is the rest of
    // the way, so each step closes 10 % of it: about 22 steps to within
    // 0.05 of the first point, 16 more to within 0.1 of the second.
    int steps = 0;
    for (; steps < 100 && !engine.all_arrived(); ++steps) engine.step();
    CHECK(engine.all_arrived());
    CHECK(steps > 30);
    CHECK(steps < 45);
    waypoints.remaining(engine.state(), left);
    CHECK(left == std::vector<std::int32_t>{0});
    const Vec2 p = position(engine, 0);
    CHECK(std::hypot(p.x - 0.5, p.y - 0.5) <= 0.1);
}

TEST_CASE("path search: the cheaper of two routes round a square, and no path to a cut-off node") {
    // 0 -(1)- 1 -(1)- 2 and 0 -(1)- 3 -(5)- 2; node 4 has no edges.
    Graph graph;
    graph.node = {Vec2(0, 0), Vec2(1, 0), Vec2(1, 1), Vec2(0, 1), Vec2(5, 5)};
    graph.row_start = {0, 2, 4, 6, 8, 8};
    graph.target = {1, 3, 0, 2, 1, 3, 0, 2};
    graph.cost = {1, 1, 1, 1, 1, 5, 1, 5};
    PathQuery to_two;
    to_two.entries = {{0, 0.0}};
    to_two.exits = {{2, 0.0}};
    to_two.goal = Vec2(1, 1);
    PathQuery to_four;
    to_four.entries = {{0, 0.0}};
    to_four.exits = {{4, 0.0}};
    to_four.goal = Vec2(5, 5);
    const std::vector<PathResult> paths = shortest_paths(graph, {to_two, to_four});
    REQUIRE(paths.size() == 2);
    CHECK(paths[0].found);
    CHECK(paths[0].nodes == std::vector<std::int32_t>{0, 1, 2});
    CHECK_FALSE(paths[1].found);
    CHECK(paths[1].nodes.empty());
}

TEST_CASE("funnel: a straight corridor is one leg, a bend turns at the inner corner") {
    // Portals across a corridor along x: the path goes straight to the goal.
    const Vec2 left[2] = {Vec2(1, 1), Vec2(2, 1)};
    const Vec2 right[2] = {Vec2(1, -1), Vec2(2, -1)};
    const std::vector<Vec2> straight = pull_string(Vec2(0, 0), Vec2(3, 0), left, right, 2);
    REQUIRE(straight.size() == 1);
    CHECK(same(straight[0], Vec2(3, 0)));
    // A corridor turning left at x = 2: the path bends at the inner corner (2, 1).
    const Vec2 bend_left[2] = {Vec2(2, 1), Vec2(2, 1)};
    const Vec2 bend_right[2] = {Vec2(2, -1), Vec2(4, 1)};
    const std::vector<Vec2> bent = pull_string(Vec2(0, 0), Vec2(3, 5), bend_left, bend_right, 2);
    REQUIRE(bent.size() == 2);
    CHECK(same(bent[0], Vec2(2, 1)));
    CHECK(same(bent[1], Vec2(3, 5)));
}

TEST_CASE("funnel: a start or goal on a portal is already through it") {
    // Two triangles of a strip, split by the diagonal from (-1, 1) to (1, -1), then the strip's
    // edge x = 1 (walking east): the way to (3, -4) bends at the right corner (1, -1).
    const Vec2 left[2] = {Vec2(-1, 1), Vec2(1, 1)};
    const Vec2 right[2] = {Vec2(1, -1), Vec2(1, -1)};
    const Vec2 goal(3, -4);
    // From the diagonal's middle, from its left end (a corner) and from a hair before the diagonal.
    for (const Vec2 start : {Vec2(0, 0), Vec2(-1, 1), Vec2(-1e-9, -1e-9)}) {
        const std::vector<Vec2> path = pull_string(start, goal, left, right, 2);
        REQUIRE(path.size() == 2);
        CHECK(same(path[0], Vec2(1, -1)));
        CHECK(same(path[1], goal));
    }
    // The way back, ending on the diagonal's middle: the same corner.
    const Vec2 back_left[2] = {Vec2(1, -1), Vec2(1, -1)};
    const Vec2 back_right[2] = {Vec2(1, 1), Vec2(-1, 1)};
    const std::vector<Vec2> back = pull_string(goal, Vec2(0, 0), back_left, back_right, 2);
    REQUIRE(back.size() == 2);
    CHECK(same(back[0], Vec2(1, -1)));
    CHECK(same(back[1], Vec2(0, 0)));
    // A start on the only portal goes straight to the goal.
    const std::vector<Vec2> one = pull_string(Vec2(0, 0), Vec2(2, 1), left, right, 1);
    REQUIRE(one.size() == 1);
    CHECK(same(one[0], Vec2(2, 1)));
}

TEST_CASE("edge grid against brute force: every point of every segment lies in a cell that lists it") {
    std::vector<Segment> segments;
    std::uint64_t state = 12345;
    auto next = [&]() {  // a small LCG: reproducible points in [0, 100)
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<double>(state >> 11) / 9007199254740992.0 * 100.0;
    };
    for (int k = 0; k < 300; ++k) {
        const Vec2 a(next(), next());
        const Vec2 b = k % 3 == 0 ? Vec2(next(), next()) : a + Vec2(next() / 20.0 - 2.5, next() / 20.0 - 2.5);
        segments.push_back({a, b});
    }
    EdgeGrid grid;
    grid.build(segments);
    REQUIRE_FALSE(grid.empty());
    int missing = 0;
    for (std::size_t k = 0; k < segments.size(); ++k) {
        for (int t = 0; t <= 50; ++t) {
            const Vec2 p = segments[k].a + (t / 50.0) * (segments[k].b - segments[k].a);
            int c0, r0, c1, r1;
            REQUIRE(grid.cells_of_box(p, p, c0, r0, c1, r1));
            bool listed = false;
            for (int c = c0; c <= c1; ++c) {
                for (int r = r0; r <= r1; ++r) {
                    listed = listed || std::find(grid.begin(c, r), grid.end(c, r), static_cast<std::int32_t>(k)) !=
                                           grid.end(c, r);
                }
            }
            missing += listed ? 0 : 1;
        }
    }
    CHECK(missing == 0);
}

TEST_CASE("drives that cannot work are refused before they are added, named as the caller indexes them") {
    Crowd crowd({Vec2(0.0, 0.0), Vec2(0.0, 5.0)}, {Vec2(10.0, 0.0), Vec2(10.0, 5.0)});
    crowd.kinematics = {0, 1};  // the second a differential drive
    std::vector<double> track = {0.0, 0.0};
    AgentInput in = crowd.input();
    in.wheel_track = {track.data(), 0, 1};
    Engine engine(1, 0.1);
    CHECK_THROWS_WITH_AS(engine.add_agents(crowd.size(), in, false),
                         "wheel_track[1] is 0.0; a 'differential_drive' agent needs it > 0", std::invalid_argument);
    CHECK_THROWS_WITH_AS(engine.add_agents(crowd.size(), in),
                         "wheel_track[0, 1] is 0.0; a 'differential_drive' agent needs it > 0", std::invalid_argument);
    CHECK(engine.state().count() == 0);
    crowd.kinematics = {2, 0};  // a unicycle needs a finite turn rate
    in.kinematics = {crowd.kinematics.data(), 0, 1};
    std::vector<double> unbounded = {std::numeric_limits<double>::infinity(), 1.0};
    in.max_angular_speed = {unbounded.data(), 0, 1};
    CHECK_THROWS_WITH_AS(engine.add_agents(crowd.size(), in, false),
                         "max_angular_speed[0] is inf; a 'unicycle' agent needs it finite", std::invalid_argument);
    unbounded[0] = 3.0;
    CHECK(engine.add_agents(crowd.size(), in, false).size() == 2);
}

TEST_CASE("inspect, one path in both dimensions: the velocity the next step takes, and nothing advanced") {
    // A head-on pair, close enough to avoid each other, in the plane and in space.
    const Crowd plane({Vec2(0.0, 0.0), Vec2(2.0, 0.0)}, {Vec2(10.0, 0.0), Vec2(-8.0, 0.0)});
    Engine engine(1, 0.1);
    engine.add_agents(plane.size(), plane.input());
    const DiagnosticsOf<Vec2> d = engine.inspect<Vec2>(0, 0);
    CHECK(d.method == "ORCA");
    CHECK(d.agent_neighbors == std::vector<std::int32_t>{1});
    CHECK(engine.step_count() == 0);
    REQUIRE(engine.step());
    CHECK(same(velocity(engine, 0), d.new_velocity));
    CHECK_THROWS_AS(engine.inspect<Vec3>(0, 0), std::invalid_argument);

    const Crowd space({Vec3(0.0, 0.0, 0.0), Vec3(2.0, 0.0, 0.0)}, {Vec3(10.0, 0.0, 0.0), Vec3(-8.0, 0.0, 0.0)});
    Engine engine3(1, 0.1, 3);
    engine3.add_agents(space.size(), space.input());
    const DiagnosticsOf<Vec3> d3 = engine3.inspect<Vec3>(0, 1);
    CHECK(d3.agent_neighbors == std::vector<std::int32_t>{0});
    REQUIRE(engine3.step());
    const Vec3 v = engine3.state().velocity<Vec3>(engine3.state().index(0, 1));
    CHECK((v.x == d3.new_velocity.x && v.y == d3.new_velocity.y && v.z == d3.new_velocity.z));
}

TEST_CASE("the velocity phase's plan: threads for costly agents however few, finer chunks for small crowds") {
    // Unknown cost (the first step): by the agent count alone.
    CHECK(plan_blocks(100, 8, 0.0).team == 1);
    CHECK(plan_blocks(kParallelMinAgents, 8, 0.0).team == 8);
    // 128 agents of a sampling method (20 us each): several threads, 4 chunks each.
    const BlockPlan costly = plan_blocks(128, 2, 20e-6);
    CHECK(costly.team == 2);
    CHECK(costly.chunk == 16);
    // The same agents at ORCA's cost (0.5 us): not worth waking a thread.
    CHECK(plan_blocks(128, 2, 0.5e-6).team == 1);
    // Large crowds keep the usual chunks; tiny ones never go below the least.
    CHECK(plan_blocks(100000, 16, 1e-6).chunk == kChunkAgents);
    CHECK(plan_blocks(9, 16, 1e-3).chunk == kMinChunkAgents);
    CHECK(plan_blocks(9, 16, 1e-3).team == 16);
}
