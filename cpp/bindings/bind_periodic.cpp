// A periodic axis (features/periodic/periodic_axis.hpp), a scene feature of
// the Engine: set and read it.
#include <pybind11/pybind11.h>

#include "engine/engine.hpp"
#include "features/periodic/periodic_axis.hpp"

namespace py = pybind11;

namespace vosim::bindings {

void bind_periodic(py::module_& m) {
    auto engine = py::reinterpret_borrow<py::class_<Engine>>(m.attr("Engine"));
    engine.def(
        "set_periodic",
        [](Engine& e, int axis, double low, double high) {
            e.exclusively([&] {
                e.features().get<PeriodicAxis>().set(Periodic{axis, low, high}, *e.method(), e.dimensions());
                return 0;
            });
        },
        py::arg("axis"), py::arg("low"), py::arg("high"),
        "Wrap positions along axis 0 (x) or 1 (y) into [low, high), neighbours seen across the seam; "
        "axis -1: off.");
    engine.def(
        "periodic",
        [](const Engine& e) -> py::object {
            const Periodic& p = e.features().get<PeriodicAxis>().axis();
            if (!p.on()) return py::none();
            return py::make_tuple(p.axis, p.low, p.high);
        },
        "The periodic axis as (axis, low, high), or None.");
}

}  // namespace vosim::bindings
