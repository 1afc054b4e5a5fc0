#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "maths/simd/simd_level.hpp"

namespace py = pybind11;

namespace vosim::bindings {

void bind_simd(py::module_& m) {
    m.def("simd_level", [] { return std::string(simd_level_name(simd_level())); },
          "The instruction set the lane kernels use now: 'scalar', 'sse2' or 'avx2'.");
    m.def("best_simd_level", [] { return std::string(simd_level_name(best_simd_level())); },
          "The best instruction set this build and CPU support for the lane kernels.");
    m.def("set_simd_level", [](const std::string& level) { set_simd_level(parse_simd_level(level)); },
          py::arg("level"), "Pin the lane kernels to one instruction set (every one gives the same bits).");
}

}  // namespace vosim::bindings
