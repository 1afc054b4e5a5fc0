// CounterRng's uniform draws (maths/counter_rng.hpp) several words at a time,
// for the lane kernels: UnitDraws<P>::at(z, stride) gives in lane i what
// unit_at gives for the stream word z + i * stride (mod 2^64), bit for bit.
// SSE2 and AVX2 have no 64-bit multiply, so each is made of three 32-bit
// ones; a 53-bit integer becomes a double exactly through two exact sums.
//
// Like pack.hpp, include this only in a kernel's per-level files: all here
// has internal linkage, and calls nothing inline with external linkage.
#pragma once

#include <cstdint>

#include "maths/counter_rng.hpp"
#include "maths/simd/pack.hpp"

namespace vosim {
namespace {

template <class P>
struct UnitDraws;

template <>
struct UnitDraws<Pack1> {
    static Pack1 at(std::uint64_t z, std::uint64_t /*stride*/) {
        z = (z ^ (z >> 30)) * kSplitmixMultiplier1;
        z = (z ^ (z >> 27)) * kSplitmixMultiplier2;
        z ^= z >> 31;
        return {static_cast<double>(z >> 11) * 0x1.0p-53};
    }
};

#if defined(__SSE2__)
template <>
struct UnitDraws<Pack2> {
    // a * b mod 2^64, lane by lane: lo(a) lo(b) + (hi(a) lo(b) + lo(a) hi(b)) 2^32.
    static __m128i times(__m128i a, std::uint64_t b) {
        const __m128i b_low = _mm_set1_epi64x(static_cast<long long>(b & 0xFFFFFFFFull));
        const __m128i b_high = _mm_set1_epi64x(static_cast<long long>(b >> 32));
        const __m128i cross = _mm_add_epi64(_mm_mul_epu32(_mm_srli_epi64(a, 32), b_low), _mm_mul_epu32(a, b_high));
        return _mm_add_epi64(_mm_mul_epu32(a, b_low), _mm_slli_epi64(cross, 32));
    }
    static Pack2 at(std::uint64_t z, std::uint64_t stride) {
        __m128i w = _mm_set_epi64x(static_cast<long long>(z + stride), static_cast<long long>(z));
        w = times(_mm_xor_si128(w, _mm_srli_epi64(w, 30)), kSplitmixMultiplier1);
        w = times(_mm_xor_si128(w, _mm_srli_epi64(w, 27)), kSplitmixMultiplier2);
        w = _mm_srli_epi64(_mm_xor_si128(w, _mm_srli_epi64(w, 31)), 11);
        // (2^84 + high 2^32) - (2^84) and (2^52 + low) - 2^52 are exact, and so is their sum (< 2^53).
        const __m128i low = _mm_or_si128(_mm_and_si128(w, _mm_set1_epi64x(0xFFFFFFFFll)),
                                         _mm_set1_epi64x(0x4330000000000000ll));
        const __m128i high = _mm_or_si128(_mm_srli_epi64(w, 32), _mm_set1_epi64x(0x4530000000000000ll));
        const __m128d value = _mm_add_pd(_mm_sub_pd(_mm_castsi128_pd(high), _mm_set1_pd(0x1.0p84)),
                                         _mm_sub_pd(_mm_castsi128_pd(low), _mm_set1_pd(0x1.0p52)));
        return {_mm_mul_pd(value, _mm_set1_pd(0x1.0p-53))};
    }
};
#endif

#if defined(__AVX2__)
template <>
struct UnitDraws<Pack4> {
    static __m256i times(__m256i a, std::uint64_t b) {
        const __m256i b_low = _mm256_set1_epi64x(static_cast<long long>(b & 0xFFFFFFFFull));
        const __m256i b_high = _mm256_set1_epi64x(static_cast<long long>(b >> 32));
        const __m256i cross =
            _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a, 32), b_low), _mm256_mul_epu32(a, b_high));
        return _mm256_add_epi64(_mm256_mul_epu32(a, b_low), _mm256_slli_epi64(cross, 32));
    }
    static Pack4 at(std::uint64_t z, std::uint64_t stride) {
        __m256i w = _mm256_set_epi64x(static_cast<long long>(z + 3 * stride), static_cast<long long>(z + 2 * stride),
                                      static_cast<long long>(z + stride), static_cast<long long>(z));
        w = times(_mm256_xor_si256(w, _mm256_srli_epi64(w, 30)), kSplitmixMultiplier1);
        w = times(_mm256_xor_si256(w, _mm256_srli_epi64(w, 27)), kSplitmixMultiplier2);
        w = _mm256_srli_epi64(_mm256_xor_si256(w, _mm256_srli_epi64(w, 31)), 11);
        const __m256i low = _mm256_or_si256(_mm256_and_si256(w, _mm256_set1_epi64x(0xFFFFFFFFll)),
                                            _mm256_set1_epi64x(0x4330000000000000ll));
        const __m256i high = _mm256_or_si256(_mm256_srli_epi64(w, 32), _mm256_set1_epi64x(0x4530000000000000ll));
        const __m256d value = _mm256_add_pd(_mm256_sub_pd(_mm256_castsi256_pd(high), _mm256_set1_pd(0x1.0p84)),
                                            _mm256_sub_pd(_mm256_castsi256_pd(low), _mm256_set1_pd(0x1.0p52)));
        return {_mm256_mul_pd(value, _mm256_set1_pd(0x1.0p-53))};
    }
};
#endif

}  // namespace
}  // namespace vosim
