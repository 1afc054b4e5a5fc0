// The lane kernel of vo_lanes.hpp, written once over a pack
// (maths/simd/pack.hpp) and compiled in vo_lanes.cpp (plain and SSE2) and
// vo_lanes_avx2.cpp (AVX2). Each line is the scalar code's operation in the
// scalar code's order (ray_disc_time and vo_time_to_collision in
// velocity_obstacles.cpp), so every pack gives its bits.
#pragma once

#include <cmath>

#include "maths/simd/pack.hpp"
#include "methods/velocity_obstacles/vo_lanes.hpp"

namespace vosim {
namespace {

// min(safety_factor / max(t, time_floor), worst), as std::min and std::max pick.
inline double vo_collision_cost(const VoDropRule& rule, double t) {
    const double after = t < rule.time_floor ? rule.time_floor : t;
    const double cost = rule.safety_factor / after;
    return rule.worst < cost ? rule.worst : cost;
}

template <class P>
double vo_earliest_collision(const VoConeLanes& lanes, double vx, double vy, double earliest,
                             const VoDropRule* rule) {
    const int n = lanes.padded;
    const double* apex_x = lanes.data + kVoApexX * n;
    const double* apex_y = lanes.data + kVoApexY * n;
    const double* centre_x = lanes.data + kVoCentreX * n;
    const double* centre_y = lanes.data + kVoCentreY * n;
    const double* gap = lanes.data + kVoGap * n;
    const double* scale = lanes.data + kVoScale * n;
    const double* horizon = lanes.data + kVoHorizon * n;
    const P zero = P::set(0.0), never = P::set(HUGE_VAL);
    const P v_x = P::set(vx), v_y = P::set(vy);
    P soonest = P::set(earliest);
    for (int i = 0; i < n; i += P::width) {
        const P s = P::load(scale + i);
        const P wx = s * (v_x - P::load(apex_x + i));
        const P wy = s * (v_y - P::load(apex_y + i));
        const P c = P::load(gap + i);
        const P b = wx * P::load(centre_x + i) + wy * P::load(centre_y + i);
        const P discriminant = b * b - (wx * wx + wy * wy) * c;
        const P t = c / (b + sqrt(discriminant));
        P time = select(both(b > zero, discriminant > zero), t, never);
        time = select(c <= zero, zero, time);
        time = select(time <= P::load(horizon + i), time, never);
        soonest = pick_less(time, soonest);
        if (rule != nullptr) {
            const double so_far = soonest.smallest();
            if (!(rule->penalty + vo_collision_cost(*rule, so_far) < rule->best)) return -1.0;
        }
    }
    return soonest.smallest();
}

}  // namespace
}  // namespace vosim
