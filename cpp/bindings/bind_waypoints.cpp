// Waypoint tracks (navigation/waypoints.hpp), a scene feature of the engine:
// setting them and what each agent has left to reach.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "array_args.hpp"
#include "engine/engine.hpp"
#include "navigation/waypoints.hpp"

namespace py = pybind11;

namespace vosim::bindings {

namespace {

using Doubles = py::array_t<double, py::array::c_style | py::array::forcecast>;
using Int64s = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;
using Bytes = py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>;

Waypoints& waypoints(Engine& e) { return e.features().get<Waypoints>(); }
const Waypoints& waypoints(const Engine& e) { return e.features().get<Waypoints>(); }

}  // namespace

void bind_waypoints(py::module_& m) {
    py::list advance_rules;  // by code (WaypointAdvance)
    for (int k = 0; k < kWaypointAdvanceCount; ++k) advance_rules.append(advance_name(static_cast<WaypointAdvance>(k)));
    m.attr("WAYPOINT_ADVANCE") = py::tuple(advance_rules);

    auto engine = py::reinterpret_borrow<py::class_<Engine>>(m.attr("Engine"));
    engine.def(
        "set_waypoints",
        [](Engine& e, const Int64s& ids, const Int64s& offsets, const Doubles& points, const Doubles& radius,
           const std::optional<Bytes>& advance) {
            const py::ssize_t n = ids.size();
            require_size(offsets, n + 1, "offsets");
            require_size(radius, n, "radius");
            if (advance) require_size(*advance, n, "advance");
            const int d = e.dimensions();
            if (points.ndim() != 2 || points.shape(1) != d) {
                throw std::invalid_argument("points: expected (k, " + std::to_string(d) + ")");
            }
            const std::int64_t* o = offsets.data();
            for (py::ssize_t k = 0; k <= n; ++k) {
                if (o[k] < 0 || o[k] > points.shape(0)) throw std::invalid_argument("offsets out of range");
            }
            e.exclusively([&] {
                waypoints(e).replace(e.state(), ids.data(), static_cast<std::size_t>(n), o, points.data(),
                                     radius.data(), advance ? advance->data() : nullptr);
                return 0;
            });
        },
        py::arg("ids"), py::arg("offsets"), py::arg("points"), py::arg("radius"), py::arg("advance") = py::none());
    engine.def("waypoints_remaining", [](const Engine& e) {
        std::vector<std::int32_t> left;
        waypoints(e).remaining(e.state(), left);
        py::array_t<std::int32_t> out(
            {static_cast<py::ssize_t>(e.state().scenes()), static_cast<py::ssize_t>(e.state().count())});
        if (!left.empty()) std::memcpy(out.mutable_data(), left.data(), left.size() * sizeof(std::int32_t));
        return out;
    });
}

}  // namespace vosim::bindings
