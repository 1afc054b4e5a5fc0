// NumPy views onto engine columns without copying.
//
// The array's base object is a capsule that owns a copy of the column's
// shared pointer: the memory lives as long as the view, even after the engine
// reallocated the column or was destroyed (the view is then stale, not
// dangling).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <vector>

#include "state/column.hpp"

namespace vosim::bindings {

namespace py = pybind11;

// A view of `column` shaped (scenes, count[, width]) over storage laid out as
// (scenes, capacity, width).
template <class T>
py::array column_view(const Column<T>& column, int scenes, int count, int capacity, int width,
                      bool writable, const py::dtype& dtype = py::dtype::of<T>()) {
    std::vector<py::ssize_t> shape{scenes, count};
    std::vector<py::ssize_t> strides{static_cast<py::ssize_t>(sizeof(T)) * capacity * width,
                                     static_cast<py::ssize_t>(sizeof(T)) * width};
    if (width > 1) {
        shape.push_back(width);
        strides.push_back(sizeof(T));
    }
    if (!column.data()) {
        // Nothing allocated yet: an empty array of the right shape.
        py::array empty(dtype, shape);
        if (!writable) empty.attr("flags").attr("writeable") = false;
        return empty;
    }
    auto* owner = new std::shared_ptr<T[]>(column.shared());
    py::capsule base(owner, [](void* p) { delete static_cast<std::shared_ptr<T[]>*>(p); });
    py::array view(dtype, shape, strides, column.data(), base);
    if (!writable) view.attr("flags").attr("writeable") = false;
    return view;
}

}  // namespace vosim::bindings
