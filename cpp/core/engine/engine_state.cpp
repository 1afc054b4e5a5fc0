// Engine::snapshot and Engine::restore: the one place where the engine's
// state is taken apart and put back together (see engine_state.hpp).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "engine/engine.hpp"
#include "state/agent_fields.hpp"
#include "limits.hpp"
#include "state/state_check.hpp"

namespace vosim {

namespace {

[[noreturn]] void refuse(const std::string& what) { throw std::invalid_argument("saved state: " + what); }

// Ids of live agents ascend with the slot in every scene (AgentState::locate
// relies on it), removed slots hold -1, and every id was handed out already.
void check_ids(const AgentState& s) {
    for (int b = 0; b < s.scenes(); ++b) {
        std::int64_t last = -1;
        for (int slot = 0; slot < s.count(); ++slot) {
            const std::int64_t id = s.ids[s.index(b, slot)];
            if (id == -1) continue;
            if (id < 0 || id >= s.next_id() || id <= last) {
                refuse("ids[" + std::to_string(b) + ", " + std::to_string(slot) + "] is " + std::to_string(id) +
                       "; ids must ascend within a scene, below next_id " + std::to_string(s.next_id()) +
                       " (-1 for removed agents)");
            }
            last = id;
        }
    }
}

// A restored column gets value(b, k) for the k-th of the count x width
// values of scene b.
template <typename T, class Values>
void restore_column(Column<T>& column, const AgentState& s, int width, Values&& value) {
    const std::size_t per_scene = static_cast<std::size_t>(s.count()) * width;
    for (int b = 0; b < s.scenes(); ++b) {
        for (std::size_t k = 0; k < per_scene; ++k) column[s.index(b, 0) * width + k] = value(b, k);
    }
}
// A lazy one stays one value when every agent has the same.
template <typename T, class Values>
void restore_column(LazyColumn<T>& column, const AgentState& s, int width, Values&& value) {
    const std::size_t per_scene = static_cast<std::size_t>(s.count()) * width;
    if (per_scene == 0) return;
    const T first = value(0, 0);
    if (all_same_bits(first, s.scenes(), per_scene, value)) return column.assign_uniform(column.elements(), first);
    restore_column(column.materialize(), s, width, value);
}

// The engine's own columns that the per-step check does not cover (hidden
// and read-only fields other than ids): within their ranges of the field
// table for every agent that has an id (removed slots hold anything).
template <class C>
void check_engine_column(const C& column, int width, const char* name, const AgentState& s) {
    const FieldInfo* info = nullptr;
    for (const FieldInfo& field : kAgentFields) {
        if (std::string(field.name) == name) info = &field;
    }
    if (!info || info->check != FieldCheck::kNever || std::string(name) == "ids" ||
        (info->role != FieldRole::kHidden && info->role != FieldRole::kReadOnly)) {
        return;
    }
    for (int b = 0; b < s.scenes(); ++b) {
        for (int slot = 0; slot < s.count(); ++slot) {
            const std::size_t i = s.index(b, slot);
            if (s.ids[i] == -1) continue;
            for (int d = 0; d < width; ++d) {
                const double value = static_cast<double>(column[i * width + d]);
                // A field whose default is NaN (exit_time) holds NaN until it is set.
                if (std::isnan(value) && std::isnan(info->default_value)) continue;
                if (!within(value, info->range)) {
                    refuse(std::string(name) + "[" + std::to_string(b) + ", " + std::to_string(slot) + "] is " +
                           format_number(value) + "; it must be " + describe(info->range));
                }
            }
        }
    }
}

template <class C>
void check_flags(const C& column, const AgentState& s, const char* name) {
    for (int b = 0; b < s.scenes(); ++b) {
        for (int slot = 0; slot < s.count(); ++slot) {
            if (column[s.index(b, slot)] > 1) {
                refuse(std::string(name) + "[" + std::to_string(b) + ", " + std::to_string(slot) + "] is " +
                       std::to_string(column[s.index(b, slot)]) + "; flags are 0 or 1");
            }
        }
    }
}

// The columns added after the first saved states, which lack them (filled
// with the table's default): agents' kinematics (kinematics.hpp), start
// times (start_times.hpp) and exits (exit_phase.hpp).
constexpr const char* kLaterColumns[] = {"kinematics",  "headings",          "angular_velocities",
                                         "wheel_track", "max_wheel_speed",   "max_angular_speed",
                                         "effective_center_distance", "tracking_error",
                                         "tracking_time", "start_time", "remove_at_goal", "exit_time",
                                         "exit_sink"};

}  // namespace

EngineSnapshot Engine::snapshot() const {
    // A moving obstacle out of the working range stops every step
    // (validate()); restore() refuses it too, so such a state is not saved.
    try {
        obstacles_.check_moving();
    } catch (const std::invalid_argument& error) {
        throw std::invalid_argument(std::string("the state cannot be saved: ") + error.what() +
                                    "; it could not be resumed (remove the obstacle first)");
    }
    EngineSnapshot out;
    const AgentState& s = state_;
    out.scenes = s.scenes();
    out.dimensions = s.dimensions();
    out.count = s.count();
    out.next_id = s.next_id();
    out.time_step = time_step_;
    out.time = time_;
    out.step_count = step_count_;
    // for_each_column only reads here.
    const_cast<AgentState&>(s).for_each_column([&](auto& column, int width, const char* name) {
        using Value = std::remove_reference_t<decltype(column[0])>;
        std::vector<Value> values(static_cast<std::size_t>(s.scenes()) * s.count() * width);
        for (int b = 0; b < s.scenes(); ++b) {
            const std::size_t from = s.index(b, 0) * width;
            const std::size_t to = static_cast<std::size_t>(b) * s.count() * width;
            for (std::size_t k = 0; k < static_cast<std::size_t>(s.count()) * width; ++k) {
                values[to + k] = column[from + k];
            }
        }
        out.columns.push_back({name, width, std::move(values)});
    });
    obstacles_.save(out.obstacles);
    out.fallbacks = fallbacks_;
    out.features = features_.save();
    return out;
}

std::vector<std::pair<std::string, LegacyEntry>> Engine::legacy_entries() {
    return SceneFeatures().legacy_entries();
}

void Engine::restore(const EngineSnapshot& saved) {
    BusyGuard guard(busy_);
    // Everything is built aside and checked first: a refused snapshot
    // changes nothing.
    if (saved.scenes != state_.scenes()) {
        refuse("it has " + std::to_string(saved.scenes) + " scenes; this engine has " +
               std::to_string(state_.scenes()));
    }
    if (saved.count < 0 || saved.count > AgentState::kMaxAgents) {
        refuse("count is " + std::to_string(saved.count));
    }
    if (!within(saved.time_step, kTimeRange)) {
        refuse("time_step is " + format_number(saved.time_step) + "; it must be " + describe(kTimeRange));
    }
    if (!std::isfinite(saved.time) || saved.step_count < 0) {
        refuse("time is " + format_number(saved.time) + " and step_count " + std::to_string(saved.step_count) +
               "; they must be finite and >= 0");
    }
    if (saved.dimensions != dimensions()) {
        refuse("it has dimensions=" + std::to_string(saved.dimensions) + "; this engine has dimensions=" +
               std::to_string(dimensions()));
    }
    AgentState state(saved.scenes, saved.dimensions);
    auto find_column = [&saved](const char* name) -> const SavedColumn* {
        const SavedColumn* found = nullptr;
        for (const SavedColumn& c : saved.columns) {
            if (c.name == name) {
                if (found) refuse(std::string("column '") + name + "' appears twice");
                found = &c;
            }
        }
        return found;
    };
    // Every column's size is checked before the state is allocated: the
    // counts come from the snapshot, and only the values it carries may
    // decide how much memory restoring takes.
    const std::size_t slots = static_cast<std::size_t>(saved.scenes) * static_cast<std::size_t>(saved.count);
    state.for_each_column([&](auto& column, int width, const char* name) {
        using Value = std::remove_reference_t<decltype(column[0])>;
        const SavedColumn* found = find_column(name);
        if (!found) {
            if (!column_may_be_missing(name)) refuse(std::string("no column '") + name + "'");
            return;
        }
        const auto* values = std::get_if<std::vector<Value>>(&found->values);
        if (!values || found->width != width || values->size() / static_cast<std::size_t>(width) != slots ||
            values->size() % static_cast<std::size_t>(width) != 0) {
            refuse(std::string("column '") + name + "' has the wrong type or size (expected " +
                   std::to_string(slots) + " x " + std::to_string(width) + " values of its type)");
        }
    });
    state.reset(saved.count, saved.next_id);
    std::size_t used = 0;
    state.for_each_column([&](auto& column, int width, const char* name) {
        using Value = std::remove_cv_t<std::remove_reference_t<decltype(column[0])>>;
        const SavedColumn* found = find_column(name);
        if (!found) {
            // Saved before agents had kinematics: all holonomic, headings 0.
            const auto fill = static_cast<Value>(missing_column_value(name));
            restore_column(column, state, width, [fill](int, std::size_t) { return fill; });
            return;
        }
        const auto& values = std::get<std::vector<Value>>(found->values);  // checked above
        const std::size_t per_scene = static_cast<std::size_t>(saved.count) * width;
        restore_column(column, state, width,
                       [&values, per_scene](int b, std::size_t k) { return values[b * per_scene + k]; });
        ++used;
    });
    if (used != saved.columns.size()) refuse("it has columns this engine does not know");
    check_ids(state);
    check_flags(state.active, state, "active");
    check_flags(state.has_goal, state, "has_goal");
    check_flags(state.remove_at_goal, state, "remove_at_goal");
    state.for_each_column(
        [&](auto& column, int width, const char* name) { check_engine_column(column, width, name, state); });

    SceneObstacles obstacles = SceneObstacles::restored_plane(saved.obstacles, saved.scenes);

    if (!saved.fallbacks.empty() && static_cast<int>(saved.fallbacks.size()) != saved.scenes) {
        refuse("fallbacks has " + std::to_string(saved.fallbacks.size()) + " values for " +
               std::to_string(saved.scenes) + " scenes");
    }

    // The scene features, each checking its own part against the agents and the method (and the exits the
    // agents left through).
    SceneFeatures features;
    features.restore(saved.features, state, *method_);
    state_ = std::move(state);
    features_ = std::move(features);
    time_step_ = saved.time_step;
    time_ = saved.time;
    step_count_ = saved.step_count;
    obstacles_.take_plane(std::move(obstacles));
    fallbacks_ = saved.fallbacks;
    // Derived every step from the state above.
    order_.clear();
}

bool column_may_be_missing(const std::string& name) {
    for (const char* column : kLaterColumns) {
        if (name == column) return true;
    }
    return false;
}

double missing_column_value(const std::string& name) {
    for (const FieldInfo& info : kAgentFields) {
        if (name == info.name) {
            return info.default_value == kRequired || info.default_value == kDerived ? 0.0 : info.default_value;
        }
    }
    return 0.0;
}

}  // namespace vosim
