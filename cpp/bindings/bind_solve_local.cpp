// Any registered method's kernel on one local problem given outright
// (methods/local_problem.hpp, LocalSolver): the settings are checked by the
// registry's one declaration, the agent's numbers read by the names of
// VOSIM_LOCAL_AGENT_NUMBERS, and the method's own record comes back as a dict.
// For tests against reference libraries and drawing one agent's velocity
// space; the engine calls the kernels directly.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "method_params.hpp"
#include "methods/local_problem.hpp"
#include "record.hpp"
#include "record_dict.hpp"
#include "methods/registry.hpp"
#include "methods/velocity_obstacles/velocity_obstacles.hpp"  // limit_acceleration

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

Vec2 read_vec2(const py::handle& value, const char* name) {
    const Doubles a = Doubles::ensure(value);
    if (!a) throw std::invalid_argument(std::string(name) + ": cannot be read as an array of floats");
    if (a.ndim() != 1 || a.shape(0) != 2) {
        throw std::invalid_argument(std::string(name) + ": expected 2 values, got shape " + shape_text(a));
    }
    return {a.at(0), a.at(1)};
}

// Rows of a (k, width) table; None or an empty array of any shape: none.
Doubles read_rows(const py::object& value, py::ssize_t width, const char* name) {
    if (value.is_none()) return Doubles(std::vector<py::ssize_t>{0, width});
    Doubles a = Doubles::ensure(value);
    if (!a) throw std::invalid_argument(std::string(name) + ": cannot be read as an array of floats");
    if (a.size() == 0) return Doubles(std::vector<py::ssize_t>{0, width});
    if (a.ndim() != 2 || a.shape(1) != width) {
        throw std::invalid_argument(std::string(name) + ": expected shape (k, " + std::to_string(width) + "), got " +
                                    shape_text(a));
    }
    return a;
}

