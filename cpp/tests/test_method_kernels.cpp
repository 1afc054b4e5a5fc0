// Each avoidance method made by the registry and run for one step on a case
// small enough to work out by hand (the derivation is in each test). The
// crowd: radius 0.5, top speed 2, preferred speed 1, horizons 2 s, dt 0.1 s,
// agents at rest at the start.
#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <string>

#include "crowd.hpp"
#include "methods/local_problem.hpp"
#include "record.hpp"
#include "methods/registry.hpp"
#include "methods/social_force/social_force.hpp"

using namespace vosim;

namespace {

// Agent `slot`'s velocity after one step of `method` (settings `values`).
template <class V>
V velocity_after_step(const Crowd& crowd, const std::string& method,
                      const std::map<std::string, ParamValue>& values, int slot) {
    Engine engine(1, 0.1, crowd.dims);
    engine.set_method(make_method(method, values, 0, crowd.dims));
    engine.add_agents(crowd.size(), crowd.input());
    REQUIRE(engine.step());
    return engine.state().template velocity<V>(engine.state().index(0, slot));
}

// A head-on pair at rest, 3 m apart on the x axis, each bound past the other.
Crowd head_on() { return Crowd({Vec2(0.0, 0.0), Vec2(3.0, 0.0)}, {Vec2(10.0, 0.0), Vec2(-7.0, 0.0)}); }

// One agent bound along +x with nobody near: its preferred velocity is (1, 0).
Crowd alone() { return Crowd({Vec2(0.0, 0.0)}, {Vec2(10.0, 0.0)}); }

}  // namespace

TEST_CASE("ORCA, unequal priorities: the agent of lower priority takes the larger share of the way out") {
    // As the equal head-on pair (test_engine.cpp): u = (1, 0), the half-plane
    // normal -x; agent A takes priority_B / (priority_A + priority_B) = 3/4 of
    // u, so its line is x <= 0.75 and its preferred (1, 0) projects onto
    // (0.75, 0); B takes 1/4: x >= -0.25, its (-1, 0) projects onto (-0.25, 0).
    Crowd crowd = head_on();
    crowd.priority = {1.0, 3.0};
    const Vec2 a = velocity_after_step<Vec2>(crowd, "ORCA", {}, 0);
    const Vec2 b = velocity_after_step<Vec2>(crowd, "ORCA", {}, 1);
    CHECK(a.x == doctest::Approx(0.75));
    CHECK(a.y == doctest::Approx(0.0));
    CHECK(b.x == doctest::Approx(-0.25));
    CHECK(b.y == doctest::Approx(0.0));
}

TEST_CASE("VO, RVO and HRVO, head-on pair at rest: the nearest velocity outside the one cone") {
    // Both at rest, so VO's apex (v_B), RVO's ((v_A + v_B) / 2) and HRVO's
    // (where those cones' legs cross) are all the origin: one cone along +x
    // of half-angle asin(1 / 3) (combined radius 1 at distance 3). The
    // preferred (1, 0) lies inside; its projection onto either leg is
    // cos(a) (cos a, +-sin a) = (8/9, +-sqrt(8)/9), 1/3 away. (Geometric
    // selection: VO's and RVO's default samples at random.)
    for (const char* method : {"VO", "RVO", "HRVO"}) {
        INFO(method);
        const Vec2 a = velocity_after_step<Vec2>(head_on(), method, {{"selection", std::string("geometric")}}, 0);
        CHECK(a.x == doctest::Approx(8.0 / 9.0));
        CHECK(std::fabs(a.y) == doctest::Approx(std::sqrt(8.0) / 9.0));
    }
}

