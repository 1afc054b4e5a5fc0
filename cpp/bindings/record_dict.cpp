#include "record_dict.hpp"

#include <pybind11/numpy.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace py = pybind11;

namespace vosim::bindings {

namespace {

void put(const std::vector<RecordEntry>& entries, py::dict& out) {
    for (const RecordEntry& entry : entries) out[py::str(entry.name)] = entry_value(entry);
}

}  // namespace

py::object entry_value(const RecordEntry& e) {
    using Type = RecordEntry::Type;
    if (e.type == Type::record) {
        py::dict out;
        put(e.entries, out);
        return std::move(out);
    }
    if (e.type == Type::text) {
        if (e.shape.empty()) return py::str(e.texts.at(0));
        py::list texts;
        for (const std::string& text : e.texts) texts.append(text);
        return std::move(texts);
    }
    if (e.shape.empty()) {
        const double v = e.numbers.at(0);
        if (e.type == Type::integer) return py::int_(static_cast<std::int64_t>(v));
        if (e.type == Type::flag) return py::bool_(v != 0.0);
        return py::float_(v);
    }
    const std::vector<py::ssize_t> shape(e.shape.begin(), e.shape.end());
    if (e.type == Type::integer) {
        py::array_t<std::int32_t> out(shape);
        for (std::size_t k = 0; k < e.numbers.size(); ++k) {
            out.mutable_data()[k] = static_cast<std::int32_t>(e.numbers[k]);
        }
        return std::move(out);
    }
    if (e.type == Type::flag) {
        py::array_t<bool> out(shape);
        for (std::size_t k = 0; k < e.numbers.size(); ++k) out.mutable_data()[k] = e.numbers[k] != 0.0;
        return std::move(out);
    }
    py::array_t<double> out(shape);
    std::copy(e.numbers.begin(), e.numbers.end(), out.mutable_data());
    return std::move(out);
}

void put_entries(const Record& record, py::dict& out) { put(record.entries(), out); }

}  // namespace vosim::bindings
