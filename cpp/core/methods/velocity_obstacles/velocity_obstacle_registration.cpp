// VO, RVO and HRVO's entries in the method registry
// (cpp/core/methods/registry.hpp).
#include <cstdint>
#include <limits>

#include "limits.hpp"
#include "methods/bound_params.hpp"
#include "methods/registry.hpp"
#include "methods/velocity_obstacles/velocity_obstacle_method.hpp"

namespace vosim {

namespace {

// The settings of every cone, each declared once (methods/bound_params.hpp),
// in the order users see them; HRVO adds its apex.
std::vector<BoundParam<VoConfig>> vo_params(Cone cone) {
    std::vector<BoundParam<VoConfig>> params = {
        bound_choice<VoConfig, Selection>(
            "selection", &VoConfig::selection, {{Selection::sampling, "sampling"}, {Selection::geometric, "geometric"}},
            default_vo_config(cone),
            "sampling: least penalty among random candidates; geometric: nearest admissible velocity"),
        // Samples are drawn per agent and step: a million is already slow.
        bound_integer("samples", &VoConfig::samples, 0, std::numeric_limits<std::int32_t>::max(),
                      "random candidates per agent and step (sampling)"),
        bound_real("safety_factor", &VoConfig::safety_factor, 0.0, kMaxMagnitude,
                   "weight of 1 / time_to_collision in the sampling penalty"),
        bound_flag("truncate", &VoConfig::truncate, "limit every cone to collisions within the time horizon"),
        bound_flag("escape_overlaps", &VoConfig::escape_overlaps,
                   "geometric: offer the fastest way out of an overlap that leaves nothing admissible"),
    };
    if (cone == Cone::hrvo) {
        params.push_back(bound_choice<VoConfig, HrvoApex>(
            "hrvo_apex", &VoConfig::hrvo_apex, {{HrvoApex::library, "library"}, {HrvoApex::symmetric, "symmetric"}},
            default_vo_config(cone), "symmetric: the paper's apex; library: the HRVO library's"));
    }
    return params;
}

MethodSpec velocity_obstacle_method(const char* name, Cone cone, const char* summary) {
    MethodSpec spec;
    spec.name = name;
    spec.family = "velocity_obstacles";
    // HRVO's passing sides are plane geometry; VO and RVO sample the speed
    // ball in 3D (selection="sampling" only: the method says so when made).
    spec.dimensions = cone == Cone::hrvo ? std::vector<int>{2} : std::vector<int>{2, 3};
    spec.summary = summary;
    spec.params = specs_of(vo_params(cone));
    spec.make = [cone, params = vo_params(cone)](const ParamMap& p, std::uint64_t seed) -> std::shared_ptr<Method> {
        VoConfig config = read_params(params, p, default_vo_config(cone));
        config.seed = seed;
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
