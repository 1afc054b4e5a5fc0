// The scene features of one engine (scene_feature.hpp), one of each kind in
// the table of scene_features.cpp, in that order.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "features/scene_feature.hpp"

namespace vosim {

class SceneFeatures {
public:
    SceneFeatures();

    // The feature of type T (as listed in the table).
    template <class T>
    T& get() {
        for (auto& feature : all_) {
            if (auto* found = dynamic_cast<T*>(feature.get())) return *found;
        }
        throw std::logic_error("scene feature not in the table");
    }
    template <class T>
    const T& get() const {
        return const_cast<SceneFeatures*>(this)->get<T>();
    }

    bool empty() const;  // none has anything placed
    bool steering() const;  // one that steers (SceneFeature::steers) has something placed
    void steer(AgentState& state, const StepClock& clock) const;
    // Goal guidance (SceneFeature's goal-guiding hooks), over the features
    // that guide goals. goal_ahead: whether agent i has a goal after its
    // current one in any; final_goal: the first one's (null: none).
    void advance_goals(AgentState& state, const SightObstacles& sight);
    bool goal_ahead(const AgentState& state, std::size_t i) const {
        for (const SceneFeature* feature : guides_) {
            if (feature->goal_ahead(state, i)) return true;
        }
        return false;
    }
    void translate(std::int64_t id, int axis, int dimensions, double delta);
    const double* final_goal(std::int64_t id) const;
    // Every feature's check of `method` (SceneFeature::check_method).
    void check_method(const Method& method, int dimensions) const;
    // The seam the neighbour search looks across (off without a feature that has one).
    const Periodic& seam() const { return *seam_; }
    // The wrap phase: each feature may move agents (SceneFeature::relocate).
    void relocate(AgentState& state);
    // The agents the features hold on purpose (SceneFeature::mark_held), by
    // storage index, as of the last call of find_held; null: none held.
    void find_held(const AgentState& state);
    const std::uint8_t* held() const { return any_held_ ? held_.data() : nullptr; }
    void update(const AgentState& state, const StepClock& clock);
    void forget_removed(const AgentState& state);
    std::vector<SavedFeature> save() const;  // the features with something placed
    // All or nothing: every saved part is checked (against the agents, and
    // the engine's `method`) before any replaces the current state; a
    // feature not saved is left empty; an unknown name is refused, and so is
    // an agent's exit (the exit_sink column) that the saved features do not have.
    void restore(const std::vector<SavedFeature>& saved, const AgentState& state, const Method& method);
    // Exits (SceneFeature's exit hooks): the ids handed out, and the feature
    // with live exits (null: none).
    std::int64_t exit_count() const;
    const SceneFeature* live_exits() const;
    void before_move(const AgentState& state);
    // Every feature's legacy entries (SceneFeature::legacy_entries), with its name.
    std::vector<std::pair<std::string, LegacyEntry>> legacy_entries() const;

private:
    void find_guides();  // guides_ and seam_ from all_
    static const Periodic kNoSeam;

    std::vector<std::unique_ptr<SceneFeature>> all_;
    std::vector<SceneFeature*> guides_;  // those of all_ that guide goals
    const Periodic* seam_ = &kNoSeam;    // the first seam of all_'s (its address is fixed, its value changes)
    std::vector<std::uint8_t> held_;
    bool any_held_ = false;
};

}  // namespace vosim
