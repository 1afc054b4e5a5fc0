#include <pybind11/pybind11.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "methods/avo/avo.hpp"

namespace py = pybind11;

namespace vosim::bindings {

void bind_avo(py::module_& m) {
    py::class_<Avo, Method, std::shared_ptr<Avo>>(m, "Avo").def(
        py::init([](const std::string& variant) {
            if (variant == "paper") return std::make_shared<Avo>(AvoVariant::kPaper);
            if (variant == "avo2") return std::make_shared<Avo>(AvoVariant::kAvo2);
            throw std::invalid_argument("variant is '" + variant + "'; must be paper or avo2");
        }),
        py::kw_only(), py::arg("variant") = "paper");
}

}  // namespace vosim::bindings
