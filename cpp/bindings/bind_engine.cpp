#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <exception>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>

#include "array_args.hpp"
#include "engine/engine.hpp"
#include "run_metrics.hpp"
#include "limits.hpp"
#include "views.hpp"

namespace py = pybind11;

namespace vosim::bindings {

namespace {

using Doubles = py::array_t<double, py::array::c_style | py::array::forcecast>;
using Int32s = py::array_t<std::int32_t, py::array::c_style | py::array::forcecast>;
using Int64s = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;
using Bytes = py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>;
using DoublesOut = py::array_t<double, py::array::c_style>;
using Int64sOut = py::array_t<std::int64_t, py::array::c_style>;

// The column a view shows. A lazy one (one value while every agent holds it)
// becomes an ordinary column first: the view must see the engine's later
// writes, and writes through it must reach the engine.
template <class T>
const Column<T>& viewed(Column<T>& column, const Engine&, const std::string&) {
    return column;
}
template <class T>
const Column<T>& viewed(LazyColumn<T>& column, const Engine& e, const std::string& name) {
    if (column.uniform() && e.busy()) {
        throw std::runtime_error("the simulator is busy: a step or run is under way (in another thread, or this "
                                 "is its progress callback); every agent holds one value of " + name +
                                 ", and its first view needs a column made for it: take the view before or after "
                                 "that call");
    }
    return column.materialize();
}

py::array view(Engine& e, const std::string& name) {
    AgentState& s = e.state();
    // Flags (uint8 columns) show as bool.
    auto make = [&](auto& column, int width, bool writable) {
        using Value = std::remove_cv_t<std::remove_reference_t<decltype(column[0])>>;
        const py::dtype dtype = std::is_same_v<Value, std::uint8_t> ? py::dtype::of<bool>() : py::dtype::of<Value>();
        return column_view(viewed(column, e, name), s.scenes(), s.count(), s.capacity(), width, writable, dtype);
    };
    // One view per field of the table that has one.
#define VOSIM_FIELD_VIEW(field, T, width, role, ...)                                  \
    if (FieldRole::role != FieldRole::kInternal && name == #field) {                 \
        return make(s.field, s.width_of(width), FieldRole::role != FieldRole::kReadOnly); \
    }
    VOSIM_AGENT_FIELDS(VOSIM_FIELD_VIEW)
#undef VOSIM_FIELD_VIEW
    throw std::invalid_argument("no per-agent field named '" + name + "'");
}

// Assigning `values` (every agent's, checked by the caller) to a field whose
// column still holds one value, when they are all one value too: the column
// keeps holding one (no view of it can exist yet: a view makes the column).
// False when the field is not lazy, its column was made, or the values
// differ; the caller then writes them through the view.
template <class T>
bool keep_one_value(Column<T>&, const py::array&) {
    return false;
}
template <class T>
bool keep_one_value(LazyColumn<T>& column, const py::array& values) {
    if (!column.uniform() || values.size() == 0) return false;
    const auto typed = py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(values);
    if (!typed) return false;
    const T* v = typed.data();
    const auto n = static_cast<std::size_t>(typed.size());
    if (!all_same_bits(v[0], 1, n, [v](int, std::size_t k) { return v[k]; })) return false;
    column.assign_uniform(column.elements(), v[0]);
    return true;
}

bool assign_one_value_now(AgentState& s, const std::string& name, const py::array& values) {
    const auto agents = static_cast<py::ssize_t>(s.scenes()) * s.count();
#define VOSIM_FIELD_ONE_VALUE(field, T, width, role, ...)                                                  \
    if (FieldRole::role != FieldRole::kInternal && FieldRole::role != FieldRole::kReadOnly && name == #field) { \
        if (values.size() != agents * s.width_of(width)) return false;                                   \
        return keep_one_value(s.field, values);                                                          \
    }
    VOSIM_AGENT_FIELDS(VOSIM_FIELD_ONE_VALUE)
#undef VOSIM_FIELD_ONE_VALUE
    throw std::invalid_argument("no per-agent field named '" + name + "'");
}

bool assign_one_value(Engine& e, const std::string& name, const py::array& values) {
    return e.exclusively([&] { return assign_one_value_now(e.state(), name, values); });
}

// Whether the field's column holds one value for every agent (a lazy column
// not made yet), for tests and memory checks.
template <class T>
bool one_value(const Column<T>&) {
    return false;
}
template <class T>
bool one_value(const LazyColumn<T>& column) {
    return column.uniform();
}

bool holds_one_value(const Engine& e, const std::string& name) {
    const AgentState& s = e.state();
#define VOSIM_FIELD_HOLDS_ONE(field, T, width, role, ...)                                  \
    if (FieldRole::role != FieldRole::kInternal && name == #field) {                      \
        return one_value(s.field);                                                        \
    }
    VOSIM_AGENT_FIELDS(VOSIM_FIELD_HOLDS_ONE)
#undef VOSIM_FIELD_HOLDS_ONE
    throw std::invalid_argument("no per-agent field named '" + name + "'");
}

template <typename T>
using Strided = py::array_t<T, py::array::forcecast>;

// One field of add_agents, shaped (scenes, n) or, for vectors,
// (scenes, n, dimensions), read where it lies: broadcast arrays (zero strides) are
// not copied, which keeps adding a million agents from doubling the memory.
template <typename T>
AgentSource<T> agent_source(const Strided<T>& a, int scenes, int n, int width, const char* name) {
    const py::ssize_t ndim = width == 1 ? 2 : 3;
    if (a.ndim() != ndim || a.shape(0) != scenes || a.shape(1) != n || (ndim == 3 && a.shape(2) != width)) {
        std::string want = "(" + std::to_string(scenes) + ", " + std::to_string(n);
        if (ndim == 3) want += ", " + std::to_string(width);
        throw std::invalid_argument(std::string(name) + ": expected shape " + want + "), got " +
                                    std::to_string(a.ndim()) + " dimensions");
    }
    const auto itemsize = static_cast<py::ssize_t>(sizeof(T));
    if (a.size() == 0) return {a.data(), 0, 0};  // (strides of empty arrays are arbitrary)
    for (py::ssize_t axis = 0; axis < ndim; ++axis) {
        if (a.strides(axis) % itemsize != 0) {
            throw std::invalid_argument(std::string(name) + ": strides must be whole elements");
        }
    }
    if (ndim == 3 && a.strides(2) != itemsize) {
        throw std::invalid_argument(std::string(name) + ": the components of each agent must be adjacent");
    }
    return {a.data(), a.strides(0) / itemsize, a.strides(1) / itemsize};
}

// add_agents with one array per input field of the table, by name.
py::array_t<std::int64_t> add_agents(Engine& e, int n, const py::dict& fields, bool name_scenes) {
    if (n < 0) throw std::invalid_argument("n must be >= 0");
    const int scenes = e.state().scenes();
    AgentInput in;
    std::size_t used = 0;
#define VOSIM_FIELD_SOURCE(field, T, width, role, ...)                                             \
    if constexpr (FieldRole::role == FieldRole::kInput) {                                         \
        if (!fields.contains(#field)) throw std::invalid_argument("add_agents: no " #field " given"); \
        in.field = agent_source(py::cast<Strided<T>>(fields[#field]), scenes, n,                   \
                                e.state().width_of(width), #field);                               \
        ++used;                                                                                   \
    }
    VOSIM_AGENT_FIELDS(VOSIM_FIELD_SOURCE)
#undef VOSIM_FIELD_SOURCE
    if (used != py::len(fields)) {
        for (const auto& item : fields) {
            const auto key = py::cast<std::string>(item.first);
            bool known = false;
            for (const FieldInfo& info : kAgentFields) {
                known = known || (key == info.name && info.role == FieldRole::kInput);
            }
            if (!known) throw std::invalid_argument("add_agents: no input field named '" + key + "'");
        }
    }
    const std::vector<std::int64_t> ids = e.add_agents(n, in, name_scenes);
    py::array_t<std::int64_t> out({static_cast<py::ssize_t>(e.state().scenes()),
                                   static_cast<py::ssize_t>(n)});
    if (!ids.empty()) std::memcpy(out.mutable_data(), ids.data(), ids.size() * sizeof(std::int64_t));
    return out;
}

// The field table (agent_fields.hpp) as a list of dicts, for python/vosim/_fields.py.
py::list agent_fields() {
    static const char* const roles[] = {"input", "state", "hidden", "read-only", "internal"};
    static const char* const checks[] = {"always", "with goal", "without goal", "never"};
    py::list out;
    for (const FieldInfo& info : kAgentFields) {
        py::dict row;
        row["name"] = info.name;
        row["dtype"] = info.type;
        // Vectors have one component per dimension: 2 in the plane.
        row["width"] = info.width == kVector ? 2 : info.width;
        row["vector"] = info.width == kVector;
        row["role"] = roles[static_cast<int>(info.role)];
        row["check"] = checks[static_cast<int>(info.check)];
        row["min"] = info.range.lo;
        row["max"] = info.range.hi;
        const bool given = info.default_value != kRequired && info.default_value != kDerived;
        row["default"] = given ? py::object(py::float_(info.default_value)) : py::object(py::none());
        row["doc"] = info.doc;
        out.append(std::move(row));
    }
    return out;
}

// The Python exception object for a C++ exception, as pybind11 would
// translate it when thrown.
py::object exception_object(const std::exception_ptr& error) {
    try {
        std::rethrow_exception(error);
    } catch (const std::invalid_argument& e) {
        return py::reinterpret_borrow<py::object>(PyExc_ValueError)(e.what());
    } catch (const std::bad_alloc&) {
        return py::reinterpret_borrow<py::object>(PyExc_MemoryError)();
    } catch (const std::exception& e) {
        return py::reinterpret_borrow<py::object>(PyExc_RuntimeError)(e.what());
    } catch (...) {
        return py::reinterpret_borrow<py::object>(PyExc_RuntimeError)("unknown error in the engine");
    }
}

// A tick that checks for pending signals (Ctrl-C) and calls `progress`, with
// the GIL held; a Python exception is kept in `error` and stops the work.
Tick python_tick(std::optional<py::error_already_set>& error, const py::object& progress) {
    return [&error, &progress](std::int64_t done) {
        py::gil_scoped_acquire gil;
        try {
            if (PyErr_CheckSignals() != 0) throw py::error_already_set();
            if (!progress.is_none()) progress(done);
        } catch (py::error_already_set& raised) {
            error.emplace(std::move(raised));
            return false;
        }
        return true;
    };
}

// One step with the GIL released. A step long enough to span several blocks
// of agents checks for Ctrl-C between them; when interrupted, nothing is
// advanced and KeyboardInterrupt is raised.
void step(Engine& e, double tick_seconds) {
    std::optional<py::error_already_set> error;
    const py::object no_progress = py::none();
    Ticker ticker(python_tick(error, no_progress), tick_seconds);
    {
        py::gil_scoped_release release;
        e.step(&ticker);
    }
    if (error) throw std::move(*error);
}

void set_goal_settings(Engine& e, double perturbation, std::uint64_t seed, const std::string& deadlock,
                       double patience, double hold, double turn, double stall_fraction) {
    GoalSettings settings;
    settings.noise = {perturbation, seed};
    if (deadlock == "none") {
        settings.deadlock.rule = DeadlockRule::kNone;
    } else if (deadlock == "sidestep") {
        settings.deadlock.rule = DeadlockRule::kSidestep;
    } else if (deadlock == "random_side") {
        settings.deadlock.rule = DeadlockRule::kRandomSide;
    } else {
        throw std::invalid_argument("deadlock is '" + deadlock + "'; must be none, sidestep or random_side");
    }
    settings.deadlock.patience = patience;
    settings.deadlock.hold = hold;
    settings.deadlock.turn = turn;
    settings.deadlock.stall_fraction = stall_fraction;
    e.set_goal_settings(settings);
}

// A run's pause calling `replan(steps_done)` with the GIL held: it returns
// None or new tracks (ids, offsets, points, radius[, advance]) as
// set_waypoints takes them (points: `dimensions` values each; without
// advance, each agent keeps its rule). A Python exception is kept in
// `error` and stops the run.
Pause python_pause(std::optional<py::error_already_set>& error, const py::object& replan, int dimensions) {
    if (replan.is_none()) return {};
    return [&error, &replan, dimensions](std::int64_t done) {
        py::gil_scoped_acquire gil;
        NewTracks tracks;
        try {
            const py::object result = replan(done);
            if (result.is_none()) return tracks;
            const py::tuple entries = py::cast<py::tuple>(result);
            if (entries.size() == 5 && !entries[4].is_none()) {
                const Bytes advance = py::cast<Bytes>(entries[4]);
                tracks.advance.assign(advance.data(), advance.data() + advance.size());
            }
            const auto [ids, offsets, points, radius] =
                py::cast<std::tuple<Int64s, Int64s, Doubles, Doubles>>(entries[py::slice(0, 4, 1)]);
            tracks.ids.assign(ids.data(), ids.data() + ids.size());
            tracks.offsets.assign(offsets.data(), offsets.data() + offsets.size());
            if (points.ndim() != 2 || points.shape(1) != dimensions) {
                throw std::invalid_argument("replan: points must be (k, " + std::to_string(dimensions) + ")");
            }
            tracks.points.assign(points.data(), points.data() + points.size());
            tracks.radius.assign(radius.data(), radius.data() + radius.size());
        } catch (py::error_already_set& raised) {
            error.emplace(std::move(raised));
            throw std::runtime_error("replan raised");  // the caller reports `error`
        }
        return tracks;
    };
}

// Runs with the GIL released. `progress(steps_done)` is called from the
// periodic tick with the GIL held; Ctrl-C (a pending signal) or an exception
// from `progress` stops the run after the current step, and the run still
// returns what it recorded so far; the caller re-raises. `replan`, unless
// None, is the pause called every `pause_every` steps (see python_pause).
py::dict run(Engine& e, std::int64_t steps, std::int64_t record_every, bool until_arrived, bool metrics,
             DoublesOut positions, DoublesOut velocities, DoublesOut times, Int64sOut step_numbers,
             double tick_seconds, const py::object& progress, std::int64_t pause_every, const py::object& replan,
             const py::object& headings) {
    const std::int64_t frames = frames_for(steps, record_every);
    const AgentState& s = e.state();
    const py::ssize_t frame_values = static_cast<py::ssize_t>(s.scenes()) * s.count() * s.dimensions();
    require_size(positions, frames * frame_values, "positions");
    require_size(velocities, frames * frame_values, "velocities");
    require_size(times, frames, "times");
    require_size(step_numbers, frames, "steps");

    Recording recording;
    recording.positions = positions.mutable_data();
    recording.velocities = velocities.mutable_data();
    if (!headings.is_none()) {
        DoublesOut out = py::cast<DoublesOut>(headings);
        require_size(out, frames * static_cast<py::ssize_t>(s.scenes()) * s.count(), "headings");
        recording.headings = out.mutable_data();
    }
    recording.times = times.mutable_data();
    recording.steps = step_numbers.mutable_data();
    recording.max_frames = frames;

    RunOptions options;
    options.steps = steps;
    options.record_every = record_every;
    options.until_arrived = until_arrived;
    options.tick_seconds = tick_seconds;
    options.metrics = metrics;
    if (pause_every < 0) throw std::invalid_argument("pause_every must be >= 0, got " + std::to_string(pause_every));
    options.pause_every = pause_every;

    std::optional<py::error_already_set> error;
    const Tick tick = python_tick(error, progress);
    const Pause pause = python_pause(error, replan, e.dimensions());

    RunResult result;
    {
        py::gil_scoped_release release;
        result = e.run(options, recording, tick, pause);
    }
    py::dict out;
    out["steps_done"] = result.steps_done;
    out["frames"] = result.frames;
    out["all_arrived"] = result.all_arrived;
    out["stopped"] = result.stopped;
    out["step_seconds"] = result.step_seconds;
    out["metrics"] = result.metrics ? py::object(run_metrics_dict(*result.metrics, result.times))
                                    : py::object(py::none());
    out["error"] = error                ? py::object(error->value())
                   : result.error ? exception_object(result.error)
                                  : py::object(py::none());
    if (error && error->trace()) {
        // Keep the traceback with the exception object the caller re-raises.
        PyException_SetTraceback(error->value().ptr(), error->trace().ptr());
    }
    return out;
}

py::array_t<std::int32_t> neighbor_table(Engine& e) {
    int width = 1;
    const std::vector<std::int32_t> table = e.neighbor_table(width);
    py::array_t<std::int32_t> out({static_cast<py::ssize_t>(e.state().scenes()),
                                   static_cast<py::ssize_t>(e.state().count()),
                                   static_cast<py::ssize_t>(width)});
    if (!table.empty()) std::memcpy(out.mutable_data(), table.data(), table.size() * sizeof(std::int32_t));
    return out;
}

}  // namespace

void bind_engine(py::module_& m) {
    m.attr("MAX_MAGNITUDE") = kMaxMagnitude;
    m.attr("MIN_TIME") = kMinTime;
    m.attr("MAX_AGENTS") = AgentState::kMaxAgents;

    m.attr("AGENT_FIELDS") = agent_fields();
    py::list derived;
    for (const DerivedDefault& row : kDerivedDefaults) derived.append(py::make_tuple(row.field, row.from, row.scale));
    m.attr("DERIVED_DEFAULTS") = py::tuple(derived);
    py::tuple kinematics(kKinematicsCount);
    for (int k = 0; k < kKinematicsCount; ++k) kinematics[k] = kKinematicsNames[k];
    m.attr("KINEMATICS") = kinematics;

    m.def("frames_for", &frames_for, py::arg("steps"), py::arg("record_every"),
          "Number of frames a run of `steps` steps records.");

    py::class_<Engine>(m, "Engine")
        .def(py::init<int, double, int>(), py::arg("scenes"), py::arg("time_step"), py::arg("dimensions") = 2)
        .def_property_readonly("dimensions", &Engine::dimensions)
        .def_property_readonly("scenes", [](const Engine& e) { return e.state().scenes(); })
        .def_property_readonly("count", [](const Engine& e) { return e.state().count(); })
        .def_property_readonly("busy", &Engine::busy)
        .def_property("time_step", &Engine::time_step, &Engine::set_time_step)
        .def_property_readonly("time", &Engine::time)
        .def_property_readonly("step_count", &Engine::step_count)
        .def_property("method", &Engine::method,
                      [](Engine& e, std::shared_ptr<Method> method) { e.set_method(std::move(method)); })
        .def("set_goal_settings", &set_goal_settings, py::kw_only(), py::arg("perturbation"), py::arg("seed"),
             py::arg("deadlock"), py::arg("patience"), py::arg("hold"), py::arg("turn"), py::arg("stall_fraction"),
             "The goals phase's preference noise and deadlock resolution (deadlock: 'none', 'sidestep' or "
             "'random_side'; turn in radians).")
        .def("view", &view, py::arg("name"))
        .def("assign_one_value", &assign_one_value, py::arg("name"), py::arg("values"))
        .def("holds_one_value", &holds_one_value, py::arg("name"))
        .def("add_agents", &add_agents, py::arg("n"), py::arg("fields"), py::arg("name_scenes") = true)
        .def(
            "remove_agents",
            [](Engine& e, const Int64s& ids) { e.remove_agents(ids.data(), ids.size()); },
            py::arg("ids"))
        .def("step", &step, py::arg("tick_seconds") = 0.05)
        .def("run", &run, py::arg("steps"), py::arg("record_every"), py::arg("until_arrived"), py::arg("metrics"),
             py::arg("positions").noconvert(), py::arg("velocities").noconvert(),
             py::arg("times").noconvert(), py::arg("step_numbers").noconvert(),
             py::arg("tick_seconds"), py::arg("progress"), py::arg("pause_every") = 0,
             py::arg("replan") = py::none(), py::arg("headings") = py::none())
        .def("all_arrived", &Engine::all_arrived)
        .def("final_goals", [](const Engine& e) {
            const std::vector<double> goals = e.final_goals();
            py::array_t<double> out({static_cast<py::ssize_t>(e.state().scenes()),
                                     static_cast<py::ssize_t>(e.state().count()),
                                     static_cast<py::ssize_t>(e.dimensions())});
            if (!goals.empty()) std::memcpy(out.mutable_data(), goals.data(), goals.size() * sizeof(double));
            return out;
        })
        .def("neighbor_table", &neighbor_table)
        .def(
            "obstacles3d", [](Engine& e, int scene) -> ObstacleSet3& { return e.obstacles3_for_change(scene); },
            py::arg("scene"), py::return_value_policy::reference_internal,
            "The 3D obstacle set of a scene (-1: shared by all), to add shapes to between steps.")
        .def(
            "penetrated_obstacles3d",
            [](const Engine& e, const Doubles& positions, const Doubles& radius, int scene) {
                if (positions.ndim() != 2 || positions.shape(1) != 3) {
                    throw std::invalid_argument("positions: expected shape (n, 3)");
                }
                require_size(radius, positions.shape(0), "radius");
                const py::ssize_t n = positions.shape(0);
                py::array_t<std::int32_t> ids(n);
                py::array_t<bool> shared(n);
                for (py::ssize_t k = 0; k < n; ++k) {
                    const double* p = positions.data() + 3 * k;
                    bool in_shared = false;
                    ids.mutable_data()[k] = e.penetrated_obstacle3(scene, Vec3(p[0], p[1], p[2]), radius.data()[k],
                                                                   in_shared);
                    shared.mutable_data()[k] = in_shared;
                }
                return py::make_tuple(ids, shared);
            },
            py::arg("positions"), py::arg("radius"), py::arg("scene"),
            "Per ball (centre, radius), the first obstacle of the scene it penetrates (-1: none) and "
            "whether that one is shared.");
}

}  // namespace vosim::bindings
