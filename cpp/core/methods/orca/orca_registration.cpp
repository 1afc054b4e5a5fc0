// ORCA's entry in the method registry (cpp/core/methods/registry.hpp).
#include "limits.hpp"
#include "methods/registry.hpp"
#include "methods/orca/orca.hpp"

namespace vosim {

MethodSpec orca_method() {
    const OrcaConfig defaults;
    MethodSpec spec;
    spec.name = "ORCA";
    spec.family = "orca";
    spec.dimensions = {2, 3};
    spec.summary = "Optimal Reciprocal Collision Avoidance, as in the RVO2 library";
    spec.params = {
        positive_param("bisector_weight", defaults.bisector_weight, 0.0, kMaxMagnitude,
                       "weight w of the projected lines of linear program 3, normalize(w * d_j - d_i)"),
        choice_param("acceleration", defaults.acceleration_in_program ? "constraint" : "clamp",
                     {"constraint", "clamp"},
                     "constraint: max_acceleration inside the linear programs (2D and 3D); clamp: applied afterwards"),
        choice_param("nonholonomic",
                     defaults.nonholonomic == NonholonomicModel::kTrackingError ? "nh_orca" : "effective_center",
                     {"effective_center", "nh_orca"},
                     "non-holonomic agents: effective_center (ORCA-DD) or nh_orca (tracking-error constraints)"),
        real_param("time_gap", defaults.time_gap, 0.0, kMaxMagnitude,
                   "seconds; > 0: the preferred speed is capped at the spacing to the nearest neighbour ahead "
                   "over this gap (a headway rule for pedestrian crowds, after Tordeux et al. 2016); 0: off, "
                   "as RVO2"),
    };
    spec.make = [](const ParamMap& p, std::uint64_t) -> std::shared_ptr<Method> {
        OrcaConfig config;
        config.bisector_weight = p.real("bisector_weight");
        config.time_gap = p.real("time_gap");
        config.acceleration_in_program = p.choice("acceleration") == "constraint";
        config.nonholonomic = p.choice("nonholonomic") == "nh_orca" ? NonholonomicModel::kTrackingError
                                                                     : NonholonomicModel::kEffectiveCenter;
        return std::make_shared<Orca>(config);
    };
    return spec;
}

}  // namespace vosim
