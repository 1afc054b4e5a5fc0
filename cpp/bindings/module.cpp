// The compiled part of vosim. Every concept is bound in its own file; this
// one only puts them together, in the order of the list (files that extend
// Engine come after bind_engine).
#include <pybind11/pybind11.h>

namespace py = pybind11;

#define VOSIM_BINDINGS(X) \
    X(threads)            \
    X(simd)               \
    X(methods)            \
    X(engine)             \
    X(metrics)            \
    X(obstacles)          \
    X(obstacles3d)        \
    X(solve_local)        \
    X(diagnostics)        \
    X(navigation)         \
    X(state)              \
    X(sinks)              \
    X(speed_zones)        \
    X(periodic)           \
    X(waiting)            \
    X(waypoints)

namespace vosim::bindings {
#define VOSIM_BINDING_DECLARATION(name) void bind_##name(py::module_& m);
VOSIM_BINDINGS(VOSIM_BINDING_DECLARATION)
#undef VOSIM_BINDING_DECLARATION
}  // namespace vosim::bindings

PYBIND11_MODULE(_core, m) {
    m.doc() = "vosim's C++ engine (use the vosim package, not this module)";
#define VOSIM_BINDING_CALL(name) vosim::bindings::bind_##name(m);
    VOSIM_BINDINGS(VOSIM_BINDING_CALL)
#undef VOSIM_BINDING_CALL
}
