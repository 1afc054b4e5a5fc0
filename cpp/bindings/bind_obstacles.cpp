#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "engine/engine.hpp"
#include "obstacles/obstacles.hpp"

namespace py = pybind11;

namespace vosim::bindings {

namespace {

using Doubles = py::array_t<double, py::array::c_style | py::array::forcecast>;

ObstacleKind parse_kind(const std::string& kind) {
    if (kind == "polygon") return ObstacleKind::polygon;
    if (kind == "segment") return ObstacleKind::segment;
    if (kind == "wall") return ObstacleKind::wall;
    if (kind == "boundary") return ObstacleKind::boundary;
    throw std::invalid_argument("kind must be 'polygon', 'segment', 'wall' or 'boundary', got '" + kind + "'");
}

std::vector<Vec2> points_of(const Doubles& array, const char* name) {
    if (array.ndim() != 2 || array.shape(1) != 2) {
        throw std::invalid_argument(std::string(name) + ": expected shape (n, 2)");
    }
    std::vector<Vec2> points(static_cast<std::size_t>(array.shape(0)));
    const double* data = array.data();
    for (std::size_t k = 0; k < points.size(); ++k) points[k] = Vec2(data[2 * k], data[2 * k + 1]);
    return points;
}

py::array_t<double> to_array(const std::vector<Vec2>& points) {
    py::array_t<double> out({static_cast<py::ssize_t>(points.size()), py::ssize_t{2}});
    double* data = out.mutable_data();
    for (std::size_t k = 0; k < points.size(); ++k) {
        data[2 * k] = points[k].x;
        data[2 * k + 1] = points[k].y;
    }
    return out;
}

// Which of `points` the obstacle `vertices` of `kind` would put in its solid part.
py::array_t<bool> obstacle_blocks(const Doubles& points, const Doubles& vertices, const std::string& kind) {
    const std::vector<Vec2> p = points_of(points, "points");
    const std::vector<Vec2> v = points_of(vertices, "vertices");
    const ObstacleKind k = parse_kind(kind);
    py::array_t<bool> out(static_cast<py::ssize_t>(p.size()));
    bool* data = out.mutable_data();
    for (std::size_t i = 0; i < p.size(); ++i) data[i] = blocks_point(v.data(), static_cast<int>(v.size()), k, p[i]);
    return out;
}

}  // namespace

void bind_obstacles(py::module_& m) {
    m.def(
        "check_obstacle",
        [](const Doubles& vertices, const std::string& kind, const std::string& name) {
            const std::vector<Vec2> v = points_of(vertices, name.c_str());
            check_obstacle(v.data(), static_cast<int>(v.size()), parse_kind(kind), name);
        },
        py::arg("vertices"), py::arg("kind"), py::arg("name") = "vertices",
        "Raise ValueError unless the vertices make a valid obstacle of this kind.");
    m.attr("EXACT_TREE_MAX_EDGES") = kExactTreeMaxEdges;
    m.def("obstacle_blocks", &obstacle_blocks, py::arg("points"), py::arg("vertices"), py::arg("kind"),
          "Which points lie in the solid part of one obstacle (inside a polygon, outside a boundary).");

    auto engine = py::reinterpret_borrow<py::class_<Engine>>(m.attr("Engine"));
    engine.def(
        "add_obstacle",
        [](Engine& e, const Doubles& vertices, const std::string& kind, int scene, bool moving, double vx,
           double vy) {
            const std::vector<Vec2> v = points_of(vertices, "vertices");
            return e.add_obstacle(scene, v.data(), static_cast<int>(v.size()), parse_kind(kind), moving, Vec2(vx, vy));
        },
        py::arg("vertices"), py::arg("kind"), py::arg("scene"), py::arg("moving") = false, py::arg("vx") = 0.0,
        py::arg("vy") = 0.0);
    engine.def("remove_obstacle", &Engine::remove_obstacle, py::arg("scene"), py::arg("id"));
    engine.def(
        "set_obstacle_velocity",
        [](Engine& e, int scene, int id, double vx, double vy) { e.set_obstacle_velocity(scene, id, Vec2(vx, vy)); },
        py::arg("scene"), py::arg("id"), py::arg("vx"), py::arg("vy"));
    engine.def(
        "obstacles",
        [](const Engine& e, int scene, bool moving) {
            // The live static obstacles [(kind, vertices)], or the live moving
            // ones [(id, kind, vertices, (vx, vy))].
            const ObstacleSet& set = e.obstacles(scene);
            py::list out;
            for (int o = 0; o < set.obstacle_count(); ++o) {
                if (!set.live(o) || set.moving(o) != moving) continue;
                py::array_t<double> vertices = to_array(set.vertices(o));
                vertices.attr("flags").attr("writeable") = false;
                if (moving) {
                    const Vec2 v = set.velocity(o);
                    out.append(py::make_tuple(o, kind_name(set.kind(o)), vertices, py::make_tuple(v.x, v.y)));
                } else {
                    out.append(py::make_tuple(kind_name(set.kind(o)), vertices));
                }
            }
            return out;
        },
        py::arg("scene"), py::arg("moving") = false);
    engine.def("scenes_with_obstacles", &Engine::scenes_with_obstacles,
               "The scenes that have obstacles of their own, ascending.");
    engine.def(
        "blocked_points",
        [](const Engine& e, const Doubles& points, int scene, bool moving) {
            const std::vector<Vec2> p = points_of(points, "points");
            py::array_t<bool> out(static_cast<py::ssize_t>(p.size()));
            bool* data = out.mutable_data();
            for (std::size_t i = 0; i < p.size(); ++i) data[i] = e.blocked(scene, p[i], moving);
            return out;
        },
        py::arg("points"), py::arg("scene"), py::arg("moving") = true);
    engine.def(
        "obstacle_distances",
        [](const Engine& e, const Doubles& points, int scene) {
            // Signed distance to the nearest obstacle surface (negative inside the solid).
            const std::vector<Vec2> p = points_of(points, "points");
            py::array_t<double> out(static_cast<py::ssize_t>(p.size()));
            double* data = out.mutable_data();
            {
                py::gil_scoped_release release;
                for (std::size_t i = 0; i < p.size(); ++i) data[i] = e.obstacle_clearance(scene, p[i]);
            }
            return out;
        },
        py::arg("points"), py::arg("scene"));
    engine.def("has_boundary", [](const Engine& e, int scene) {
        return e.obstacles(-1).has_boundary() || e.obstacles(scene).has_boundary();
    }, py::arg("scene"));
    engine.def(
        "obstacle_table",
        [](Engine& e, int scene) {
            // The vertex table and tree of one set after building: for tests
            // and inspection.
            ObstacleSet& set = const_cast<ObstacleSet&>(e.obstacles(scene));
            set.build();
            std::vector<Vec2> points(set.vertex_count());
            std::vector<int> next(points.size()), prev(points.size()), obstacle(points.size());
            std::vector<bool> convex(points.size());
            for (int v = 0; v < set.vertex_count(); ++v) {
                points[v] = set.point(v);
                next[v] = set.next(v);
                prev[v] = set.prev(v);
                obstacle[v] = set.obstacle_of(v);
                convex[v] = set.convex(v);
            }
            py::dict out;
            out["points"] = to_array(points);
            out["next"] = next;
            out["prev"] = prev;
            out["obstacle"] = obstacle;
            out["convex"] = convex;
            out["tree_depth"] = set.tree_depth();
            out["tree_nodes"] = set.tree_nodes();
            out["index"] = set.uses_grid() ? "grid" : "tree";
            return out;
        },
        py::arg("scene"));
    engine.def(
        "obstacle_neighbors",
        [](Engine& e, int scene, double x, double y, double range) {
            // The edges the engine's query returns for an agent of `scene` at
            // (x, y) (after building): [(set, vertex, dist_sq)] nearest first,
            // set -1 = shared.
            if (scene < 0) throw std::invalid_argument("scene must be >= 0");
            ObstacleSet& shared = const_cast<ObstacleSet&>(e.obstacles(-1));
            ObstacleSet& own = const_cast<ObstacleSet&>(e.obstacles(scene));
            shared.build();
            own.build();
            std::vector<ObstacleNeighbor> found;
            shared.query(Vec2(x, y), range * range, found);
            own.query(Vec2(x, y), range * range, found);
            py::list out;
            for (const ObstacleNeighbor& n : found) {
                out.append(py::make_tuple(n.set == &shared ? -1 : scene, n.vertex, n.dist_sq));
            }
            return out;
        },
        py::arg("scene"), py::arg("x"), py::arg("y"), py::arg("range"));
}

}  // namespace vosim::bindings
