#include "state/agent_state.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace vosim {

namespace {

// A removed agent keeps its slot until the slot is empty in every scene; its
// id is set to this marker so that it can never be found again.
constexpr std::int64_t kRemovedId = -1;

// Flags are stored as 0 or 1 whatever nonzero byte they were given.
template <typename T>
T normalized(T value) {
    if constexpr (std::is_same_v<T, std::uint8_t>) return value ? 1 : 0;
    return value;
}

// Readies a lazy column for n new agents in every scene whose values are
// value(b, k): it stays one value when they all equal it (any value will do
// while it holds no agent); else it is materialized for append to write.
// `repeated`: the source gives one value for all (zero steps).
template <typename T, class Value>
void prepare_lazy(LazyColumn<T>& column, bool empty, bool repeated, int scenes, int n, Value&& value) {
    if (!column.uniform()) return;
    const T first = value(0, 0);
    const bool same = (empty || same_bits(first, column.value())) &&
                      (repeated || all_same_bits(first, scenes, static_cast<std::size_t>(n), value));
    if (same) {
        column.assign_uniform(column.elements(), first);
    } else {
        column.materialize();
    }
}

template <typename T, class Value>
void prepare_lazy(Column<T>&, bool, bool, int, int, Value&&) {}  // (a plain column: nothing to ready)

// Element i of a column gets `value` (a uniform lazy column already holds it).
template <typename T>
void put(Column<T>& column, std::size_t i, T value) {
    column[i] = value;
}
template <typename T>
void put(LazyColumn<T>& column, std::size_t i, T value) {
    if (!column.uniform()) column.written(i) = value;
}

// `column` replaced by `fresh` (a lazy column stays one value when it was).
template <typename T>
void replace(Column<T>& column, Column<T>&& fresh) {
    column = std::move(fresh);
}
template <typename T>
void replace(LazyColumn<T>& column, Column<T>&& fresh) {
    column.assign(std::move(fresh));
}

}  // namespace

AgentState::AgentState(int scenes, int dimensions) : scenes_(scenes), dimensions_(dimensions) {
    if (scenes < 1) {
        throw std::invalid_argument("scenes must be >= 1, got " + std::to_string(scenes));
    }
    if (dimensions != 2 && dimensions != 3) {
        throw std::invalid_argument("dimensions must be 2 or 3, got " + std::to_string(dimensions));
    }
}

void AgentState::reallocate(int new_capacity) {
    const int old_capacity = capacity_;
    const int keep = count_;
    for_each_column([&](auto& column, int width, const char*) {
        using Value = std::remove_cv_t<std::remove_reference_t<decltype(column[0])>>;
        const std::size_t elements = static_cast<std::size_t>(scenes_) * new_capacity * width;
        if constexpr (is_lazy_column_v<std::remove_reference_t<decltype(column)>>) {
            if (column.uniform()) return column.assign_uniform(elements, column.value());
        }
        Column<Value> fresh(elements);
        for (int b = 0; b < scenes_; ++b) {
            if (keep == 0) break;
            std::memcpy(fresh.data() + static_cast<std::size_t>(b) * new_capacity * width,
                        column.data() + static_cast<std::size_t>(b) * old_capacity * width,
                        sizeof(Value) * static_cast<std::size_t>(keep) * width);
        }
        replace(column, std::move(fresh));
    });
    capacity_ = new_capacity;
}

void AgentState::reset(int count, std::int64_t next_id) {
    if (count < 0) throw std::invalid_argument("count must be >= 0, got " + std::to_string(count));
    if (next_id < 0) throw std::invalid_argument("next_id must be >= 0, got " + std::to_string(next_id));
    count_ = 0;
    for_each_column([](auto& column, int, const char*) {
        if constexpr (is_lazy_column_v<std::remove_reference_t<decltype(column)>>) {
            column.assign_uniform(0, {});  // zero, as one value
        }
    });
    reallocate(count);
    count_ = count;
    next_id_ = next_id;
}

