#include "features/scene_features.hpp"

#include <string>

#include "features/periodic/periodic_axis.hpp"
#include "features/sinks/sinks.hpp"
#include "features/speed_zones/speed_zones.hpp"
#include "features/waiting/waiting_stages.hpp"
#include "navigation/waypoints.hpp"

namespace vosim {

// Every scene feature, one line each, in the order their hooks run (speed
// zones scale what the others steered).
#define VOSIM_SCENE_FEATURES(X) \
    X(WaitingStages)            \
    X(SpeedZones)               \
    X(Sinks)                    \
    X(Waypoints)                \
    X(PeriodicAxis)

SceneFeatures::SceneFeatures() {
#define VOSIM_MAKE_FEATURE(type) all_.push_back(std::make_unique<type>());
    VOSIM_SCENE_FEATURES(VOSIM_MAKE_FEATURE)
#undef VOSIM_MAKE_FEATURE
    find_guides();
}

const Periodic SceneFeatures::kNoSeam{};

void SceneFeatures::find_guides() {
    guides_.clear();
    seam_ = nullptr;
    for (auto& feature : all_) {
        if (feature->guides_goals()) guides_.push_back(feature.get());
        if (!seam_) seam_ = feature->seam();
    }
    if (!seam_) seam_ = &kNoSeam;
}

void SceneFeatures::check_method(const Method& method, int dimensions) const {
    for (const auto& feature : all_) feature->check_method(method, dimensions);
}

void SceneFeatures::relocate(AgentState& state) {
    for (auto& feature : all_) {
        if (!feature->empty()) feature->relocate(state, *this);
    }
}

void SceneFeatures::advance_goals(AgentState& state, const SightObstacles& sight) {
    for (SceneFeature* feature : guides_) {
        if (!feature->empty()) feature->advance_goals(state, sight);
    }
}

void SceneFeatures::translate(std::int64_t id, int axis, int dimensions, double delta) {
    for (SceneFeature* feature : guides_) feature->translate(id, axis, dimensions, delta);
}

const double* SceneFeatures::final_goal(std::int64_t id) const {
    for (const SceneFeature* feature : guides_) {
        if (const double* goal = feature->final_goal(id)) return goal;
    }
    return nullptr;
}

bool SceneFeatures::steering() const {
    for (const auto& feature : all_) {
        if (feature->steers() && !feature->empty()) return true;
    }
    return false;
}

std::int64_t SceneFeatures::exit_count() const {
    std::int64_t count = 0;
    for (const auto& feature : all_) count += feature->exit_count();  // (one feature hands out exits)
    return count;
}

const SceneFeature* SceneFeatures::live_exits() const {
    for (const auto& feature : all_) {
        if (feature->has_live_exits()) return feature.get();
    }
    return nullptr;
}

void SceneFeatures::before_move(const AgentState& state) {
    for (auto& feature : all_) {
        if (feature->has_live_exits()) feature->before_move(state);
    }
}


bool SceneFeatures::empty() const {
    for (const auto& feature : all_) {
        if (!feature->empty()) return false;
    }
    return true;
}

void SceneFeatures::steer(AgentState& state, const StepClock& clock) const {
    for (const auto& feature : all_) {
        if (feature->steers() && !feature->empty()) feature->steer(state, clock);
    }
}

void SceneFeatures::find_held(const AgentState& state) {
    any_held_ = false;
    if (!steering()) return;
    held_.assign(static_cast<std::size_t>(state.scenes()) * state.capacity(), 0);
    for (const auto& feature : all_) {
        if (!feature->empty()) feature->mark_held(state, held_);
    }
    for (const std::uint8_t h : held_) any_held_ = any_held_ || h != 0;
}

void SceneFeatures::update(const AgentState& state, const StepClock& clock) {
    for (auto& feature : all_) {
        if (!feature->empty()) feature->update(state, clock);
    }
}

void SceneFeatures::forget_removed(const AgentState& state) {
    for (auto& feature : all_) {
        if (!feature->empty()) feature->forget_removed(state);
    }
}

std::vector<SavedFeature> SceneFeatures::save() const {
    std::vector<SavedFeature> out;
    for (const auto& feature : all_) {
        if (!feature->empty()) out.push_back({feature->name(), feature->save()});
    }
    return out;
}

std::vector<std::pair<std::string, LegacyEntry>> SceneFeatures::legacy_entries() const {
    std::vector<std::pair<std::string, LegacyEntry>> out;
    for (const auto& feature : all_) {
        for (const LegacyEntry& entry : feature->legacy_entries()) out.emplace_back(feature->name(), entry);
    }
    return out;
}

void SceneFeatures::restore(const std::vector<SavedFeature>& saved, const AgentState& state, const Method& method) {
    SceneFeatures fresh;
    for (std::size_t k = 0; k < saved.size(); ++k) {
        bool known = false;
        for (auto& feature : fresh.all_) {
            if (saved[k].name != feature->name()) continue;
            for (std::size_t j = 0; j < k; ++j) {
                if (saved[j].name == saved[k].name) {
                    throw std::invalid_argument("saved state: scene feature '" + saved[k].name + "' is given twice");
                }
            }
            restoring_part(saved[k].name, [&] {
                feature->restore(saved[k].arrays, state);
                feature->check_method(method, state.dimensions());
            });
            known = true;
        }
        if (!known) throw std::invalid_argument("saved state: unknown scene feature '" + saved[k].name + "'");
    }
    // Each agent that left through an exit names one the restored features have.
    const std::int64_t exits = fresh.exit_count();
    for (int b = 0; b < state.scenes(); ++b) {
        for (int slot = 0; slot < state.count(); ++slot) {
            const std::size_t i = state.index(b, slot);
            const std::int64_t exit = state.exit_sink[i];
            if (state.ids[i] != -1 && exit >= exits) {
                throw std::invalid_argument(
                    "saved state: exit_sink[" + std::to_string(b) + ", " + std::to_string(slot) + "] is " +
                    std::to_string(exit) + ", but the state has " +
                    (exits == 0 ? std::string("no exits (sinks)")
                                : std::to_string(exits) + " exits (sinks; ids 0 to " + std::to_string(exits - 1) +
                                      ")"));
            }
        }
    }
    all_ = std::move(fresh.all_);
    find_guides();
}

}  // namespace vosim
