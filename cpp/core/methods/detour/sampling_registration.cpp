// AdaptiveSampling's and GridSampling's entries in the method registry
// (cpp/core/methods/registry.hpp).
#include <cstdint>
#include <limits>

#include "limits.hpp"
#include "methods/registry.hpp"
#include "methods/detour/sampling_method.hpp"

namespace vosim {

namespace {

// The penalty's settings, which both patterns share.
std::vector<ParamSpec> penalty_params() {
    const DetourParams d;
    return {
        real_param("vel_bias", d.vel_bias, 0.0, 1.0,
                   "search centre = vel_bias * preferred velocity; radius = (1 - vel_bias) * max_speed"),
        real_param("weight_des_vel", d.weight_des_vel, 0.0, kMaxMagnitude,
                   "weight of the distance to the preferred velocity"),
        real_param("weight_cur_vel", d.weight_cur_vel, 0.0, kMaxMagnitude,
                   "weight of the distance to the current velocity"),
        real_param("weight_side", d.weight_side, 0.0, kMaxMagnitude,
                   "weight of passing every neighbour on the agreed side"),
        real_param("weight_toi", d.weight_toi, 0.0, kMaxMagnitude, "weight of the time of impact"),
        positive_param("horiz_time", d.horiz_time, 0.0, kMaxMagnitude,
                       "impacts later than this (s) are not penalised further"),
    };
}

// What dtCrowd::update does after the sampler, which both patterns share.
void add_crowd_params(std::vector<ParamSpec>& params) {
    const CrowdUpdate c;
    params.push_back(flag_param("resolve_collisions", c.resolve_collisions,
                                "push overlapping agents apart after each step, as dtCrowd::update does "
                                "(False: the bare sampler)"));
    params.push_back(integer_param("collision_rounds", c.collision_rounds, 1, 1000,
                                   "rounds of pushing apart per step (dtCrowd's 4; more leave shallower overlaps)"));
    params.push_back(positive_param("max_acceleration", c.max_acceleration, 0.0, kMaxMagnitude,
                                    "largest change of velocity per second (dtCrowd's agents' maxAcceleration; "
                                    "an agent's own max_acceleration, when lower, wins)"));
}

CrowdUpdate crowd_from(const ParamMap& p) {
    CrowdUpdate c;
    c.resolve_collisions = p.flag("resolve_collisions");
    c.max_acceleration = p.real("max_acceleration");
    c.collision_rounds = static_cast<int>(p.integer("collision_rounds"));
    return c;
}

DetourParams penalty_from(const ParamMap& p) {
    DetourParams d;
    d.vel_bias = p.real("vel_bias");
    d.weight_des_vel = p.real("weight_des_vel");
    d.weight_cur_vel = p.real("weight_cur_vel");
    d.weight_side = p.real("weight_side");
    d.weight_toi = p.real("weight_toi");
    d.horiz_time = p.real("horiz_time");
    return d;
}

}  // namespace

MethodSpec adaptive_sampling_method() {
    const DetourParams d;
    const std::int64_t most = std::numeric_limits<std::int32_t>::max();
    MethodSpec spec;
    spec.name = "AdaptiveSampling";
    spec.family = "detour";
    spec.dimensions = {2};
    spec.aliases = {"adaptive"};
    spec.summary = "DetourCrowd's adaptive velocity sampling";
    spec.params = penalty_params();
    // More than 32 divisions or 4 rings are clamped, as in DetourCrowd.
    spec.params.push_back(integer_param("divs", d.adaptive_divs, 1, most, "samples per ring (at most 32 are used)"));
    spec.params.push_back(integer_param("rings", d.adaptive_rings, 1, most, "rings of the pattern (at most 4 are used)"));
    spec.params.push_back(integer_param("depth", d.adaptive_depth, 1, most, "refinement levels"));
    add_crowd_params(spec.params);
    spec.make = [](const ParamMap& p, std::uint64_t) -> std::shared_ptr<Method> {
        DetourParams d = penalty_from(p);
        d.adaptive_divs = static_cast<int>(p.integer("divs"));
        d.adaptive_rings = static_cast<int>(p.integer("rings"));
        d.adaptive_depth = static_cast<int>(p.integer("depth"));
        return std::make_shared<SamplingMethod>(SamplingMethod::Pattern::adaptive, d, crowd_from(p));
    };
    return spec;
}

MethodSpec grid_sampling_method() {
    const DetourParams d;
    MethodSpec spec;
    spec.name = "GridSampling";
    spec.family = "detour";
    spec.dimensions = {2};
    spec.aliases = {"grid"};
    spec.summary = "DetourCrowd's grid velocity sampling";
    spec.params = penalty_params();
    spec.params.push_back(integer_param("grid_size", d.grid_size, 2, 4096, "candidates per side of the grid"));
    add_crowd_params(spec.params);
    spec.make = [](const ParamMap& p, std::uint64_t) -> std::shared_ptr<Method> {
        DetourParams d = penalty_from(p);
        d.grid_size = static_cast<int>(p.integer("grid_size"));
        return std::make_shared<SamplingMethod>(SamplingMethod::Pattern::grid, d, crowd_from(p));
    };
    return spec;
}

}  // namespace vosim
