// The velocity obstacles of neighbours (VoConeKind::agent) laid out for the
// lane kernels (maths/simd): one array per field, padded to whole packs with
// cones nothing enters, so that a sample's earliest collision is found
// several neighbours at a time, with the same bits as one at a time.
#pragma once

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

VoCollisionKernel vo_collision_kernel();
VoCollisionKernel vo_collision_kernel(SimdLevel level);

// Storage for one agent's cones, reused from agent to agent.
class VoLaneBuffer {
public:
    VoConeLanes reset(int n);
    void set(int i, VoLaneField field, double value) { data_[static_cast<std::size_t>(field * padded_ + i)] = value; }

private:
    std::vector<double> data_;
    int padded_ = 0;
};

}  // namespace vosim
