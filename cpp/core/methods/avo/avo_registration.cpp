// AVO's entry in the method registry (cpp/core/methods/registry.hpp).
#include "methods/avo/avo.hpp"
#include "methods/registry.hpp"

namespace vosim {

MethodSpec avo_method() {
    MethodSpec spec;
    spec.name = "AVO";
    spec.family = "avo";
    spec.dimensions = {2};
    spec.summary = "reciprocal collision avoidance with acceleration-velocity obstacles (van den Berg et al. 2011)";
    spec.params = {
        choice_param("variant", "paper", {"paper", "avo2"},
                     "paper: the published method with AVO2's defects repaired; avo2: the AVO2 library step for step"),
    };
    spec.make = [](const ParamMap& p, std::uint64_t) -> std::shared_ptr<Method> {
        return std::make_shared<Avo>(p.choice("variant") == "avo2" ? AvoVariant::kAvo2 : AvoVariant::kPaper);
    };
    return spec;
}

}  // namespace vosim
