// Engine snapshots as plain Python data (a dict of NumPy arrays and
// numbers), for pickling and save_state. The inverse of the conversion is
// here too, so that the two cannot drift apart.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "engine/engine.hpp"

namespace py = pybind11;

namespace vosim::bindings {

namespace {

constexpr const char* kFeaturePrefix = "feature.";

template <typename T>
using Exact = py::array_t<T, py::array::c_style | py::array::forcecast>;

template <typename T>
py::array_t<T> to_array(const std::vector<T>& values, std::vector<py::ssize_t> shape) {
    py::array_t<T> out(shape);
    if (!values.empty()) std::memcpy(out.mutable_data(), values.data(), values.size() * sizeof(T));
    return out;
}

py::array_t<double> points_array(const std::vector<Vec2>& points) {
    py::array_t<double> out({static_cast<py::ssize_t>(points.size()), py::ssize_t{2}});
    double* data = out.mutable_data();
    for (std::size_t k = 0; k < points.size(); ++k) {
        data[2 * k] = points[k].x;
        data[2 * k + 1] = points[k].y;
    }
    return out;
}

// The values of a saved array, which must have T's type exactly: a saved
// state holds only what snapshot() wrote, and a cast (floats to ids, wide
// integers to flags) would hide a damaged one.
template <typename T>
std::vector<T> values_of(const py::handle& value, const char* name) {
    const auto expected = py::dtype::of<T>();
    if (!py::isinstance<py::array>(value)) {
        throw std::invalid_argument(std::string("saved state: '") + name + "' is not an array");
    }
    const auto array = py::reinterpret_borrow<py::array>(value);
    if (array.dtype().kind() != expected.kind() || array.dtype().itemsize() != expected.itemsize()) {
        throw std::invalid_argument(std::string("saved state: '") + name + "' holds " +
                                    py::str(array.dtype()).cast<std::string>() + "; expected " +
                                    py::str(expected).cast<std::string>());
    }
    const Exact<T> exact = py::cast<Exact<T>>(array);
    return std::vector<T>(exact.data(), exact.data() + exact.size());
}

py::object item(const py::dict& d, const char* key) {
    if (!d.contains(key)) throw std::invalid_argument(std::string("saved state: no entry '") + key + "'");
    return d[key];
}

template <typename T>
std::vector<T> entry(const py::dict& d, const char* key) {
    return values_of<T>(item(d, key), key);
}

std::vector<Vec2> points_of(const std::vector<double>& flat, const char* name) {
    if (flat.size() % 2 != 0) {
        throw std::invalid_argument(std::string("saved state: '") + name + "' does not hold (x, y) points");
    }
    std::vector<Vec2> points(flat.size() / 2);
    for (std::size_t k = 0; k < points.size(); ++k) points[k] = Vec2(flat[2 * k], flat[2 * k + 1]);
    return points;
}

py::dict snapshot(const Engine& e) {
    const EngineSnapshot s = e.snapshot();
    py::dict out;
    out["scenes"] = s.scenes;
    out["dimensions"] = s.dimensions;
    out["count"] = s.count;
    out["next_id"] = s.next_id;
    out["time_step"] = s.time_step;
    out["time"] = s.time;
    out["step_count"] = s.step_count;
    py::dict columns;
    for (const SavedColumn& c : s.columns) {
        std::vector<py::ssize_t> shape{s.scenes, s.count};
        if (c.width > 1) shape.push_back(c.width);
        std::visit([&](const auto& values) { columns[c.name.c_str()] = to_array(values, shape); }, c.values);
    }
    out["columns"] = columns;
    std::vector<std::int32_t> scenes;
    std::vector<std::string> kinds;
    std::vector<std::int64_t> offsets{0};
    std::vector<Vec2> points, velocities, displacements;
    std::vector<std::uint8_t> removed, moving;
    for (const SavedObstacle& o : s.obstacles) {
        scenes.push_back(o.scene);
        kinds.emplace_back(kind_name(o.kind));
        points.insert(points.end(), o.points.begin(), o.points.end());
        offsets.push_back(static_cast<std::int64_t>(points.size()));
        removed.push_back(o.removed ? 1 : 0);
        moving.push_back(o.moving ? 1 : 0);
        velocities.push_back(o.velocity);
        displacements.push_back(o.displacement);
    }
    const py::ssize_t obstacles = static_cast<py::ssize_t>(scenes.size());
    out["obstacle_scenes"] = to_array(scenes, {obstacles});
    out["obstacle_kinds"] = kinds;
    out["obstacle_offsets"] = to_array(offsets, {obstacles + 1});
    out["obstacle_points"] = points_array(points);
    out["obstacle_removed"] = to_array(removed, {obstacles});
    out["obstacle_moving"] = to_array(moving, {obstacles});
    out["obstacle_velocities"] = points_array(velocities);
    out["obstacle_displacements"] = points_array(displacements);
    out["fallbacks"] = to_array(s.fallbacks, {static_cast<py::ssize_t>(s.fallbacks.size())});
    // Each unit's part (scene features, waypoints, the periodic axis) as "feature.<unit>.<array>", whatever the unit.
    for (const SavedFeature& f : s.features) {
        const std::string prefix = std::string(kFeaturePrefix) + f.name + ".";
        for (const auto& [name, values] : f.arrays.reals) {
            out[py::str(prefix + name)] = to_array(values, {static_cast<py::ssize_t>(values.size())});
        }
        for (const auto& [name, values] : f.arrays.integers) {
            out[py::str(prefix + name)] = to_array(values, {static_cast<py::ssize_t>(values.size())});
        }
    }
    return out;
}

// An array of a state saved before its unit had a part of its own: integers
// of any width as int64, floats (points too, flattened) as float64; a plain
// number (the periodic axis's were) as one value.
void add_legacy_array(FeatureArrays& arrays, const std::string& name, const py::handle& value, const char* entry) {
    if (py::isinstance<py::bool_>(value)) {
        throw std::invalid_argument(std::string("saved state: '") + entry + "' is a bool");
    }
    if (py::isinstance<py::int_>(value)) {
        // A Python int may be wider than 64 bits: checked here so that the
        // message names the entry rather than the conversion.
        int overflow = 0;
        const long long wide = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
        if (overflow != 0) {
            throw std::invalid_argument(std::string("saved state: '") + entry + "' is " +
                                        py::str(value).cast<std::string>() + ", which does not fit 64 bits");
        }
        arrays.integers.emplace_back(name, std::vector<std::int64_t>{static_cast<std::int64_t>(wide)});
        return;
    }
    if (py::isinstance<py::float_>(value)) {
        arrays.reals.emplace_back(name, std::vector<double>{py::cast<double>(value)});
        return;
    }
    if (!py::isinstance<py::array>(value)) {
        throw std::invalid_argument(std::string("saved state: '") + entry + "' is not an array");
    }
    const auto array = py::reinterpret_borrow<py::array>(value);
    const char kind = array.dtype().kind();
    if (kind == 'f') {
        arrays.reals.emplace_back(name, values_of<double>(value, entry));
    } else if (kind == 'i' || kind == 'u') {
        const Exact<std::int64_t> wide = py::cast<Exact<std::int64_t>>(array);  // widening: exact
        arrays.integers.emplace_back(name, std::vector<std::int64_t>(wide.data(), wide.data() + wide.size()));
    } else {
        throw std::invalid_argument(std::string("saved state: '") + entry + "' holds " +
                                    py::str(array.dtype()).cast<std::string>());
    }
}

// The part of `feature` in `parts`, added empty when there is none yet.
SavedFeature& part_named(std::vector<SavedFeature>& parts, const std::string& feature) {
    for (SavedFeature& part : parts) {
        if (part.name == feature) return part;
    }
    parts.push_back({feature, {}});
    return parts.back();
}

// The scene features' entries of a saved state ("feature.<feature>.<array>":
// float64 or int64 arrays), grouped by feature in the order first seen;
// then, for a feature without such entries, those of a state saved before
// it was a unit (SceneFeature::legacy_entries).
std::vector<SavedFeature> features_of(const py::dict& d) {
    std::vector<SavedFeature> out;
    for (const auto& [key, value] : d) {
        if (!py::isinstance<py::str>(key)) continue;
        const std::string name = py::cast<std::string>(key);
        if (name.rfind(kFeaturePrefix, 0) != 0) continue;
        const std::string rest = name.substr(std::string(kFeaturePrefix).size());
        const std::size_t dot = rest.find('.');
        if (dot == std::string::npos || dot == 0 || dot + 1 == rest.size()) {
            throw std::invalid_argument("saved state: entry '" + name + "' names no feature and array");
        }
        const std::string feature = rest.substr(0, dot), array = rest.substr(dot + 1);
        SavedFeature* part = &part_named(out, feature);
        const bool real = py::isinstance<py::array>(value) &&
                          py::reinterpret_borrow<py::array>(value).dtype().kind() == 'f';
        if (real) {
            part->arrays.reals.emplace_back(array, values_of<double>(value, name.c_str()));
        } else {
            part->arrays.integers.emplace_back(array, values_of<std::int64_t>(value, name.c_str()));
        }
    }
    const std::size_t current = out.size();
    for (const auto& [feature, legacy] : Engine::legacy_entries()) {
        if (!d.contains(legacy.entry)) continue;
        bool has_current = false;
        for (std::size_t k = 0; k < current; ++k) has_current = has_current || out[k].name == feature;
        if (has_current) {
            throw std::invalid_argument(std::string("saved state: it has both '") + legacy.entry +
                                        "' and the entries of feature '" + feature + "'");
        }
        SavedFeature* part = &part_named(out, feature);
        add_legacy_array(part->arrays, legacy.array, d[legacy.entry], legacy.entry);
    }
    // A legacy part that holds nothing (older states saved empty arrays for
    // features never used: no values but an offsets array's one 0) is left out.
    std::vector<SavedFeature> placed;
    for (std::size_t k = 0; k < out.size(); ++k) {
        bool any = k < current;
        for (const auto& entry : out[k].arrays.reals) any = any || !entry.second.empty();
        for (const auto& entry : out[k].arrays.integers) any = any || entry.second.size() > 1;
        if (any) placed.push_back(std::move(out[k]));
    }
    return placed;
}

ObstacleKind kind_of(const std::string& name) {
    for (ObstacleKind kind : {ObstacleKind::polygon, ObstacleKind::segment, ObstacleKind::wall, ObstacleKind::boundary}) {
        if (name == kind_name(kind)) return kind;
    }
    throw std::invalid_argument("saved state: unknown obstacle kind '" + name + "'");
}

void restore(Engine& e, const py::dict& d) {
    EngineSnapshot s;
    s.scenes = py::cast<int>(item(d, "scenes"));
    // States saved before 3D engines existed are planar.
    s.dimensions = d.contains("dimensions") ? py::cast<int>(d["dimensions"]) : 2;
    if (s.dimensions != 2 && s.dimensions != 3) {
        throw std::invalid_argument("saved state: dimensions is " + std::to_string(s.dimensions) + "; it must be 2 or 3");
    }
    s.count = py::cast<int>(item(d, "count"));
    s.next_id = py::cast<std::int64_t>(item(d, "next_id"));
    s.time_step = py::cast<double>(item(d, "time_step"));
    s.time = py::cast<double>(item(d, "time"));
    s.step_count = py::cast<std::int64_t>(item(d, "step_count"));
    if (s.scenes != e.state().scenes()) {  // (before the columns' shapes, which follow from it)
        throw std::invalid_argument("saved state: it has " + std::to_string(s.scenes) + " scenes; this engine has " +
                                    std::to_string(e.state().scenes()));
    }
    // The columns an (empty) agent state has give each one's name, width and type.
    const py::dict columns = py::cast<py::dict>(item(d, "columns"));
    AgentState(1, s.dimensions).for_each_column([&](auto& column, int width, const char* name) {
        using Value = std::remove_reference_t<decltype(column[0])>;
        if (!columns.contains(name)) {
            if (column_may_be_missing(name)) return;  // an older file: restore fills it
            throw std::invalid_argument(std::string("saved state: no column '") + name + "'");
        }
        // Shaped as snapshot() writes it, (scenes, count) or (scenes, count, width).
        const py::object given = columns[name];
        bool shaped = false;
        if (py::isinstance<py::array>(given)) {
            const auto array = py::reinterpret_borrow<py::array>(given);
            shaped = array.ndim() == (width > 1 ? 3 : 2) && array.shape(0) == s.scenes && array.shape(1) == s.count &&
                     (width == 1 || array.shape(2) == width);
        }
        if (!shaped) {
            throw std::invalid_argument(std::string("saved state: column '") + name +
                                        "' has the wrong type or size (expected the shape (" +
                                        std::to_string(s.scenes) + ", " + std::to_string(s.count) +
                                        (width > 1 ? ", " + std::to_string(width) : std::string()) + "))");
        }
        s.columns.push_back({name, width, values_of<Value>(given, name)});
    });
    if (py::len(columns) != s.columns.size()) {
        throw std::invalid_argument("saved state: it has columns this engine does not know");
    }
    const auto scenes = entry<std::int32_t>(d, "obstacle_scenes");
    const auto kinds = py::cast<std::vector<std::string>>(item(d, "obstacle_kinds"));
    const auto obstacles = split_at_offsets(entry<double>(d, "obstacle_points"),
                                            entry<std::int64_t>(d, "obstacle_offsets"), 2, "obstacle");
    const auto removed = entry<std::uint8_t>(d, "obstacle_removed");
    const auto moving = entry<std::uint8_t>(d, "obstacle_moving");
    const auto velocities = points_of(entry<double>(d, "obstacle_velocities"), "obstacle_velocities");
    const auto displacements = points_of(entry<double>(d, "obstacle_displacements"), "obstacle_displacements");
    const std::size_t n = obstacles.size();
    if (scenes.size() != n || kinds.size() != n || removed.size() != n || moving.size() != n ||
        velocities.size() != n || displacements.size() != n) {
        throw std::invalid_argument("saved state: obstacle entries differ in length");
    }
    for (std::size_t k = 0; k < n; ++k) {
        if (removed[k] > 1 || moving[k] > 1) {
            throw std::invalid_argument("saved state: obstacle " + std::to_string(k) + " has flags other than 0 or 1");
        }
        s.obstacles.push_back({scenes[k], kind_of(kinds[k]), points_of(obstacles[k], "obstacle_points"),
                               removed[k] != 0, moving[k] != 0, velocities[k], displacements[k]});
    }
    s.fallbacks = entry<std::int64_t>(d, "fallbacks");
    s.features = features_of(d);  // none in states saved before scene features existed
    e.restore(s);
}

}  // namespace

void bind_state(py::module_& m) {
    auto engine = py::reinterpret_borrow<py::class_<Engine>>(m.attr("Engine"));
    engine.def("snapshot", &snapshot,
               "Everything the next step depends on except the method, as a dict of arrays and numbers.");
    engine.def("restore", &restore, py::arg("state"),
               "Put back a snapshot() (ValueError naming what is wrong; nothing changes then).");
}

}  // namespace vosim::bindings
