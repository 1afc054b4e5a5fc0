// Sinks (exits): areas and lines through which agents leave the simulation.
// An agent whose centre is inside an area sink after a step, or whose centre
// crossed a line sink during it, becomes inactive; it keeps its slot and id,
// and exit_time / exit_sink record when and where it left (the exits phase,
// engine/exit_phase.hpp, asks the scene features' exits). Sinks are planar
// and belong to one scene or to every scene; their ids count up from 0 over
// the engine's life and are never reused, removed ones included (so
// snapshots restore them as they were). A scene feature.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "features/scene_feature.hpp"
#include "maths/vec2.hpp"
#include "state/agent_state.hpp"

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

class Sinks final : public SceneFeature {
public:
    const char* name() const override { return "sinks"; }
    bool empty() const override { return sinks_.empty(); }  // (removed sinks keep their ids: saved too)
    void steer(AgentState&, const StepClock&) const override {}
    void update(const AgentState&, const StepClock&) override {}
    void forget_removed(const AgentState&) override {}
    FeatureArrays save() const override;
    void restore(const FeatureArrays& saved, const AgentState& state) override;
    std::vector<LegacyEntry> legacy_entries() const override;
    std::int64_t exit_count() const override { return static_cast<std::int64_t>(sinks_.size()); }
    bool has_live_exits() const override { return any_live(); }
    void before_move(const AgentState& state) override {
        if (any_live_line()) keep_positions(state);
    }
    int exit_taken(const AgentState& state, std::size_t i, double time) const override;

    // add() in an engine's state (which must be planar).
    int add(int scene, const AgentState& state, const Vec2* points, int count, bool line);
    // Checks the points (finite, in the working range; a line of non-zero
    // length, an area of non-zero area) and returns the new id;
    // std::invalid_argument naming the index and value of a bad point.
    int add(int scene, int scenes, const Vec2* points, int count, bool line);
    void remove(int id);  // std::invalid_argument for an unknown or removed id
    // When sink `id` takes agents: opens <= t < closes (either may be
    // infinite; not NaN, opens < closes); std::invalid_argument otherwise.
    void set_open(int id, double opens, double closes);
    const std::vector<Sink>& all() const { return sinks_; }
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

}  // namespace vosim
