// SocialForce's entry in the method registry (cpp/core/methods/registry.hpp).
#include "limits.hpp"
#include "methods/bound_params.hpp"
#include "methods/registry.hpp"
#include "methods/social_force/social_force.hpp"

namespace vosim {

namespace {

// Each parameter once. Defaults (SocialForceParams') are the paper's
// parameter set, which JuPedSim's SocialForceModel uses.
const std::vector<BoundParam<SocialForceParams>>& social_force_params() {
    using P = SocialForceParams;
    const double most = kMaxMagnitude;
    static const std::vector<BoundParam<P>> params = {
        bound_real("mass", &P::mass, kMinSocialForceMass, most, "mass m (kg) the forces act on"),
        bound_real("reaction_time", &P::reaction_time, kMinReactionTime, most,
                   "relaxation time tau (s) towards the preferred velocity"),
        bound_real("agent_scale", &P::agent_scale, 0.0, most, "strength A (N) of the agents' exponential repulsion"),
        bound_real("obstacle_scale", &P::obstacle_scale, 0.0, most,
                   "strength A_W (N) of the walls' exponential repulsion"),
        bound_positive("force_distance", &P::force_distance, 0.0, most, "range B (m) of the exponential repulsions"),
        bound_real("body_force", &P::body_force, 0.0, most, "body force k (kg/s^2) per metre of overlap"),
        bound_real("friction", &P::friction, 0.0, most, "sliding friction kappa (kg/(m s)) per metre of overlap"),
    };
    return params;
}

}  // namespace

MethodSpec social_force_method() {
    MethodSpec spec;
    spec.name = "SocialForce";
    spec.family = "social_force";
    spec.dimensions = {2};
    spec.aliases = {"sfm", "social_force"};
    spec.summary = "Helbing's social force model (Helbing, Farkas, Vicsek 2000), as JuPedSim implements it";
    spec.params = specs_of(social_force_params());
    spec.make = [](const ParamMap& p, std::uint64_t) -> std::shared_ptr<Method> {
        return std::make_shared<SocialForce>(read_params(social_force_params(), p));
    };
    return spec;
}

}  // namespace vosim