TEST_CASE("the same head-on pair as a local problem given outright, with the method's own record") {
    // The agent of the case above seen by solve_local: the same velocity,
    // and the record names the one cone (an agent's, source 0) and the
    // chosen candidate.
    LocalProblem problem;
    problem.agent.position = Vec2(0.0, 0.0);
    problem.agent.pref_velocity = Vec2(1.0, 0.0);
    problem.agent.radius = 0.5;
    problem.agent.max_speed = 2.0;
    problem.neighbors.push_back({Vec2(3.0, 0.0), Vec2(0.0, 0.0), Vec2(-1.0, 0.0), 0.5, 1});
    problem.time_step = 0.1;
    for (const char* method : {"VO", "RVO", "HRVO"}) {
        INFO(method);
        const auto made = make_method(method, {{"selection", std::string("geometric")}}, 0, 2);
        const auto* solver = dynamic_cast<const LocalSolver*>(made.get());
        REQUIRE(solver != nullptr);
        Record summary, record;
        const Vec2 a = solver->solve_local(problem, summary, false);
        CHECK(a.x == doctest::Approx(8.0 / 9.0));
        CHECK(std::fabs(a.y) == doctest::Approx(std::sqrt(8.0) / 9.0));
        REQUIRE(summary.entries().size() == 1);
        CHECK(summary.entries()[0].name == "used_fallback");
        const Vec2 again = solver->solve_local(problem, record, true);
        CHECK((again.x == a.x && again.y == a.y));  // recording changes nothing
        std::map<std::string, RecordEntry> by_name;
        for (const RecordEntry& entry : record.entries()) by_name[entry.name] = entry;
        CHECK(by_name.at("cone_kind").texts == std::vector<std::string>{"agent"});
        CHECK(by_name.at("cone_source").numbers == std::vector<double>{0.0});
        const RecordEntry& candidates = by_name.at("candidates");
        const auto chosen = static_cast<std::size_t>(by_name.at("chosen").numbers.at(0));
        CHECK(candidates.shape.at(1) == 2);
        CHECK(candidates.numbers.at(2 * chosen) == a.x);
        CHECK(candidates.numbers.at(2 * chosen + 1) == a.y);
    }
    // A method without a local kernel of its own is not a LocalSolver.
    CHECK(dynamic_cast<const LocalSolver*>(make_method("ORCA", {}, 0, 2).get()) == nullptr);
}

TEST_CASE("DetourCrowd's grid sampling as a local problem: the record counts and lists every sample") {
    LocalProblem problem;
    problem.agent.pref_velocity = problem.agent.velocity = Vec2(1.0, 0.0);
    problem.agent.radius = 0.5;
    problem.agent.max_speed = 2.0;
    problem.time_step = 0.1;
    const auto made = make_method("GridSampling", {{"vel_bias", 0.0}, {"grid_size", std::int64_t{5}}}, 0, 2);
    Record record;
    const Vec2 v = dynamic_cast<const LocalSolver&>(*made).solve_local(problem, record, true);
    CHECK(v.x == doctest::Approx(1.0));  // as the engine's step above
    CHECK(v.y == doctest::Approx(0.0));
    std::map<std::string, RecordEntry> by_name;
    for (const RecordEntry& entry : record.entries()) by_name[entry.name] = entry;
    // The 5 x 5 grid's points (cell 1) within max_speed + cell / 2 = 2.5 of
    // the centre, as DetourCrowd keeps them: all but the 4 corners (|v|^2 = 8).
    CHECK(by_name.at("samples").numbers.at(0) == 21.0);
    CHECK(by_name.at("velocity").shape == std::vector<std::size_t>{21, 2});
    CHECK(by_name.at("pruned").type == RecordEntry::Type::flag);
}

TEST_CASE("velocity obstacles and ORCA: an agent alone keeps its preferred velocity") {
    for (const char* method : {"ORCA", "VO", "RVO", "HRVO"}) {
        INFO(method);
        const Vec2 v = velocity_after_step<Vec2>(alone(), method, {}, 0);
        CHECK(v.x == doctest::Approx(1.0));
        CHECK(v.y == doctest::Approx(0.0));
    }
}

TEST_CASE("DetourCrowd's grid sampling, alone: the grid point at the desired velocity wins") {
    // vel_bias 0: the grid is centred on 0 with half-width max_speed = 2 and
    // cell 4 / (5 - 1) = 1, so (1, 0) is a candidate. With no neighbour the
    // penalty is 2 |v - (1, 0)| + 0.75 |v| plus terms equal for every
    // candidate; 2 |v - d| + 0.75 |v| >= 0.75 |d| + 1.25 |v - d|, least only at d.
    // (No acceleration limit of the method's: max_acceleration 1e15.)
    const Vec2 v = velocity_after_step<Vec2>(
        alone(), "GridSampling", {{"vel_bias", 0.0}, {"grid_size", std::int64_t{5}}, {"max_acceleration", 1e15}}, 0);
    CHECK(v.x == doctest::Approx(1.0));
    CHECK(v.y == doctest::Approx(0.0));
}

