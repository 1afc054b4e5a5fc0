// SocialForce's entry in the method registry (cpp/core/methods/registry.hpp).
#include "limits.hpp"
#include "methods/registry.hpp"
#include "methods/social_force/social_force.hpp"

namespace vosim {

MethodSpec social_force_method() {
    const SocialForceParams d;
    const double most = kMaxMagnitude;
    MethodSpec spec;
    spec.name = "SocialForce";
    spec.family = "social_force";
    spec.dimensions = {2};
    spec.aliases = {"sfm", "social_force"};
    spec.summary = "Helbing's social force model (Helbing, Farkas, Vicsek 2000), as JuPedSim implements it";
    // Defaults are the paper's parameter set, which JuPedSim's SocialForceModel uses.
    spec.params = {
        real_param("mass", d.mass, kMinSocialForceMass, most, "mass m (kg) the forces act on"),
        real_param("reaction_time", d.reaction_time, kMinReactionTime, most,
                       "relaxation time tau (s) towards the preferred velocity"),
        real_param("agent_scale", d.agent_scale, 0.0, most, "strength A (N) of the agents' exponential repulsion"),
        real_param("obstacle_scale", d.obstacle_scale, 0.0, most,
                   "strength A_W (N) of the walls' exponential repulsion"),
        positive_param("force_distance", d.force_distance, 0.0, most, "range B (m) of the exponential repulsions"),
        real_param("body_force", d.body_force, 0.0, most, "body force k (kg/s^2) per metre of overlap"),
        real_param("friction", d.friction, 0.0, most, "sliding friction kappa (kg/(m s)) per metre of overlap"),
    };
    spec.make = [](const ParamMap& p, std::uint64_t) -> std::shared_ptr<Method> {
        SocialForceParams s;
        s.mass = p.real("mass");
        s.reaction_time = p.real("reaction_time");
        s.agent_scale = p.real("agent_scale");
        s.obstacle_scale = p.real("obstacle_scale");
        s.force_distance = p.real("force_distance");
        s.body_force = p.real("body_force");
        s.friction = p.real("friction");
        return std::make_shared<SocialForce>(s);
    };
    return spec;
}

}  // namespace vosim
