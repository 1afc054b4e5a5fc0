// The rules by which a waypoint track moves on (navigation/waypoints.hpp),
// on one agent moved by hand: within the radius, past the line at right
// angles to the leg, or with the next waypoint in sight past obstacles.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "engine/engine.hpp"
#include "navigation/waypoints.hpp"
#include "obstacles/obstacles.hpp"

#include "crowd.hpp"

using namespace vosim;

namespace {

// One agent of radius 0.5 at `start` in an engine (only its state is used).
struct OneAgent {
    Crowd crowd;
    Engine engine{1, 0.1};
    explicit OneAgent(Vec2 start) : crowd({start}, {start}) { engine.add_agents(1, crowd.input()); }
    AgentState& state() { return engine.state(); }
    void place(Vec2 p) { store<Vec2>(state().positions.data(), 0, p); }
    Vec2 goal() { return state().goal<Vec2>(0); }
};

}  // namespace

TEST_CASE("waypoint advance: passed moves on past a corner, distance turns back") {
    for (const WaypointAdvance rule : {WaypointAdvance::distance, WaypointAdvance::passed}) {
        OneAgent a(Vec2(0, 0));
        Waypoints track;
        track.set(a.state(), 0, 0, 0, {5, 0, 5, 5}, 0.1, rule);
        a.place(Vec2(4.9, -0.5));  // before the corner's line x = 5, out of reach
        track.advance(a.state());
        CHECK(a.goal().x == 5.0);
        CHECK(a.goal().y == 0.0);
        a.place(Vec2(5.2, -0.5));  // overshot: past x = 5
        track.advance(a.state());
        CHECK(a.goal().y == (rule == WaypointAdvance::passed ? 5.0 : 0.0));
    }
}

TEST_CASE("waypoint advance: the first leg starts where the agent stood; a repeated point takes the leg before") {
    OneAgent a(Vec2(0, 0));
    Waypoints track;
    track.set(a.state(), 0, 0, 0, {2, 0, 2, 0, 2, 3}, 0.0, WaypointAdvance::passed);
    track.advance(a.state());  // standing at the first leg's start: not past it
    CHECK(a.goal().x == 2.0);
    CHECK(a.goal().y == 0.0);
    a.place(Vec2(2.5, 1.0));  // past x = 2: both copies of (2, 0) at once
    track.advance(a.state());
    CHECK(a.goal().y == 3.0);
    a.place(Vec2(9, 9));  // past the final goal too: it stays the goal
    track.advance(a.state());
    CHECK(a.goal().x == 2.0);
    CHECK(a.goal().y == 3.0);
}

TEST_CASE("waypoint advance: a track whose every point is the start is never passed, only reached") {
    OneAgent a(Vec2(1, 1));
    Waypoints track;
    track.set(a.state(), 0, 0, 0, {1, 1, 4, 1}, 0.0, WaypointAdvance::passed);
    a.place(Vec2(0.5, 1));  // zero radius, no leg of positive length: stays
    track.advance(a.state());
    CHECK(a.goal().x == 1.0);
}

TEST_CASE("waypoint advance: visible cuts a corner only with a clear line of sight, kept by the radius") {
    ObstacleSet walls;
    const Vec2 block[4] = {Vec2(1, 1), Vec2(4, 1), Vec2(4, 4), Vec2(1, 4)};
    walls.add(block, 4, ObstacleKind::polygon);
    walls.build();
    const SightObstacles sight{&walls, nullptr};
    {  // (0, 0) -> (5, 5) runs through the block: keep heading for the corner
        OneAgent a(Vec2(0, 0));
        Waypoints track;
        track.set(a.state(), 0, 0, 0, {5, 0, 5, 5}, 0.1, WaypointAdvance::visible);
        track.advance(a.state(), sight);
        CHECK(a.goal().y == 0.0);
        a.place(Vec2(4.2, 0.0));  // (4.2, 0) -> (5, 5) passes 0.36 from the corner (4, 1): under the radius 0.5
        track.advance(a.state(), sight);
        CHECK(a.goal().y == 0.0);
        a.place(Vec2(4.6, 0.0));  // now 0.68 clear of the corner: in sight, cut
        track.advance(a.state(), sight);
        CHECK(a.goal().y == 5.0);
    }
    {  // without the block the next waypoint is in sight from the start
        OneAgent a(Vec2(0, 0));
        Waypoints track;
        track.set(a.state(), 0, 0, 0, {5, 0, 5, 5}, 0.1, WaypointAdvance::visible);
        track.advance(a.state());
        CHECK(a.goal().y == 5.0);
    }
}

TEST_CASE("line of sight: crossing, grazing within the clearance, and clear segments") {
    ObstacleSet set;
    const Vec2 wall[2] = {Vec2(0, -1), Vec2(0, 1)};
    set.add(wall, 2, ObstacleKind::segment);
    set.build();
    CHECK_FALSE(set.sight_clear(Vec2(-1, 0), Vec2(1, 0), 0.0));   // crosses
    CHECK_FALSE(set.sight_clear(Vec2(-1, 1), Vec2(1, 1), 0.0));   // touches the end
    CHECK_FALSE(set.sight_clear(Vec2(-1, 1.3), Vec2(1, 1.3), 0.5));  // within 0.5
    CHECK(set.sight_clear(Vec2(-1, 1.3), Vec2(1, 1.3), 0.2));
    CHECK(set.sight_clear(Vec2(1, -3), Vec2(1, 3), 0.5));  // beside it, parallel
}