TEST_CASE("DetourCrowd's crowd update, alone: one step changes the velocity by max_acceleration * dt") {
    // From rest towards the grid's (1, 0) with 8 m/s^2 over 0.1 s: (0.8, 0).
    const Vec2 v = velocity_after_step<Vec2>(alone(), "GridSampling",
                                             {{"vel_bias", 0.0}, {"grid_size", std::int64_t{5}}}, 0);
    CHECK(v.x == doctest::Approx(0.8));
    CHECK(v.y == doctest::Approx(0.0));
}

TEST_CASE("DetourCrowd's collision handling: an overlapping pair is pushed apart, 0.7 of half the overlap a round") {
    // Radius 0.5 each, 0.5 apart: overlap 0.5. Each round both move 0.35 of
    // the overlap away from each other, which leaves 0.3 of it; after 4
    // rounds 0.5 * 0.3^4. The velocities stay ~0 (max_acceleration 1e-12).
    Crowd pair({Vec2(0.0, 0.0), Vec2(0.5, 0.0)}, {Vec2(-10.0, 0.0), Vec2(10.5, 0.0)});
    for (const bool resolve : {true, false}) {
        INFO(resolve);
        Engine engine(1, 0.1, 2);
        engine.set_method(make_method("GridSampling", {{"max_acceleration", 1e-12}, {"resolve_collisions", resolve}},
                                      0, 2));
        engine.add_agents(pair.size(), pair.input());
        REQUIRE(engine.step());
        const Vec2 a = engine.state().position(engine.state().index(0, 0));
        const Vec2 b = engine.state().position(engine.state().index(0, 1));
        CHECK(a.x == doctest::Approx(resolve ? -(0.5 - 0.5 * std::pow(0.3, 4)) / 2.0 : 0.0).epsilon(1e-9));
        CHECK(b.x - a.x == doctest::Approx(resolve ? 1.0 - 0.5 * std::pow(0.3, 4) : 0.5).epsilon(1e-9));
        CHECK(a.y == doctest::Approx(0.0));
    }
}

TEST_CASE("force-based, alone: steering closes the gap in steering_time, one step's worth") {
    // Acceleration (v_pref - v) / steering_time = (1, 0) / 0.5 = (2, 0); after
    // dt = 0.1 s from rest: (0.2, 0).
    const Vec2 v = velocity_after_step<Vec2>(alone(), "ForceBased", {}, 0);
    CHECK(v.x == doctest::Approx(0.2));
    CHECK(v.y == doctest::Approx(0.0));
}

TEST_CASE("AVO, alone: the velocity approaches the preferred one by 1 - exp(-dt / acceleration_interval)") {
    // No neighbour and no acceleration bound: the target is (1, 0); with
    // acceleration_interval 1 s and dt 0.1 s from rest, v = 1 - e^-0.1.
    const Vec2 v = velocity_after_step<Vec2>(alone(), "AVO", {}, 0);
    CHECK(v.x == doctest::Approx(1.0 - std::exp(-0.1)));
    CHECK(v.y == doctest::Approx(0.0));
}

TEST_CASE("3D ORCA, head-on pair at rest: each takes half of the way out, as in the plane") {
    // The 2D derivation along x (test_engine.cpp): the plane x <= 0.5 for A
    // and x >= -0.5 for B, with the preferred (+-1, 0, 0) projected onto them.
    const Crowd crowd({Vec3(0.0, 0.0, 0.0), Vec3(3.0, 0.0, 0.0)}, {Vec3(10.0, 0.0, 0.0), Vec3(-7.0, 0.0, 0.0)});
    const Vec3 a = velocity_after_step<Vec3>(crowd, "ORCA", {}, 0);
    const Vec3 b = velocity_after_step<Vec3>(crowd, "ORCA", {}, 1);
    CHECK(a.x == doctest::Approx(0.5));
    CHECK(a.y == doctest::Approx(0.0));
    CHECK(a.z == doctest::Approx(0.0));
    CHECK(b.x == doctest::Approx(-0.5));
}

