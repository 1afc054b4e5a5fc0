// Speed zones (features/speed_zones/speed_zones.hpp) on the Engine: add, remove, list.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <stdexcept>
#include <vector>

#include "engine/engine.hpp"
#include "features/speed_zones/speed_zones.hpp"

namespace py = pybind11;

namespace vosim::bindings {

namespace {

using Doubles = py::array_t<double, py::array::c_style | py::array::forcecast>;

py::array_t<double> zone_points(const std::vector<Vec2>& points) {
    py::array_t<double> out({static_cast<py::ssize_t>(points.size()), py::ssize_t{2}});
    double* data = out.mutable_data();
    for (std::size_t k = 0; k < points.size(); ++k) {
        data[2 * k] = points[k].x;
        data[2 * k + 1] = points[k].y;
    }
    out.attr("flags").attr("writeable") = false;
    return out;
}

SpeedZones& zones(Engine& e) { return e.features().get<SpeedZones>(); }
const SpeedZones& zones(const Engine& e) { return e.features().get<SpeedZones>(); }

}  // namespace

void bind_speed_zones(py::module_& m) {
    auto engine = py::reinterpret_borrow<py::class_<Engine>>(m.attr("Engine"));
    engine.def(
        "add_speed_zone",
        [](Engine& e, const Doubles& polygon, double factor, int scene) {
            if (polygon.ndim() != 2 || polygon.shape(1) != 2) {
                throw std::invalid_argument("polygon: expected shape (n, 2)");
            }
            std::vector<Vec2> p(static_cast<std::size_t>(polygon.shape(0)));
            for (std::size_t k = 0; k < p.size(); ++k) p[k] = Vec2(polygon.data()[2 * k], polygon.data()[2 * k + 1]);
            py::gil_scoped_release release;
            return e.exclusively(
                [&] { return zones(e).add(scene, e.state(), p.data(), static_cast<int>(p.size()), factor); });
        },
        py::arg("polygon"), py::arg("factor"), py::arg("scene"), "Add a speed zone; returns its id.");
    engine.def(
        "remove_speed_zone",
        [](Engine& e, int id) {
            e.exclusively([&] {
                zones(e).remove(id);
                return 0;
            });
        },
        py::arg("id"));
    engine.def(
        "speed_zones",
        [](const Engine& e) {
            // The live zones: [(id, polygon, factor, scene)], scene -1 for every scene.
            py::list out;
            const std::vector<SpeedZone>& all = zones(e).all();
            for (std::size_t id = 0; id < all.size(); ++id) {
                if (all[id].removed) continue;
                out.append(py::make_tuple(static_cast<int>(id), zone_points(all[id].points), all[id].factor,
                                          all[id].scene));
            }
            return out;
        },
        "The live speed zones as (id, polygon, factor, scene) tuples, by id.");
}

}  // namespace vosim::bindings
