// ForceBased's entry in the method registry (cpp/core/methods/registry.hpp).
#include "methods/force/force_based.hpp"
#include "limits.hpp"
#include "methods/bound_params.hpp"
#include "methods/registry.hpp"

namespace vosim {

namespace {

// Each parameter once; the defaults are ForceParams'.
const std::vector<BoundParam<ForceParams>>& force_params() {
    using P = ForceParams;
    const double most = kMaxMagnitude;
    static const std::vector<BoundParam<P>> params = {
        bound_positive("steering_time", &P::steering_time, 0.0, most, "seconds to reach the preferred velocity"),
        bound_positive("separation_distance", &P::separation_distance, 0.0, most,
                       "margin (m) beyond contact where separation acts"),
        bound_real("separation_stiffness", &P::separation_stiffness, 0.0, most, "separation at contact (m/s^2)"),
        bound_positive("avoidance_time", &P::avoidance_time, 0.0, most, "how far ahead (s) closest approaches count"),
        bound_positive("avoidance_distance", &P::avoidance_distance, 0.0, most,
                       "margin (m) closest approaches should keep"),
        bound_real("avoidance_stiffness", &P::avoidance_stiffness, 0.0, most, "strength of the avoidance (m/s^2)"),
        bound_real("standing_scale", &P::standing_scale, 0.0, most, "factor of the pushes of standing neighbours"),
        bound_real("standing_speed", &P::standing_speed, 0.0, most, "below this speed (m/s) a neighbour stands"),
        bound_positive("obstacle_distance", &P::obstacle_distance, 0.0, most, "margin (m) kept from obstacle edges"),
        bound_real("obstacle_stiffness", &P::obstacle_stiffness, 0.0, most, "push off obstacle edges (m/s^2)"),
    };
    return params;
}

}  // namespace

MethodSpec force_based_method() {
    MethodSpec spec;
    spec.name = "ForceBased";
    spec.family = "force";
    spec.dimensions = {2, 3};
    spec.aliases = {"force"};
    spec.summary = "a force-based baseline after Unreal Engine's Mass moving avoidance";
    spec.params = specs_of(force_params());
    spec.make = [](const ParamMap& p, std::uint64_t) -> std::shared_ptr<Method> {
        return std::make_shared<ForceBased>(read_params(force_params(), p));
    };
    return spec;
}

}  // namespace vosim
