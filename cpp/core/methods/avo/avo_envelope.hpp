// The AVO's envelope (avo_geometry.hpp) sampled at all its times at once,
// several samples at a time on the lane kernels (maths/simd). The terms
// that depend only on the times and the acceleration interval are the same
// for every neighbour of an agent (and, with shared settings, for every
// agent), so they are computed once and kept: glibc's exp then runs 101
// times per setting instead of per neighbour. Every level performs the
// scalar envelope_point's IEEE operations in its order, so it gives its bits.
#pragma once

#include <limits>

#include "maths/simd/simd_level.hpp"

namespace vosim::avo {

// Repaired convexity test: a turn counts when its sine exceeds this.
constexpr double kRelativeTurn = 1e-9;

// 101 samples (kBoundarySamples + 1), padded to whole packs of four.
constexpr int kEnvelopeSamples = 101;
constexpr int kEnvelopePadded = 104;

// Per-sample terms of envelope_point, one array per term.
enum EnvelopeTerm : int {
    kTermNegE,    // -e,                        e = exp(-t / delta) - 1
    kTermRateV,   // delta e + (e + 1) t       (the centre's rate along v)
    kTermInv,     // 1 / (t + delta e)
    kTermOffset,  // delta + t / e              (the contact point's offset along the rate)
    kTermDeltaE,  // delta e
    kEnvelopeTermCount
};

struct EnvelopeTimes {
    // The key the terms were computed for (NaN: none yet).
    double dt = std::numeric_limits<double>::quiet_NaN();
    double tau = std::numeric_limits<double>::quiet_NaN();
    double delta = std::numeric_limits<double>::quiet_NaN();
    alignas(32) double terms[kEnvelopeTermCount][kEnvelopePadded] = {};
    double time[kEnvelopePadded] = {};  // the sample times themselves
};

// Recomputes times' terms unless they are already those of (dt, tau, delta).
void prepare_envelope_times(EnvelopeTimes& times, double dt, double tau, double delta);

// The envelope points of samples 0 .. kEnvelopePadded - 1 (the pads repeat
// the last sample) for relative position p, relative velocity v and signed
// combined radius r, written to x and y (kEnvelopePadded each).
using EnvelopeKernel = void (*)(const EnvelopeTimes& times, double px, double py, double vx, double vy, double r,
                                double* x, double* y);

// For the convexity test of the repaired rules: at each sample i >= 2 of the
// points x, y, the bend left * turn(point i, point i-1, point i-2) and its
// limit kRelativeTurn |point i - point i-2| |point i-1 - point i|, written
// to bend[i] and limit[i] (kEnvelopePadded each; entries 0 and 1 unwritten).
using BendKernel = void (*)(const double* x, const double* y, double left, double* bend, double* limit);

// The kernels of the current simd_level(), or of a given level.
EnvelopeKernel envelope_kernel();
EnvelopeKernel envelope_kernel(SimdLevel level);
BendKernel bend_kernel();
BendKernel bend_kernel(SimdLevel level);

}  // namespace vosim::avo
