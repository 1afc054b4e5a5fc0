#include <pybind11/pybind11.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

#include "methods/force/force_based.hpp"
#include "method.hpp"
#include "methods/orca/orca.hpp"
#include "methods/detour/sampling_method.hpp"
#include "methods/velocity_obstacles/velocity_obstacle_method.hpp"
#include "methods/velocity_obstacles/vo_names.hpp"

namespace py = pybind11;

namespace vosim::bindings {

void bind_methods(py::module_& m) {
    py::class_<Method, std::shared_ptr<Method>>(m, "Method")
        .def_property_readonly("name", &Method::name)
        .def(
            "set_preference_noise",
            [](Method& method, double magnitude, std::uint64_t seed) {
                if (!(std::isfinite(magnitude) && magnitude >= 0.0)) {
                    throw std::invalid_argument("perturbation must be finite and >= 0");
                }
                method.set_preference_noise({magnitude, seed});
            },
            py::arg("magnitude"), py::arg("seed"))
        .def(
            "set_deadlock_resolution",
            [](Method& method, const std::string& rule, double patience, double hold, double turn,
               double stall_fraction) {
                DeadlockResolution d;
                if (rule == "none") {
                    d.rule = DeadlockRule::kNone;
                } else if (rule == "sidestep") {
                    d.rule = DeadlockRule::kSidestep;
                } else if (rule == "random_side") {
                    d.rule = DeadlockRule::kRandomSide;
                } else {
                    throw std::invalid_argument("deadlock is '" + rule + "'; must be none, sidestep or random_side");
                }
                for (double value : {patience, hold, turn, stall_fraction}) {
                    if (!(std::isfinite(value) && value >= 0.0)) {
                        throw std::invalid_argument("deadlock settings must be finite and >= 0");
                    }
                }
                d.patience = patience;
                d.hold = hold;
                d.turn = turn;
                d.stall_fraction = stall_fraction;
                method.set_deadlock_resolution(d);
            },
            py::kw_only(), py::arg("rule"), py::arg("patience"), py::arg("hold"), py::arg("turn"),
            py::arg("stall_fraction"));

    py::class_<Orca, Method, std::shared_ptr<Orca>>(m, "Orca")
        .def(py::init([](double bisector_weight) {
                 OrcaConfig config;
                 config.bisector_weight = bisector_weight;
                 return std::make_shared<Orca>(config);
             }),
             py::kw_only(), py::arg("bisector_weight") = 1.0);

    py::class_<VelocityObstacleMethod, Method, std::shared_ptr<VelocityObstacleMethod>>(m, "VelocityObstacles")
        .def(py::init([](const std::string& cone, const std::string& selection, int samples, double safety_factor,
                         bool truncate, std::uint64_t seed, const std::string& hrvo_apex, bool escape_overlaps) {
                 VoConfig config;
                 config.cone = parse_cone(cone);
                 config.selection = parse_selection(selection);
                 config.samples = samples;
                 config.safety_factor = safety_factor;
                 config.truncate = truncate;
                 config.seed = seed;
                 config.hrvo_apex = parse_apex(hrvo_apex);
                 config.escape_overlaps = escape_overlaps;
                 return std::make_shared<VelocityObstacleMethod>(config);
             }),
             py::kw_only(), py::arg("cone"), py::arg("selection"), py::arg("samples"), py::arg("safety_factor"),
             py::arg("truncate"), py::arg("seed"), py::arg("hrvo_apex"), py::arg("escape_overlaps"));

    py::class_<SamplingMethod, Method, std::shared_ptr<SamplingMethod>>(m, "Sampling")
        .def(py::init([](const std::string& pattern, double vel_bias, double weight_des_vel, double weight_cur_vel,
                         double weight_side, double weight_toi, double horiz_time, int grid_size, int divs, int rings,
                         int depth) {
                 if (pattern != "adaptive" && pattern != "grid") {
                     throw std::invalid_argument("pattern must be 'adaptive' or 'grid', got '" + pattern + "'");
                 }
                 DetourParams p;
                 p.vel_bias = vel_bias;
                 p.weight_des_vel = weight_des_vel;
                 p.weight_cur_vel = weight_cur_vel;
                 p.weight_side = weight_side;
                 p.weight_toi = weight_toi;
                 p.horiz_time = horiz_time;
                 p.grid_size = grid_size;
                 p.adaptive_divs = divs;
                 p.adaptive_rings = rings;
                 p.adaptive_depth = depth;
                 return std::make_shared<SamplingMethod>(
                     pattern == "adaptive" ? SamplingMethod::Pattern::adaptive : SamplingMethod::Pattern::grid, p);
             }),
             py::kw_only(), py::arg("pattern"), py::arg("vel_bias"), py::arg("weight_des_vel"),
             py::arg("weight_cur_vel"), py::arg("weight_side"), py::arg("weight_toi"), py::arg("horiz_time"),
             py::arg("grid_size"), py::arg("divs"), py::arg("rings"), py::arg("depth"));

    py::class_<ForceBased, Method, std::shared_ptr<ForceBased>>(m, "ForceBased")
        .def(py::init([](double steering_time, double separation_distance, double separation_stiffness,
                         double avoidance_time, double avoidance_distance, double avoidance_stiffness,
                         double standing_scale, double standing_speed, double obstacle_distance,
                         double obstacle_stiffness) {
                 ForceParams p;
                 p.steering_time = steering_time;
                 p.separation_distance = separation_distance;
                 p.separation_stiffness = separation_stiffness;
                 p.avoidance_time = avoidance_time;
                 p.avoidance_distance = avoidance_distance;
                 p.avoidance_stiffness = avoidance_stiffness;
                 p.standing_scale = standing_scale;
                 p.standing_speed = standing_speed;
                 p.obstacle_distance = obstacle_distance;
                 p.obstacle_stiffness = obstacle_stiffness;
                 return std::make_shared<ForceBased>(p);
             }),
             py::kw_only(), py::arg("steering_time"), py::arg("separation_distance"),
             py::arg("separation_stiffness"), py::arg("avoidance_time"), py::arg("avoidance_distance"),
             py::arg("avoidance_stiffness"), py::arg("standing_scale"), py::arg("standing_speed"),
             py::arg("obstacle_distance"), py::arg("obstacle_stiffness"));
}

}  // namespace vosim::bindings
