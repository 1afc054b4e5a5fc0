// DetourCrowd velocity sampling for one agent, for tests and diagnostics.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "methods/detour/detour_sampling.hpp"

namespace py = pybind11;

namespace vosim::bindings {

namespace {

using Doubles = py::array_t<double, py::array::c_style | py::array::forcecast>;

std::string shape_of(const Doubles& a) {
    std::string text = "(";
    for (py::ssize_t d = 0; d < a.ndim(); ++d) {
        text += std::to_string(a.shape(d));
        text += (a.ndim() == 1 ? "," : (d + 1 < a.ndim() ? ", " : ""));
    }
    return text + ")";
}

Vec2 read_vec2(const Doubles& a, const char* name) {
    if (a.ndim() != 1 || a.shape(0) != 2) {
        throw std::invalid_argument(std::string(name) + ": expected shape (2,), got " + shape_of(a));
    }
    return {a.data()[0], a.data()[1]};
}

// An (n, columns) table; None is an empty one.
Doubles read_table(const py::object& obj, py::ssize_t columns, const char* name, const char* shape) {
    if (obj.is_none()) return Doubles(std::vector<py::ssize_t>{0, columns});
    Doubles a = Doubles::ensure(obj);
    if (!a) throw std::invalid_argument(std::string(name) + ": cannot be read as an array of floats");
    if (a.ndim() == 1 && a.shape(0) == 0) return Doubles(std::vector<py::ssize_t>{0, columns});
    if (a.ndim() != 2 || a.shape(1) != columns) {
        throw std::invalid_argument(std::string(name) + ": expected shape " + shape + ", got " + shape_of(a));
    }
    return a;
}

py::dict record_arrays(const std::vector<DetourSample>& samples) {
    const auto n = static_cast<py::ssize_t>(samples.size());
    py::array_t<double> velocity({n, py::ssize_t{2}});
    py::array_t<double> penalty(n), vpen(n), vcpen(n), spen(n), tpen(n);
    py::array_t<int> level(n);
    py::array_t<bool> pruned(n);
    double* v = velocity.mutable_data();
    for (py::ssize_t i = 0; i < n; ++i) {
        const DetourSample& s = samples[static_cast<std::size_t>(i)];
        v[2 * i] = s.velocity.x;
        v[2 * i + 1] = s.velocity.y;
        penalty.mutable_data()[i] = s.penalty;
        vpen.mutable_data()[i] = s.vpen;
        vcpen.mutable_data()[i] = s.vcpen;
        spen.mutable_data()[i] = s.spen;
        tpen.mutable_data()[i] = s.tpen;
        level.mutable_data()[i] = s.level;
        pruned.mutable_data()[i] = s.pruned;
    }
    py::dict out;
    out["velocity"] = velocity;
    out["penalty"] = penalty;
    out["vpen"] = vpen;
    out["vcpen"] = vcpen;
    out["spen"] = spen;
    out["tpen"] = tpen;
    out["level"] = level;
    out["pruned"] = pruned;
    return out;
}

py::tuple detour_sample(const Doubles& position, const Doubles& velocity, const Doubles& desired_velocity,
                        double radius, double max_speed, const py::object& circles,
                        const py::object& circle_radii, const py::object& segments,
                        const std::string& mode, bool record, const DetourParams& params) {
    const bool adaptive = mode == "adaptive";
    if (!adaptive && mode != "grid") {
        throw std::invalid_argument("mode must be 'adaptive' or 'grid', got '" + mode + "'");
    }
    check_detour_params(params);
    const LocalAgent agent{read_vec2(position, "position"), read_vec2(velocity, "velocity"),
                            read_vec2(desired_velocity, "desired_velocity"), radius, max_speed};

    const Doubles circle_table = read_table(circles, 6, "circles", "(k, 6)");
    const py::ssize_t k = circle_table.shape(0);
    Doubles radii = circle_radii.is_none() ? Doubles(k) : Doubles::ensure(circle_radii);
    if (!radii || radii.ndim() != 1 || radii.shape(0) != k) {
        throw std::invalid_argument("circle_radii: expected shape (" + std::to_string(k) +
                                    ",) matching circles" + (radii ? ", got " + shape_of(radii) : ""));
    }
    if (circle_radii.is_none() && k > 0) {
        throw std::invalid_argument("circle_radii: required when circles are given");
    }
    std::vector<LocalNeighbor> circle_list(static_cast<std::size_t>(k));
    const double* c = circle_table.data();
    for (py::ssize_t i = 0; i < k; ++i, c += 6) {
        circle_list[static_cast<std::size_t>(i)] = {{c[0], c[1]}, {c[2], c[3]}, {c[4], c[5]}, radii.data()[i]};
    }

    const Doubles segment_table = read_table(segments, 4, "segments", "(m, 4)");
    const py::ssize_t m = segment_table.shape(0);
    std::vector<LocalEdge> segment_list(static_cast<std::size_t>(m));
    const double* s = segment_table.data();
    for (py::ssize_t i = 0; i < m; ++i, s += 4) {
        segment_list[static_cast<std::size_t>(i)] = {{s[0], s[1]}, {s[2], s[3]}};
    }

    const int n_circles = static_cast<int>(k), n_segments = static_cast<int>(m);
    check_detour_inputs(agent, circle_list.data(), n_circles, segment_list.data(), n_segments);
    std::vector<DetourSample> samples;
    std::vector<DetourSample>* sink = record ? &samples : nullptr;
    const DetourResult result =
        adaptive ? sample_velocity_adaptive(params, agent, circle_list.data(), n_circles,
                                            segment_list.data(), n_segments, sink)
                 : sample_velocity_grid(params, agent, circle_list.data(), n_circles,
                                        segment_list.data(), n_segments, sink);
    py::array_t<double> chosen(2);
    chosen.mutable_data()[0] = result.velocity.x;
    chosen.mutable_data()[1] = result.velocity.y;
    return py::make_tuple(chosen, result.samples, record ? py::object(record_arrays(samples)) : py::none());
}

const char* const kDetourSampleDoc = R"doc(
DetourCrowd's velocity sampling (dtObstacleAvoidanceQuery) for one agent.

Parameters
----------
position, velocity, desired_velocity : array_like, shape (2,)
    The agent's centre, current velocity and desired velocity.
radius, max_speed : float
    The agent's radius and speed limit (both >= 0).
circles : array_like, shape (k, 6), optional
    Neighbours as rows ``x, y, vx, vy, dvx, dvy`` (centre, velocity, desired
    velocity; the desired velocity only decides the preferred passing side).
circle_radii : array_like, shape (k,)
    Neighbour radii; required when ``circles`` is given.
segments : array_like, shape (m, 4), optional
    Wall segments as rows ``px, py, qx, qy``, endpoints in DetourCrowd's
    ``addSegment(p, q)`` order.
mode : {"adaptive", "grid"}
    The ring sampler dtCrowd uses, or the uniform grid sampler.
record : bool
    Also return every evaluated sample.
vel_bias, weight_des_vel, weight_cur_vel, weight_side, weight_toi, horiz_time,
grid_size, adaptive_divs, adaptive_rings, adaptive_depth
    dtObstacleAvoidanceParams; the defaults are dtCrowd's. Weights must be
    >= 0, vel_bias in [0, 1], horiz_time > 0, grid_size >= 2, the adaptive
    counts >= 1 (divs above 32 and rings above 4 are clamped, as DetourCrowd
    does); otherwise ValueError names the parameter.

Returns
-------
velocity : ndarray, shape (2,)
    The chosen velocity.
samples : int
    The number of evaluated candidates (those outside the speed limit are not).
record : dict of ndarray or None
    With ``record=True``: ``velocity`` (S, 2), ``penalty``, ``vpen``, ``vcpen``,
    ``spen``, ``tpen`` (S,) (terms computed in full, un-normalised), ``level``
    (S,) int, ``pruned`` (S,) bool (skipped by the early-out, so it lost).

Notes
-----
vosim computes in double; DetourCrowd in float32. Results agree except
where two candidates' penalties tie within rounding. Where DetourCrowd is
undefined or degenerate, vosim defines:

- even ``adaptive_divs``: each ring's last point (uninitialised memory in the
  library) is the ring's start rotated by 180 degrees;
- a neighbour centred exactly on the agent (NaN penalties and (0, 0) in the
  library): it gets no side term and is left out of the side average, but
  still counts for the time of impact like any overlapping neighbour;
- zero desired velocity (the library's adaptive pattern collapses and
  returns (0, 0)): the pattern is oriented along the current velocity, or
  along +x when that is zero too. The grid sampler is unaffected.
)doc";

}  // namespace