std::vector<std::int64_t> AgentState::append(int n, const AgentInput& in) {
    if (n < 0) throw std::invalid_argument("number of agents must be >= 0, got " + std::to_string(n));
    if (n > kMaxAgents - count_) {
        throw std::invalid_argument("too many agents: " + std::to_string(count_) + " + " +
                                    std::to_string(n) + " exceeds " + std::to_string(kMaxAgents) +
                                    " per scene");
    }
    std::vector<std::int64_t> new_ids(static_cast<std::size_t>(scenes_) * n);
    if (n == 0) return new_ids;
    // A caller that forgot a field gets an error, not a read through null.
#define VOSIM_REQUIRE_SOURCE(name, T, width, role, ...)                                                      \
    if (FieldRole::role == FieldRole::kInput && in.name.data == nullptr) {                                 \
        throw std::invalid_argument("AgentState::append: no values given for the input field " #name);     \
    }
    VOSIM_AGENT_FIELDS(VOSIM_REQUIRE_SOURCE)
#undef VOSIM_REQUIRE_SOURCE
    if (count_ + n > capacity_) {
        // Grow geometrically so that adding agents one call at a time stays linear;
        // a single large call gets exactly what it needs.
        const std::int64_t grown = static_cast<std::int64_t>(capacity_) + capacity_ / 2;
        const std::int64_t wanted = std::max<std::int64_t>(count_ + n, grown);
        reallocate(static_cast<int>(std::min<std::int64_t>(wanted, kMaxAgents)));
    }
    // Lazy columns first: each stays one value if the new agents all have it.
#define VOSIM_PREPARE_LAZY(name, T, width, role, check, range, fallback, ...)                               \
    if constexpr (FieldRole::role == FieldRole::kInput) {                                                   \
        const bool repeated = in.name.scene_step == 0 && in.name.agent_step == 0;                           \
        prepare_lazy(name, count_ == 0, repeated, scenes_, n,                                               \
                     [&](int b, std::size_t k) { return normalized(in.name.at(b, static_cast<int>(k))); }); \
    } else {                                                                                                \
        prepare_lazy(name, count_ == 0, true, scenes_, n,                                                   \
                     [](int, std::size_t) { return static_cast<T>(fallback); });                            \
    }
    VOSIM_AGENT_FIELDS(VOSIM_PREPARE_LAZY)
#undef VOSIM_PREPARE_LAZY
    for (int b = 0; b < scenes_; ++b) {
        for (int k = 0; k < n; ++k) {
            const std::size_t src = static_cast<std::size_t>(b) * n + k;
            const std::size_t dst = index(b, count_ + k);
            // Every input field of the table read from its source; the
            // engine's own state (read-only fields but ids) starts at its default.
#define VOSIM_APPEND_FIELD(name, T, width, role, check, range, fallback, ...)                             \
    if constexpr (FieldRole::role == FieldRole::kInput) {                                               \
        const int w = width_of(width);                                                                  \
        for (int d = 0; d < w; ++d) put(name, w * dst + d, normalized(in.name.at(b, k, d)));            \
    } else if constexpr (FieldRole::role == FieldRole::kState || FieldRole::role == FieldRole::kHidden || \
                         (FieldRole::role == FieldRole::kReadOnly && (fallback) != kDerived)) {          \
        const int w = width_of(width);                                                                  \
        for (int d = 0; d < w; ++d) put(name, w * dst + d, static_cast<T>(fallback));                   \
    }
            VOSIM_AGENT_FIELDS(VOSIM_APPEND_FIELD)
#undef VOSIM_APPEND_FIELD
            for (int d = 0; d < dimensions_; ++d) new_velocities[dimensions_ * dst + d] = velocities[dimensions_ * dst + d];
            // Scene-major ids: within a scene, ids grow with the slot, which
            // `locate` relies on.
            ids[dst] = next_id_ + static_cast<std::int64_t>(src);
            new_ids[src] = ids[dst];
        }
    }
    next_id_ += static_cast<std::int64_t>(scenes_) * n;
    count_ += n;
    return new_ids;
}

bool AgentState::locate(std::int64_t id, int& scene, int& slot) const {
    if (id < 0) return false;
    for (int b = 0; b < scenes_; ++b) {
        // Ids of live agents ascend with the slot; removed slots hold -1, so
        // search the ascending sequence while skipping those markers.
        int lo = 0;
        int hi = count_ - 1;
        while (lo <= hi) {
            int mid = lo + (hi - lo) / 2;
            int probe = mid;
            while (probe <= hi && ids[index(b, probe)] == kRemovedId) ++probe;
            if (probe > hi) {
                hi = mid - 1;
                continue;
            }
            const std::int64_t value = ids[index(b, probe)];
            if (value == id) {
                scene = b;
                slot = probe;
                return true;
            }
            if (value < id) {
                lo = probe + 1;
            } else {
                hi = mid - 1;
            }
        }
    }
    return false;
}

void AgentState::remove(const std::int64_t* remove_ids, std::size_t count) {
    std::vector<std::pair<std::size_t, std::size_t>> found;  // (storage index, argument index)
    found.reserve(count);
    for (std::size_t k = 0; k < count; ++k) {
        int b = 0;
        int slot = 0;
        if (!locate(remove_ids[k], b, slot)) {
            throw std::invalid_argument("ids[" + std::to_string(k) + "]: no agent with id " +
                                        std::to_string(remove_ids[k]));
        }
        found.emplace_back(index(b, slot), k);
    }
    std::sort(found.begin(), found.end());
    for (std::size_t k = 1; k < found.size(); ++k) {
        if (found[k].first == found[k - 1].first) {
            const std::size_t arg = std::max(found[k].second, found[k - 1].second);
            throw std::invalid_argument("ids[" + std::to_string(arg) + "]: id " +
                                        std::to_string(remove_ids[arg]) + " is given twice");
        }
    }
    for (const auto& f : found) {
        active[f.first] = 0;
        ids[f.first] = kRemovedId;
    }

    // Compact: keep a slot if any scene still has an agent in it.
    std::vector<int> kept;
    kept.reserve(count_);
    for (int s = 0; s < count_; ++s) {
        for (int b = 0; b < scenes_; ++b) {
            if (ids[index(b, s)] != kRemovedId) {
                kept.push_back(s);
                break;
            }
        }
    }
    if (static_cast<int>(kept.size()) == count_) return;
    // Build fresh columns so that views taken earlier keep the old contents.
    const int new_count = static_cast<int>(kept.size());
    for_each_column([&](auto& column, int width, const char*) {
        using Value = std::remove_cv_t<std::remove_reference_t<decltype(column[0])>>;
        if constexpr (is_lazy_column_v<std::remove_reference_t<decltype(column)>>) {
            if (column.uniform()) return;  // the kept agents hold its one value too
        }
        Column<Value> fresh(static_cast<std::size_t>(scenes_) * capacity_ * width);
        for (int b = 0; b < scenes_; ++b) {
            for (int k = 0; k < new_count; ++k) {
                const std::size_t src = index(b, kept[k]) * width;
                const std::size_t dst = index(b, k) * width;
                for (int d = 0; d < width; ++d) fresh[dst + d] = column[src + d];
            }
        }
        replace(column, std::move(fresh));
    });
    count_ = new_count;
}

}  // namespace vosim
