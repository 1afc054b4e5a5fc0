// Waiting areas and queues (JuPedSim's waiting set and notifiable queue):
// agents that join a stage walk to a place in it, wait there, and go on to
// their own goal when released: after a time in their place, once a count
// has gathered, or by a call.
//
// A stage is a list of places (slots) in one scene. In a queue the places
// are taken from the front (slot 0) in the order agents arrive, and each
// moves up as the front is released: those on their way, nearest the tail
// first, head for the tail and the places behind it in turn, and only the
// tail can be taken; agents beyond the last place wait at it. In a waiting
// area those on their way, nearest first, are each given the free place
// nearest to them. An agent takes its place when its centre comes within
// `reach` of it while the place is free.
//
// While a member waits, the goals phase steers it (steer) to its place by
// the goals' own rule (towards it, at pref_speed at most, slowing within a
// second of it); the features phase (update) places arrivals and applies the
// release rules. Everything is done in agent-id order on one thread, so the
// result does not depend on the threads.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "features/scene_feature.hpp"
#include "maths/vec2.hpp"

namespace vosim {

enum class StageKind : std::uint8_t { queue = 0, area = 1 };

struct WaitingStage {
    StageKind kind = StageKind::queue;
    int scene = 0;
    std::vector<Vec2> slots;
    double reach = 0.3;  // metres: within this of its place an agent has reached it
    // Seconds a member waits in its place (in a queue: at the front) before
    // it is released; infinity: no such rule.
    double release_after = std::numeric_limits<double>::infinity();
    std::int64_t release_count = 0;  // this many in their places: all released; 0: no such rule
};

struct StageMember {
    std::int64_t id = -1;
    int stage = 0;
    int slot = -1;            // its place (in a queue, its rank); -1: on its way
    int target = 0;           // the slot it heads for while on its way
    std::int64_t order = -1;  // when it took its place, as a sequence number (-1: on its way)
    bool at_slot = false;     // in its place, within reach of it
    double since = std::numeric_limits<double>::quiet_NaN();  // when it last reached its place
};

struct StageRelease {
    int stage = 0;
    std::int64_t id = -1;
    double time = 0.0;
};

class WaitingStages final : public SceneFeature {
public:
    const char* name() const override { return "waiting"; }
    bool empty() const override { return stages_.empty(); }
    void steer(AgentState& state, const StepClock& clock) const override;
    void update(const AgentState& state, const StepClock& clock) override;
    void forget_removed(const AgentState& state) override;
    void mark_held(const AgentState& state, std::vector<std::uint8_t>& held) const override;  // every member
    FeatureArrays save() const override;
    void restore(const FeatureArrays& saved, const AgentState& state) override;

    // Adds a stage, checked against the engine's scenes, and the agents `ids`
    // join it (as join; when they cannot, the stage is not added); returns its id.
    int add(const WaitingStage& stage, const AgentState& state, const std::int64_t* ids = nullptr,
            std::size_t count = 0);
    // The agents `ids` join `stage`: each active, goal-seeking, in the
    // stage's scene and in no stage yet (std::invalid_argument naming ids[k]).
    void join(int stage, const std::int64_t* ids, std::size_t count, const AgentState& state);
    // Sets a stage's release rules (as WaitingStage's).
    void set_rules(int stage, double release_after, std::int64_t release_count, const AgentState& state);
    // Releases the first `count` members in their places (in the order they
    // took them; count < 0: all) at time `now`; returns how many.
    std::int64_t release(int stage, std::int64_t count, double now, const AgentState& state);

    const std::vector<WaitingStage>& stages() const { return stages_; }
    const std::vector<StageMember>& members() const { return members_; }  // in the order they joined
    const std::vector<StageRelease>& released() const { return released_; }  // in the order released

private:
    const WaitingStage& stage_at(int stage) const;  // std::invalid_argument naming `stage`
    void drop_departed(const AgentState& state);     // members whose agent left or was removed
    void place_arrivals(int stage, const AgentState& state, double now);
    void apply_rules(int stage, double now, double half_step);
    void release_members(int stage, std::vector<std::size_t> which, double now);  // member indices
    void renumber(int stage);  // a queue's places as ranks, front first
    void retarget(int stage, const AgentState& state);

    std::vector<WaitingStage> stages_;
    std::vector<StageMember> members_;
    std::vector<StageRelease> released_;
    std::int64_t next_order_ = 0;
};

}  // namespace vosim