TEST_CASE("collision-free speed model, alone: the agent walks at its preferred speed at once") {
    // No one ahead: the spacing is infinite, V = min(inf / T, v0) = v0 = 1,
    // set outright (first order) along the preferred direction.
    const Vec2 v = velocity_after_step<Vec2>(alone(), "CollisionFreeSpeed", {}, 0);
    CHECK(v.x == doctest::Approx(1.0));
    CHECK(v.y == doctest::Approx(0.0));
}

TEST_CASE("collision-free speed model: behind another at spacing s the speed is (s - l) / T") {
    // Agent 0 at the origin, agent 1 at (1.5, 0), both bound along +x: the
    // distance 1.5 less l = r_0 + r_1 = 1 leaves 0.5 m; with T = 2 s the
    // speed is 0.25 (below v0 = 1). The repulsion 8 exp((1 - 1.5) / 0.1)
    // points along -x, so the direction stays +x.
    const Crowd crowd({Vec2(0.0, 0.0), Vec2(1.5, 0.0)}, {Vec2(10.0, 0.0), Vec2(11.5, 0.0)});
    const Vec2 v = velocity_after_step<Vec2>(crowd, "CollisionFreeSpeed", {{"time_gap", 2.0}}, 0);
    CHECK(v.x == doctest::Approx(0.25));
    CHECK(v.y == doctest::Approx(0.0));
    // The one ahead sees nobody ahead of it: v0.
    const Vec2 lead = velocity_after_step<Vec2>(crowd, "CollisionFreeSpeed", {{"time_gap", 2.0}}, 1);
    CHECK(lead.x == doctest::Approx(1.0));
}

TEST_CASE("collision-free speed model: a neighbour beside the path turns the direction away from it") {
    // Agent 0 at the origin bound along +x, agent 1 at (0, 1.05) (above,
    // not ahead: nothing limits the speed). The repulsion is
    // 8 exp((1 - 1.05) / 0.1) = 8 e^-0.5 along -y, so the direction is
    // (1, -8 e^-0.5) normalised, at speed v0 = 1.
    const Crowd crowd({Vec2(0.0, 0.0), Vec2(0.0, 1.05)}, {Vec2(10.0, 0.0), Vec2(10.0, 1.05)});
    const Vec2 v = velocity_after_step<Vec2>(crowd, "CollisionFreeSpeed", {}, 0);
    const double push = 8.0 * std::exp(-0.5);
    const double norm = std::sqrt(1.0 + push * push);
    CHECK(v.x == doctest::Approx(1.0 / norm));
    CHECK(v.y == doctest::Approx(-push / norm));
}

namespace {

// An agent of radius 0.25 at `position` with velocity `velocity` and
// preferred velocity `pref` (slot 0).
LocalAgent pedestrian(Vec2 position, Vec2 velocity, Vec2 pref) {
    LocalAgent agent;
    agent.position = position;
    agent.velocity = velocity;
    agent.pref_velocity = pref;
    agent.radius = 0.25;
    agent.max_speed = 2.0;
    return agent;
}

}  // namespace

TEST_CASE("social force model, alone: the driving term (v0 e0 - v) / tau over one step") {
    // At rest, preferred (1, 0), tau = 0.5 s: a = 2 m/s^2, so 0.2 m/s after 0.1 s.
    const Vec2 v = velocity_after_step<Vec2>(alone(), "SocialForce", {}, 0);
    CHECK(v.x == doctest::Approx(0.2));
    CHECK(v.y == doctest::Approx(0.0));
}

