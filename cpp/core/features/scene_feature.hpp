// A scene feature: something placed in the scenes that takes part in the
// step (waiting areas and queues, ...). Each feature owns its data, its
// checks and its part of a saved state; the engine holds the features made
// from the table in scene_features.cpp and calls their hooks at named points
// of the step, without knowing any one of them.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/start_times.hpp"  // StepClock
#include "obstacles/sight_obstacles.hpp"
#include "saved_part.hpp"
#include "spatial/periodic.hpp"
#include "state/agent_state.hpp"

namespace vosim {

class Method;         // method.hpp
class SceneFeatures;  // scene_features.hpp

class SceneFeature {
public:
    virtual ~SceneFeature() = default;
    virtual const char* name() const = 0;
    // Nothing placed: no hook needs calling and nothing is saved.
    virtual bool empty() const = 0;
    // Whether the feature ever steers or holds agents (steer, mark_held):
    // one that only guides goals (guides_goals) says no, so that a scene
    // with nothing else skips those passes.
    virtual bool steers() const { return true; }
    // Whether the feature gives agents goals beyond their current one (the
    // goal-guiding hooks below); fixed for the type.
    virtual bool guides_goals() const { return false; }
    // The goals phase, after the preferred velocities were set (and before
    // speed zones scale them): may rewrite the preferred velocities of the
    // agents it holds. Must not change anything else: an abandoned step runs
    // it again.
    virtual void steer(AgentState& state, const StepClock& clock) const = 0;
    // Goal guidance (features with guides_goals()):
    // - advance_goals, in the goals phase before the preferred velocities
    //   are set, may move agents' goals on (with the scene's obstacles in
    //   sight). Idempotent: inspection and an abandoned step run it again.
    // - goal_ahead: whether agent i (storage index) has goals after its
    //   current one, so that being at its goal is not arriving. Called in
    //   parallel: no writes.
    // - translate: agent `id` was moved by `delta` along `axis` (a
    //   periodic wrap); what the feature holds of it moves with it.
    // - final_goal: agent id's last goal (the state's dimension of values),
    //   or null where the feature holds none.
    virtual void advance_goals(AgentState&, const SightObstacles&) {}
    virtual bool goal_ahead(const AgentState&, std::size_t) const { return false; }
    virtual void translate(std::int64_t, int /*axis*/, int /*dimensions*/, double /*delta*/) {}
    virtual const double* final_goal(std::int64_t) const { return nullptr; }
    // Whether the feature works with `method` in an engine of `dimensions`
    // (std::invalid_argument saying why not): asked when it is set, when the
    // method changes and when a state is restored.
    virtual void check_method(const Method&, int /*dimensions*/) const {}
    // The seam the neighbour search looks across (a periodic axis), or null.
    virtual const Periodic* seam() const { return nullptr; }
    // The wrap phase, last but the obstacles' motion: may move agents (a
    // periodic axis wraps them), telling `features` (translate) so that what
    // any feature holds of a moved agent moves with it.
    virtual void relocate(AgentState&, SceneFeatures& /*features*/) {}
    // The features phase, after the agents moved and left through exits;
    // `clock` is the step's (it ends at clock.now + clock.time_step).
    virtual void update(const AgentState& state, const StepClock& clock) = 0;
    // After agents were removed (their slots compacted away).
    virtual void forget_removed(const AgentState& state) = 0;
    // Marks (held[i] = 1, storage index) the agents whose motion the feature
    // governs on purpose (a waiting stage's members): the observe phase
    // counts them neither stalled nor deadlocked, as agents waiting for
    // their start time. `held` is sized to the state and zeroed.
    virtual void mark_held(const AgentState&, std::vector<std::uint8_t>&) const {}
    virtual FeatureArrays save() const = 0;
    // Replaces the feature's state by a saved one, checking every value read
    // against `state` (std::invalid_argument naming the bad entry).
    virtual void restore(const FeatureArrays& saved, const AgentState& state) = 0;
    // The entries under which states saved before the feature was a unit
    // hold its part (none for a feature that was always one).
    virtual std::vector<LegacyEntry> legacy_entries() const { return {}; }

    // Exits: a feature through which agents leave in the exits phase (one
    // feature at most; its exit ids 0 .. exit_count() - 1 are what the
    // exit_sink column holds). before_move sees the positions before the
    // integrate phase moves them (only while it has live exits);
    // exit_taken, in the exits phase, gives the exit agent i took in the
    // step whose middle is `time`, or -1. Called in parallel: no writes.
    virtual std::int64_t exit_count() const { return 0; }
    virtual bool has_live_exits() const { return false; }
    virtual void before_move(const AgentState&) {}
    virtual int exit_taken(const AgentState&, std::size_t, double) const { return -1; }
};

}  // namespace vosim
