// DetourCrowd's neighbours laid out for the lane kernels (maths/simd): one
// array per field, padded to whole packs with circles that are never hit,
// so that a sample's times of impact and side terms are computed several
// neighbours at a time, with the same bits as one at a time.
#pragma once

#include <array>
#include <vector>

#include "maths/simd/simd_level.hpp"

namespace vosim {

// Fields of DetourCircleLanes::data, each `padded` doubles long.
enum DetourLaneField : int {
    kLaneRelX, kLaneRelY,        // neighbour centre - agent centre
    kLaneGap,                    // |rel|^2 - (r_agent + r_neighbour)^2 (+inf: a pad)
    kLaneVelX, kLaneVelY,        // neighbour velocity
    kLaneSideX, kLaneSideY,      // unit vector towards the neighbour
    kLaneNormalX, kLaneNormalY,  // the side the pair agreed to pass on
    kLaneFieldCount
};

struct DetourCircleLanes {
    const double* data = nullptr;
    int count = 0;   // neighbours
    int padded = 0;  // count rounded up to a multiple of 4
};

// For the relative velocities base - v_neighbour (base = 2 v - v_agent): the
// earliest time of impact, no later than `horizon`, by DetourCrowd's rule
// (circle_time_of_impact in detour_sampling.cpp). Stops early, with a time
// below `stop_below`, once one is found.
using DetourImpactKernel = double (*)(const DetourCircleLanes& lanes, double base_x, double base_y,
                                      double horizon, double stop_below);

// For the same relative velocities, each neighbour's side term, clamped to
// [0, 1], in side[0, padded). Apart from the impacts: only a candidate that
// no impact drops needs them (a fifth of those the grid sampler gets this far).
using DetourSideKernel = void (*)(const DetourCircleLanes& lanes, double base_x, double base_y, double* side);

// What the distance terms of a candidate's penalty read besides the candidate.
struct DetourDistanceWeights {
    double desired_x, desired_y;    // the desired velocity
    double velocity_x, velocity_y;  // the current velocity
    double inv_max_speed;
    double weight_des_vel, weight_cur_vel;
};

// The distance terms of candidates (vx[i], vy[i]), i < count (a multiple of
// 4; the arrays are that long): vpen[i] = weight_des_vel * (|v - desired| *
// inv_max_speed) and vcpen[i] = weight_cur_vel * (|v - velocity| *
// inv_max_speed), as evaluate in detour_sampling.cpp computes them. They do
// not depend on the best penalty so far, so a whole row of the grid or level
// of the adaptive pattern is done at once, before the candidates are offered.
using DetourDistanceKernel = void (*)(const DetourDistanceWeights& w, const double* vx, const double* vy, int count,
                                      double* vpen, double* vcpen);

// The kernels of one SIMD level (maths/simd/simd_level.hpp), each giving the
// bits of the one-at-a-time code.
struct DetourKernels {
    DetourImpactKernel impacts;
    DetourSideKernel sides;
    DetourDistanceKernel distances;
};

// Those of the current simd_level().
const DetourKernels& detour_kernels();
const DetourKernels& detour_kernels(SimdLevel level);

// Storage for the lanes of one agent's neighbours: on the stack for up to
// 32 neighbours, on the heap beyond.
class DetourLaneBuffer {
public:
    // Sizes the buffer for n neighbours and pads it; fill with set().
    DetourCircleLanes reset(int n);
    void set(int i, DetourLaneField field, double value) { data_[field * padded_ + i] = value; }
    double* side() { return side_; }

private:
    static constexpr int kInline = 32;
    std::array<double, (kLaneFieldCount + 1) * kInline> inline_{};
    std::vector<double> heap_;
    double* data_ = inline_.data();
    double* side_ = nullptr;
    int padded_ = 0;
};

}  // namespace vosim
