#include "methods/detour/detour_lanes.hpp"

#include <cmath>

#include "methods/detour/detour_lanes_kernel.hpp"

namespace vosim {

#if defined(VOSIM_HAVE_AVX2_KERNELS)
extern const DetourKernels detour_kernels_avx2;  // detour_lanes_avx2.cpp
#endif

const DetourKernels& detour_kernels(SimdLevel level) {
    switch (level) {
#if defined(VOSIM_HAVE_AVX2_KERNELS)
        case SimdLevel::avx2: return detour_kernels_avx2;
#endif
#if defined(__SSE2__)
        case SimdLevel::sse2: {
            static const DetourKernels sse2{&detour_impacts<Pack2>, &detour_sides<Pack2>, &detour_distance_terms<Pack2>};
            return sse2;
        }
#endif
        default: {
            static const DetourKernels plain{&detour_impacts<Pack1>, &detour_sides<Pack1>,
                                             &detour_distance_terms<Pack1>};
            return plain;
        }
    }
}

const DetourKernels& detour_kernels() { return detour_kernels(simd_level()); }

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
