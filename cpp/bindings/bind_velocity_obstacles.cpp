// The velocity-obstacle kernel for one agent, exposed for tests and for
// drawing the velocity space. The engine calls the kernel directly.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "methods/velocity_obstacles/velocity_obstacles.hpp"
#include "methods/velocity_obstacles/vo_names.hpp"

namespace py = pybind11;

namespace vosim::bindings {

namespace {

using Doubles = py::array_t<double, py::array::c_style | py::array::forcecast>;

// "(3, 2)", as Python prints a shape.
std::string shape_text(const py::array& a) {
    std::string text = "(";
    for (py::ssize_t d = 0; d < a.ndim(); ++d) {
        text += std::to_string(a.shape(d));
        text += a.ndim() == 1 ? "," : (d + 1 < a.ndim() ? ", " : "");
    }
    return text + ")";
}

Vec2 read_vec2(const Doubles& a, const char* name) {
    if (a.ndim() != 1 || a.shape(0) != 2) {
        throw std::invalid_argument(std::string(name) + ": expected 2 values, got shape " +
                                    shape_text(a));
    }
    return {a.at(0), a.at(1)};
}

// Rows of a (k, width) array; an empty array of any shape means no rows.
const double* read_rows(const Doubles& a, py::ssize_t width, const char* name, int& rows) {
    if (a.size() == 0) {
        rows = 0;
        return nullptr;
    }
    if (a.ndim() != 2 || a.shape(1) != width) {
        throw std::invalid_argument(std::string(name) + ": expected shape (k, " +
                                    std::to_string(width) + "), got " +
                                    shape_text(a));
    }
    rows = static_cast<int>(a.shape(0));
    return a.data();
}




const char* kind_name(VoConeKind kind) {
    switch (kind) {
        case VoConeKind::agent: return "agent";
        case VoConeKind::agent_overlap: return "agent_overlap";
        case VoConeKind::segment: return "segment";
        case VoConeKind::segment_overlap: return "segment_overlap";
    }
    return "";
}

py::array_t<double> to_array(Vec2 v) {
    py::array_t<double> out(2);
    out.mutable_at(0) = v.x;
    out.mutable_at(1) = v.y;
    return out;
}

py::dict diagnostics_dict(const VoDiagnostics& d) {
    const auto c = static_cast<py::ssize_t>(d.cones.size());
    py::array_t<double> apex({c, py::ssize_t{2}}), right({c, py::ssize_t{2}}),
        left({c, py::ssize_t{2}}), cap_a({c, py::ssize_t{2}}), cap_b({c, py::ssize_t{2}});
    py::array_t<double> cap_radius(c), horizon(c), scale(c);
    py::array_t<std::int32_t> source(c);
    py::list kinds;
    for (py::ssize_t k = 0; k < c; ++k) {
        const VoCone& cone = d.cones[k];
        const auto put = [k](py::array_t<double>& a, Vec2 v) {
            a.mutable_at(k, 0) = v.x;
            a.mutable_at(k, 1) = v.y;
        };
        put(apex, cone.apex);
        put(right, cone.right_leg);
        put(left, cone.left_leg);
        // The cap of a truncated cone in velocity space (the obstacle scaled
        // by 1 / (scale * horizon) around the apex); nan when not truncated.
        const bool capped = cone.is_truncated() && !cone.is_overlap();
        const double shrink = capped ? 1.0 / (cone.scale * cone.horizon)
                                     : std::numeric_limits<double>::quiet_NaN();
        put(cap_a, cone.apex + shrink * cone.obstacle_a);
        put(cap_b, cone.apex + shrink * cone.obstacle_b);
        cap_radius.mutable_at(k) = shrink * cone.radius;
        horizon.mutable_at(k) = cone.horizon;
        scale.mutable_at(k) = cone.scale;
        source.mutable_at(k) = cone.source;
        kinds.append(kind_name(cone.kind));
    }
    const auto m = static_cast<py::ssize_t>(d.candidates.size());
    py::array_t<double> velocity({m, py::ssize_t{2}});
    py::array_t<double> penalty(m), time_to_collision(m);
    py::array_t<std::int32_t> blocking(m), cone_a(m), cone_b(m);
    for (py::ssize_t i = 0; i < m; ++i) {
        const VoCandidateInfo& info = d.candidates[i];
        velocity.mutable_at(i, 0) = info.velocity.x;
        velocity.mutable_at(i, 1) = info.velocity.y;
        penalty.mutable_at(i) = info.penalty;
        time_to_collision.mutable_at(i) = info.time_to_collision;
        blocking.mutable_at(i) = info.blocking_cone;
        cone_a.mutable_at(i) = info.cone_a;
        cone_b.mutable_at(i) = info.cone_b;
    }
    py::dict out;
    out["cone_kind"] = kinds;
    out["cone_source"] = source;
    out["apex"] = apex;
    out["right_leg"] = right;
    out["left_leg"] = left;
    out["cap_a"] = cap_a;
    out["cap_b"] = cap_b;
    out["cap_radius"] = cap_radius;
    out["horizon"] = horizon;
    out["scale"] = scale;
    out["candidates"] = velocity;
    out["penalty"] = penalty;
    out["time_to_collision"] = time_to_collision;
    out["blocking_cone"] = blocking;
    out["candidate_cone_a"] = cone_a;
    out["candidate_cone_b"] = cone_b;
    out["chosen"] = d.chosen;
    out["used_fallback"] = d.used_fallback;
    out["velocity"] = to_array(d.velocity);
    return out;
}

py::object vo_velocity(const Doubles& position, const Doubles& velocity,
                       const Doubles& pref_velocity, double radius, double max_speed,
                       const Doubles& neighbors, const Doubles& segments, double time_step,
                       const std::string& cone, const py::object& selection, int samples,
                       double safety_factor, bool truncate, double time_horizon,
                       double time_horizon_obst, double uncertainty_offset, std::uint64_t seed,
                       std::int64_t agent_id, std::int64_t step, const std::string& hrvo_apex,
                       bool escape_overlaps, bool diagnostics) {
    VoConfig config = default_vo_config(parse_cone(cone));
    if (!selection.is_none()) config.selection = parse_selection(selection.cast<std::string>());
    config.samples = samples;
    config.safety_factor = safety_factor;
    config.truncate = truncate;
    config.seed = seed;
    config.hrvo_apex = parse_apex(hrvo_apex);
    config.escape_overlaps = escape_overlaps;
    check_vo_config(config);

    LocalAgent agent;
    agent.position = read_vec2(position, "position");
    agent.velocity = read_vec2(velocity, "velocity");
    agent.pref_velocity = read_vec2(pref_velocity, "pref_velocity");
    agent.radius = radius;
    agent.max_speed = max_speed;
    agent.time_horizon = time_horizon;
    agent.time_horizon_obst = time_horizon_obst;
    agent.uncertainty_offset = uncertainty_offset;

    int neighbor_count = 0;
    const double* n = read_rows(neighbors, 7, "neighbors", neighbor_count);
    std::vector<LocalNeighbor> others(neighbor_count);
    for (int k = 0; k < neighbor_count; ++k) {
        const double* row = n + 7 * k;
        others[k].position = {row[0], row[1]};
        others[k].velocity = {row[2], row[3]};
        others[k].pref_velocity = {row[4], row[5]};
        others[k].radius = row[6];
    }
    int segment_count = 0;
    const double* s = read_rows(segments, 4, "segments", segment_count);
    std::vector<LocalEdge> edges(segment_count);
    for (int k = 0; k < segment_count; ++k) {
        edges[k].a = {s[4 * k], s[4 * k + 1]};
        edges[k].b = {s[4 * k + 2], s[4 * k + 3]};
    }
    check_vo_inputs(agent, others.data(), neighbor_count, edges.data(), segment_count, time_step,
                    truncate);

    VoScratch scratch;
    VoDiagnostics record;
    const Vec2 result = vo_new_velocity(config, agent, others.data(), neighbor_count,
                                        edges.data(), segment_count, time_step,
                                        vo_sample_seed(config.seed, agent_id, step), scratch,
                                        diagnostics ? &record : nullptr);
    if (!diagnostics) return to_array(result);
    return py::make_tuple(to_array(result), diagnostics_dict(record));
}

}  // namespace

void bind_velocity_obstacles(py::module_& m) {
    m.def("vo_velocity", &vo_velocity, py::arg("position"), py::arg("velocity"),
          py::arg("pref_velocity"), py::kw_only(), py::arg("radius"), py::arg("max_speed"),
          py::arg("neighbors") = Doubles(), py::arg("segments") = Doubles(),
          py::arg("time_step"), py::arg("cone") = "hrvo", py::arg("selection") = py::none(),
          py::arg("samples") = 250, py::arg("safety_factor") = 7.5, py::arg("truncate") = false,
          py::arg("time_horizon") = 1.0, py::arg("time_horizon_obst") = 1.0,
          py::arg("uncertainty_offset") = 0.0, py::arg("seed") = 0, py::arg("agent_id") = 0,
          py::arg("step") = 0, py::arg("hrvo_apex") = "library", py::arg("escape_overlaps") = true,
          py::arg("diagnostics") = false,
          R"(New velocity of one agent from the velocity-obstacle kernel.

neighbors: (k, 7) rows [x, y, vx, vy, pref_vx, pref_vy, radius], nearest first;
segments: (m, 4) rows [ax, ay, bx, by]. selection defaults to 'sampling' for
'vo' and 'rvo', 'geometric' for 'hrvo'. Sampling draws from a stream seeded by
(seed, agent_id, step). escape_overlaps=False reproduces the HRVO library in
overlaps deeper than the max speed can resolve in a step. Returns the velocity, or (velocity, diagnostics dict)
when diagnostics is true.)");

    m.def(
        "vo_limit_acceleration",
        [](const Doubles& velocity, const Doubles& target, double max_accel, double time_step) {
            return to_array(limit_acceleration(read_vec2(velocity, "velocity"),
                                               read_vec2(target, "target"), max_accel,
                                               time_step));
        },
        py::arg("velocity"), py::arg("target"), py::kw_only(), py::arg("max_accel"),
        py::arg("time_step"),
        "The velocity moved towards target by at most max_accel * time_step (HRVO's rule).");
}

}  // namespace vosim::bindings
