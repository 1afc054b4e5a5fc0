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

#include "engine.hpp"
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

void require_size(const py::array& a, py::ssize_t size, const char* name) {
    if (a.size() != size) {
        throw std::invalid_argument(std::string(name) + ": expected " + std::to_string(size) +
                                    " values, got " + std::to_string(a.size()));
    }
}

py::array view(Engine& e, const std::string& name) {
    AgentState& s = e.state();
    auto make = [&](const auto& column, int width, bool writable) {
        return column_view(column, s.scenes(), s.count(), s.capacity(), width, writable);
    };
    auto make_bool = [&](const Column<std::uint8_t>& column, bool writable) {
        return column_view(column, s.scenes(), s.count(), s.capacity(), 1, writable,
                           py::dtype::of<bool>());
    };
    if (name == "positions") return make(s.positions, 2, true);
    if (name == "velocities") return make(s.velocities, 2, true);
    if (name == "pref_velocities") return make(s.pref_velocities, 2, true);
    if (name == "goals") return make(s.goals, 2, true);
    if (name == "radius") return make(s.radius, 1, true);
    if (name == "max_speed") return make(s.max_speed, 1, true);
    if (name == "pref_speed") return make(s.pref_speed, 1, true);
    if (name == "neighbor_dist") return make(s.neighbor_dist, 1, true);
    if (name == "max_neighbors") return make(s.max_neighbors, 1, true);
    if (name == "time_horizon") return make(s.time_horizon, 1, true);
    if (name == "time_horizon_obst") return make(s.time_horizon_obst, 1, true);
    if (name == "arrival_radius") return make(s.arrival_radius, 1, true);
    if (name == "priority") return make(s.priority, 1, true);
    if (name == "max_acceleration") return make(s.max_acceleration, 1, true);
    if (name == "uncertainty_offset") return make(s.uncertainty_offset, 1, true);
    if (name == "ids") return make(s.ids, 1, false);
    if (name == "active") return make_bool(s.active, true);
    if (name == "has_goal") return make_bool(s.has_goal, true);
    throw std::invalid_argument("no per-agent field named '" + name + "'");
}

