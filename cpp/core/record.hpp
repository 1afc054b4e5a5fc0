// A record of named values, arrays and nested records, in the order they were
// put. A method fills one with what it saw and decided (inspection, a local
// solve): the method owns its entries, and the bindings turn any record into
// a dict (arrays into NumPy arrays, nested records into dicts) without
// knowing the method.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "maths/vec.hpp"  // kDim
#include "maths/vec2.hpp"
#include "maths/vec3.hpp"

namespace vosim {

struct RecordEntry {
    enum class Type { real, integer, flag, text, record };
    std::string name;
    Type type = Type::real;
    std::vector<std::size_t> shape;  // empty: a single value
    std::vector<double> numbers;     // real, integer and flag values (flags as 0 or 1), row-major
    std::vector<std::string> texts;  // text: one per row (one without a shape)
    std::vector<RecordEntry> entries;  // record: its entries
};

class Record {
public:
    void real(std::string name, double value) { add(std::move(name), RecordEntry::Type::real, {}, {value}); }
    void integer(std::string name, std::int64_t value) {
        add(std::move(name), RecordEntry::Type::integer, {}, {static_cast<double>(value)});
    }
    void flag(std::string name, bool value) { add(std::move(name), RecordEntry::Type::flag, {}, {value ? 1.0 : 0.0}); }
    void text(std::string name, std::string value) {
        RecordEntry entry;
        entry.name = std::move(name);
        entry.type = RecordEntry::Type::text;
        entry.texts = {std::move(value)};
        entries_.push_back(std::move(entry));
    }
    // One vector, shape (2,) or (3,).
    template <class V>
    void vector(std::string name, V value) {
        std::vector<double> flat;
        push(flat, value);
        add(std::move(name), RecordEntry::Type::real, {static_cast<std::size_t>(kDim<V>)}, std::move(flat));
    }
    // One value per row (shape (n,)), of the given type.
    void column(std::string name, RecordEntry::Type type, std::vector<double> values) {
        const std::size_t n = values.size();
        add(std::move(name), type, {n}, std::move(values));
    }
    // One vector per row, shape (n, 2) or (n, 3).
    template <class V>
    void vectors(std::string name, const std::vector<V>& values) {
        std::vector<double> flat;
        flat.reserve(kDim<V> * values.size());
        for (const V& v : values) push(flat, v);
        add(std::move(name), RecordEntry::Type::real, {values.size(), static_cast<std::size_t>(kDim<V>)},
            std::move(flat));
    }
    // Real numbers of any shape, row-major.
    void reals(std::string name, std::vector<std::size_t> shape, std::vector<double> values) {
        add(std::move(name), RecordEntry::Type::real, std::move(shape), std::move(values));
    }
    void texts(std::string name, std::vector<std::string> values) {
        RecordEntry entry;
        entry.name = std::move(name);
        entry.type = RecordEntry::Type::text;
        entry.shape = {values.size()};
        entry.texts = std::move(values);
        entries_.push_back(std::move(entry));
    }
    // A nested record.
    void record(std::string name, Record value) {
        RecordEntry entry;
        entry.name = std::move(name);
        entry.type = RecordEntry::Type::record;
        entry.entries = std::move(value.entries_);
        entries_.push_back(std::move(entry));
    }

    const std::vector<RecordEntry>& entries() const { return entries_; }
    bool empty() const { return entries_.empty(); }
    // The entry of that name, or null.
    const RecordEntry* find(const std::string& name) const {
        for (const RecordEntry& e : entries_) {
            if (e.name == name) return &e;
        }
        return nullptr;
    }

private:
    static void push(std::vector<double>& flat, Vec2 v) { flat.insert(flat.end(), {v.x, v.y}); }
    static void push(std::vector<double>& flat, Vec3 v) { flat.insert(flat.end(), {v.x, v.y, v.z}); }
    void add(std::string name, RecordEntry::Type type, std::vector<std::size_t> shape, std::vector<double> numbers) {
        RecordEntry entry;
        entry.name = std::move(name);
        entry.type = type;
        entry.shape = std::move(shape);
        entry.numbers = std::move(numbers);
        entries_.push_back(std::move(entry));
    }

    std::vector<RecordEntry> entries_;
};

}  // namespace vosim
