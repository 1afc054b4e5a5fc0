#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "engine/engine.hpp"
#include "maths/vec.hpp"
#include "record_dict.hpp"

namespace py = pybind11;

namespace vosim::bindings {

namespace {

py::tuple vec(Vec2 v) { return py::make_tuple(v.x, v.y); }
py::tuple vec(Vec3 v) { return py::make_tuple(v.x, v.y, v.z); }

// One vector per row: (n, 2) or (n, 3).
template <class V>
py::array_t<double> rows(const std::vector<V>& values) {
    constexpr int dim = kDim<V>;
    py::array_t<double> out(std::vector<py::ssize_t>{static_cast<py::ssize_t>(values.size()), dim});
    double* data = out.mutable_data();
    for (const V& v : values) {
        *data++ = v.x;
        *data++ = v.y;
        if constexpr (dim == 3) *data++ = v.z;
    }
    return out;
}

// What every inspection records, then what the engine adds in its dimension
// and the method's own entries (their names are the method's).
template <class V>
py::dict to_dict(const DiagnosticsOf<V>& d) {
    py::dict out;
    out["method"] = d.method;
    out["position"] = vec(d.position);
    out["velocity"] = vec(d.velocity);
    out["pref_velocity"] = vec(d.pref_velocity);
    out["new_velocity"] = vec(d.new_velocity);
    out["target_velocity"] = vec(d.target_velocity);
    out["radius"] = d.radius;
    out["max_speed"] = d.max_speed;
    out["neighbor_slots"] =
        py::array_t<std::int32_t>(static_cast<py::ssize_t>(d.agent_neighbors.size()), d.agent_neighbors.data());
    out["used_fallback"] = d.used_fallback;
    out["candidates"] = rows(d.candidates);
    out["penalties"] = py::array_t<double>(static_cast<py::ssize_t>(d.penalties.size()), d.penalties.data());
    out["chosen"] = d.chosen;
    put_entries(d.surroundings, out);
    put_entries(d.method_record, out);
    return out;
}

}  // namespace

void bind_diagnostics(py::module_& m) {
    auto engine = py::reinterpret_borrow<py::class_<Engine>>(m.attr("Engine"));
    engine.def(
        "inspect",
        [](Engine& e, int scene, int slot) {
            return e.dimensions() == 3 ? to_dict(e.inspect<Vec3>(scene, slot)) : to_dict(e.inspect<Vec2>(scene, slot));
        },
        py::arg("scene"), py::arg("slot"));
    engine.def(
        "locate",
        [](const Engine& e, std::int64_t id) {
            int scene = 0, slot = 0;
            if (!e.state().locate(id, scene, slot)) {
                throw std::invalid_argument("no agent with id " + std::to_string(id));
            }
            return py::make_tuple(scene, slot);
        },
        py::arg("id"));
}

}  // namespace vosim::bindings
