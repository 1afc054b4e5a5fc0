#include "methods/avo/avo_envelope.hpp"

#include <cmath>
#include <cstring>

#include "methods/avo/avo_envelope_kernel.hpp"
#include "methods/avo/avo_geometry.hpp"

namespace vosim {

#if defined(VOSIM_HAVE_AVX2_KERNELS)
void avo_envelope_avx2(const avo::EnvelopeTimes& times, double px, double py, double vx, double vy, double r,
                       double* x, double* y);
void avo_bends_avx2(const double* x, const double* y, double left, double* bend, double* limit);
#endif

namespace avo {

static_assert(kEnvelopeSamples == static_cast<int>(kBoundarySamples) + 1);
static_assert(kEnvelopePadded % 4 == 0 && kEnvelopePadded >= kEnvelopeSamples);

void prepare_envelope_times(EnvelopeTimes& times, double dt, double tau, double delta) {
    // Compared by bits: a NaN key is recomputed every time, which is right.
    if (std::memcmp(&times.dt, &dt, sizeof dt) == 0 && std::memcmp(&times.tau, &tau, sizeof tau) == 0 &&
        std::memcmp(&times.delta, &delta, sizeof delta) == 0) {
        return;
    }
    times.dt = dt;
    times.tau = tau;
    times.delta = delta;
    for (int i = 0; i < kEnvelopePadded; ++i) {
        // As avo_half_plane's sample_time and envelope_point compute them.
        const int k = i < kEnvelopeSamples ? i : kEnvelopeSamples - 1;
        const double t = dt + static_cast<double>(k) * (tau - dt) / static_cast<double>(kBoundarySamples);
        const double e = std::exp(-t / delta) - 1.0;
        times.time[i] = t;
        times.terms[kTermNegE][i] = -e;
        times.terms[kTermRateV][i] = delta * e + (e + 1.0) * t;
        times.terms[kTermInv][i] = 1.0 / (t + delta * e);
        times.terms[kTermOffset][i] = delta + t / e;
        times.terms[kTermDeltaE][i] = delta * e;
    }
}

EnvelopeKernel envelope_kernel(SimdLevel level) {
    switch (level) {
#if defined(VOSIM_HAVE_AVX2_KERNELS)
        case SimdLevel::avx2: return &avo_envelope_avx2;
#endif
#if defined(__SSE2__)
        case SimdLevel::sse2: return &envelope_points<Pack2>;
#endif
        default: return &envelope_points<Pack1>;
    }
}

EnvelopeKernel envelope_kernel() { return envelope_kernel(simd_level()); }

BendKernel bend_kernel(SimdLevel level) {
    switch (level) {
#if defined(VOSIM_HAVE_AVX2_KERNELS)
        case SimdLevel::avx2: return &avo_bends_avx2;
#endif
#if defined(__SSE2__)
        case SimdLevel::sse2: return &envelope_bends<Pack2>;
#endif
        default: return &envelope_bends<Pack1>;
    }
}

BendKernel bend_kernel() { return bend_kernel(simd_level()); }

}  // namespace avo
}  // namespace vosim