void bind_detour(py::module_& m) {
    const DetourParams d;
    m.def(
        "detour_sample",
        [](const Doubles& position, const Doubles& velocity, const Doubles& desired_velocity, double radius,
           double max_speed, const py::object& circles, const py::object& circle_radii,
           const py::object& segments, const std::string& mode, bool record, double vel_bias,
           double weight_des_vel, double weight_cur_vel, double weight_side, double weight_toi,
           double horiz_time, int grid_size, int adaptive_divs, int adaptive_rings, int adaptive_depth) {
            const DetourParams params{vel_bias,   weight_des_vel, weight_cur_vel, weight_side,
                                      weight_toi, horiz_time,     grid_size,      adaptive_divs,
                                      adaptive_rings, adaptive_depth};
            return detour_sample(position, velocity, desired_velocity, radius, max_speed, circles,
                                 circle_radii, segments, mode, record, params);
        },
        py::arg("position"), py::arg("velocity"), py::arg("desired_velocity"), py::arg("radius"),
        py::arg("max_speed"), py::arg("circles") = py::none(), py::arg("circle_radii") = py::none(),
        py::arg("segments") = py::none(), py::kw_only(), py::arg("mode") = "adaptive",
        py::arg("record") = false, py::arg("vel_bias") = d.vel_bias,
        py::arg("weight_des_vel") = d.weight_des_vel, py::arg("weight_cur_vel") = d.weight_cur_vel,
        py::arg("weight_side") = d.weight_side, py::arg("weight_toi") = d.weight_toi,
        py::arg("horiz_time") = d.horiz_time, py::arg("grid_size") = d.grid_size,
        py::arg("adaptive_divs") = d.adaptive_divs, py::arg("adaptive_rings") = d.adaptive_rings,
        py::arg("adaptive_depth") = d.adaptive_depth, kDetourSampleDoc);
}

}  // namespace vosim::bindings
