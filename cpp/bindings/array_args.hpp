// Checks of the arrays the bindings take.
#pragma once

#include <pybind11/numpy.h>

#include <stdexcept>
#include <string>

namespace vosim::bindings {

// std::invalid_argument naming `name` unless `a` holds `size` values.
inline void require_size(const pybind11::array& a, pybind11::ssize_t size, const char* name) {
    if (a.size() != size) {
        throw std::invalid_argument(std::string(name) + ": expected " + std::to_string(size) + " values, got " +
                                    std::to_string(a.size()));
    }
}

}  // namespace vosim::bindings
