// The lane kernel of detour_lanes.hpp, written once over a pack
// (maths/simd/pack.hpp) and compiled in detour_lanes.cpp (plain and SSE2)
// and detour_lanes_avx2.cpp (AVX2). Each line is the scalar code's
// operation in the scalar code's order (circle_time_of_impact and the side
// term of evaluate in detour_sampling.cpp), so every pack gives its bits.
// The kernels are taken by address into each level's DetourKernels.
#pragma once

#include <cmath>

#include "maths/simd/pack.hpp"
#include "methods/detour/detour_lanes.hpp"

namespace vosim {
namespace {

// Field f of lanes i to i + P::width.
template <class P>
P lane(const DetourCircleLanes& lanes, DetourLaneField field, int i) {
    return P::load(lanes.data + field * lanes.padded + i);
}

template <class P>
double detour_impacts(const DetourCircleLanes& lanes, double base_x, double base_y, double horizon,
                      double stop_below) {
    const P zero = P::set(0.0), half = P::set(0.5);
    const P not_moving = P::set(0.0001);  // kNotMovingSq
    const P never = P::set(HUGE_VAL);
    const P bx = P::set(base_x), by = P::set(base_y);
    P earliest = P::set(horizon);
    for (int i = 0; i < lanes.padded; i += P::width) {
        const P rvx = bx - lane<P>(lanes, kLaneVelX, i);
        const P rvy = by - lane<P>(lanes, kLaneVelY, i);
        const P a = rvx * rvx + rvy * rvy;
        const P b = rvx * lane<P>(lanes, kLaneRelX, i) + rvy * lane<P>(lanes, kLaneRelY, i);
        const P discriminant = b * b - a * lane<P>(lanes, kLaneGap, i);
        const P root = sqrt(discriminant);
        const P enter = (b - root) / a;
        const P exit = (b + root) / a;
        const P t = select(both(enter < zero, exit > zero), (zero - enter) * half, enter);
        const auto hit = both(both(a >= not_moving, discriminant >= zero), t >= zero);
        earliest = pick_less(select(hit, t, never), earliest);
        const double so_far = earliest.smallest();
        if (so_far < stop_below) return so_far;
    }
    return earliest.smallest();
}

template <class P>
void detour_sides(const DetourCircleLanes& lanes, double base_x, double base_y, double* side) {
    const P zero = P::set(0.0), half = P::set(0.5), one = P::set(1.0), two = P::set(2.0);
    const P bx = P::set(base_x), by = P::set(base_y);
    for (int i = 0; i < lanes.padded; i += P::width) {
        const P rvx = bx - lane<P>(lanes, kLaneVelX, i);
        const P rvy = by - lane<P>(lanes, kLaneVelY, i);
        // clamp(min(dot(dir, rv) * 0.5 + 0.5, dot(normal, rv) * 2), 0, 1).
        const P along = (lane<P>(lanes, kLaneSideX, i) * rvx + lane<P>(lanes, kLaneSideY, i) * rvy) * half + half;
        const P across = (lane<P>(lanes, kLaneNormalX, i) * rvx + lane<P>(lanes, kLaneNormalY, i) * rvy) * two;
        const P least = pick_less(across, along);
        pick_less(one, pick_greater(zero, least)).store(side + i);
    }
}

template <class P>
void detour_distance_terms(const DetourDistanceWeights& w, const double* vx, const double* vy, int count,
                           double* vpen, double* vcpen) {
    const P desired_x = P::set(w.desired_x), desired_y = P::set(w.desired_y);
    const P velocity_x = P::set(w.velocity_x), velocity_y = P::set(w.velocity_y);
    const P inv_max_speed = P::set(w.inv_max_speed);
    const P weight_des = P::set(w.weight_des_vel), weight_cur = P::set(w.weight_cur_vel);
    for (int i = 0; i < count; i += P::width) {
        const P x = P::load(vx + i), y = P::load(vy + i);
        const P dx = x - desired_x, dy = y - desired_y;
        (weight_des * (sqrt(dx * dx + dy * dy) * inv_max_speed)).store(vpen + i);
        const P cx = x - velocity_x, cy = y - velocity_y;
        (weight_cur * (sqrt(cx * cx + cy * cy) * inv_max_speed)).store(vcpen + i);
    }
}

}  // namespace
}  // namespace vosim
