// AVO's entry in the method registry (cpp/core/methods/registry.hpp).
#include "methods/avo/avo.hpp"
#include "methods/bound_params.hpp"
#include "methods/registry.hpp"

namespace vosim {

namespace {

// AVO's settings, each declared once (methods/bound_params.hpp).
std::vector<BoundParam<AvoSettings>> avo_params() {
    return {
        bound_choice<AvoSettings, AvoVariant>(
            "variant", &AvoSettings::variant, {{AvoVariant::kPaper, "paper"}, {AvoVariant::kAvo2, "avo2"}},
            "paper: the published method with AVO2's defects repaired; avo2: the AVO2 library step for step"),
    };
}

}  // namespace

MethodSpec avo_method() {
    MethodSpec spec;
    spec.name = "AVO";
    spec.family = "avo";
    spec.dimensions = {2};
    spec.summary = "reciprocal collision avoidance with acceleration-velocity obstacles (van den Berg et al. 2011)";
    spec.params = specs_of(avo_params());
    spec.make = [params = avo_params()](const ParamMap& p, std::uint64_t) -> std::shared_ptr<Method> {
        return std::make_shared<Avo>(read_params(params, p));
    };
    return spec;
}

}  // namespace vosim
