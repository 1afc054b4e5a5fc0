// Sinks (exits): areas and lines through which agents leave the simulation.
// An agent whose centre is inside an area sink after a step, or whose centre
// crossed a line sink during it, becomes inactive; it keeps its slot and id,
// and exit_time / exit_sink record when and where it left (the exits phase,
// exit_phase.hpp). Sinks are planar and belong to one scene or to every
// scene; their ids count up from 0 over the engine's life and are never
// reused, removed ones included (so snapshots restore them as they were).
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "state/agent_state.hpp"
#include "maths/vec2.hpp"

namespace vosim {

struct Sink {
    int scene = -1;             // -1: every scene
    bool line = false;          // a line (2 points) or an area (a polygon of 3 or more)
    std::vector<Vec2> points;
    bool removed = false;
    // Open (taking agents) in the steps whose middle t has
    // opens <= t < closes (simulated seconds); always, by default.
    double opens = -std::numeric_limits<double>::infinity();
    double closes = std::numeric_limits<double>::infinity();
    bool open_at(double t) const { return opens <= t && t < closes; }
};

class Sinks {
public:
    // Checks the points (finite, in the working range; a line of non-zero
    // length, an area of non-zero area) and returns the new id;
    // std::invalid_argument naming the index and value of a bad point.
    int add(int scene, int scenes, const Vec2* points, int count, bool line);
    void remove(int id);  // std::invalid_argument for an unknown or removed id
    // When sink `id` takes agents: opens <= t < closes (either may be
    // infinite; not NaN, opens < closes); std::invalid_argument otherwise.
    void set_open(int id, double opens, double closes);
    const std::vector<Sink>& all() const { return sinks_; }
    void restore(std::vector<Sink> sinks) { sinks_ = std::move(sinks); }
    bool any_live() const;
    bool any_live_line() const;

    // The first live sink (by id) of `scene`, open at `time` (the step's middle), that agent
    // reached: in an area at `now`, or across a line going from `before` to
    // `now`; -1 if none.
    int reached(int scene, Vec2 before, Vec2 now, double time) const;

    // The positions before the integrate phase, for line sinks (kept only
    // while one is live).
    void keep_positions(const AgentState& state);
    const std::vector<double>& positions_before() const { return before_; }

private:
    std::vector<Sink> sinks_;
    std::vector<double> before_;
};

// Geometry, exposed for the tests: even-odd point in polygon, and whether
// the segment p0 -> p1 reaches the line a-b (the agent's side changes).
bool inside_polygon(const std::vector<Vec2>& polygon, Vec2 p);
bool crosses_segment(Vec2 a, Vec2 b, Vec2 p0, Vec2 p1);

}  // namespace vosim
