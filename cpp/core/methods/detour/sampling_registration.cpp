// AdaptiveSampling's and GridSampling's entries in the method registry
// (cpp/core/methods/registry.hpp).
#include <cstdint>
#include <limits>

#include "limits.hpp"
#include "methods/bound_params.hpp"
#include "methods/registry.hpp"
#include "methods/detour/sampling_method.hpp"

namespace vosim {

namespace {

using Sampling = std::vector<BoundParam<DetourParams>>;

// The penalty's settings, which both patterns share, each once (the
// defaults are DetourParams', DetourCrowd's).
Sampling penalty_params() {
    using P = DetourParams;
    return {
        bound_real("vel_bias", &P::vel_bias, 0.0, 1.0,
                   "search centre = vel_bias * preferred velocity; radius = (1 - vel_bias) * max_speed"),
        bound_real("weight_des_vel", &P::weight_des_vel, 0.0, kMaxMagnitude,
                   "weight of the distance to the preferred velocity"),
        bound_real("weight_cur_vel", &P::weight_cur_vel, 0.0, kMaxMagnitude,
                   "weight of the distance to the current velocity"),
        bound_real("weight_side", &P::weight_side, 0.0, kMaxMagnitude,
                   "weight of passing every neighbour on the agreed side"),
        bound_real("weight_toi", &P::weight_toi, 0.0, kMaxMagnitude, "weight of the time of impact"),
        bound_positive("horiz_time", &P::horiz_time, 0.0, kMaxMagnitude,
                       "impacts later than this (s) are not penalised further"),
    };
}

// Each pattern's parameters: the penalty's, then the pattern's own.
const Sampling& adaptive_params() {
    using P = DetourParams;
    const int most = std::numeric_limits<std::int32_t>::max();
    static const Sampling params = [most] {
        Sampling out = penalty_params();
        // More than 32 divisions or 4 rings are clamped, as in DetourCrowd.
        out.push_back(bound_integer("divs", &P::adaptive_divs, 1, most, "samples per ring (at most 32 are used)"));
        out.push_back(bound_integer("rings", &P::adaptive_rings, 1, most, "rings of the pattern (at most 4 are used)"));
        out.push_back(bound_integer("depth", &P::adaptive_depth, 1, most, "refinement levels"));
        return out;
    }();
    return params;
}

const Sampling& grid_params() {
    static const Sampling params = [] {
        Sampling out = penalty_params();
        out.push_back(bound_integer("grid_size", &DetourParams::grid_size, 2, 4096, "candidates per side of the grid"));
        return out;
    }();
    return params;
}

// What dtCrowd::update does after the sampler, which both patterns share
// (the defaults are CrowdUpdate's).
const std::vector<BoundParam<CrowdUpdate>>& crowd_params() {
    using C = CrowdUpdate;
    static const std::vector<BoundParam<C>> params = {
        bound_flag("resolve_collisions", &C::resolve_collisions,
                   "push overlapping agents apart after each step, as dtCrowd::update does (False: the bare sampler)"),
        bound_integer("collision_rounds", &C::collision_rounds, 1, 1000,
                      "rounds of pushing apart per step (dtCrowd's 4; more leave shallower overlaps)"),
        bound_positive("max_acceleration", &C::max_acceleration, 0.0, kMaxMagnitude,
                       "largest change of velocity per second (dtCrowd's agents' maxAcceleration; "
                       "an agent's own max_acceleration, when lower, wins)"),
    };
    return params;
}

std::vector<ParamSpec> sampling_specs(const Sampling& pattern) {
    std::vector<ParamSpec> out = specs_of(pattern);
    for (const ParamSpec& spec : specs_of(crowd_params())) out.push_back(spec);
    return out;
}

}  // namespace

MethodSpec adaptive_sampling_method() {
    MethodSpec spec;
    spec.name = "AdaptiveSampling";
    spec.family = "detour";
    spec.dimensions = {2};
    spec.aliases = {"adaptive"};
    spec.summary = "DetourCrowd's adaptive velocity sampling";
    spec.params = sampling_specs(adaptive_params());
    spec.make = [](const ParamMap& p, std::uint64_t) -> std::shared_ptr<Method> {
        return std::make_shared<SamplingMethod>(SamplingMethod::Pattern::adaptive, read_params(adaptive_params(), p),
                                                read_params(crowd_params(), p));
    };
    return spec;
}

MethodSpec grid_sampling_method() {
    MethodSpec spec;
    spec.name = "GridSampling";
    spec.family = "detour";
    spec.dimensions = {2};
    spec.aliases = {"grid"};
    spec.summary = "DetourCrowd's grid velocity sampling";
    spec.params = sampling_specs(grid_params());
    spec.make = [](const ParamMap& p, std::uint64_t) -> std::shared_ptr<Method> {
        return std::make_shared<SamplingMethod>(SamplingMethod::Pattern::grid, read_params(grid_params(), p),
                                                read_params(crowd_params(), p));
    };
    return spec;
}

}  // namespace vosim
