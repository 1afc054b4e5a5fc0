// The compiled part of vosim. Every concept is bound in its own file; this
// one only puts them together.
#include <pybind11/pybind11.h>

namespace py = pybind11;

namespace vosim::bindings {
void bind_threads(py::module_& m);
void bind_methods(py::module_& m);
void bind_engine(py::module_& m);
void bind_metrics(py::module_& m);
void bind_obstacles(py::module_& m);
void bind_obstacles3d(py::module_& m);
void bind_solve_local(py::module_& m);
void bind_diagnostics(py::module_& m);
void bind_navigation(py::module_& m);
void bind_state(py::module_& m);
void bind_sinks(py::module_& m);
void bind_speed_zones(py::module_& m);
void bind_periodic(py::module_& m);
}  // namespace vosim::bindings

PYBIND11_MODULE(_core, m) {
    m.doc() = "vosim's C++ engine (use the vosim package, not this module)";
    vosim::bindings::bind_threads(m);
    vosim::bindings::bind_methods(m);
    vosim::bindings::bind_engine(m);
    vosim::bindings::bind_metrics(m);
    vosim::bindings::bind_obstacles(m);  // extends Engine: after bind_engine
    vosim::bindings::bind_obstacles3d(m);
    vosim::bindings::bind_solve_local(m);
    vosim::bindings::bind_diagnostics(m);  // extends Engine
    vosim::bindings::bind_navigation(m);
    vosim::bindings::bind_state(m);        // extends Engine
    vosim::bindings::bind_sinks(m);        // extends Engine
    vosim::bindings::bind_speed_zones(m);  // extends Engine
    vosim::bindings::bind_periodic(m);     // extends Engine
}
