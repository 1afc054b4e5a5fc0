// The lane kernel of vo_lanes.hpp, written once over a pack
// (maths/simd/pack.hpp) and compiled in vo_lanes.cpp (plain and SSE2) and
// vo_lanes_avx2.cpp (AVX2). Each line is the scalar code's operation in the
// scalar code's order (ray_disc_time and vo_time_to_collision in
// velocity_obstacles.cpp), so every pack gives its bits.
#pragma once

#include <cmath>
#include <cstdint>

#include "maths/simd/pack.hpp"
#include "maths/simd/unit_draws.hpp"
#include "methods/velocity_obstacles/vo_lanes.hpp"

namespace vosim {
namespace {

// min(safety_factor / max(t, time_floor), worst), as std::min and std::max pick.
inline double vo_collision_cost(const VoDropRule& rule, double t) {
    const double after = t < rule.time_floor ? rule.time_floor : t;
    const double cost = rule.safety_factor / after;
    return rule.worst < cost ? rule.worst : cost;
}

// Where each field of the lanes starts.
struct VoLaneFields {
    const double* apex_x;
    const double* apex_y;
    const double* centre_x;
    const double* centre_y;
    const double* gap;
    const double* scale;
    const double* horizon;
    const double* shrunk_gap;
    const double* margin;
};

inline VoLaneFields vo_lane_fields(const VoConeLanes& lanes) {
    auto field = [&](VoLaneField f) { return lanes.data + f * lanes.padded; };
    return {field(kVoApexX), field(kVoApexY), field(kVoCentreX), field(kVoCentreY), field(kVoGap),
            field(kVoScale), field(kVoHorizon), field(kVoShrunkGap), field(kVoMargin)};
}

template <class P>
double vo_earliest_collision(const VoConeLanes& lanes, double vx, double vy, double earliest,
                             const VoDropRule* rule) {
    const int n = lanes.padded;
    [[maybe_unused]] const auto [apex_x, apex_y, centre_x, centre_y, gap, scale, horizon, shrunk_gap, margin] =
        vo_lane_fields(lanes);
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

// vo_surely_dropped (vo_lanes.hpp). A lane judges only where the velocity's
// path enters the disc shrunk by the lane's margin, clearly (not grazing
// it), at a time t within the horizon with scale * slack * t at most half
// the margin: every velocity within `slack` then lies inside the full disc
// at t, by half the margin, so its entry (worked out by
// vo_earliest_collision, well-conditioned) is no later than t, and its
// collision costs at least as much. The bound taken is t (1 + 1e-6), still
// inside the shrunk disc, whose chord is long. An overlap lane gives 0 for
// any velocity, as there.
template <class P>
bool vo_surely_dropped(const VoConeLanes& lanes, double vx, double vy, double slack, const VoDropRule& rule) {
    const int n = lanes.padded;
    const auto [apex_x, apex_y, centre_x, centre_y, gap, scale, horizon, shrunk_gap, margin] = vo_lane_fields(lanes);
    const P zero = P::set(0.0), never = P::set(HUGE_VAL), clear = P::set(1e-4), later = P::set(1.0 + 1e-6);
    const P half_slack = P::set(2.0 * slack);  // scale * slack * t <= margin / 2
    const P v_x = P::set(vx), v_y = P::set(vy);
    P soonest = never;
    for (int i = 0; i < n; i += P::width) {
        const P s = P::load(scale + i);
        const P wx = s * (v_x - P::load(apex_x + i));
        const P wy = s * (v_y - P::load(apex_y + i));
        const P c = P::load(shrunk_gap + i);
        const P b = wx * P::load(centre_x + i) + wy * P::load(centre_y + i);
        const P discriminant = b * b - (wx * wx + wy * wy) * c;
        const P bound = c / (b + sqrt(discriminant)) * later;
        typename P::Mask sure = both(b > zero, discriminant > clear * b * b);
        sure = both(sure, bound <= P::load(horizon + i));
        sure = both(sure, s * half_slack * bound <= P::load(margin + i));
        P time = select(sure, bound, never);
        time = select(P::load(gap + i) <= zero, zero, time);
        soonest = pick_less(time, soonest);
        if (!(rule.penalty + vo_collision_cost(rule, soonest.smallest()) < rule.best)) return true;
    }
    return false;
}

// A lower bound on |pref - v|^2 for v = r (cos angle, sin angle), found
// without the sine and cosine, less a margin; NaN (never enough to drop) for
// inputs it cannot bound. cos(angle - heading) is bounded above by Taylor
// polynomials (1 - a^2/2 + a^4/24 >= cos a on [0, pi/2], and
// cos a = -cos(pi - a) <= -(1 - x^2/2 + x^4/24 - x^6/720) beyond), widened
// by far more than the rounding of the heading, the angle and the sums.
// Angle in [0, 2 pi), heading in [-pi, pi].
template <class P>
P vo_distance_lower_sq(P pref_length, P heading, P r, P angle) {
    constexpr double kPi = 3.14159265358979323846;
    P a = abs(angle - heading);
    a = select(a > P::set(kPi), abs(P::set(2.0 * kPi) - a), a);  // a in [0, pi]
    const P a2 = a * a;
    const P near = P::set(1.0) - a2 * (P::set(0.5) - a2 * P::set(1.0 / 24.0));
    const P x = P::set(kPi) - a;
    const P x2 = x * x;
    const P far = P::set(-1.0) *
                  (P::set(1.0) - x2 * (P::set(0.5) - x2 * (P::set(1.0 / 24.0) - x2 * P::set(1.0 / 720.0))));
    const P cos_above = select(a <= P::set(0.5 * kPi), near, far);
    const P squares = pref_length * pref_length + r * r;
    return squares - P::set(2.0) * pref_length * r * (cos_above + P::set(1e-12)) - P::set(1e-12) * squares;
}

// Whether the sample is sure to lie at least `best` from pref, with room to
// spare for the rounding of the exact distance.
template <class P>
typename P::Mask vo_sure_beyond(P pref_length, P heading, P r, P angle, P best) {
    return vo_distance_lower_sq(pref_length, heading, r, angle) >= best * best * P::set(1.0 + 1e-9);
}

// Every velocity of length r lies at least | |pref| - r | from pref; this
// is that bound less a margin far above rounding.
template <class P>
P vo_radius_lower(P pref_length, P r) {
    return abs(pref_length - r) - (P::set(1e-9) * (pref_length + r) + P::set(1e-300));
}

template <class P>
std::uint64_t vo_draw_samples(const VoSampleDraw& draw, int first, int m, double best, double* radii,
                              double* angles) {
    constexpr double kTwoPi = 6.283185307179586476925286766559;
    // Sample k's radius is unit value 2k - 1 of the stream (word seed +
    // (2k - 1) gamma), its angle value 2k.
    const std::uint64_t stride = 2 * kSplitmixGamma;
    const std::uint64_t word = draw.seed + (2 * static_cast<std::uint64_t>(first) - 1) * kSplitmixGamma;
    const P speed = P::set(draw.max_speed), pref = P::set(draw.pref_length), heading = P::set(draw.heading);
    const P limit = P::set(best);
    std::uint64_t in_play = 0;
    for (int i = 0; i < m; i += P::width) {
        const std::uint64_t radius_word = word + static_cast<std::uint64_t>(i) * stride;
        const P r = speed * sqrt(UnitDraws<P>::at(radius_word, stride));
        const P a = P::set(kTwoPi) * UnitDraws<P>::at(radius_word + kSplitmixGamma, stride);
        r.store(radii + i);
        a.store(angles + i);
        const unsigned near = bits(vo_radius_lower(pref, r) < limit);
        const unsigned beyond = bits(vo_sure_beyond(pref, heading, r, a, limit));
        in_play |= static_cast<std::uint64_t>(near & ~beyond) << i;
    }
    return m < 64 ? in_play & ((std::uint64_t{1} << m) - 1) : in_play;
}

}  // namespace
}  // namespace vosim
