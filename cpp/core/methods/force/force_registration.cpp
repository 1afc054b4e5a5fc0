// ForceBased's entry in the method registry (cpp/core/methods/registry.hpp).
#include "methods/force/force_based.hpp"
#include "limits.hpp"
#include "methods/registry.hpp"

namespace vosim {

MethodSpec force_based_method() {
    const ForceParams d;
    const double most = kMaxMagnitude;
    MethodSpec spec;
    spec.name = "ForceBased";
    spec.family = "force";
    spec.dimensions = {2, 3};
    spec.aliases = {"force"};
    spec.summary = "a force-based baseline after Unreal Engine's Mass moving avoidance";
    spec.params = {
        positive_param("steering_time", d.steering_time, 0.0, most, "seconds to reach the preferred velocity"),
        positive_param("separation_distance", d.separation_distance, 0.0, most,
                       "margin (m) beyond contact where separation acts"),
        real_param("separation_stiffness", d.separation_stiffness, 0.0, most, "separation at contact (m/s^2)"),
        positive_param("avoidance_time", d.avoidance_time, 0.0, most, "how far ahead (s) closest approaches count"),
        positive_param("avoidance_distance", d.avoidance_distance, 0.0, most,
                       "margin (m) closest approaches should keep"),
        real_param("avoidance_stiffness", d.avoidance_stiffness, 0.0, most, "strength of the avoidance (m/s^2)"),
        real_param("standing_scale", d.standing_scale, 0.0, most, "factor of the pushes of standing neighbours"),
        real_param("standing_speed", d.standing_speed, 0.0, most, "below this speed (m/s) a neighbour stands"),
        positive_param("obstacle_distance", d.obstacle_distance, 0.0, most, "margin (m) kept from obstacle edges"),
        real_param("obstacle_stiffness", d.obstacle_stiffness, 0.0, most, "push off obstacle edges (m/s^2)"),
    };
    spec.make = [](const ParamMap& p, std::uint64_t) -> std::shared_ptr<Method> {
        ForceParams f;
        f.steering_time = p.real("steering_time");
        f.separation_distance = p.real("separation_distance");
        f.separation_stiffness = p.real("separation_stiffness");
        f.avoidance_time = p.real("avoidance_time");
        f.avoidance_distance = p.real("avoidance_distance");
        f.avoidance_stiffness = p.real("avoidance_stiffness");
        f.standing_scale = p.real("standing_scale");
        f.standing_speed = p.real("standing_speed");
        f.obstacle_distance = p.real("obstacle_distance");
        f.obstacle_stiffness = p.real("obstacle_stiffness");
        return std::make_shared<ForceBased>(f);
    };
    return spec;
}

}  // namespace vosim
