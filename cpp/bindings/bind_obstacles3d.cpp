// 3D obstacle shapes and sets (cpp/core/obstacles3d.hpp): checked
// constructors, closest-point queries and the geometry the pictures draw.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "obstacles/obstacles3d.hpp"

namespace py = pybind11;

namespace vosim::bindings {

namespace {

using Doubles = py::array_t<double, py::array::c_style | py::array::forcecast>;

std::vector<Vec3> points3_of(const Doubles& array, const char* name) {
    if (array.ndim() != 2 || array.shape(1) != 3) {
        throw std::invalid_argument(std::string(name) + ": expected shape (n, 3)");
    }
    std::vector<Vec3> points(static_cast<std::size_t>(array.shape(0)));
    const double* data = array.data();
    for (std::size_t k = 0; k < points.size(); ++k) points[k] = Vec3(data[3 * k], data[3 * k + 1], data[3 * k + 2]);
    return points;
}

Vec3 vec3_of(const std::array<double, 3>& a) { return {a[0], a[1], a[2]}; }

py::array_t<double> to_array3(const std::vector<Vec3>& points) {
    py::array_t<double> out({static_cast<py::ssize_t>(points.size()), py::ssize_t{3}});
    double* data = out.mutable_data();
    for (std::size_t k = 0; k < points.size(); ++k) {
        data[3 * k] = points[k].x;
        data[3 * k + 1] = points[k].y;
        data[3 * k + 2] = points[k].z;
    }
    return out;
}

// (ids, points (k, 3), normals (k, 3), distances (k,)) from a list of contacts.
py::tuple contacts_to_arrays(const std::vector<ObstacleContact3>& contacts) {
    const auto k = static_cast<py::ssize_t>(contacts.size());
    py::array_t<int> ids(k);
    py::array_t<double> points({k, py::ssize_t{3}});
    py::array_t<double> normals({k, py::ssize_t{3}});
    py::array_t<double> distances(k);
    int* id = ids.mutable_data();
    double* p = points.mutable_data();
    double* n = normals.mutable_data();
    double* d = distances.mutable_data();
    for (py::ssize_t i = 0; i < k; ++i) {
        const ObstacleContact3& c = contacts[static_cast<std::size_t>(i)];
        id[i] = c.obstacle;
        p[3 * i] = c.point.x, p[3 * i + 1] = c.point.y, p[3 * i + 2] = c.point.z;
        n[3 * i] = c.normal.x, n[3 * i + 1] = c.normal.y, n[3 * i + 2] = c.normal.z;
        d[i] = c.distance;
    }
    return py::make_tuple(ids, points, normals, distances);
}

Shape3 polyhedron_of(const Doubles& normals, const Doubles& offsets, const std::string& name) {
    if (offsets.ndim() != 1) throw std::invalid_argument(name + ": offsets: expected shape (n,)");
    const std::vector<Vec3> n = points3_of(normals, (name + ": normals").c_str());
    std::vector<double> d(offsets.data(), offsets.data() + offsets.shape(0));
    return make_polyhedron(n, d, name);
}

}  // namespace

void bind_obstacles3d(py::module_& m) {
    m.def(
        "polyhedron_geometry",
        [](const Doubles& normals, const Doubles& offsets, const std::string& name) {
            // The checked solid: (vertices, faces as vertex arrays, face normals, face offsets).
            const Shape3 s = polyhedron_of(normals, offsets, name);
            py::list faces;
            std::vector<Vec3> face_normals;
            std::vector<double> face_offsets;
            for (const Face3& f : s.faces) {
                faces.append(to_array3(f.vertices));
                face_normals.push_back(f.normal);
                face_offsets.push_back(f.offset);
            }
            return py::make_tuple(to_array3(s.vertices), faces, to_array3(face_normals),
                                  py::array_t<double>(static_cast<py::ssize_t>(face_offsets.size()), face_offsets.data()));
        },
        py::arg("normals"), py::arg("offsets"), py::arg("name") = "polyhedron",
        "Check the half-spaces normals . x <= offsets and return the solid's vertices and faces.");

    py::class_<ObstacleSet3>(m, "ObstacleSet3", "A set of 3D obstacle shapes with closest-point queries.")
        .def(py::init<>())
        .def(
            "add_half_space",
            [](ObstacleSet3& set, std::array<double, 3> point, std::array<double, 3> normal, const std::string& name) {
                return set.add(make_half_space(vec3_of(point), vec3_of(normal), name));
            },
            py::arg("point"), py::arg("normal"), py::arg("name") = "half-space")
        .def(
            "add_box",
            [](ObstacleSet3& set, std::array<double, 3> center, std::array<double, 3> half_extents,
               std::array<double, 9> rotation, const std::string& name) {
                return set.add(make_box(vec3_of(center), vec3_of(half_extents), rotation, name));
            },
            py::arg("center"), py::arg("half_extents"), py::arg("rotation"), py::arg("name") = "box")
        .def(
            "add_sphere",
            [](ObstacleSet3& set, std::array<double, 3> center, double radius, const std::string& name) {
                return set.add(make_sphere(vec3_of(center), radius, name));
            },
            py::arg("center"), py::arg("radius"), py::arg("name") = "sphere")
        .def(
            "add_polyhedron",
            [](ObstacleSet3& set, const Doubles& normals, const Doubles& offsets, const std::string& name) {
                return set.add(polyhedron_of(normals, offsets, name));
            },
            py::arg("normals"), py::arg("offsets"), py::arg("name") = "polyhedron")
        .def("remove", &ObstacleSet3::remove, py::arg("id"))
        .def("ids", &ObstacleSet3::ids)
        .def("__len__", &ObstacleSet3::size)
        .def(
            "query",
            [](ObstacleSet3& set, std::array<double, 3> point, double range) {
                if (!set.built()) set.build();
                std::vector<ObstacleContact3> out;
                set.query(vec3_of(point), range, out);
                return contacts_to_arrays(out);
            },
            py::arg("point"), py::arg("range"),
            "Obstacles whose signed distance from point is <= range, nearest first: (ids, points, normals, distances).")
        .def(
            "nearest",
            [](const ObstacleSet3& set, const Doubles& points) {
                const std::vector<Vec3> p = points3_of(points, "points");
                std::vector<ObstacleContact3> out(p.size());
                {
                    py::gil_scoped_release release;
                    for (std::size_t i = 0; i < p.size(); ++i) out[i] = set.nearest(p[i]);
                }
                return contacts_to_arrays(out);
            },
            py::arg("points"), "The nearest obstacle of each point: (ids, points, normals, signed distances).")
        .def(
            "first_penetrating",
            [](ObstacleSet3& set, const Doubles& points, const Doubles& radii) {
                if (!set.built()) set.build();
                const std::vector<Vec3> p = points3_of(points, "points");
                if (radii.ndim() != 1 || static_cast<std::size_t>(radii.shape(0)) != p.size()) {
                    throw std::invalid_argument("radii: expected shape (n,) matching points");
                }
                py::array_t<int> out(static_cast<py::ssize_t>(p.size()));
                int* data = out.mutable_data();
                const double* r = radii.data();
                for (std::size_t i = 0; i < p.size(); ++i) data[i] = set.first_penetrating(p[i], r[i]);
                return out;
            },
            py::arg("points"), py::arg("radii"),
            "Per point, the lowest id of an obstacle a sphere of that radius there penetrates, or -1.");
}

}  // namespace vosim::bindings
