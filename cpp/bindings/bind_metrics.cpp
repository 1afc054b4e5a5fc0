#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cmath>
#include <algorithm>
#include <stdexcept>
#include <vector>
#include <string>
#include <type_traits>

#include "metrics/clearance.hpp"
#include "run_metrics.hpp"
#include "state/state_check.hpp"

namespace py = pybind11;

namespace vosim::bindings {

namespace {

using Doubles = py::array_t<double, py::array::c_style | py::array::forcecast>;
using Bytes = py::array_t<std::uint8_t, py::array::c_style | py::array::forcecast>;

std::string index_text(const char* name, std::initializer_list<py::ssize_t> index) {
    std::string text = std::string(name) + "[";
    const char* separator = "";
    for (py::ssize_t i : index) {
        text += separator + std::to_string(i);
        separator = ", ";
    }
    return text + "]";
}

// None, or (axis index, low, high) as vosim._periodic checked it.
Periodic periodic_arg(const py::object& value) {
    Periodic periodic;
    if (value.is_none()) return periodic;
    const py::tuple fields = value.cast<py::tuple>();
    if (fields.size() != 3) throw std::invalid_argument("periodic: expected (axis index, low, high) or None");
    const int axis = fields[0].cast<int>();
    const double low = fields[1].cast<double>(), high = fields[2].cast<double>();
    if ((axis != 0 && axis != 1) || !std::isfinite(low) || !std::isfinite(high) || !(high > low)) {
        throw std::invalid_argument("periodic: expected (axis 0 or 1, low, high) with finite low < high");
    }
    periodic.axis = axis;
    periodic.low = low;
    periodic.high = high;
    return periodic;
}

// positions (T, B, N, 2 or 3), radius (B, N), active (B, N) or None -> (T, B)
// smallest clearance among the active agents.
py::array_t<double> min_clearance_frames(const Doubles& positions, const Doubles& radius,
                                         const py::object& active_or_none, const py::object& periodic_or_none) {
    if (positions.ndim() != 4 || (positions.shape(3) != 2 && positions.shape(3) != 3)) {
        throw std::invalid_argument("positions: expected shape (T, B, N, 2) or (T, B, N, 3)");
    }
    const py::ssize_t dims = positions.shape(3);
    const py::ssize_t frames = positions.shape(0), scenes = positions.shape(1), n = positions.shape(2);
    if (radius.ndim() != 2 || radius.shape(0) != scenes || radius.shape(1) != n) {
        throw std::invalid_argument("radius: expected shape (B, N) matching positions");
    }
    Bytes active;
    if (!active_or_none.is_none()) {
        active = active_or_none.cast<Bytes>();
        if (active.ndim() != 2 || active.shape(0) != scenes || active.shape(1) != n) {
            throw std::invalid_argument("active: expected shape (B, N) matching positions");
        }
    }
    const Periodic periodic = periodic_arg(periodic_or_none);
    if (periodic.on() && dims != 2) throw std::invalid_argument("periodic: needs positions (T, B, N, 2)");
    const double* p = positions.data();
    const double* r = radius.data();
    const std::uint8_t* a = active_or_none.is_none() ? nullptr : active.data();
    // Only active agents take part, and theirs must be finite numbers.
    for (py::ssize_t k = 0; k < scenes * n; ++k) {
        if ((!a || a[k]) && !std::isfinite(r[k])) {
            throw std::invalid_argument(index_text("radius", {k / n, k % n}) + " is " +
                                        format_number(r[k]) + "; must be finite");
        }
    }
    for (py::ssize_t k = 0; k < frames * scenes * n; ++k) {
        if (a && !a[k % (scenes * n)]) continue;
        for (py::ssize_t d = 0; d < dims; ++d) {
            if (!std::isfinite(p[dims * k + d])) {
                throw std::invalid_argument(
                    index_text("positions", {k / (scenes * n), k / n % scenes, k % n, d}) + " is " +
                    format_number(p[dims * k + d]) + "; must be finite");
            }
        }
    }
    py::array_t<double> out({frames, scenes});
    double* result = out.mutable_data();
    {
        py::gil_scoped_release release;
        NeighborGrid grid;
        NeighborGrid3 grid3;
        for (py::ssize_t t = 0; t < frames; ++t) {
            for (py::ssize_t b = 0; b < scenes; ++b) {
                const double* frame = p + ((t * scenes + b) * n) * dims;
                const std::uint8_t* live = a ? a + b * n : nullptr;
                result[t * scenes + b] =
                    dims == 3 ? min_clearance<Vec3>(frame, r + b * n, live, static_cast<int>(n), grid3)
                              : min_clearance<Vec2>(frame, r + b * n, live, static_cast<int>(n), grid, periodic);
            }
        }
    }
    return out;
}

}  // namespace

namespace {

template <class T>
py::array_t<T> array(const std::vector<T>& values, std::vector<py::ssize_t> shape) {
    py::array_t<T> out(shape);
    if (!values.empty()) std::copy(values.begin(), values.end(), out.mutable_data());
    return out;
}

// One metric's values shaped by its scope (flags as bool).
template <class T>
py::object metric_array(const std::vector<T>& values, MetricScope scope, const RunMetrics& m) {
    const py::ssize_t scenes = m.scenes(), count = m.count();
    const py::ssize_t states = static_cast<py::ssize_t>(m.series_steps.size());
    std::vector<py::ssize_t> shape{scenes};
    if (scope == MetricScope::kAgent) shape = {scenes, count};
    if (scope == MetricScope::kSeries) shape = {states, scenes};
    py::object out = array(values, shape);
    if constexpr (std::is_same_v<T, std::uint8_t>) out = out.attr("astype")("bool");
    return out;
}

double phase_seconds(const PhaseTimes& times, const char* name) {
    const std::string key(name);
    if (key == "time_neighbors") return times.neighbors();
    if (key == "time_velocities") return times.method;
    if (key == "time_integration") return times.integration();
    throw std::logic_error("no phase time named " + key);
}

py::tuple metric_rows() {
    static const char* const kScopes[] = {"scene", "agent", "series", "timing"};
    py::list rows;
    for (const MetricInfo& info : kRunMetrics) {
        py::dict row;
        row["name"] = info.name;
        row["scope"] = kScopes[static_cast<int>(info.scope)];
        row["unit"] = info.unit;
        row["doc"] = info.doc;
        rows.append(row);
    }
    // A time per phase of the step, from the engine's phase table.
    for (const StepPhaseInfo& phase : kStepPhases) {
        py::dict row;
        row["name"] = std::string("time_phase_") + phase.name;
        row["scope"] = "timing";
        row["unit"] = "s";
        row["doc"] = std::string("Seconds of the run spent in the step's ") + phase.name + " phase (" + phase.doc +
                     "), wall time on the calling thread.";
        rows.append(row);
    }
    return py::tuple(rows);
}

}  // namespace

py::dict run_metrics_dict(const RunMetrics& m, const PhaseTimes& times) {
    py::dict out;
#define VOSIM_METRIC_ENTRY(name, scope, T, unit, doc) out[#name] = metric_array(m.name, MetricScope::scope, m);
    VOSIM_RUN_METRICS(VOSIM_METRIC_ENTRY)
#undef VOSIM_METRIC_ENTRY
#define VOSIM_TIME_ENTRY(name, scope, T, unit, doc) out[#name] = phase_seconds(times, #name);
    VOSIM_RUN_TIMES(VOSIM_TIME_ENTRY)
#undef VOSIM_TIME_ENTRY
    for (const StepPhaseInfo& phase : kStepPhases) out[py::str(std::string("time_phase_") + phase.name)] = times[phase.phase];
    out["series_steps"] = array(m.series_steps, {static_cast<py::ssize_t>(m.series_steps.size())});
    return out;
}

void bind_metrics(py::module_& m) {
    // Below this speed a goal-seeking agent that has not arrived stalls.
    m.attr("STALL_SPEED") = MetricsSettings{}.stall_speed;
    m.attr("OBSTACLE_CONTACT_TOLERANCE") = kObstacleContactTolerance;
    m.attr("RUN_METRICS") = metric_rows();
    // The step's phases in order, with what each does (engine/step_phases.hpp).
    py::list phases;
    for (const StepPhaseInfo& phase : kStepPhases) phases.append(py::make_tuple(phase.name, phase.doc));
    m.attr("STEP_PHASES") = py::tuple(phases);
    m.def(
        "overlaps",
        [](const Doubles& positions, const Doubles& radius, const Bytes& active, double min_fraction,
           const py::object& periodic_or_none) {
            const Periodic periodic = periodic_arg(periodic_or_none);
            if (positions.ndim() != 3 || positions.shape(2) != 2) {
                throw std::invalid_argument("positions: expected shape (T, N, 2)");
            }
            const py::ssize_t frames = positions.shape(0), n = positions.shape(1);
            // active: (N,) for every frame, or (T, N): who is in the scene at each frame
            // (an agent that left through a sink stays recorded where it left).
            const bool per_frame = active.ndim() == 2;
            if (radius.size() != n || (per_frame ? active.shape(0) != frames || active.shape(1) != n
                                                 : active.ndim() != 1 || active.size() != n)) {
                throw std::invalid_argument("radius, active: expected radius (N,) and active (N,) or (T, N) "
                                            "matching positions");
            }
            std::vector<std::int64_t> frame_of;
            std::vector<Overlap> found;
            {
                py::gil_scoped_release release;
                NeighborGrid grid;
                for (py::ssize_t t = 0; t < frames; ++t) {
                    const std::size_t before = found.size();
                    const std::uint8_t* present = active.data() + (per_frame ? t * n : 0);
                    find_overlaps(positions.data() + t * n * 2, radius.data(), present, static_cast<int>(n),
                                  min_fraction, grid, found, periodic);
                    frame_of.resize(found.size(), t);
                    (void)before;
                }
            }
            py::array_t<std::int64_t> table({static_cast<py::ssize_t>(found.size()), py::ssize_t{3}});
            py::array_t<double> depth(static_cast<py::ssize_t>(found.size()));
            for (std::size_t k = 0; k < found.size(); ++k) {
                table.mutable_data()[3 * k] = frame_of[k];
                table.mutable_data()[3 * k + 1] = found[k].a;
                table.mutable_data()[3 * k + 2] = found[k].b;
                depth.mutable_data()[k] = found[k].depth;
            }
            return py::make_tuple(table, depth);
        },
        py::arg("positions"), py::arg("radius"), py::arg("active"), py::arg("min_fraction"),
        py::arg("periodic") = py::none(),
        "Overlapping pairs per frame, deeper than min_fraction of their combined radius: "
        "((k, 3) [frame, a, b] with a < b, (k,) depth). positions (T, N, 2), radius (N,), active (N,) or (T, N) per frame; "
        "periodic: None or (axis index, low, high), pairs at their nearest image.");
    m.def("min_clearance", &min_clearance_frames, py::arg("positions"), py::arg("radius"),
          py::arg("active") = py::none(), py::arg("periodic") = py::none(),
          "Smallest dist - r_i - r_j per frame and scene among the active agents: "
          "positions (T, B, N, 2), radius (B, N), active (B, N) or None for all; "
          "periodic: None or (axis index, low, high), pairs at their nearest image.");
}

}  // namespace vosim::bindings
