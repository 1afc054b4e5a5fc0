// VO's lane kernels (maths/simd): the draws of the samples, and the
// velocity obstacles of neighbours (VoConeKind::agent) laid out for the
// lane kernels: one array per field, padded to whole packs with
// cones nothing enters, so that a sample's earliest collision is found
// several neighbours at a time, with the same bits as one at a time.
#pragma once

#include <cstdint>
#include <vector>

#include "maths/simd/simd_level.hpp"

namespace vosim {

// Fields of VoConeLanes::data, each `padded` doubles long.
enum VoLaneField : int {
    kVoApexX, kVoApexY,      // the cone's apex
    kVoCentreX, kVoCentreY,  // the neighbour relative to the agent
    kVoGap,                  // |centre|^2 - radius^2 (> 0: the cone is not an overlap)
    kVoScale,                // 2 where the pair shares the avoidance
    kVoHorizon,              // truncation time (+inf: none)
    kVoShrunkGap,            // |centre|^2 - (radius - margin)^2 (vo_surely_dropped)
    kVoMargin,               // how far the disc is shrunk for vo_surely_dropped (0: the lane never judges)
    kVoFieldCount
};

struct VoConeLanes {
    const double* data = nullptr;
    int count = 0;   // cones
    int padded = 0;  // count rounded up to a multiple of 4
};

// The sampling penalty's rule for giving up on a sample (select_sampling in
// velocity_obstacles.cpp): it cannot win once
//     penalty + min(safety_factor / max(t, time_floor), worst) >= best
// for its earliest collision t so far.
struct VoDropRule {
    double penalty;
    double best;
    double safety_factor;
    double time_floor;
    double worst;
};

// The earliest time at which velocity (vx, vy) enters one of the cones, or
// `earliest` if that is sooner (vo_time_to_collision's rule for a disc).
// With a rule, returns -1 as soon as the sample cannot win.
using VoCollisionKernel = double (*)(const VoConeLanes& lanes, double vx, double vy, double earliest,
                                     const VoDropRule* rule);

// Whether every velocity within `slack` of (vx, vy) is sure to be dropped by
// `rule` (its penalty a lower bound for all of them) for a collision with
// one of the cones: select_sampling asks it on an approximate velocity
// before working out a sample's sine and cosine. False when unsure.
using VoDropKernel = bool (*)(const VoConeLanes& lanes, double vx, double vy, double slack, const VoDropRule& rule);

// The share of a disc's radius by which vo_surely_dropped shrinks it.
constexpr double kVoDropMarginShare = 1e-6;

VoCollisionKernel vo_collision_kernel();
VoCollisionKernel vo_collision_kernel(SimdLevel level);
VoDropKernel vo_drop_kernel();
VoDropKernel vo_drop_kernel(SimdLevel level);

// What a sample is drawn from (select_sampling in velocity_obstacles.cpp):
// sample k >= 1 has radius max_speed * sqrt(u(2k - 1)) and angle
// 2 pi u(2k), with u(n) = CounterRng(seed).unit_at(n); pref_length and
// heading are those of the preferred velocity.
struct VoSampleDraw {
    std::uint64_t seed;
    double max_speed;
    double pref_length;
    double heading;
};

// The radii and angles of samples first .. first + m - 1 (1 <= m <= 64) into
// radii[0 .. 63] and angles[0 .. 63], and a mask with bit i set where sample
// first + i is in play against `best`: neither its radius (vo_radius_lower)
// nor its angle (vo_sure_beyond, vo_lanes_kernel.hpp) puts it out of reach.
using VoSampleKernel = std::uint64_t (*)(const VoSampleDraw& draw, int first, int m, double best, double* radii,
                                         double* angles);

VoSampleKernel vo_sample_kernel();
VoSampleKernel vo_sample_kernel(SimdLevel level);

// Storage for one agent's cones, reused from agent to agent.
class VoLaneBuffer {
public:
    VoConeLanes reset(int n);
    void set(int i, VoLaneField field, double value) { data_[static_cast<std::size_t>(field * padded_ + i)] = value; }
    // Every field of lane i: a neighbour's disc (its centre relative to the
    // agent, the combined radius) seen from `apex` with `scale` within
    // `horizon`, shrunk for vo_surely_dropped by margin_share of its radius
    // (not at all where the gap is too small beside |centre|^2 for the entry
    // time to be worked out well-conditioned).
    void set_disc(int i, double apex_x, double apex_y, double centre_x, double centre_y, double radius, double scale,
                  double horizon, double margin_share);

private:
    std::vector<double> data_;
    int padded_ = 0;
};

}  // namespace vosim
