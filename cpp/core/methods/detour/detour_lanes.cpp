#include "methods/detour/detour_lanes.hpp"

#include <cmath>

#include "methods/detour/detour_lanes_kernel.hpp"

namespace vosim {

#if defined(VOSIM_HAVE_AVX2_KERNELS)
double detour_impacts_avx2(const DetourCircleLanes& lanes, double base_x, double base_y, double horizon,
                           double stop_below, double* side);
void detour_distances_avx2(const DetourDistanceWeights& w, const double* vx, const double* vy, int count,
                           double* vpen, double* vcpen);
#endif

DetourImpactKernel detour_impact_kernel(SimdLevel level) {
    switch (level) {
#if defined(VOSIM_HAVE_AVX2_KERNELS)
        case SimdLevel::avx2: return &detour_impacts_avx2;
#endif
#if defined(__SSE2__)
        case SimdLevel::sse2: return &detour_impacts<Pack2>;
#endif
        default: return &detour_impacts<Pack1>;
    }
}

DetourImpactKernel detour_impact_kernel() { return detour_impact_kernel(simd_level()); }

DetourDistanceKernel detour_distance_kernel(SimdLevel level) {
    switch (level) {
#if defined(VOSIM_HAVE_AVX2_KERNELS)
        case SimdLevel::avx2: return &detour_distances_avx2;
#endif
#if defined(__SSE2__)
        case SimdLevel::sse2: return &detour_distance_terms<Pack2>;
#endif
        default: return &detour_distance_terms<Pack1>;
    }
}

DetourDistanceKernel detour_distance_kernel() { return detour_distance_kernel(simd_level()); }

DetourCircleLanes DetourLaneBuffer::reset(int n) {
    padded_ = (n + 3) / 4 * 4;
    const std::size_t size = static_cast<std::size_t>(kLaneFieldCount + 1) * static_cast<std::size_t>(padded_);
    if (padded_ > kInline) {
        heap_.resize(size);
        data_ = heap_.data();
    } else {
        data_ = inline_.data();
    }
    side_ = data_ + kLaneFieldCount * padded_;
    // Pads: a gap of +inf is never reached, and zeros elsewhere keep every lane finite.
    for (int field = 0; field < kLaneFieldCount; ++field) {
        for (int i = n; i < padded_; ++i) data_[field * padded_ + i] = field == kLaneGap ? HUGE_VAL : 0.0;
    }
    return DetourCircleLanes{data_, n, padded_};
}

}  // namespace vosim
