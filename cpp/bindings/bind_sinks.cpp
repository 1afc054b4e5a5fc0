// Sinks (features/sinks/sinks.hpp) on the Engine: add, remove, open and close, list.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "engine/engine.hpp"
#include "features/sinks/sinks.hpp"

namespace py = pybind11;

namespace vosim::bindings {

namespace {

using Doubles = py::array_t<double, py::array::c_style | py::array::forcecast>;

py::array_t<double> points_array(const std::vector<Vec2>& points) {
    py::array_t<double> out({static_cast<py::ssize_t>(points.size()), py::ssize_t{2}});
    double* data = out.mutable_data();
    for (std::size_t k = 0; k < points.size(); ++k) {
        data[2 * k] = points[k].x;
        data[2 * k + 1] = points[k].y;
    }
    out.attr("flags").attr("writeable") = false;
    return out;
}

Sinks& sinks(Engine& e) { return e.features().get<Sinks>(); }
const Sinks& sinks(const Engine& e) { return e.features().get<Sinks>(); }

}  // namespace

void bind_sinks(py::module_& m) {
    auto engine = py::reinterpret_borrow<py::class_<Engine>>(m.attr("Engine"));
    engine.def(
        "add_sink",
        [](Engine& e, const Doubles& points, int scene) {
            if (points.ndim() != 2 || points.shape(1) != 2) throw std::invalid_argument("points: expected shape (n, 2)");
            std::vector<Vec2> p(static_cast<std::size_t>(points.shape(0)));
            for (std::size_t k = 0; k < p.size(); ++k) p[k] = Vec2(points.data()[2 * k], points.data()[2 * k + 1]);
            py::gil_scoped_release release;
            return e.exclusively(
                [&] { return sinks(e).add(scene, e.state(), p.data(), static_cast<int>(p.size()), p.size() == 2); });
        },
        py::arg("points"), py::arg("scene"), "Add an area (3+ points) or a line (2 points); returns its id.");
    engine.def(
        "remove_sink",
        [](Engine& e, int id) {
            e.exclusively([&] {
                sinks(e).remove(id);
                return 0;
            });
        },
        py::arg("id"));
    engine.def(
        "set_sink_open",
        [](Engine& e, int id, double opens, double closes) {
            e.exclusively([&] {
                sinks(e).set_open(id, opens, closes);
                return 0;
            });
        },
        py::arg("id"), py::arg("opens"), py::arg("closes"));
    engine.def(
        "sink_open",
        [](const Engine& e, int id) {
            const std::vector<Sink>& all = sinks(e).all();
            if (id < 0 || id >= static_cast<int>(all.size()) || all[id].removed) {
                throw std::invalid_argument("sink_id: no sink " + std::to_string(id) + " (never added, or removed)");
            }
            return py::make_tuple(all[id].opens, all[id].closes);
        },
        py::arg("id"), "(opens, closes): the sink takes agents while opens <= t < closes.");
    engine.def(
        "sinks",
        [](const Engine& e) {
            // The live sinks: [(id, kind, points, scene)], scene -1 for every scene.
            py::list out;
            const std::vector<Sink>& all = sinks(e).all();
            for (std::size_t id = 0; id < all.size(); ++id) {
                if (all[id].removed) continue;
                out.append(py::make_tuple(static_cast<int>(id), all[id].line ? "line" : "area",
                                          points_array(all[id].points), all[id].scene));
            }
            return out;
        },
        "The live sinks as (id, kind, points, scene) tuples, by id.");
}

}  // namespace vosim::bindings
