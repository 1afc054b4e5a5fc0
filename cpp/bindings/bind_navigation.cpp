// Global planning: A* over a graph and the funnel, for many agents per call.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "navigation/funnel.hpp"
#include "navigation/path_search.hpp"
#include "parallel/first_error.hpp"
#include "parallel/parallel.hpp"
#include "parallel/threads.hpp"

namespace py = pybind11;

namespace vosim::bindings {

namespace {

using Doubles = py::array_t<double, py::array::c_style | py::array::forcecast>;
using Int64s = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;
using Int32s = py::array_t<std::int32_t, py::array::c_style | py::array::forcecast>;

std::vector<Vec2> points_of(const Doubles& array, const char* name) {
    if (array.ndim() != 2 || array.shape(1) != 2) throw std::invalid_argument(std::string(name) + ": expected shape (n, 2)");
    std::vector<Vec2> points(static_cast<std::size_t>(array.shape(0)));
    const double* data = array.data();
    for (std::size_t k = 0; k < points.size(); ++k) points[k] = Vec2(data[2 * k], data[2 * k + 1]);
    return points;
}

// Offsets of `count` groups into `size` items: starts at 0, never decreases, ends at size.
void check_offsets(const Int64s& offsets, std::size_t count, std::size_t size, const char* name) {
    if (offsets.ndim() != 1 || static_cast<std::size_t>(offsets.shape(0)) != count + 1) {
        throw std::invalid_argument(std::string(name) + ": expected " + std::to_string(count + 1) + " offsets");
    }
    const std::int64_t* o = offsets.data();
    if (o[0] != 0 || static_cast<std::size_t>(o[count]) != size) {
        throw std::invalid_argument(std::string(name) + ": must start at 0 and end at " + std::to_string(size));
    }
    for (std::size_t k = 0; k < count; ++k) {
        if (o[k + 1] < o[k]) throw std::invalid_argument(std::string(name) + ": must not decrease");
    }
}

void check_nodes(const Int32s& nodes, std::size_t count, const char* name) {
    const std::int32_t* n = nodes.data();
    for (py::ssize_t k = 0; k < nodes.size(); ++k) {
        if (n[k] < 0 || static_cast<std::size_t>(n[k]) >= count) {
            throw std::invalid_argument(std::string(name) + "[" + std::to_string(k) + "] is " + std::to_string(n[k]) +
                                        "; must be a node index below " + std::to_string(count));
        }
    }
}

py::tuple graph_paths(const Int64s& row_start, const Int32s& target, const Doubles& cost, const Doubles& nodes,
                      const Int64s& entry_offsets, const Int32s& entry_nodes, const Doubles& entry_costs,
                      const Int64s& exit_offsets, const Int32s& exit_nodes, const Doubles& exit_costs,
                      const Doubles& goals) {
    Graph graph;
    graph.node = points_of(nodes, "nodes");
    const std::size_t m = graph.node.size();
    check_offsets(row_start, m, static_cast<std::size_t>(target.size()), "row_start");
    if (cost.size() != target.size()) throw std::invalid_argument("cost: expected one per edge");
    check_nodes(target, m, "target");
    graph.row_start.assign(row_start.data(), row_start.data() + row_start.size());
    graph.target.assign(target.data(), target.data() + target.size());
    graph.cost.assign(cost.data(), cost.data() + cost.size());
    const std::vector<Vec2> goal = points_of(goals, "goals");
    const std::size_t q = goal.size();
    check_offsets(entry_offsets, q, static_cast<std::size_t>(entry_nodes.size()), "entry_offsets");
    check_offsets(exit_offsets, q, static_cast<std::size_t>(exit_nodes.size()), "exit_offsets");
    if (entry_costs.size() != entry_nodes.size() || exit_costs.size() != exit_nodes.size()) {
        throw std::invalid_argument("entry_costs, exit_costs: expected one per entry and exit");
    }
    check_nodes(entry_nodes, m, "entry_nodes");
    check_nodes(exit_nodes, m, "exit_nodes");
    std::vector<PathQuery> queries(q);
    for (std::size_t i = 0; i < q; ++i) {
        for (std::int64_t k = entry_offsets.data()[i]; k < entry_offsets.data()[i + 1]; ++k) {
            queries[i].entries.emplace_back(entry_nodes.data()[k], entry_costs.data()[k]);
        }
        for (std::int64_t k = exit_offsets.data()[i]; k < exit_offsets.data()[i + 1]; ++k) {
            queries[i].exits.emplace_back(exit_nodes.data()[k], exit_costs.data()[k]);
        }
        queries[i].goal = goal[i];
    }
    std::vector<PathResult> results;
    {
        py::gil_scoped_release release;
        results = shortest_paths(graph, queries);
    }
    py::array_t<bool> found(static_cast<py::ssize_t>(q));
    py::array_t<std::int64_t> offsets(static_cast<py::ssize_t>(q + 1));
    std::int64_t total = 0;
    offsets.mutable_data()[0] = 0;
    for (std::size_t i = 0; i < q; ++i) {
        found.mutable_data()[i] = results[i].found;
        total += static_cast<std::int64_t>(results[i].nodes.size());
        offsets.mutable_data()[i + 1] = total;
    }
    py::array_t<std::int32_t> path(static_cast<py::ssize_t>(total));
    std::int32_t* out = path.mutable_data();
    for (const PathResult& r : results) out = std::copy(r.nodes.begin(), r.nodes.end(), out);
    return py::make_tuple(found, offsets, path);
}

py::tuple pull_strings(const Doubles& starts, const Doubles& goals, const Int64s& portal_offsets, const Doubles& left,
                       const Doubles& right) {
    const std::vector<Vec2> s = points_of(starts, "starts");
    const std::vector<Vec2> g = points_of(goals, "goals");
    const std::vector<Vec2> l = points_of(left, "left");
    const std::vector<Vec2> r = points_of(right, "right");
    if (g.size() != s.size()) throw std::invalid_argument("goals: expected one per start");
    if (r.size() != l.size()) throw std::invalid_argument("right: expected one per left");
    check_offsets(portal_offsets, s.size(), l.size(), "portal_offsets");
    const auto count = static_cast<std::int64_t>(s.size());
    std::vector<std::vector<Vec2>> paths(s.size());
    {
        py::gil_scoped_release release;
        const std::int64_t* o = portal_offsets.data();
        // By items of 64 paths on the engine's pool (fork-safe).
        constexpr std::int64_t kPathsPerItem = 64;
        FirstError failure;
        parallel_for(items_of(count, kPathsPerItem), count >= kParallelMinAgents ? max_threads() : 1,
                     [&](std::int64_t item) {
                         try {
                             const std::int64_t end = std::min(count, (item + 1) * kPathsPerItem);
                             for (std::int64_t i = item * kPathsPerItem; i < end; ++i) {
                                 const auto first = static_cast<std::size_t>(o[i]);
                                 paths[static_cast<std::size_t>(i)] = pull_string(
                                     s[static_cast<std::size_t>(i)], g[static_cast<std::size_t>(i)],
                                     l.data() + first, r.data() + first, static_cast<std::size_t>(o[i + 1] - o[i]));
                             }
                         } catch (...) {
                             failure.keep(item, std::current_exception());
                         }
                     });
        failure.rethrow();
    }
    py::array_t<std::int64_t> offsets(static_cast<py::ssize_t>(s.size() + 1));
    std::int64_t total = 0;
    offsets.mutable_data()[0] = 0;
    for (std::size_t i = 0; i < paths.size(); ++i) {
        total += static_cast<std::int64_t>(paths[i].size());
        offsets.mutable_data()[i + 1] = total;
    }
    py::array_t<double> points({static_cast<py::ssize_t>(total), py::ssize_t{2}});
    double* out = points.mutable_data();
    for (const auto& path : paths) {
        for (const Vec2& p : path) {
            *out++ = p.x;
            *out++ = p.y;
        }
    }
    return py::make_tuple(offsets, points);
}

}  // namespace

void bind_navigation(py::module_& m) {
    m.def("graph_paths", &graph_paths, py::arg("row_start"), py::arg("target"), py::arg("cost"), py::arg("nodes"),
          py::arg("entry_offsets"), py::arg("entry_nodes"), py::arg("entry_costs"), py::arg("exit_offsets"),
          py::arg("exit_nodes"), py::arg("exit_costs"), py::arg("goals"),
          "A* for many queries over one graph: (found, offsets, nodes) of each cheapest path.");
    m.def("pull_strings", &pull_strings, py::arg("starts"), py::arg("goals"), py::arg("portal_offsets"),
          py::arg("left"), py::arg("right"),
          "The funnel algorithm for many corridors: (offsets, points) of each path, ending at its goal.");
}

}  // namespace vosim::bindings
