// ORCA's entry in the method registry (cpp/core/methods/registry.hpp).
#include "limits.hpp"
#include "methods/bound_params.hpp"
#include "methods/registry.hpp"
#include "methods/orca/orca.hpp"

namespace vosim {

namespace {

// ORCA's settings, each declared once (methods/bound_params.hpp).
std::vector<BoundParam<OrcaConfig>> orca_params() {
    return {
        bound_positive("bisector_weight", &OrcaConfig::bisector_weight, 0.0, kMaxMagnitude,
                       "weight w of the projected lines of linear program 3, normalize(w * d_j - d_i)"),
        bound_choice<OrcaConfig, bool>(
            "acceleration", &OrcaConfig::acceleration_in_program, {{true, "constraint"}, {false, "clamp"}},
            "constraint: max_acceleration inside the linear programs (2D and 3D); clamp: applied afterwards"),
        bound_choice<OrcaConfig, NonholonomicModel>(
            "nonholonomic", &OrcaConfig::nonholonomic,
            {{NonholonomicModel::kEffectiveCenter, "effective_center"}, {NonholonomicModel::kTrackingError, "nh_orca"}},
            "non-holonomic agents: effective_center (ORCA-DD) or nh_orca (tracking-error constraints)"),
        bound_real("time_gap", &OrcaConfig::time_gap, 0.0, kMaxMagnitude,
                   "seconds; > 0: the preferred speed is capped at the spacing to the nearest neighbour ahead "
                   "over this gap (a headway rule for pedestrian crowds, after Tordeux et al. 2016); 0: off, "
                   "as RVO2"),
    };
}

}  // namespace

MethodSpec orca_method() {
    MethodSpec spec;
    spec.name = "ORCA";
    spec.family = "orca";
    spec.dimensions = {2, 3};
    spec.summary = "Optimal Reciprocal Collision Avoidance, as in the RVO2 library";
    spec.params = specs_of(orca_params());
    spec.make = [params = orca_params()](const ParamMap& p, std::uint64_t) -> std::shared_ptr<Method> {
        return std::make_shared<Orca>(read_params(params, p));
    };
    return spec;
}

}  // namespace vosim