// The agent from its dict: vectors and radius, max_speed required, the
// other numbers at their defaults, id (seeds its random draws) 0 unless given.
LocalAgent read_agent(const py::dict& fields) {
    for (const char* required : {"position", "velocity", "pref_velocity", "radius", "max_speed"}) {
        if (!fields.contains(required)) throw std::invalid_argument(std::string("agent: no ") + required + " given");
    }
    LocalAgent agent;
    std::size_t used = 3;
    agent.position = read_vec2(fields["position"], "position");
    agent.velocity = read_vec2(fields["velocity"], "velocity");
    agent.pref_velocity = read_vec2(fields["pref_velocity"], "pref_velocity");
    std::vector<std::string> known = {"position", "velocity", "pref_velocity", "id"};
#define VOSIM_READ_NUMBER(name, fallback)             \
    if (fields.contains(#name)) {                     \
        agent.name = py::cast<double>(fields[#name]); \
        ++used;                                       \
    }                                                 \
    known.push_back(#name);
    VOSIM_LOCAL_AGENT_NUMBERS(VOSIM_READ_NUMBER)
#undef VOSIM_READ_NUMBER
    if (fields.contains("id")) {
        agent.id = py::cast<std::int64_t>(fields["id"]);
        ++used;
    }
    if (used != py::len(fields)) {
        for (const auto& item : fields) {
            const auto key = py::cast<std::string>(item.first);
            if (std::find(known.begin(), known.end(), key) == known.end()) {
                std::string listed;
                for (const std::string& k : known) listed += (listed.empty() ? "" : ", ") + k;
                throw std::invalid_argument("agent: no field named '" + key + "' (known: " + listed + ")");
            }
        }
    }
    return agent;
}

py::array_t<double> to_array(Vec2 v) {
    py::array_t<double> out(2);
    out.mutable_at(0) = v.x;
    out.mutable_at(1) = v.y;
    return out;
}

py::tuple solve_local(const std::string& name, const py::dict& params, const py::dict& agent_fields,
                      const py::object& neighbors, const py::object& segments, double time_step, std::int64_t step,
                      std::uint64_t seed, bool diagnostics) {
    const MethodSpec& spec = find_method(name);
    const std::shared_ptr<Method> method = make_method(name, param_values(spec, params), seed, 2);
    const auto* solver = dynamic_cast<const LocalSolver*>(method.get());
    if (!solver) throw std::invalid_argument("method: " + name + " cannot be called on a local problem on its own");

    LocalProblem problem;
    problem.agent = read_agent(agent_fields);
    problem.time_step = time_step;
    problem.step = step;
    const Doubles n = read_rows(neighbors, 7, "neighbors");
    for (py::ssize_t k = 0; k < n.shape(0); ++k) {
        const double* row = n.data() + 7 * k;
        // The agent stands in slot 0, its neighbours after it in the order given.
        problem.neighbors.push_back({{row[0], row[1]}, {row[2], row[3]}, {row[4], row[5]}, row[6],
                                     static_cast<int>(k) + 1});
    }
    const Doubles s = read_rows(segments, 4, "segments");
    for (py::ssize_t k = 0; k < s.shape(0); ++k) {
        const double* row = s.data() + 4 * k;
        problem.edges.push_back({{row[0], row[1]}, {row[2], row[3]}});
    }
    Record record;
    Vec2 velocity;
    {
        py::gil_scoped_release release;
        velocity = solver->solve_local(problem, record, diagnostics);
    }
    py::dict out;
    put_entries(record, out);
    return py::make_tuple(to_array(velocity), out);
}

const char* const kSolveLocalDoc = R"doc(
The new velocity of one agent from a registered method's kernel, on a local
problem given outright (no engine).

Parameters
----------
method : str
    The method's registered name (``_core.METHODS``), e.g. "HRVO".
params : dict
    Its settings, checked against the registry (missing ones take their defaults).
agent : dict
    position, velocity, pref_velocity (2 values each), radius, max_speed
    and, optionally, the other numbers the kernels read (the per-agent fields
    of the same names, at these defaults: {numbers}) and id (seeds random
    draws).
neighbors : array_like, shape (k, 7), optional
    Rows ``x, y, vx, vy, pref_vx, pref_vy, radius``, nearest first.
segments : array_like, shape (m, 4), optional
    Obstacle edges ``ax, ay, bx, by`` as the method's kernel takes them
    (DetourCrowd's: eroded by the agent's radius already, as its navmesh is).
time_step : float
step : int
    Steps taken before this one (with seed and id: the sampling stream).
seed : int
    The method's seed.
diagnostics : bool
    Also record everything the method saw and weighed.

Returns
-------
velocity : ndarray, shape (2,)
record : dict
    The method's own record (its docs in C++ list the entries): a summary,
    and with ``diagnostics=True`` its cones, candidates or samples.
)doc";

// The doc, listing the agent's numbers from VOSIM_LOCAL_AGENT_NUMBERS.
const std::string& solve_local_doc() {
    static const std::string doc = [] {
        std::string numbers, text = kSolveLocalDoc;
#define VOSIM_LIST_NUMBER(name, fallback) numbers += std::string(numbers.empty() ? "" : ", ") + #name "=" #fallback;
        VOSIM_LOCAL_AGENT_NUMBERS(VOSIM_LIST_NUMBER)
#undef VOSIM_LIST_NUMBER
        const std::string slot = "{numbers}";
        return text.replace(text.find(slot), slot.size(), numbers);
    }();
    return doc;
}

}  // namespace

void bind_solve_local(py::module_& m) {
    m.def("solve_local", &solve_local, py::arg("method"), py::arg("params") = py::dict(), py::kw_only(),
          py::arg("agent"), py::arg("neighbors") = py::none(), py::arg("segments") = py::none(),
          py::arg("time_step"), py::arg("step") = 0, py::arg("seed") = 0, py::arg("diagnostics") = false,
          solve_local_doc().c_str());

    m.def(
        "vo_limit_acceleration",
        [](const Doubles& velocity, const Doubles& target, double max_accel, double time_step) {
            return to_array(limit_acceleration(read_vec2(velocity, "velocity"), read_vec2(target, "target"),
                                               max_accel, time_step));
        },
        py::arg("velocity"), py::arg("target"), py::kw_only(), py::arg("max_accel"), py::arg("time_step"),
        "The velocity moved towards target by at most max_accel * time_step (HRVO's rule).");
}

}  // namespace vosim::bindings
