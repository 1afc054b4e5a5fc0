// CollisionFreeSpeed's entry in the method registry (cpp/core/methods/registry.hpp).
#include "limits.hpp"
#include "methods/bound_params.hpp"
#include "methods/registry.hpp"
#include "methods/speed_model/collision_free_speed.hpp"

namespace vosim {

namespace {

// Each parameter once. Defaults (CollisionFreeSpeedParams') are JuPedSim's
// CollisionFreeSpeedModel's (time gap 1 s as in the paper; repulsion
// strength 8 and range 0.1 m between agents, 5 and 0.02 m from walls).
const std::vector<BoundParam<CollisionFreeSpeedParams>>& speed_model_params() {
    using P = CollisionFreeSpeedParams;
    const double most = kMaxMagnitude;
    static const std::vector<BoundParam<P>> params = {
        bound_positive("time_gap", &P::time_gap, 0.0, most, "time gap T (s): speed = spacing ahead / T"),
        bound_real("neighbor_strength", &P::neighbor_strength, 0.0, most,
                   "strength of the neighbours' repulsion of the direction"),
        bound_positive("neighbor_range", &P::neighbor_range, 0.0, most, "range (m) of the neighbours' repulsion"),
        bound_real("wall_strength", &P::wall_strength, 0.0, most, "strength of the walls' repulsion of the direction"),
        bound_positive("wall_range", &P::wall_range, 0.0, most, "range (m) of the walls' repulsion"),
        bound_flag("wall_hold", &P::wall_hold,
                   "remove motion into a wall within the step and see only walls facing the agent "
                   "(not JuPedSim's: slower at doors)"),
    };
    return params;
}

}  // namespace

MethodSpec collision_free_speed_method() {
    MethodSpec spec;
    spec.name = "CollisionFreeSpeed";
    spec.family = "speed_model";
    spec.dimensions = {2};
    spec.aliases = {"csm", "cfsm"};
    spec.summary = "the collision-free speed model (Tordeux, Chraibi, Seyfried 2016), JuPedSim's default";
    spec.params = specs_of(speed_model_params());
    spec.make = [](const ParamMap& p, std::uint64_t) -> std::shared_ptr<Method> {
        return std::make_shared<CollisionFreeSpeed>(read_params(speed_model_params(), p));
    };
    return spec;
}

}  // namespace vosim
