#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <stdexcept>

#include "clearance.hpp"

namespace py = pybind11;

namespace vosim::bindings {

namespace {

using Doubles = py::array_t<double, py::array::c_style | py::array::forcecast>;

// positions (T, B, N, 2), radius (B, N) -> (T, B) smallest clearance.
py::array_t<double> min_clearance_frames(const Doubles& positions, const Doubles& radius) {
    if (positions.ndim() != 4 || positions.shape(3) != 2) {
        throw std::invalid_argument("positions: expected shape (T, B, N, 2)");
    }
    const py::ssize_t frames = positions.shape(0), scenes = positions.shape(1), n = positions.shape(2);
    if (radius.ndim() != 2 || radius.shape(0) != scenes || radius.shape(1) != n) {
        throw std::invalid_argument("radius: expected shape (B, N) matching positions");
    }
    py::array_t<double> out({frames, scenes});
    double* result = out.mutable_data();
    const double* p = positions.data();
    const double* r = radius.data();
    {
        py::gil_scoped_release release;
        NeighborGrid grid;
        for (py::ssize_t t = 0; t < frames; ++t) {
            for (py::ssize_t b = 0; b < scenes; ++b) {
                result[t * scenes + b] = min_clearance(p + ((t * scenes + b) * n) * 2, r + b * n,
                                                       nullptr, static_cast<int>(n), grid);
            }
        }
    }
    return out;
}

}  // namespace

void bind_metrics(py::module_& m) {
    m.def("min_clearance", &min_clearance_frames, py::arg("positions"), py::arg("radius"),
          "Smallest dist - r_i - r_j per frame and scene: positions (T, B, N, 2), radius (B, N).");
}

}  // namespace vosim::bindings
