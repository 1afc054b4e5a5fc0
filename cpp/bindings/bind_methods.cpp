#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>

#include "method.hpp"
#include "methods/registry.hpp"
#include "method_params.hpp"

namespace py = pybind11;

namespace vosim::bindings {

void bind_methods(py::module_& m) {
    py::class_<Method, std::shared_ptr<Method>>(m, "Method")
        .def_property_readonly("name", &Method::name);

    // The registry as plain data, so that Python builds its method classes
    // (signatures, defaults, checks) and the CLI its list from it.
    const char* kinds[] = {"real", "integer", "flag", "choice"};
    py::list specs;
    for (const MethodSpec& spec : method_registry()) {
        py::list params;
        for (const ParamSpec& param : spec.params) {
            py::dict p;
            p["name"] = param.name;
            p["kind"] = kinds[static_cast<int>(param.kind)];
            p["default"] = std::visit([](const auto& value) { return py::cast(value); }, param.default_value);
            p["minimum"] = param.minimum;
            p["maximum"] = param.maximum;
            p["exclusive_minimum"] = param.exclusive_minimum;
            p["choices"] = py::tuple(py::cast(param.choices));
            p["doc"] = param.doc;
            params.append(p);
        }
        py::dict d;
        d["name"] = spec.name;
        d["family"] = spec.family;
        d["dimensions"] = py::tuple(py::cast(spec.dimensions));
        d["aliases"] = py::tuple(py::cast(spec.aliases));
        d["summary"] = spec.summary;
        d["params"] = py::tuple(params);
        specs.append(d);
    }
    m.attr("METHODS") = py::tuple(specs);

    m.def(
        "make_method",
        [](const std::string& name, const py::dict& params, std::uint64_t seed, int dimension) {
            const std::map<std::string, ParamValue> values = param_values(find_method(name), params);
            return make_method(name, values, seed, dimension);
        },
        py::arg("name"), py::arg("params"), py::kw_only(), py::arg("seed") = 0, py::arg("dimension") = 2,
        "The registered method `name` from its settings (missing ones take their defaults).");
}

}  // namespace vosim::bindings
