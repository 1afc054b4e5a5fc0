// VO, RVO and HRVO's entries in the method registry
// (cpp/core/methods/registry.hpp).
#include <cstdint>
#include <limits>

#include "limits.hpp"
#include "methods/registry.hpp"
#include "methods/velocity_obstacles/velocity_obstacle_method.hpp"
#include "methods/velocity_obstacles/vo_names.hpp"

namespace vosim {

namespace {

// The settings of every cone, in the order users see them; HRVO adds its apex.
MethodSpec velocity_obstacle_method(const char* name, Cone cone, const char* summary) {
    const VoConfig defaults = default_vo_config(cone);
    MethodSpec spec;
    spec.name = name;
    spec.family = "velocity_obstacles";
    // HRVO's passing sides are plane geometry; VO and RVO sample the speed
    // ball in 3D (selection="sampling" only: the method says so when made).
    spec.dimensions = cone == Cone::hrvo ? std::vector<int>{2} : std::vector<int>{2, 3};
    spec.summary = summary;
    spec.params = {
        choice_param("selection", defaults.selection == Selection::sampling ? "sampling" : "geometric",
                     {"sampling", "geometric"},
                     "sampling: least penalty among random candidates; geometric: nearest admissible velocity"),
        // Samples are drawn per agent and step: a million is already slow.
        integer_param("samples", defaults.samples, 0, std::numeric_limits<std::int32_t>::max(),
                      "random candidates per agent and step (sampling)"),
        real_param("safety_factor", defaults.safety_factor, 0.0, kMaxMagnitude,
                   "weight of 1 / time_to_collision in the sampling penalty"),
        flag_param("truncate", defaults.truncate, "limit every cone to collisions within the time horizon"),
        flag_param("escape_overlaps", defaults.escape_overlaps,
                   "geometric: offer the fastest way out of an overlap that leaves nothing admissible"),
    };
    if (cone == Cone::hrvo) {
        spec.params.push_back(choice_param("hrvo_apex",
                                           defaults.hrvo_apex == HrvoApex::symmetric ? "symmetric" : "library",
                                           {"library", "symmetric"},
                                           "symmetric: the paper's apex; library: the HRVO library's"));
    }
    spec.make = [cone](const ParamMap& p, std::uint64_t seed) -> std::shared_ptr<Method> {
        VoConfig config = default_vo_config(cone);
        config.selection = parse_selection(p.choice("selection"));
        config.samples = static_cast<int>(p.integer("samples"));
        config.safety_factor = p.real("safety_factor");
        config.truncate = p.flag("truncate");
        config.escape_overlaps = p.flag("escape_overlaps");
        config.seed = seed;
        if (cone == Cone::hrvo) config.hrvo_apex = parse_apex(p.choice("hrvo_apex"));
        return std::make_shared<VelocityObstacleMethod>(config);
    };
    return spec;
}

}  // namespace

MethodSpec vo_method() {
    return velocity_obstacle_method("VO", Cone::vo, "velocity obstacles (Fiorini and Shiller 1998)");
}

MethodSpec rvo_method() {
    return velocity_obstacle_method("RVO", Cone::rvo, "reciprocal velocity obstacles (van den Berg et al. 2008)");
}

MethodSpec hrvo_method() {
    return velocity_obstacle_method("HRVO", Cone::hrvo, "hybrid reciprocal velocity obstacles (Snape et al. 2011)");
}

}  // namespace vosim
