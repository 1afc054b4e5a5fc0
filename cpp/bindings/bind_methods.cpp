#include <pybind11/pybind11.h>

#include <cmath>
#include <memory>
#include <stdexcept>

#include "method.hpp"
#include "orca.hpp"

namespace py = pybind11;

namespace vosim::bindings {

void bind_methods(py::module_& m) {
    py::class_<Method, std::shared_ptr<Method>>(m, "Method")
        .def_property_readonly("name", &Method::name)
        .def(
            "set_preference_noise",
            [](Method& method, double magnitude, std::uint64_t seed) {
                if (!(std::isfinite(magnitude) && magnitude >= 0.0)) {
                    throw std::invalid_argument("perturbation must be finite and >= 0");
                }
                method.set_preference_noise({magnitude, seed});
            },
            py::arg("magnitude"), py::arg("seed"));

    py::class_<Orca, Method, std::shared_ptr<Orca>>(m, "Orca")
        .def(py::init([](double bisector_weight) {
                 OrcaConfig config;
                 config.bisector_weight = bisector_weight;
                 return std::make_shared<Orca>(config);
             }),
             py::kw_only(), py::arg("bisector_weight") = 1.0)
        .def_property_readonly("bisector_weight",
                               [](const Orca& o) { return o.config().bisector_weight; });
}

}  // namespace vosim::bindings
