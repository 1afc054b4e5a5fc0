#include "state/state_check.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "limits.hpp"
#include "maths/outside_range.hpp"
#include "parallel/parallel.hpp"
#include "parallel/threads.hpp"

namespace vosim {

std::string format_number(double value) {
    char buffer[32];
    for (int precision = 1; precision <= 17; ++precision) {
        std::snprintf(buffer, sizeof buffer, "%.*g", precision, value);
        if (std::isnan(value) || std::strtod(buffer, nullptr) == value) break;
    }
    return buffer;
}

std::string describe_agent(const AgentState& state, int scene, int slot) {
    return "agent id " + std::to_string(state.ids[state.index(scene, slot)]) + " (scene " +
           std::to_string(scene) + ", slot " + std::to_string(slot) + ")";
}

std::string describe(Range range) {
    const bool bounded = range.hi < std::numeric_limits<double>::infinity();
    return (bounded ? "finite and within [" : "a number within [") + format_number(range.lo) + ", " +
           format_number(range.hi) + "]";
}

namespace {

// The first rule an agent's values break.
struct Violation {
    const char* field = nullptr;
    double value = 0.0;
    Range range{0.0, 0.0};
};

// Whether agent i breaks a rule of the field table (agent_fields.hpp); the
// first broken rule goes to `out` when it is not null. Every value is
// compared with its range once (NaN is in no range), so the check costs a few
// comparisons per agent.
inline bool find_violation(const AgentState& s, std::size_t i, Violation* out) {
    const bool goal = s.has_goal[i] != 0;
    auto applies = [goal](FieldCheck check) {
        return check == FieldCheck::kAlways || (check == FieldCheck::kWithGoal && goal) ||
               (check == FieldCheck::kWithoutGoal && !goal);
    };
    auto bad = [out](const char* field, double value, Range range) {
        if (within(value, range)) return false;
        if (out) *out = Violation{field, value, range};
        return true;
    };
#define VOSIM_CHECK_FIELD(name, T, width, role, check, range, ...)                                 \
    if constexpr (FieldCheck::check != FieldCheck::kNever) {                                      \
        if (applies(FieldCheck::check)) {                                                         \
            const int w = s.width_of(width);                                                      \
            for (int d = 0; d < w; ++d) {                                                         \
                if (bad(#name, static_cast<double>(s.name[w * i + d]), range)) return true;       \
            }                                                                                     \
        }                                                                                         \
    }
    VOSIM_AGENT_FIELDS(VOSIM_CHECK_FIELD)
#undef VOSIM_CHECK_FIELD
    return false;
}

// A vector field's name for one agent's value: "positions" -> "position",
// "velocities" -> "velocity"; scalar fields keep theirs.
std::string one_value_name(const std::string& field) {
    for (const FieldInfo& info : kAgentFields) {
        if (field != info.name || info.width != kVector) continue;
        if (field.size() > 3 && field.compare(field.size() - 3, 3, "ies") == 0) {
            return field.substr(0, field.size() - 3) + "y";
        }
        if (field.back() == 's') return field.substr(0, field.size() - 1);
    }
    return field;
}

// any_outside_range(_where) for the field's value type: doubles two at a
// time, the few integer fields one by one.
template <class T>
bool any_outside(const T* values, std::int64_t count, Range rule) {
    if constexpr (std::is_same_v<T, double>) {
        return any_outside_range(values, count, rule.lo, rule.hi);
    } else {
        bool outside = false;
        for (std::int64_t m = 0; m < count; ++m) outside |= outside_range(static_cast<double>(values[m]), rule.lo, rule.hi);
        return outside;
    }
}

template <int width, class T>
bool any_outside_where(const T* values, const std::uint8_t* has_goal, bool goal, std::int64_t n, Range rule) {
    static_assert(std::is_same_v<T, double>, "goal-dependent checks are of doubles");
    return any_outside_range_where<width>(values, has_goal, goal, n, rule.lo, rule.hi);
}

// The same over the agents [begin, begin + n) of a column, w values each
// (agents with or without a goal only, for `where`); a lazy column holding
// one value tests it once.
template <class T>
bool column_outside(const Column<T>& column, int w, std::int64_t begin, std::int64_t n, Range rule) {
    return any_outside(column.data() + w * begin, w * n, rule);
}
template <class T>
bool column_outside(const LazyColumn<T>& column, int w, std::int64_t begin, std::int64_t n, Range rule) {
    if (column.uniform()) return outside_range(static_cast<double>(column.value()), rule.lo, rule.hi);
    return any_outside(column.data() + w * begin, w * n, rule);
}
template <class T>
bool column_outside_where(const T* values, int w, const std::uint8_t* has_goal, bool goal, std::int64_t n,
                          Range rule) {
    return w == 1   ? any_outside_where<1>(values, has_goal, goal, n, rule)
           : w == 2 ? any_outside_where<2>(values, has_goal, goal, n, rule)
                    : any_outside_where<3>(values, has_goal, goal, n, rule);
}
template <class T>
bool column_outside_where(const Column<T>& column, int w, std::int64_t begin, const std::uint8_t* has_goal,
                          bool goal, std::int64_t n, Range rule) {
    return column_outside_where(column.data() + w * begin, w, has_goal, goal, n, rule);
}
template <class T>
bool column_outside_where(const LazyColumn<T>& column, int w, std::int64_t begin, const std::uint8_t* has_goal,
                          bool goal, std::int64_t n, Range rule) {
    // (one value out of range: the agents it applies to are looked at closer)
    if (column.uniform()) return outside_range(static_cast<double>(column.value()), rule.lo, rule.hi);
    return column_outside_where(column.data() + w * begin, w, has_goal, goal, n, rule);
}

// Whether any of the agents [begin, begin + n) of one scene may break a rule
// of the field table: false means none does. One pass per field over its
// column rather than every field of one agent after another, which cost a
// few hundred instructions per agent. Inactive agents count too, so true
// only means "look closer" (find_violation).
bool may_break_rules(const AgentState& s, std::int64_t begin, std::int64_t n) {
    const std::uint8_t* has_goal = s.has_goal.data() + begin;
    bool may = false;
#define VOSIM_SCAN_FIELD(name, T, width, role, check, range, ...)                                    \
    if constexpr (FieldCheck::check == FieldCheck::kAlways) {                                       \
        may = may || column_outside(s.name, s.width_of(width), begin, n, range);                    \
    } else if constexpr (FieldCheck::check != FieldCheck::kNever) {                                 \
        const bool goal = FieldCheck::check == FieldCheck::kWithGoal;                               \
        may = may || column_outside_where(s.name, s.width_of(width), begin, has_goal, goal, n, range); \
    }
    VOSIM_AGENT_FIELDS(VOSIM_SCAN_FIELD)
#undef VOSIM_SCAN_FIELD
    return may;
}

}  // namespace

void check_state(const AgentState& s) {
    const std::int64_t total = static_cast<std::int64_t>(s.scenes()) * s.capacity();
    if (total == 0) return;  // (no agents: nothing to check, and no slot to count)
    std::int64_t first_bad = total;
    // A parallel pass finds whether anything is wrong (cheap, O(N)); the
    // message is then built for the first bad agent in storage order.
    // Items in index order: the first bad value of the first item with one
    // is the first overall, whichever thread found it.
    const std::int64_t items = items_of(total, kValuesPerItem);
    std::vector<std::int64_t> first_in_item(static_cast<std::size_t>(items), total);
    const std::int64_t capacity = s.capacity();
    const std::int64_t count = s.count();
    parallel_for(items, max_threads(), [&](std::int64_t item) {
        const std::int64_t end = std::min(total, (item + 1) * kValuesPerItem);
        // The slot of i in its scene, advanced with i (one division per
        // item rather than one per agent).
        std::int64_t slot = (item * kValuesPerItem) % capacity;
        // The slots in use of the item, scene by scene, scanned column-wise;
        // only an item where something may be wrong is looked at agent by agent.
        bool may = false;
        for (std::int64_t i = item * kValuesPerItem, at = slot; i < end && !may;) {
            const std::int64_t in_use = std::max<std::int64_t>(0, std::min(count - at, end - i));
            may = in_use > 0 && may_break_rules(s, i, in_use);
            i += capacity - at;
            at = 0;
        }
        if (!may) return;
        for (std::int64_t i = item * kValuesPerItem; i < end; ++i, slot = slot + 1 == capacity ? 0 : slot + 1) {
            if (slot >= count || !s.active[i]) continue;
            if (find_violation(s, static_cast<std::size_t>(i), nullptr)) {
                first_in_item[static_cast<std::size_t>(item)] = i;
                return;
            }
        }
    });
    for (const std::int64_t i : first_in_item) {
        if (i < total) {
            first_bad = i;
            break;
        }
    }
    if (first_bad == total) return;
    Violation violation;
    find_violation(s, static_cast<std::size_t>(first_bad), &violation);
    const int scene = static_cast<int>(first_bad / s.capacity());
    const int slot = static_cast<int>(first_bad % s.capacity());
    throw std::invalid_argument(describe_agent(s, scene, slot) + ": " + one_value_name(violation.field) + " is " +
                                format_number(violation.value) + "; it must be " +
                                describe(violation.range) + ". Nothing was advanced.");
}

void check_goal_pref_velocities(const AgentState& s) {
    const std::int64_t total = static_cast<std::int64_t>(s.scenes()) * s.capacity();
    if (total == 0) return;
    const int w = s.dimensions();
    const std::int64_t items = items_of(total, kValuesPerItem);
    std::vector<std::int64_t> first_in_item(static_cast<std::size_t>(items), total);
    parallel_for(items, max_threads(), [&](std::int64_t item) {
        const std::int64_t end = std::min(total, (item + 1) * kValuesPerItem);
        for (std::int64_t i = item * kValuesPerItem; i < end; ++i) {
            if (i % s.capacity() >= s.count() || !s.active[i] || !s.has_goal[i]) continue;
            bool bad = false;
            for (int d = 0; d < w; ++d) bad |= !within(s.pref_velocities[w * i + d], kCoordinateRange);
            if (bad) {
                first_in_item[static_cast<std::size_t>(item)] = i;
                return;
            }
        }
    });
    const auto found = std::find_if(first_in_item.begin(), first_in_item.end(), [&](std::int64_t i) { return i < total; });
    if (found == first_in_item.end()) return;
    const std::int64_t i = *found;
    std::string value = "(";
    for (int d = 0; d < w; ++d) value += (d ? ", " : "") + format_number(s.pref_velocities[w * i + d]);
    throw std::invalid_argument(
        describe_agent(s, static_cast<int>(i / s.capacity()), static_cast<int>(i % s.capacity())) +
        ": the preferred velocity from its goal is " + value + ") after pref_speed " + format_number(s.pref_speed[i]) +
        ", the method's perturbation and the speed zones; each component must be " + describe(kCoordinateRange) +
        " (lower pref_speed or the zones' factors). Nothing was advanced.");
}

}  // namespace vosim