py::array_t<std::int64_t> add_agents(Engine& e, int n, const Doubles& positions,
                                     const Doubles& velocities, const Doubles& pref_velocities,
                                     const Doubles& goals, const Bytes& has_goal,
                                     const Doubles& radius, const Doubles& max_speed,
                                     const Doubles& pref_speed, const Doubles& neighbor_dist,
                                     const Int32s& max_neighbors, const Doubles& time_horizon,
                                     const Doubles& time_horizon_obst,
                                     const Doubles& arrival_radius, const Doubles& priority,
                                     const Doubles& max_acceleration,
                                     const Doubles& uncertainty_offset) {
    if (n < 0) throw std::invalid_argument("n must be >= 0");
    const py::ssize_t total = static_cast<py::ssize_t>(e.state().scenes()) * n;
    require_size(positions, 2 * total, "positions");
    require_size(velocities, 2 * total, "velocities");
    require_size(pref_velocities, 2 * total, "pref_velocities");
    require_size(goals, 2 * total, "goals");
    require_size(has_goal, total, "has_goal");
    require_size(radius, total, "radius");
    require_size(max_speed, total, "max_speed");
    require_size(pref_speed, total, "pref_speed");
    require_size(neighbor_dist, total, "neighbor_dist");
    require_size(max_neighbors, total, "max_neighbors");
    require_size(time_horizon, total, "time_horizon");
    require_size(time_horizon_obst, total, "time_horizon_obst");
    require_size(arrival_radius, total, "arrival_radius");
    require_size(priority, total, "priority");
    require_size(max_acceleration, total, "max_acceleration");
    require_size(uncertainty_offset, total, "uncertainty_offset");
    AgentInput in;
    in.positions = positions.data();
    in.velocities = velocities.data();
    in.pref_velocities = pref_velocities.data();
    in.goals = goals.data();
    in.has_goal = has_goal.data();
    in.radius = radius.data();
    in.max_speed = max_speed.data();
    in.pref_speed = pref_speed.data();
    in.neighbor_dist = neighbor_dist.data();
    in.max_neighbors = max_neighbors.data();
    in.time_horizon = time_horizon.data();
    in.time_horizon_obst = time_horizon_obst.data();
    in.arrival_radius = arrival_radius.data();
    in.priority = priority.data();
    in.max_acceleration = max_acceleration.data();
    in.uncertainty_offset = uncertainty_offset.data();
    const std::vector<std::int64_t> ids = e.add_agents(n, in);
    py::array_t<std::int64_t> out({static_cast<py::ssize_t>(e.state().scenes()),
                                   static_cast<py::ssize_t>(n)});
    if (!ids.empty()) std::memcpy(out.mutable_data(), ids.data(), ids.size() * sizeof(std::int64_t));
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

// Runs with the GIL released. `progress(steps_done)` is called from the
// periodic tick with the GIL held; Ctrl-C (a pending signal) or an exception
// from `progress` stops the run after the current step, and the run still
// returns what it recorded so far; the caller re-raises.
py::dict run(Engine& e, std::int64_t steps, std::int64_t record_every, bool until_arrived, bool metrics,
             DoublesOut positions, DoublesOut velocities, DoublesOut times, Int64sOut step_numbers,
             double tick_seconds, const py::object& progress) {
    const std::int64_t frames = frames_for(steps, record_every);
    const AgentState& s = e.state();
    const py::ssize_t frame_values = static_cast<py::ssize_t>(s.scenes()) * s.count() * 2;
    require_size(positions, frames * frame_values, "positions");
    require_size(velocities, frames * frame_values, "velocities");
    require_size(times, frames, "times");
    require_size(step_numbers, frames, "steps");

    Recording recording;
    recording.positions = positions.mutable_data();
    recording.velocities = velocities.mutable_data();
    recording.times = times.mutable_data();
    recording.steps = step_numbers.mutable_data();
    recording.max_frames = frames;

    RunOptions options;
    options.steps = steps;
    options.record_every = record_every;
    options.until_arrived = until_arrived;
    options.tick_seconds = tick_seconds;
    options.metrics = metrics;

    std::optional<py::error_already_set> error;
    const Tick tick = python_tick(error, progress);

    RunResult result;
    {
        py::gil_scoped_release release;
        result = e.run(options, recording, tick);
    }
    py::dict out;
    out["steps_done"] = result.steps_done;
    out["frames"] = result.frames;
    out["all_arrived"] = result.all_arrived;
    out["stopped"] = result.stopped;
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

    m.def("frames_for", &frames_for, py::arg("steps"), py::arg("record_every"),
          "Number of frames a run of `steps` steps records.");

    py::class_<Engine>(m, "Engine")
        .def(py::init<int, double>(), py::arg("scenes"), py::arg("time_step"))
        .def_property_readonly("scenes", [](const Engine& e) { return e.state().scenes(); })
        .def_property_readonly("count", [](const Engine& e) { return e.state().count(); })
        .def_property_readonly("busy", &Engine::busy)
        .def_property("time_step", &Engine::time_step, &Engine::set_time_step)
        .def_property_readonly("time", &Engine::time)
        .def_property_readonly("step_count", &Engine::step_count)
        .def_property("method", &Engine::method,
                      [](Engine& e, std::shared_ptr<Method> method) { e.set_method(std::move(method)); })
        .def("view", &view, py::arg("name"))
        .def("add_agents", &add_agents, py::arg("n"), py::kw_only(), py::arg("positions"),
             py::arg("velocities"), py::arg("pref_velocities"), py::arg("goals"),
             py::arg("has_goal"), py::arg("radius"), py::arg("max_speed"), py::arg("pref_speed"),
             py::arg("neighbor_dist"), py::arg("max_neighbors"), py::arg("time_horizon"),
             py::arg("time_horizon_obst"), py::arg("arrival_radius"), py::arg("priority"),
             py::arg("max_acceleration"), py::arg("uncertainty_offset"))
        .def(
            "remove_agents",
            [](Engine& e, const Int64s& ids) { e.remove_agents(ids.data(), ids.size()); },
            py::arg("ids"))
        .def("step", &step, py::arg("tick_seconds") = 0.05)
        .def("run", &run, py::arg("steps"), py::arg("record_every"), py::arg("until_arrived"), py::arg("metrics"),
             py::arg("positions").noconvert(), py::arg("velocities").noconvert(),
             py::arg("times").noconvert(), py::arg("step_numbers").noconvert(),
             py::arg("tick_seconds"), py::arg("progress"))
        .def("all_arrived", &Engine::all_arrived)
        .def(
            "set_waypoints",
            [](Engine& e, const Int64s& ids, const Int64s& offsets, const Doubles& points, const Doubles& radius) {
                const py::ssize_t n = ids.size();
                require_size(offsets, n + 1, "offsets");
                require_size(radius, n, "radius");
                if (points.ndim() != 2 || points.shape(1) != 2) throw std::invalid_argument("points: expected (k, 2)");
                const std::int64_t* o = offsets.data();
                for (py::ssize_t k = 0; k <= n; ++k) {
                    if (o[k] < 0 || o[k] > points.shape(0)) throw std::invalid_argument("offsets out of range");
                }
                std::vector<Vec2> p(static_cast<std::size_t>(points.shape(0)));
                for (std::size_t k = 0; k < p.size(); ++k) p[k] = Vec2(points.data()[2 * k], points.data()[2 * k + 1]);
                e.set_waypoints(ids.data(), static_cast<std::size_t>(n), o, p.data(), radius.data());
            },
            py::arg("ids"), py::arg("offsets"), py::arg("points"), py::arg("radius"))
        .def("waypoints_remaining", [](const Engine& e) {
            const std::vector<std::int32_t> left = e.waypoints_remaining();
            py::array_t<std::int32_t> out({static_cast<py::ssize_t>(e.state().scenes()),
                                           static_cast<py::ssize_t>(e.state().count())});
            if (!left.empty()) std::memcpy(out.mutable_data(), left.data(), left.size() * sizeof(std::int32_t));
            return out;
        })
        .def("neighbor_table", &neighbor_table);
}

}  // namespace vosim::bindings
