// Packs of doubles for the lane kernels: Pack1 (plain double), Pack2 (SSE2)
// and Pack4 (AVX2, only in files compiled with -mavx2). A kernel written
// over a pack compiles to the same IEEE operations in the same order for
// every width, so every width gives the same bits.
//
// Include this only in a kernel's per-level files (*_lanes.cpp,
// *_lanes_avx2.cpp) and in the one-at-a-time code that runs a kernel's code
// on Pack1. Everything here has internal linkage, and the AVX2 files must
// call nothing inline with external linkage (no std::min, no Vec2): a copy
// compiled for AVX2 could otherwise be chosen by the linker for the whole
// library and fault on CPUs without AVX2.
#pragma once

#include <cmath>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace vosim {
namespace {

// Comparisons follow the SSE rules, which the kernels rely on: pick_less(a, b)
// is a < b ? a : b and pick_greater(a, b) is a > b ? a : b, so that std::min
// (b < a ? b : a) is pick_less(b, a), also for signed zeros.
struct Pack1 {
    static constexpr int width = 1;
    struct Mask { bool m; };
    double v;
    static Pack1 load(const double* p) { return {*p}; }
    static Pack1 set(double x) { return {x}; }
    void store(double* p) const { *p = v; }
    friend Pack1 operator+(Pack1 a, Pack1 b) { return {a.v + b.v}; }
    friend Pack1 operator-(Pack1 a, Pack1 b) { return {a.v - b.v}; }
    friend Pack1 operator*(Pack1 a, Pack1 b) { return {a.v * b.v}; }
    friend Pack1 operator/(Pack1 a, Pack1 b) { return {a.v / b.v}; }
    friend Pack1 sqrt(Pack1 a) { return {std::sqrt(a.v)}; }
    friend Pack1 abs(Pack1 a) { return {std::fabs(a.v)}; }
    friend Pack1 pick_less(Pack1 a, Pack1 b) { return {a.v < b.v ? a.v : b.v}; }
    friend Pack1 pick_greater(Pack1 a, Pack1 b) { return {a.v > b.v ? a.v : b.v}; }
    friend Mask operator<(Pack1 a, Pack1 b) { return {a.v < b.v}; }
    friend Mask operator>(Pack1 a, Pack1 b) { return {a.v > b.v}; }
    friend Mask operator<=(Pack1 a, Pack1 b) { return {a.v <= b.v}; }
    friend Mask operator>=(Pack1 a, Pack1 b) { return {a.v >= b.v}; }
    friend Mask both(Mask a, Mask b) { return {a.m && b.m}; }
    friend Pack1 select(Mask m, Pack1 yes, Pack1 no) { return m.m ? yes : no; }
    // Bit i set where lane i of the mask is.
    friend unsigned bits(Mask m) { return m.m ? 1u : 0u; }
    // The smallest lane (lanes holding NaN must have been masked out).
    double smallest() const { return v; }
};

#if defined(__SSE2__)
struct Pack2 {
    static constexpr int width = 2;
    struct Mask { __m128d m; };
    __m128d v;
    static Pack2 load(const double* p) { return {_mm_loadu_pd(p)}; }
    static Pack2 set(double x) { return {_mm_set1_pd(x)}; }
    void store(double* p) const { _mm_storeu_pd(p, v); }
    friend Pack2 operator+(Pack2 a, Pack2 b) { return {_mm_add_pd(a.v, b.v)}; }
    friend Pack2 operator-(Pack2 a, Pack2 b) { return {_mm_sub_pd(a.v, b.v)}; }
    friend Pack2 operator*(Pack2 a, Pack2 b) { return {_mm_mul_pd(a.v, b.v)}; }
    friend Pack2 operator/(Pack2 a, Pack2 b) { return {_mm_div_pd(a.v, b.v)}; }
    friend Pack2 sqrt(Pack2 a) { return {_mm_sqrt_pd(a.v)}; }
    friend Pack2 abs(Pack2 a) { return {_mm_andnot_pd(_mm_set1_pd(-0.0), a.v)}; }
    friend Pack2 pick_less(Pack2 a, Pack2 b) { return {_mm_min_pd(a.v, b.v)}; }
    friend Pack2 pick_greater(Pack2 a, Pack2 b) { return {_mm_max_pd(a.v, b.v)}; }
    friend Mask operator<(Pack2 a, Pack2 b) { return {_mm_cmplt_pd(a.v, b.v)}; }
    friend Mask operator>(Pack2 a, Pack2 b) { return {_mm_cmpgt_pd(a.v, b.v)}; }
    friend Mask operator<=(Pack2 a, Pack2 b) { return {_mm_cmple_pd(a.v, b.v)}; }
    friend Mask operator>=(Pack2 a, Pack2 b) { return {_mm_cmpge_pd(a.v, b.v)}; }
    friend Mask both(Mask a, Mask b) { return {_mm_and_pd(a.m, b.m)}; }
    friend Pack2 select(Mask m, Pack2 yes, Pack2 no) {
        return {_mm_or_pd(_mm_and_pd(m.m, yes.v), _mm_andnot_pd(m.m, no.v))};
    }
    friend unsigned bits(Mask m) { return static_cast<unsigned>(_mm_movemask_pd(m.m)); }
    double smallest() const {
        const __m128d high = _mm_unpackhi_pd(v, v);
        return _mm_cvtsd_f64(_mm_min_sd(v, high));
    }
};
#endif

#if defined(__AVX2__)
struct Pack4 {
    static constexpr int width = 4;
    struct Mask { __m256d m; };
    __m256d v;
    static Pack4 load(const double* p) { return {_mm256_loadu_pd(p)}; }
    static Pack4 set(double x) { return {_mm256_set1_pd(x)}; }
    void store(double* p) const { _mm256_storeu_pd(p, v); }
    friend Pack4 operator+(Pack4 a, Pack4 b) { return {_mm256_add_pd(a.v, b.v)}; }
    friend Pack4 operator-(Pack4 a, Pack4 b) { return {_mm256_sub_pd(a.v, b.v)}; }
    friend Pack4 operator*(Pack4 a, Pack4 b) { return {_mm256_mul_pd(a.v, b.v)}; }
    friend Pack4 operator/(Pack4 a, Pack4 b) { return {_mm256_div_pd(a.v, b.v)}; }
    friend Pack4 sqrt(Pack4 a) { return {_mm256_sqrt_pd(a.v)}; }
    friend Pack4 abs(Pack4 a) { return {_mm256_andnot_pd(_mm256_set1_pd(-0.0), a.v)}; }
    friend Pack4 pick_less(Pack4 a, Pack4 b) { return {_mm256_min_pd(a.v, b.v)}; }
    friend Pack4 pick_greater(Pack4 a, Pack4 b) { return {_mm256_max_pd(a.v, b.v)}; }
    friend Mask operator<(Pack4 a, Pack4 b) { return {_mm256_cmp_pd(a.v, b.v, _CMP_LT_OQ)}; }
    friend Mask operator>(Pack4 a, Pack4 b) { return {_mm256_cmp_pd(a.v, b.v, _CMP_GT_OQ)}; }
    friend Mask operator<=(Pack4 a, Pack4 b) { return {_mm256_cmp_pd(a.v, b.v, _CMP_LE_OQ)}; }
    friend Mask operator>=(Pack4 a, Pack4 b) { return {_mm256_cmp_pd(a.v, b.v, _CMP_GE_OQ)}; }
    friend Mask both(Mask a, Mask b) { return {_mm256_and_pd(a.m, b.m)}; }
    friend Pack4 select(Mask m, Pack4 yes, Pack4 no) { return {_mm256_blendv_pd(no.v, yes.v, m.m)}; }
    friend unsigned bits(Mask m) { return static_cast<unsigned>(_mm256_movemask_pd(m.m)); }
    double smallest() const {
        const __m128d low = _mm256_castpd256_pd128(v);
        const __m128d high = _mm256_extractf128_pd(v, 1);
        const __m128d pair = _mm_min_pd(low, high);
        return _mm_cvtsd_f64(_mm_min_sd(pair, _mm_unpackhi_pd(pair, pair)));
    }
};
#endif

}  // namespace
}  // namespace vosim
