// Whether the hand-written SSE2 paths are compiled in: on x86-64 (GCC, Clang,
// MSVC), where SSE2 is always present, so the portable build has it. GCC does
// not vectorise the loops they replace (comparisons of doubles counted as
// integers). Each such path has a plain twin that gives the same results
// (exact tests and counts, the same floating-point operations in the same
// order); the functions take `bool sse2 = kSse2` so that tests run both.
#pragma once

#if defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#define VOSIM_HAS_SSE2 1
#else
#define VOSIM_HAS_SSE2 0
#endif

namespace vosim {

inline constexpr bool kSse2 = VOSIM_HAS_SSE2 != 0;

}  // namespace vosim
