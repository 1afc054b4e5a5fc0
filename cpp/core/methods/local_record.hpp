// What a method reports of one local solve (LocalSolver), as named values
// and arrays: the method owns what it records, the bindings turn any record
// into a dict without knowing the method.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "maths/vec2.hpp"

namespace vosim {

struct RecordEntry {
    enum class Type { real, integer, flag, text };
    std::string name;
    Type type = Type::real;
    std::vector<std::size_t> shape;  // empty: a single value
    std::vector<double> numbers;     // real, integer and flag values (flags as 0 or 1), row-major
    std::vector<std::string> texts;  // text: one per row
};

class LocalRecord {
public:
    void real(std::string name, double value) { add(std::move(name), RecordEntry::Type::real, {}, {value}); }
    void integer(std::string name, std::int64_t value) {
        add(std::move(name), RecordEntry::Type::integer, {}, {static_cast<double>(value)});
    }
    void flag(std::string name, bool value) { add(std::move(name), RecordEntry::Type::flag, {}, {value ? 1.0 : 0.0}); }
    void vector(std::string name, Vec2 value) {
        add(std::move(name), RecordEntry::Type::real, {2}, {value.x, value.y});
    }
    // One value per row (shape (n,)), of the given type.
    void column(std::string name, RecordEntry::Type type, std::vector<double> values) {
        const std::size_t n = values.size();
        add(std::move(name), type, {n}, std::move(values));
    }
    // One vector per row (shape (n, 2)).
    void vectors(std::string name, const std::vector<Vec2>& values) {
        std::vector<double> flat;
        flat.reserve(2 * values.size());
        for (const Vec2& v : values) flat.insert(flat.end(), {v.x, v.y});
        add(std::move(name), RecordEntry::Type::real, {values.size(), 2}, std::move(flat));
    }
    void texts(std::string name, std::vector<std::string> values) {
        RecordEntry entry;
        entry.name = std::move(name);
        entry.type = RecordEntry::Type::text;
        entry.shape = {values.size()};
        entry.texts = std::move(values);
        entries_.push_back(std::move(entry));
    }

    const std::vector<RecordEntry>& entries() const { return entries_; }

private:
    void add(std::string name, RecordEntry::Type type, std::vector<std::size_t> shape, std::vector<double> numbers) {
        entries_.push_back({std::move(name), type, std::move(shape), std::move(numbers), {}});
    }

    std::vector<RecordEntry> entries_;
};

}  // namespace vosim
