// Batch-first structure-of-arrays agent state: B scenes x N agent slots.
//
// Every per-agent field is one column laid out scene-major, [scene][slot][width],
// with `capacity()` slots reserved per scene so that appending agents does not
// reallocate every time. Slot k of scene b lives at `index(b, k)`.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "state/agent_fields.hpp"
#include "state/column.hpp"
#include "state/lazy_column.hpp"
#include "maths/vec.hpp"

namespace vosim {

// Values for `n` new agents in every scene, scene-major ([scene][agent][width]),
// already broadcast to full size by the caller. Every input field's pointer is
// required (append refuses a missing one).
// Where AgentState::append reads one field: for agent k of scene b (and
// component d of a vector field) data[b * scene_step + k * agent_step + d].
// Steps of 0 repeat values (one value for every agent, or the same agents
// in every scene) without copying them.
template <typename T>
struct AgentSource {
    const T* data = nullptr;
    std::ptrdiff_t scene_step = 0;
    std::ptrdiff_t agent_step = 0;
    T at(int scene, int agent, int component = 0) const {
        return data[scene * scene_step + agent * agent_step + component];
    }
};

// add_agents' input: one source per field of the table (agent_fields.hpp);
// those of fields that are not inputs stay unused.
struct AgentInput {
#define VOSIM_AGENT_SOURCE(name, T, ...) AgentSource<T> name;
    VOSIM_AGENT_FIELDS(VOSIM_AGENT_SOURCE)
#undef VOSIM_AGENT_SOURCE
};

// A field's column: lazy (one value while every agent holds it) for the
// fields kLazyFields lists.
template <class T, bool lazy>
using ColumnOf = std::conditional_t<lazy, LazyColumn<T>, Column<T>>;

class AgentState {
public:
    // Agent slots per scene are indexed by int (and by int32 in neighbour lists).
    static constexpr int kMaxAgents = 2147483647;

    // `dimensions` (2 or 3) is the width of every vector field.
    explicit AgentState(int scenes, int dimensions = 2);

    int scenes() const { return scenes_; }
    int dimensions() const { return dimensions_; }
    // Components per agent of a field of the table with this width.
    int width_of(int table_width) const { return table_width == kVector ? dimensions_ : table_width; }
    int count() const { return count_; }        // slots in use per scene (N)
    int capacity() const { return capacity_; }  // slots allocated per scene
    std::size_t index(int scene, int slot) const {
        return static_cast<std::size_t>(scene) * capacity_ + slot;
    }

    // Appends `n` agents to every scene and returns their ids, scene-major.
    std::vector<std::int64_t> append(int n, const AgentInput& input);

    // Marks the agents with these ids inactive, then drops every slot that is
    // inactive in all scenes (order preserving). Throws std::invalid_argument
    // naming the first unknown or repeated id; nothing changes in that case.
    void remove(const std::int64_t* ids, std::size_t count);

    // Replaces every column by zeroed ones of `count` slots per scene and
    // sets the next id to hand out: the first half of restoring a saved
    // state, whose caller then fills the columns.
    void reset(int count, std::int64_t next_id);
    std::int64_t next_id() const { return next_id_; }

    // Finds the (scene, slot) of an id; returns false when unknown.
    bool locate(std::int64_t id, int& scene, int& slot) const;

    // The vectors of agent i, as the engine's vector type (Vec2 unless a
    // 3D engine asks for Vec3).
    template <class V = Vec2>
    V position(std::size_t i) const { return load<V>(positions.data(), i); }
    template <class V = Vec2>
    V velocity(std::size_t i) const { return load<V>(velocities.data(), i); }
    template <class V = Vec2>
    V pref_velocity(std::size_t i) const { return load<V>(pref_velocities.data(), i); }
    template <class V = Vec2>
    V goal(std::size_t i) const { return load<V>(goals.data(), i); }

    // Calls f(column, width, name) for every column of the field table (width:
    // components per agent, the dimension for vectors), so
    // that growth, compaction and saved states (engine_state.cpp) treat all of
    // them alike: a field added to the table is saved and restored too.
    template <class F>
    void for_each_column(F&& f) {
#define VOSIM_VISIT_COLUMN(name, T, width, ...) f(name, width_of(width), #name);
        VOSIM_AGENT_FIELDS(VOSIM_VISIT_COLUMN)
#undef VOSIM_VISIT_COLUMN
    }

    // The columns, one per row of the field table (public: the engine and the
    // bindings work on them directly). A lazy one is written only after
    // materialize(), in serial code.
#define VOSIM_DECLARE_COLUMN(name, T, ...) ColumnOf<T, stored_lazily(#name)> name;
    VOSIM_AGENT_FIELDS(VOSIM_DECLARE_COLUMN)
#undef VOSIM_DECLARE_COLUMN

private:
    void reallocate(int new_capacity);

    int scenes_;
    int dimensions_;
    int count_ = 0;
    int capacity_ = 0;
    std::int64_t next_id_ = 0;
};

}  // namespace vosim
