// A column of per-agent data held as one value while every agent has it.
//
// Most agents leave most method-specific fields (priorities, pre-movement
// times, drive limits, ...) at their defaults, and a million agents would pay
// 8 bytes each for every such double. A LazyColumn stores one value until an
// agent needs another; it then becomes an ordinary Column (materialize()),
// and stays one.
//
// Reading costs one test per element (operator[]). Writing needs the column
// materialized first, which allocates: writers call materialize() in serial
// code (before a parallel loop), never inside one. The engine's hot fields
// (positions, radii, ...) are plain Columns; agent_fields.hpp lists the lazy ones.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <utility>

#include "state/column.hpp"

namespace vosim {

template <class T>
class LazyColumn {
public:
    LazyColumn() = default;
    // `elements` values, all equal to `value`, held as one.
    LazyColumn(std::size_t elements, T value) : elements_(elements), value_(value) {}

    std::size_t elements() const { return elements_; }
    // Whether every element is value() and no buffer is held.
    bool uniform() const { return values_.data() == nullptr; }
    T value() const { return value_; }  // every element's, while uniform()

    T operator[](std::size_t i) const { return uniform() ? value_ : values_[i]; }

    // The elements as an ordinary column, filled from the one value on the
    // first call. Serial code only: it allocates and replaces the storage.
    Column<T>& materialize() {
        if (uniform() && elements_ > 0) {
            Column<T> filled(elements_);
            std::fill_n(filled.data(), elements_, value_);
            values_ = std::move(filled);
        }
        return values_;
    }
    // Element i of a materialized column, to write.
    T& written(std::size_t i) {
        assert(!uniform());
        return values_[i];
    }
    const T* data() const { return values_.data(); }  // null while uniform

    // Replaces the contents: `elements` copies of one value, or a column.
    void assign_uniform(std::size_t elements, T value) {
        values_ = Column<T>();
        elements_ = elements;
        value_ = value;
    }
    void assign(Column<T>&& values) {
        elements_ = values.elements();
        values_ = std::move(values);
    }

private:
    Column<T> values_;  // empty while uniform
    std::size_t elements_ = 0;
    T value_{};
};

template <class C>
inline constexpr bool is_lazy_column_v = false;
template <class T>
inline constexpr bool is_lazy_column_v<LazyColumn<T>> = true;

// Whether two values are the same bit for bit (NaN equals NaN, -0 differs
// from 0): a lazy column stays uniform only for exactly its value.
template <class T>
bool same_bits(T a, T b) {
    static_assert(std::is_trivially_copyable_v<T>);
    return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Whether value(b, k) is `first`, bit for bit, for every scene b < scenes
// and k < per_scene: whether a lazy column may hold those values as one.
template <class T, class Values>
bool all_same_bits(T first, int scenes, std::size_t per_scene, Values&& value) {
    for (int b = 0; b < scenes; ++b) {
        for (std::size_t k = 0; k < per_scene; ++k) {
            if (!same_bits(value(b, k), first)) return false;
        }
    }
    return true;
}

}  // namespace vosim
