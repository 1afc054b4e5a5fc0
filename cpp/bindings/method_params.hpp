// A method's settings from a Python dict, each read as the kind the registry
// declares for it (Python's bool is an int); shared by make_method and
// solve_local.
#pragma once

#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>

#include "methods/registry.hpp"

namespace vosim::bindings {

inline std::map<std::string, ParamValue> param_values(const MethodSpec& spec, const pybind11::dict& params) {
    std::map<std::string, ParamValue> values;
    for (const auto& [key, value] : params) {
        const std::string name = pybind11::cast<std::string>(key);
        const auto declared = std::find_if(spec.params.begin(), spec.params.end(),
                                           [&](const ParamSpec& p) { return p.name == name; });
        if (declared == spec.params.end()) {
            throw std::invalid_argument("method: " + spec.name + " has no setting '" + name + "'");
        }
        switch (declared->kind) {
            case ParamKind::real: values[name] = pybind11::cast<double>(value); break;
            case ParamKind::integer: values[name] = pybind11::cast<std::int64_t>(value); break;
            case ParamKind::flag: values[name] = pybind11::cast<bool>(value); break;
            case ParamKind::choice: values[name] = pybind11::cast<std::string>(value); break;
        }
    }
    return values;
}

}  // namespace vosim::bindings
