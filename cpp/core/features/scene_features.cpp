#include "features/scene_features.hpp"

#include <string>

#include "features/sinks/sinks.hpp"
#include "features/speed_zones/speed_zones.hpp"
#include "features/waiting/waiting_stages.hpp"

namespace vosim {

// Every scene feature, one line each, in the order their hooks run (speed
// zones scale what the others steered).
#define VOSIM_SCENE_FEATURES(X) \
    X(WaitingStages)            \
    X(SpeedZones)               \
    X(Sinks)

SceneFeatures::SceneFeatures() {
#define VOSIM_MAKE_FEATURE(type) all_.push_back(std::make_unique<type>());
    VOSIM_SCENE_FEATURES(VOSIM_MAKE_FEATURE)
#undef VOSIM_MAKE_FEATURE
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
        if (!feature->empty()) feature->steer(state, clock);
    }
}

void SceneFeatures::find_held(const AgentState& state) {
    any_held_ = false;
    if (empty()) return;
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

void SceneFeatures::restore(const std::vector<SavedFeature>& saved, const AgentState& state) {
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
            try {
                feature->restore(saved[k].arrays, state);
            } catch (const std::invalid_argument& error) {
                std::string why = error.what();
                const std::string prefix = "saved state: ";
                if (why.compare(0, prefix.size(), prefix) == 0) why.erase(0, prefix.size());
                throw std::invalid_argument(prefix + saved[k].name + ": " + why);
            }
            known = true;
        }
        if (!known) throw std::invalid_argument("saved state: unknown scene feature '" + saved[k].name + "'");
    }
    all_ = std::move(fresh.all_);
}

}  // namespace vosim
