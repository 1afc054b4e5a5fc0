// Whether any of many values lies outside a closed range [lo, hi] (NaN
// does), for the per-step state check: with SSE2 (sse2.hpp) two values an
// instruction, else one by one; both give the same answer, being only tests.
#pragma once

#include <cstdint>

#include "maths/sse2.hpp"

namespace vosim {

inline bool outside_range(double v, double lo, double hi) { return !(v >= lo) || !(v <= hi); }

#if VOSIM_HAS_SSE2
// outside_range on both lanes: all ones where the value is outside (or NaN).
inline __m128d outside_pd(__m128d v, __m128d low, __m128d high) {
    return _mm_or_pd(_mm_cmpnge_pd(v, low), _mm_cmpnle_pd(v, high));
}
#endif

// Whether any of values[0, count) is outside [lo, hi].
template <bool sse2 = kSse2>
inline bool any_outside_range(const double* values, std::int64_t count, double lo, double hi) {
    std::int64_t m = 0;
    bool outside = false;
#if VOSIM_HAS_SSE2
    if constexpr (sse2) {
        const __m128d low = _mm_set1_pd(lo);
        const __m128d high = _mm_set1_pd(hi);
        __m128d lanes = _mm_setzero_pd();
        __m128d more_lanes = _mm_setzero_pd();
        for (; m + 4 <= count; m += 4) {
            const __m128d v = _mm_loadu_pd(values + m);
            const __m128d w = _mm_loadu_pd(values + m + 2);
            lanes = _mm_or_pd(lanes, outside_pd(v, low, high));
            more_lanes = _mm_or_pd(more_lanes, outside_pd(w, low, high));
        }
        for (; m + 2 <= count; m += 2) {
            const __m128d v = _mm_loadu_pd(values + m);
            lanes = _mm_or_pd(lanes, outside_pd(v, low, high));
        }
        outside = _mm_movemask_pd(_mm_or_pd(lanes, more_lanes)) != 0;
    }
#endif
    for (; m < count; ++m) outside |= outside_range(values[m], lo, hi);
    return outside;
}

// Whether, among the n agents whose selected[k] is `wanted`, any of their
// `width` values (values[width * k + d]) is outside [lo, hi].
template <int width, bool sse2 = kSse2>
inline bool any_outside_range_where(const double* values, const std::uint8_t* selected, bool wanted,
                                    std::int64_t n, double lo, double hi) {
    int outside = 0;
#if VOSIM_HAS_SSE2
    if constexpr (sse2 && width == 1) {
        // Two agents at a time: bit k of the mask is agent k's verdict.
        const __m128d low = _mm_set1_pd(lo);
        const __m128d high = _mm_set1_pd(hi);
        std::int64_t k = 0;
        for (; k + 2 <= n; k += 2) {
            const __m128d v = _mm_loadu_pd(values + k);
            const int bad = _mm_movemask_pd(outside_pd(v, low, high));
            const int chosen = static_cast<int>((selected[k] != 0) == wanted) |
                               (static_cast<int>((selected[k + 1] != 0) == wanted) << 1);
            outside |= bad & chosen;
        }
        if (k < n) outside |= static_cast<int>(outside_range(values[k], lo, hi)) & static_cast<int>((selected[k] != 0) == wanted);
        return outside != 0;
    }
    if constexpr (sse2 && (width == 2 || width == 3)) {
        const __m128d low = _mm_set1_pd(lo);
        const __m128d high = _mm_set1_pd(hi);
        for (std::int64_t k = 0; k < n; ++k) {
            __m128d v = _mm_loadu_pd(values + width * k);
            __m128d bad = outside_pd(v, low, high);
            if constexpr (width == 3) {
                v = _mm_set1_pd(values[width * k + 2]);
                bad = _mm_or_pd(bad, outside_pd(v, low, high));
            }
            outside |= static_cast<int>(_mm_movemask_pd(bad) != 0) & static_cast<int>((selected[k] != 0) == wanted);
        }
        return outside != 0;
    }
#endif
    for (std::int64_t k = 0; k < n; ++k) {
        int bad = 0;
        for (int d = 0; d < width; ++d) bad |= static_cast<int>(outside_range(values[width * k + d], lo, hi));
        outside |= bad & static_cast<int>((selected[k] != 0) == wanted);
    }
    return outside != 0;
}

}  // namespace vosim