TEST_CASE("social force model: a touching pair feels repulsion, body force and sliding friction") {
    // Agent at the origin at rest (and content to be), neighbour at (0.4, 0)
    // moving (0, 1), both of radius 0.25: r_ij = 0.5, d = 0.4, overlap 0.1;
    // n = (-1, 0), t = perp(n) = (0, -1), (v_j - v_i) . t = -1. Force
    // n (2000 e^(0.1 / 0.08) + 1.2e5 * 0.1) + t (2.4e5 * 0.1 * -1), over
    // m = 80: a = (-(25 e^1.25 + 150), 300); after 0.1 s v = a / 10.
    const LocalAgent agent = pedestrian(Vec2(0.0, 0.0), Vec2(0.0, 0.0), Vec2(0.0, 0.0));
    LocalNeighbor other;
    other.position = Vec2(0.4, 0.0);
    other.velocity = Vec2(0.0, 1.0);
    other.radius = 0.25;
    other.order = 1;
    const Vec2 v = social_force_velocity(SocialForceParams{}, agent, &other, 1, nullptr, 0, 0.1);
    CHECK(v.x == doctest::Approx(-(2.5 * std::exp(1.25) + 15.0)));
    CHECK(v.y == doctest::Approx(30.0));
}

TEST_CASE("social force model: a wall pushes out and its friction opposes sliding along it") {
    // The solid above y = 1 (left of (-5, 1) -> (5, 1)); the agent at
    // (0, 0.9) slides along it at its preferred (1, 0) (no driving force):
    // d = 0.1, overlap 0.15, n = (0, -1), t = perp(n) = (1, 0). Normal force
    // 2000 e^(0.15 / 0.08) + 1.2e5 * 0.15, friction -2.4e5 * 0.15 * (v . t) t
    // = (-36000, 0); over m = 80 and 0.1 s: v = (1 - 45, -(2.5 e^1.875 + 22.5)).
    const LocalAgent agent = pedestrian(Vec2(0.0, 0.9), Vec2(1.0, 0.0), Vec2(1.0, 0.0));
    const LocalEdge wall{Vec2(-5.0, 1.0), Vec2(5.0, 1.0)};
    const Vec2 v = social_force_velocity(SocialForceParams{}, agent, nullptr, 0, &wall, 1, 0.1);
    CHECK(v.x == doctest::Approx(-44.0));
    CHECK(v.y == doctest::Approx(-(2.5 * std::exp(1.875) + 22.5)));
}

TEST_CASE("social force model: coincident agents and an agent on a wall get finite, opposite pushes") {
    // Coincident centres: the lower slot goes -x, the higher +x, each with
    // 2000 e^(0.5 / 0.08) + 1.2e5 * 0.5 newtons.
    const double push = (2000.0 * std::exp(0.5 / 0.08) + 1.2e5 * 0.5) / 80.0 * 0.1;
    LocalAgent agent = pedestrian(Vec2(1.0, 1.0), Vec2(0.0, 0.0), Vec2(0.0, 0.0));
    LocalNeighbor other;
    other.position = agent.position;
    other.radius = 0.25;
    other.order = 1;
    const Vec2 low = social_force_velocity(SocialForceParams{}, agent, &other, 1, nullptr, 0, 0.1);
    CHECK(low.x == doctest::Approx(-push));
    CHECK(low.y == doctest::Approx(0.0));
    agent.order = 2;
    const Vec2 high = social_force_velocity(SocialForceParams{}, agent, &other, 1, nullptr, 0, 0.1);
    CHECK(high.x == doctest::Approx(push));
    // A centre on the edge is pushed out of the solid (the solid lies above).
    const LocalEdge wall{Vec2(-5.0, 1.0), Vec2(5.0, 1.0)};
    const Vec2 out = social_force_velocity(SocialForceParams{}, agent, nullptr, 0, &wall, 1, 0.1);
    CHECK(std::isfinite(out.x));
    CHECK(out.x == doctest::Approx(0.0));
    CHECK(out.y == doctest::Approx(-(2000.0 * std::exp(0.25 / 0.08) + 1.2e5 * 0.25) / 80.0 * 0.1));
    // A degenerate edge through the centre gives no direction: no force.
    const LocalEdge point{agent.position, agent.position};
    const Vec2 none = social_force_velocity(SocialForceParams{}, agent, nullptr, 0, &point, 1, 0.1);
    CHECK(none.x == doctest::Approx(0.0));
    CHECK(none.y == doctest::Approx(0.0));
}
