#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>

#include "engine/engine.hpp"
#include "maths/vec.hpp"

namespace py = pybind11;

namespace vosim::bindings {

namespace {

py::array_t<double> vectors(const std::vector<Vec2>& values, py::ssize_t rows, py::ssize_t per_row) {
    py::array_t<double> out(std::vector<py::ssize_t>{rows, per_row, 2});
    double* data = out.mutable_data();
    for (std::size_t k = 0; k < values.size(); ++k) {
        data[2 * k] = values[k].x;
        data[2 * k + 1] = values[k].y;
    }
    return out;
}

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

py::array_t<double> pairs(const std::vector<Vec2>& values) { return rows(values); }
py::array_t<double> triples(const std::vector<Vec3>& values) { return rows(values); }

py::tuple vec(Vec2 v) { return py::make_tuple(v.x, v.y); }
py::tuple vec(Vec3 v) { return py::make_tuple(v.x, v.y, v.z); }

// What every inspection records, first in the dict (DiagnosticsOf).
template <class V>
void put_agent(const DiagnosticsOf<V>& d, py::dict& out) {
    out["method"] = d.method;
    out["position"] = vec(d.position);
    out["velocity"] = vec(d.velocity);
    out["pref_velocity"] = vec(d.pref_velocity);
    out["new_velocity"] = vec(d.new_velocity);
    out["target_velocity"] = vec(d.target_velocity);
    out["radius"] = d.radius;
    out["max_speed"] = d.max_speed;
}

py::array_t<std::int32_t> slots(const std::vector<std::int32_t>& values) {
    return py::array_t<std::int32_t>(static_cast<py::ssize_t>(values.size()), values.data());
}

py::dict to_dict(const Diagnostics& d) {
    py::dict out;
    put_agent(d, out);
    out["kinematics"] = d.kinematics;
    out["heading"] = d.heading;
    if (d.kinematics != kKinematicsNames[0]) {
        py::dict presented;
        presented["position"] = vec(d.presented_position);
        presented["velocity"] = vec(d.presented_velocity);
        presented["radius"] = d.presented_radius;
        out["effective_center"] = presented;
        out["method_velocity"] = vec(d.method_velocity);
        out["new_angular_velocity"] = d.new_turn_rate;
    }
    out["neighbor_slots"] = slots(d.agent_neighbors);
    out["obstacle_edges"] = vectors(d.obstacle_edges, static_cast<py::ssize_t>(d.obstacle_edges.size() / 2), 2);

    std::vector<Vec2> points, directions;
    for (const Line& line : d.lines) {
        points.push_back(line.point);
        directions.push_back(line.direction);
    }
    py::dict lines;
    lines["point"] = pairs(points);
    lines["direction"] = pairs(directions);
    py::array_t<bool> obstacle(static_cast<py::ssize_t>(d.lines.size()));
    for (std::size_t k = 0; k < d.lines.size(); ++k) obstacle.mutable_data()[k] = static_cast<std::int32_t>(k) < d.hard_lines;
    lines["obstacle"] = obstacle;
    out["lines"] = lines;
    out["used_fallback"] = d.used_fallback;

    std::vector<Vec2> apex, left, right, obstacle_a, obstacle_b;
    py::list kinds;
    std::vector<double> horizon, scale, radius;
    std::vector<std::int32_t> source;
    for (const DiagnosticCone& c : d.cones) {
        apex.push_back(c.apex);
        left.push_back(c.left_leg);
        right.push_back(c.right_leg);
        obstacle_a.push_back(c.obstacle_a);
        obstacle_b.push_back(c.obstacle_b);
        kinds.append(c.kind);
        horizon.push_back(c.horizon);
        scale.push_back(c.scale);
        radius.push_back(c.radius);
        source.push_back(c.source);
    }
    py::dict cones;
    cones["apex"] = pairs(apex);
    cones["left_leg"] = pairs(left);
    cones["right_leg"] = pairs(right);
    cones["kind"] = kinds;
    cones["source"] = py::array_t<std::int32_t>(static_cast<py::ssize_t>(source.size()), source.data());
    cones["horizon"] = py::array_t<double>(static_cast<py::ssize_t>(horizon.size()), horizon.data());
    cones["scale"] = py::array_t<double>(static_cast<py::ssize_t>(scale.size()), scale.data());
    cones["obstacle_a"] = pairs(obstacle_a);
    cones["obstacle_b"] = pairs(obstacle_b);
    cones["radius"] = py::array_t<double>(static_cast<py::ssize_t>(radius.size()), radius.data());
    out["cones"] = cones;

    out["candidates"] = pairs(d.candidates);
    out["penalties"] = py::array_t<double>(static_cast<py::ssize_t>(d.penalties.size()), d.penalties.data());
    out["levels"] = py::array_t<std::int32_t>(static_cast<py::ssize_t>(d.levels.size()), d.levels.data());
    out["chosen"] = d.chosen;

    py::dict forces;
    for (const NamedVector& f : d.forces) forces[py::str(f.name)] = vec(f.value);
    out["forces"] = forces;
    return out;
}

py::dict to_dict(const Diagnostics3& d) {
    py::dict out;
    put_agent(d, out);
    out["neighbor_slots"] = slots(d.agent_neighbors);
    std::vector<Vec3> contact_points, contact_normals;
    std::vector<double> contact_distances;
    std::vector<std::int32_t> contact_ids;
    for (const ObstacleContact3& c : d.obstacle_contacts) {
        contact_points.push_back(c.point);
        contact_normals.push_back(c.normal);
        contact_distances.push_back(c.distance);
        contact_ids.push_back(c.obstacle);
    }
    py::dict contacts;
    contacts["point"] = triples(contact_points);
    contacts["normal"] = triples(contact_normals);
    contacts["distance"] = py::array_t<double>(static_cast<py::ssize_t>(contact_distances.size()),
                                               contact_distances.data());
    contacts["obstacle"] = py::array_t<std::int32_t>(static_cast<py::ssize_t>(contact_ids.size()), contact_ids.data());
    out["obstacle_contacts"] = contacts;
    std::vector<Vec3> points, normals;
    for (const Plane& plane : d.planes) {
        points.push_back(plane.point);
        normals.push_back(plane.normal);
    }
    py::dict planes;
    planes["point"] = triples(points);
    planes["normal"] = triples(normals);
    py::array_t<bool> obstacle(static_cast<py::ssize_t>(d.planes.size()));
    for (std::size_t k = 0; k < d.planes.size(); ++k) {
        obstacle.mutable_data()[k] = static_cast<std::int32_t>(k) < d.hard_planes;
    }
    planes["obstacle"] = obstacle;
    out["planes"] = planes;
    out["used_fallback"] = d.used_fallback;
    out["candidates"] = triples(d.candidates);
    out["penalties"] = py::array_t<double>(static_cast<py::ssize_t>(d.penalties.size()), d.penalties.data());
    out["chosen"] = d.chosen;
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
