// CollisionFreeSpeed's entry in the method registry (cpp/core/methods/registry.hpp).
#include "limits.hpp"
#include "methods/registry.hpp"
#include "methods/speed_model/collision_free_speed.hpp"

namespace vosim {

MethodSpec collision_free_speed_method() {
    const CollisionFreeSpeedParams d;
    const double most = kMaxMagnitude;
    MethodSpec spec;
    spec.name = "CollisionFreeSpeed";
    spec.family = "speed_model";
    spec.dimensions = {2};
    spec.aliases = {"csm", "cfsm"};
    spec.summary = "the collision-free speed model (Tordeux, Chraibi, Seyfried 2016), JuPedSim's default";
    // Defaults are JuPedSim's CollisionFreeSpeedModel's (time_gap 1 s as in
    // the paper; repulsion strength 8 and range 0.1 m between agents, 5 and
    // 0.02 m from walls).
    spec.params = {
        positive_param("time_gap", d.time_gap, 0.0, most, "time gap T (s): speed = spacing ahead / T"),
        real_param("neighbor_strength", d.neighbor_strength, 0.0, most,
                   "strength of the neighbours' repulsion of the direction"),
        positive_param("neighbor_range", d.neighbor_range, 0.0, most, "range (m) of the neighbours' repulsion"),
        real_param("wall_strength", d.wall_strength, 0.0, most, "strength of the walls' repulsion of the direction"),
        positive_param("wall_range", d.wall_range, 0.0, most, "range (m) of the walls' repulsion"),
    };
    spec.make = [](const ParamMap& p, std::uint64_t) -> std::shared_ptr<Method> {
        CollisionFreeSpeedParams c;
        c.time_gap = p.real("time_gap");
        c.neighbor_strength = p.real("neighbor_strength");
        c.neighbor_range = p.real("neighbor_range");
        c.wall_strength = p.real("wall_strength");
        c.wall_range = p.real("wall_range");
        return std::make_shared<CollisionFreeSpeed>(c);
    };
    return spec;
}

}  // namespace vosim
